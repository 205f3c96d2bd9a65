// Running a graph program's nodes in order over a batch of lanes: the buffers of one run (per
// node and port, numbers broadcast), which nodes an output needs, and the two paths made of
// them: points (double precision, in batches) and columns (x and z only).
#include <algorithm>
#include <vector>

#include "eval_parts.hpp"
#include "lod.hpp"

namespace isoterra::graph {
namespace eval {
void Workspace::run(int n, const NoiseSet& noise, const double* x, const double* y, const double* z, std::size_t count) {
    const Node& node = program_.nodes[static_cast<std::size_t>(n)];
    done_[static_cast<std::size_t>(n)] = pass_;
    if (node.grid_m > 0.0) {
        if (!on_grid(node.grid_m, x, z, count)) {
            std::vector<double*> out(static_cast<std::size_t>(node.ports));
            for (int port = 0; port < node.ports; ++port) out[static_cast<std::size_t>(port)] = buffer(n, port);
            run_gridded(n, noise, x, z, count, out.data());
            return;
        }
        // Every lane a grid node: its inputs here (those not run yet), then as any node.
        for (const int k : needed_by(program_, node.in))
            if (done_[static_cast<std::size_t>(k)] != pass_) run(k, noise, x, y, z, count);
    }
    inputs_.resize(node.in.size());
    for (std::size_t i = 0; i < node.in.size(); ++i) inputs_[i] = operand(n, i);
    double* out[kMaxPorts] = {};
    for (int port = 0; port < node.ports; ++port) out[port] = buffer(n, port);
    run_node(noise, node, inputs_.data(), out, x, y, z, count);
    // What the lanes' level cannot show of it (`detail_m`) gives way to its `far` value.
    if (lod_.weight && detail_dropped(node, lod_.spacing_m)) blend_to_far(out[0], lod_.weight_of(n), count, node.far);
}

std::vector<int> needed_by(const Program& program, const std::vector<Operand>& outputs) {
    std::vector<bool> need(program.nodes.size(), false);
    for (const Operand& output : outputs)
        if (!output.is_constant()) need[static_cast<std::size_t>(output.node)] = true;
    for (std::size_t n = program.nodes.size(); n-- > 0;) {
        if (!need[n] || program.nodes[n].grid_m > 0.0) continue;
        for (const Operand& in : program.nodes[n].in)
            if (!in.is_constant()) need[static_cast<std::size_t>(in.node)] = true;
    }
    std::vector<int> list;
    for (std::size_t n = 0; n < need.size(); ++n)
        if (need[n] && !program.nodes[n].folded) list.push_back(static_cast<int>(n));
    return list;
}
std::vector<int> needed_by(const Program& program, const Operand& output) { return needed_by(program, std::vector<Operand>{output}); }

}  // namespace eval

namespace {

// The nodes `outputs` need, following input i of node n only where follow(n, i).
template <class Follow>
std::vector<bool> mark_needed(const Program& program, const std::vector<Operand>& outputs, Follow follow) {
    std::vector<bool> need(program.nodes.size(), false);
    for (const Operand& output : outputs)
        if (!output.is_constant()) need[static_cast<std::size_t>(output.node)] = true;
    for (std::size_t n = program.nodes.size(); n-- > 0;) {
        if (!need[n]) continue;
        const Node& node = program.nodes[n];
        for (std::size_t i = 0; i < node.in.size(); ++i)
            if (!node.in[i].is_constant() && follow(n, i)) need[static_cast<std::size_t>(node.in[i].node)] = true;
    }
    return need;
}

}  // namespace

std::vector<bool> needed_mask(const Program& program, const Operand& output, int cut, int slot) {
    return needed_mask(program, std::vector<Operand>{output}, cut, slot);
}

std::vector<bool> needed_mask(const Program& program, const std::vector<Operand>& outputs, int cut, int slot) {
    return mark_needed(program, outputs,
                       [&](std::size_t n, std::size_t i) { return !(static_cast<int>(n) == cut && static_cast<int>(i) == slot); });
}

std::vector<bool> needed_mask(const Program& program, const Operand& output, const std::vector<bool>& opaque) {
    return mark_needed(program, {output}, [&](std::size_t n, std::size_t) { return !opaque[n]; });
}

void run_points(const Program& program, const NoiseSet& noise, const glm::dvec3* points, std::size_t count, const Operand& output,
                double* out) {
    if (output.is_constant()) {
        std::fill(out, out + count, output.constant);
        return;
    }
    constexpr std::size_t kBatch = 256;
    const std::vector<int> order = eval::needed_by(program, output);
    eval::Workspace work(program, kBatch, eval::Path::points);
    double xs[kBatch], ys[kBatch], zs[kBatch];
    for (std::size_t start = 0; start < count; start += kBatch) {
        const std::size_t n = std::min(kBatch, count - start);
        for (std::size_t i = 0; i < n; ++i) xs[i] = points[start + i].x, ys[i] = points[start + i].y, zs[i] = points[start + i].z;
        work.begin_pass();
        for (const int node : order) work.run(node, noise, xs, ys, zs, n);
        const double* result = work.buffer(output.node, output.port);
        std::copy(result, result + n, out + start);
    }
}

void run_columns(const Program& program, const NoiseSet& noise, const double* xs, const double* zs, std::size_t count,
                 const Operand& output, double* out, const LodLanes& lod) {
    if (output.is_constant()) {
        std::fill(out, out + count, output.constant);
        return;
    }
    eval::Workspace work(program, count);
    work.set_lod(lod);
    for (const int node : eval::needed_by(program, output)) work.run(node, noise, xs, nullptr, zs, count);
    const double* result = work.buffer(output.node, output.port);
    std::copy(result, result + count, out);
}

}  // namespace isoterra::graph
