// The evaluator's dispatch: each node is one loop over its lanes (a buffer per output), run
// by its row of the node table (nodes/table.hpp), once per node run, never per lane; a
// constant node's value, and what counts as noise.
#include <vector>

#include "eval_parts.hpp"
#include "field/nodes/table.hpp"

namespace isoterra::graph {

const double* coordinate(const Node& node, const Lanes& l, int axis_slot, const double* position) {
    return node.coordinate_default[static_cast<std::size_t>(axis_slot)] ? position : l.in[axis_slot];
}

namespace eval {

void evaluate(const Node& node, const Lanes& l, Path path) {
    if (!node.kind->pointwise) return node.kind->run(node, l);
    const std::size_t in = node.in.size();
    pointwise_loop(node, path)(
        node, {in > 0 ? l.in[0] : nullptr, in > 1 ? l.in[1] : nullptr, in > 2 ? l.in[2] : nullptr, l.x, l.y, l.z, l.out[0], l.count});
}

bool is_pointwise(const Node& node) { return node.kind->pointwise != nullptr; }

PointwiseLoop pointwise_loop(const Node& node, Path path) {
    return path == Path::lattice && node.kind->lattice_pointwise ? node.kind->lattice_pointwise : node.kind->pointwise;
}

void Workspace::run_node(const NoiseSet& noise, const Node& node, const double* const* in, double* const* out, const double* x,
                         const double* y, const double* z, std::size_t count) const {
    Lanes l;
    l.in = in;
    for (int port = 0; port < node.ports; ++port) l.out[port] = out[port];
    l.x = x, l.y = y, l.z = z;
    l.count = count;
    l.ports_read = node.ports_read;
    l.program = &program_;
    l.noise = &noise;
    l.lod = lod_;
    evaluate(node, l, path_);
}

}  // namespace eval

bool is_noise(const Node& node) { return node.kind->noise; }

double evaluate_constant(const Node& node) {
    std::vector<double> inputs(node.in.size());
    std::vector<const double*> lanes(node.in.size());
    for (std::size_t i = 0; i < node.in.size(); ++i) inputs[i] = node.in[i].constant, lanes[i] = &inputs[i];
    double out = 0.0;
    Lanes l;
    l.in = lanes.data();
    l.out[0] = &out;
    l.count = 1;
    eval::evaluate(node, l, eval::Path::points);  // folded as the point path folds it
    return out;
}

}  // namespace isoterra::graph
