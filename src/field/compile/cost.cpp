// What one sample of a graph costs, in node runs from a cold start, and the bound on it.
// Most nodes run once a sample; a node that reads an input at other points (curvature at
// four neighbours, drainage at its network's points) runs that input's whole cone again for
// each, and a node on a grid (`grid_m`) runs with its inputs at up to four grid nodes. So a
// chain or a nest of them multiplies, and a small file could need months for one sample:
// such a graph is refused here, as nesting and size are when it is read.
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "compile_parts.hpp"

namespace isoterra::graph::compiler {
namespace {

// The inputs of `node` read at other points than the sample's (InputKind::field).
std::vector<Operand> field_inputs(const Node& node) {
    std::vector<Operand> out;
    std::size_t slot = 0;  // value-like inputs take one slot of Node::in each, in the table's order
    for (const InputSpec& spec : find_node_type(node.type)->inputs) {
        if (spec.kind == InputKind::knot_values) slot += node.knots.size();
        if (spec.kind != InputKind::value && spec.kind != InputKind::coordinate && spec.kind != InputKind::field) continue;
        const Operand& in = node.in[slot++];
        if (spec.kind == InputKind::field && !in.is_constant()) out.push_back(in);
    }
    return out;
}

// The points at which `node` reads its field inputs for one sample, beyond the sample's own.
double resampled_points(const Node& node) { return node.kind->reads_per_sample ? node.kind->reads_per_sample(node) : 0.0; }

// Sums the cost of every node that `roots` reach, each once (a pass runs a node once however
// many users read it); stops early once the sum passes `stop`.
class ConeSum {
public:
    explicit ConeSum(const Program& program) : program_(program), seen_(program.nodes.size(), 0) {}

    double operator()(const std::vector<Operand>& roots, const std::vector<double>& cost, double stop) {
        ++stamp_;
        stack_.clear();
        for (const Operand& r : roots) push(r);
        double sum = 0.0;
        while (!stack_.empty() && sum <= stop) {
            const Node& node = program_.nodes[static_cast<std::size_t>(stack_.back())];
            sum += cost[static_cast<std::size_t>(stack_.back())];
            ++visits_;
            stack_.pop_back();
            for (const Operand& in : node.in) push(in);
        }
        return sum;
    }
    // Nodes visited so far, over every call.
    double visits() const { return visits_; }

private:
    void push(const Operand& op) {
        if (op.is_constant() || seen_[static_cast<std::size_t>(op.node)] == stamp_) return;
        seen_[static_cast<std::size_t>(op.node)] = stamp_;
        stack_.push_back(op.node);
    }

    const Program& program_;
    std::vector<unsigned> seen_;
    std::vector<int> stack_;
    unsigned stamp_ = 0;
    double visits_ = 0.0;
};

[[noreturn]] void refuse(const Program& program, const Node& node, double cost, const std::string& why) {
    throw GraphError(
        fmt::format("{}: node '{}': one sample costs at least {} node runs{}, more than the {:.0e} a graph may cost "
                    "(a chain or nest of nodes that read their input at other points multiplies)",
                    at_line(program.source, node.line), node.id, graph_cost_text(cost), why, kGraphCostLimit));
}

}  // namespace

void check_cost(Program& program) {
    // A node's own cost: 1, plus its field inputs' cones again at each point it reads them;
    // on a grid, all of that and its inputs' cones at four grid nodes. Nodes come after
    // their inputs, so every cone summed is already costed.
    std::vector<double> cost(program.nodes.size(), 0.0);
    ConeSum cone(program);
    for (std::size_t n = 0; n < program.nodes.size(); ++n) {
        const Node& node = program.nodes[n];
        if (node.folded) continue;
        double own = 1.0;
        if (const double points = resampled_points(node); points > 0.0) {
            own += points * cone(field_inputs(node), cost, kGraphCostLimit / points);
            if (own > kGraphCostLimit)
                refuse(program, node, own, fmt::format(" ({} reads its input at {:.0f} points a sample)", node.type, points));
        }
        if (node.grid_m > 0.0) {
            own = 4.0 * (own + cone(node.in, cost, kGraphCostLimit / 4.0));
            if (own > kGraphCostLimit) refuse(program, node, own, " (on a grid, it runs with its inputs at four grid nodes)");
        }
        cost[n] = own;
        // Each node a cone visits adds at least 4 (the points or grid nodes it is read at) to
        // some output's cost, so past this many visits one of the five outputs passes the
        // limit: refused here, so that working the cost out stays short too.
        if (cone.visits() > 1.25 * kGraphCostLimit) refuse(program, node, 0.8 * cone.visits(), " (counting every output)");
    }
    const Operand* outputs[] = {&program.sdf, &program.ground, &program.water, &program.snow_line, &program.scree};
    for (std::size_t o = 0; o < std::size(outputs); ++o) {
        const Operand& out = *outputs[o];
        const double c = out.is_constant() ? 0.0 : cone({out}, cost, kGraphCostLimit);
        if (c > kGraphCostLimit) refuse(program, program.nodes[static_cast<std::size_t>(out.node)], c, " (with the nodes it reads)");
        program.output_cost[o] = c;
    }
}

}  // namespace isoterra::graph::compiler

namespace isoterra {

std::string graph_cost_text(double runs) { return runs < 1e6 ? fmt::format("{:.0f}", runs) : fmt::format("{:.2g}", runs); }

}  // namespace isoterra
