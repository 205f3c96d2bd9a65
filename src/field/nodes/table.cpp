// The node table put together from its families (nodes/table.hpp), and the inputs as rows
// write them. Ranges keep every value finite for finite inputs: scales as the presets allow
// them, octave settings as the presets', blend widths and steps positive.
#include "table.hpp"

#include <algorithm>
#include <cstring>

namespace isoterra::graph {

namespace rows {

InputSpec value(const char* name, bool required, double fallback) {
    return {name, InputKind::value, required, fallback, -kInf, kInf, false, false};
}
InputSpec coordinate(const char* name) { return {name, InputKind::coordinate, false, 0.0, -kInf, kInf, false, false}; }
InputSpec number(const char* name, bool required, double fallback, double lo, double hi, bool lo_open, bool hi_open) {
    return {name, InputKind::number, required, fallback, lo, hi, lo_open, hi_open};
}
InputSpec point(InputKind kind, const char* name, bool required, double lo, double hi) {
    return {name, kind, required, 0.0, lo, hi, false, false};
}
InputSpec scale(const char* name, double fallback) { return number(name, false, fallback, 0.1, 1e7); }
InputSpec field(const char* name, bool required, double fallback) {
    return {name, InputKind::field, required, fallback, -kInf, kInf, false, false};
}
InputSpec flavour() { return {"noise", InputKind::flavour, false, 0.0, 0.0, 0.0, false, false}; }
std::vector<InputSpec> fbm_inputs() {
    return {{"octaves", InputKind::octaves, false, 5, 1, 12, false, false},
            {"lacunarity", InputKind::lacunarity, false, 2.0, 1, 4, true, false},
            {"gain", InputKind::gain, false, 0.5, 0, 1, true, true},
            {"amplitude", InputKind::amplitude, false, 0.5, 0, 1e4, true, false}};
}
std::vector<InputSpec> join(std::vector<InputSpec> a, const std::vector<InputSpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace rows

const std::vector<NodeType>& node_types() {
    static const std::vector<NodeType> types = [] {
        std::vector<NodeFamily> families = node_families();
        std::stable_sort(families.begin(), families.end(), [](const NodeFamily& a, const NodeFamily& b) { return a.rank < b.rank; });
        std::vector<NodeType> all;
        for (NodeFamily& f : families) all.insert(all.end(), f.types.begin(), f.types.end());
        return all;
    }();
    return types;
}

int port_count(const NodeType& type) {
    return 1 + static_cast<int>(std::count(type.outputs, type.outputs + std::strlen(type.outputs), ','));
}

std::vector<std::string> port_names(const NodeType& type) {
    std::vector<std::string> names;
    const std::string all = type.outputs;
    for (std::size_t start = 0; start <= all.size();) {
        const std::size_t end = std::min(all.find(',', start), all.size());
        names.push_back(all.substr(start, end - start));
        start = end + 1;
    }
    return names;
}

const NodeType* find_node_type(const std::string& name) {
    for (const NodeType& t : node_types())
        if (name == t.name) return &t;
    return nullptr;
}

bool Node::is(const char* type_name) const { return kind && std::strcmp(kind->name, type_name) == 0; }

bool is_lattice_noise(const Node& node) {
    const LatticeKernel k = node.kind->lattice;
    return (k == LatticeKernel::noise || (k == LatticeKernel::fbm && node.fast_noise)) && !node.folded && node.coordinate_default[0] &&
           node.coordinate_default[1] && node.coordinate_default[2];
}

}  // namespace isoterra::graph
