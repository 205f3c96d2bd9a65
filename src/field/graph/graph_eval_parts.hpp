// The evaluator's parts (internal to field/graph/): one node run over its lanes
// (graph_eval.cpp), the buffers of a run and the nodes an output needs (graph_workspace.cpp),
// a node run on a coarser global grid and interpolated (graph_gridded.cpp). The point and
// column paths (graph_workspace.cpp) and the lattice path (graph_lattice.cpp) are made of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph_eval.hpp"
#include "graph_program.hpp"

namespace isoterra::graph::eval {

// Runs `node` over the lanes `l` (its table's formula, or its landform's function).
void evaluate(const Node& node, const NoiseSet* noise, const Lanes& l);
// Runs `node` of `program` over `count` lanes at x, y, z (y null for columns): its inputs'
// lanes `in` (one per input), its outputs `out` (one per port).
void run_node(const Program& program, const NoiseSet& noise, const Node& node, const double* const* in, double* const* out, const double* x,
              const double* y, const double* z, std::size_t count, bool lattice);

// True for a node of x and z only (run once per column of a lattice).
inline bool is_column(const Node& node) { return !(node.axes & kY); }

// The nodes `outputs` need that are run (not folded), in order; a node run on a grid reads
// its inputs at the grid's nodes itself, so what only it reads is not run at the lanes.
std::vector<int> needed_by(const Program& program, const std::vector<Operand>& outputs);
std::vector<int> needed_by(const Program& program, const Operand& output);

// True when every lane lies on a node of the grid of step g: a node on that grid runs there
// as any other (its inputs read at those very points).
bool on_grid(double g, const double* x, const double* z, std::size_t count);
// Node `n` (grid_m > 0) at `count` lanes, through the nodes of its grid around them.
void run_gridded(const Program& program, const NoiseSet& noise, int n, const double* x, const double* z, std::size_t count,
                 double* const* out, bool lattice);

// Buffers for one run: per node and port, `lanes` doubles; constants broadcast.
class Workspace {
public:
    Workspace(const Program& program, std::size_t lanes) : program_(program), lanes_(lanes) {
        buffers_.resize(program.nodes.size() * kMaxPorts);
        constants_.resize(program.nodes.size());
        done_.assign(program.nodes.size(), 0);
    }
    // A new set of lanes (positions): what was run before is stale.
    void begin_pass() { ++pass_; }
    double* buffer(int node, int port) {
        std::vector<double>& b = buffers_[static_cast<std::size_t>(node) * kMaxPorts + static_cast<std::size_t>(port)];
        b.resize(lanes_);
        return b.data();
    }
    // The lanes of input `i` of node `n`: its source's buffer, or the number repeated (filled
    // once per workspace: a program's numbers never change).
    const double* operand(int n, std::size_t i) {
        const Operand& op = program_.nodes[static_cast<std::size_t>(n)].in[i];
        if (!op.is_constant()) return buffer(op.node, op.port);
        std::vector<std::vector<double>>& per_input = constants_[static_cast<std::size_t>(n)];
        if (per_input.size() <= i) per_input.resize(i + 1);
        if (per_input[i].empty()) per_input[i].assign(lanes_, op.constant);
        return per_input[i].data();
    }
    // Runs node `n` over the first `count` lanes.
    void run(int n, const NoiseSet& noise, const double* x, const double* y, const double* z, std::size_t count, bool lattice);

private:
    const Program& program_;
    std::size_t lanes_;
    std::vector<std::vector<double>> buffers_;
    std::vector<std::vector<std::vector<double>>> constants_;
    std::vector<const double*> inputs_;
    std::vector<std::uint32_t> done_;  // per node: the pass it last ran in
    std::uint32_t pass_ = 1;
};

}  // namespace isoterra::graph::eval
