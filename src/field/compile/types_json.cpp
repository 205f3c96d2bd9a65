// `graph types --json`: the node table as data, for the generated node reference
// (docs/reference/nodes.md) and for tools outside the project that write graphs.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "field/nodes/table.hpp"
#include "isoterra/graph.hpp"

namespace isoterra {
namespace {

// What a user writes for an input of this kind, in words.
const char* kind_text(graph::InputKind kind) {
    switch (kind) {
        case graph::InputKind::value: return "node or number";
        case graph::InputKind::coordinate: return "node or number; absent: the sample's own coordinate";
        case graph::InputKind::number:
        case graph::InputKind::lacunarity:
        case graph::InputKind::gain:
        case graph::InputKind::amplitude: return "number";
        case graph::InputKind::point2: return "[a, b]";
        case graph::InputKind::point3: return "[a, b, c]";
        case graph::InputKind::knots: return "[[x, y], ...]";
        case graph::InputKind::octaves: return "integer";
        case graph::InputKind::file: return "path, relative to the graph file";
        case graph::InputKind::field: return "node or number, read at other points too (x and z only)";
        case graph::InputKind::knot_values: return "[[x, y], ...], y a number or a node";
        case graph::InputKind::flavour: return "\"seed\" or \"fast\"; absent: the graph's `noise`";
    }
    return "";
}

bool has_number_range(graph::InputKind kind) {
    using K = graph::InputKind;
    return kind == K::number || kind == K::octaves || kind == K::lacunarity || kind == K::gain || kind == K::amplitude ||
           kind == K::point2 || kind == K::point3;
}

// A bound as JSON: a number, or null for an infinite one.
nlohmann::ordered_json bound(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(); }

nlohmann::ordered_json input_json(const graph::NodeType& type, const graph::InputSpec& s) {
    nlohmann::ordered_json in;
    const std::string name = s.name;
    in["name"] = name;
    in["doc"] = graph::input_doc(type, s);
    in["kind"] = kind_text(s.kind);
    in["required"] = s.required;
    // The row's unit, or metres by the project's naming rule: a key ending in _m is a length.
    in["unit"] = s.unit ? s.unit : name.size() > 2 && name.compare(name.size() - 2, 2, "_m") == 0 ? "m" : "";
    const bool numeric = has_number_range(s.kind);
    // A default is a number: the points, paths, flavours and coordinates say in `kind` what
    // their absence means.
    using K = graph::InputKind;
    const bool scalar = numeric ? s.kind != K::point2 && s.kind != K::point3 : s.kind == K::value || s.kind == K::field;
    in["default"] = scalar && !s.required && std::isfinite(s.fallback) ? nlohmann::ordered_json(s.fallback) : nlohmann::ordered_json();
    if (numeric) {
        in["min"] = bound(s.lo);
        in["max"] = bound(s.hi);
        in["min_open"] = s.lo_open;
        in["max_open"] = s.hi_open;
    }
    return in;
}

}  // namespace

std::string describe_graph_node_types_json() {
    nlohmann::ordered_json types = nlohmann::ordered_json::array();
    for (const graph::NodeType& t : graph::node_types()) {
        nlohmann::ordered_json type;
        type["name"] = t.name;
        type["formula"] = t.formula;
        nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
        for (const std::string& port : graph::port_names(t))
            if (!port.empty()) outputs.push_back(port);
        type["outputs"] = outputs;
        nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
        for (const graph::InputSpec& s : t.inputs) inputs.push_back(input_json(t, s));
        type["inputs"] = inputs;
        types.push_back(type);
    }
    nlohmann::ordered_json out;
    out["node_types"] = types;
    out["keys_any_node_takes"] = graph_node_type_notes();
    return out.dump(1) + "\n";
}

}  // namespace isoterra
