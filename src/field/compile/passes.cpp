// The passes over a compiled graph program, after its nodes are in order: what each node
// depends on (so the column part runs once per column), the checks that what is read as a
// function of x and z is one, constant arithmetic folded, and which outputs of each node
// something reads.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compile_parts.hpp"
#include "field/run/eval.hpp"

namespace isoterra::graph::compiler {
namespace {

// The column outputs must not depend on y: name the node through which one does.
void check_column_output(const Program& program, const Operand& output, const char* name) {
    if (output.is_constant()) return;
    const Node* culprit = &program.nodes[static_cast<std::size_t>(output.node)];
    if (!(culprit->axes & kY)) return;
    std::string path = culprit->id;
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (const Operand& in : culprit->in)
            if (!in.is_constant() && (program.nodes[static_cast<std::size_t>(in.node)].axes & kY)) {
                culprit = &program.nodes[static_cast<std::size_t>(in.node)];
                path += " -> " + culprit->id;
                deeper = true;
                break;
            }
    }
    throw GraphError(
        fmt::format("{}: node '{}': output '{}' depends on y through node '{}' ({}); the {} is a "
                    "function of x and z only",
                    at_line(program.source, culprit->line), program.nodes[static_cast<std::size_t>(output.node)].id, name, culprit->id,
                    path, std::string(name) == "snow_line" ? "snow line" : name));
}

}  // namespace

// What each node depends on: its inputs, its row's own axes and its absent coordinates.
void find_axes(Program& program) {
    for (Node& node : program.nodes) {
        unsigned axes = kNone;
        for (const Operand& in : node.in)
            if (!in.is_constant()) axes |= program.nodes[static_cast<std::size_t>(in.node)].axes;
        axes |= node.kind->axes;
        // An absent coordinate is the sample's own: its axis.
        std::size_t slot = 0;
        for (const InputSpec& spec : node.kind->inputs)
            if (spec.kind == InputKind::coordinate && node.coordinate_default[slot++])
                axes |= spec.name[0] == 'x' ? kX : spec.name[0] == 'y' ? kY : kZ;
        node.axes = axes;
    }
}

// A node run on a grid reads its inputs at the grid's nodes: neither may depend on y.
// A node on a grid is interpolated the same at every level: not with `lod` or `detail_m`.
void check_grids(const Program& program) {
    for (const Node& node : program.nodes) {
        if (node.grid_m > 0.0 && (node.lod || node.detail_m > 0.0))
            throw GraphError(
                fmt::format("{}: node '{}': input 'grid_m' does not go with '{}': a node on a grid is "
                            "interpolated between its nodes at every level",
                            at_line(program.source, node.line), node.id, node.lod ? "lod" : "detail_m"));
        if (node.grid_m > 0.0 && (node.axes & kY))
            throw GraphError(
                fmt::format("{}: node '{}': input 'grid_m': the node depends on y; only a node of x and z may run "
                            "on a grid",
                            at_line(program.source, node.line), node.id));
    }
}

// A node left out deep under the ground (`depth_m`) needs the ground, a y to be deep at, and
// runs per sample (a 3D noise runs on the whole lattice before the depth is known).
void check_depths(const Program& program) {
    for (const Node& node : program.nodes) {
        if (node.depth_m <= 0.0) continue;
        const char* why = !program.has_ground      ? "the graph has no 'ground' output to measure the depth from"
                          : !(node.axes & kY)      ? "the node depends on x and z only, not on the depth"
                          : is_lattice_noise(node) ? "a 3D noise runs over the whole lattice; give it to a node that reads the noise"
                                                   : nullptr;
        if (why) throw GraphError(fmt::format("{}: node '{}': input 'depth_m': {}", at_line(program.source, node.line), node.id, why));
    }
}

// Inputs read at other points than the sample's must not depend on y.
void check_field_inputs(const Program& program) {
    for (const Node& node : program.nodes) {
        std::size_t slot = 0;  // value-like inputs take one slot of Node::in each, in the table's order
        for (const InputSpec& spec : find_node_type(node.type)->inputs) {
            if (spec.kind == InputKind::knot_values) slot += node.knots.size();
            if (spec.kind != InputKind::value && spec.kind != InputKind::coordinate && spec.kind != InputKind::field) continue;
            const Operand& in = node.in[slot++];
            if (spec.kind != InputKind::field || in.is_constant()) continue;
            const Node& source = program.nodes[static_cast<std::size_t>(in.node)];
            if (source.axes & kY)
                throw GraphError(
                    fmt::format("{}: node '{}': input '{}': node '{}' depends on y; this input is read at other "
                                "points of the ground and must be a function of x and z only",
                                at_line(program.source, node.line), node.id, spec.name, source.id));
        }
    }
}

void check_column_outputs(const Program& program) {
    check_column_output(program, program.ground, "ground");
    check_column_output(program, program.water, "water");
    check_column_output(program, program.snow_line, "snow_line");
    check_column_output(program, program.scree, "scree");
}

// Nodes that depend on nothing are evaluated once, here; their users read the number.
void fold_constants(Program& program) {
    std::vector<double> folded(program.nodes.size(), 0.0);
    std::vector<bool> is_folded(program.nodes.size(), false);
    const auto rewrite = [&](Operand& op) {
        if (!op.is_constant() && is_folded[static_cast<std::size_t>(op.node)])
            op = Operand{-1, 0, folded[static_cast<std::size_t>(op.node)]};
    };
    for (std::size_t n = 0; n < program.nodes.size(); ++n) {
        Node& node = program.nodes[n];
        for (Operand& in : node.in) rewrite(in);
        // Only nodes whose inputs are all numbers by now: a noise of constant coordinates
        // depends on nothing either, but is not folded, and its users read its lanes.
        const bool all_numbers = std::all_of(node.in.begin(), node.in.end(), [](const Operand& in) { return in.is_constant(); });
        if (node.axes != kNone || node.ports != 1 || is_noise(node) || !all_numbers) continue;
        folded[n] = evaluate_constant(node);
        is_folded[n] = node.folded = true;
    }
    for (Operand* output : {&program.sdf, &program.ground, &program.water, &program.snow_line, &program.scree}) rewrite(*output);
}

// Which outputs of each node something reads: a node with several may skip the others.
void find_ports_read(Program& program) {
    for (Node& node : program.nodes) node.ports_read = 0;
    const auto read = [&](const Operand& op) {
        if (!op.is_constant()) program.nodes[static_cast<std::size_t>(op.node)].ports_read |= 1u << op.port;
    };
    for (const Node& node : program.nodes)
        for (const Operand& in : node.in) read(in);
    for (const Operand* output : {&program.sdf, &program.ground, &program.water, &program.snow_line, &program.scree}) read(*output);
}

}  // namespace isoterra::graph::compiler
