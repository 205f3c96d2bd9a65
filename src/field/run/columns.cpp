// The column part of a graph's lattice path: every column node the sdf and the column outputs
// need, once per (x, z) column of a lattice (a World column's survey keeps it for its chunks),
// masked sides where their mask is 0 skipped (run/column_masks.hpp), `lod` noises
// simplified inside World columns (run/lod.hpp); and which nodes run per column or per sample.
#include <algorithm>
#include <cmath>
#include <vector>

#include "column_masks.hpp"
#include "eval_parts.hpp"
#include "lattice_parts.hpp"
#include "lod.hpp"

namespace isoterra::graph {

// The sdf's nodes a lattice runs once per column (`column` true) or per sample, in order.
std::vector<int> sdf_nodes(const Program& program, bool column) {
    std::vector<int> nodes;
    for (const int n : eval::needed_by(program, program.sdf))
        if (eval::is_column(program.nodes[static_cast<std::size_t>(n)]) == column) nodes.push_back(n);
    return nodes;
}

// The column outputs a graph has (ground, water, snow line, scree).
std::vector<Operand> column_outputs(const Program& program) {
    std::vector<Operand> out;
    for (const Operand* o : {&program.ground, &program.water, &program.snow_line, &program.scree})
        if (!o->is_constant() || !std::isnan(o->constant)) out.push_back(*o);
    return out;
}

// The nodes whose values the per-sample nodes `samples` read at every sample: their inputs,
// the gates' deciding sides, and the sdf itself.
std::vector<bool> read_per_sample(const Program& program, const std::vector<int>& samples) {
    std::vector<bool> read(program.nodes.size(), false);
    for (const int n : samples)
        for (const Operand& in : program.nodes[static_cast<std::size_t>(n)].in)
            if (!in.is_constant()) read[static_cast<std::size_t>(in.node)] = true;
    for (const Gate& g : program.gates) {
        const Operand& other = program.nodes[static_cast<std::size_t>(g.guard)].in[static_cast<std::size_t>(1 - g.side)];
        read[static_cast<std::size_t>(other.node)] = true;
    }
    if (!program.sdf.is_constant()) read[static_cast<std::size_t>(program.sdf.node)] = true;
    return read;
}

const double* ColumnValues::get(int node, int port) const {
    const int s = slot[static_cast<std::size_t>(node) * kMaxPorts + static_cast<std::size_t>(port)];
    return s < 0 ? nullptr : buffers[static_cast<std::size_t>(s)].data();
}

bool ColumnValues::fits(const Lattice& other) const {
    return origin.x == other.origin.x && origin.y == other.origin.z && size.x == other.size.x && size.y == other.size.z &&
           spacing_m == other.spacing_m && lod_column_samples == other.lod_column_samples && lod_exact_samples == other.lod_exact_samples;
}

ColumnValues column_values(const Program& program, const NoiseSet& noise, const Lattice& lattice, LatticeStats* stats) {
    const std::size_t nx = static_cast<std::size_t>(lattice.size.x), nz = static_cast<std::size_t>(lattice.size.z);
    ColumnValues cv;
    cv.origin = {lattice.origin.x, lattice.origin.z};
    cv.size = {lattice.size.x, lattice.size.z};
    cv.spacing_m = lattice.spacing_m;
    cv.lod_column_samples = lattice.lod_column_samples;
    cv.lod_exact_samples = lattice.lod_exact_samples;
    cv.count = nx * nz;
    std::vector<double> cx(cv.count), cz(cv.count);
    for (std::size_t k = 0; k < nz; ++k)
        for (std::size_t i = 0; i < nx; ++i) {
            const glm::dvec3 p = lattice.position(static_cast<int>(i), 0, static_cast<int>(k));
            cx[k * nx + i] = p.x, cz[k * nx + i] = p.z;
        }
    // Every column node the sdf or a column output needs, run once per column.
    std::vector<int> columns = sdf_nodes(program, true);
    const std::vector<Operand> outputs = column_outputs(program);
    for (const Operand& output : outputs)
        for (const int n : eval::needed_by(program, output)) columns.push_back(n);
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    eval::Workspace work(program, cv.count);
    const std::vector<double> lod = lod_weights(program, lattice);
    if (!lod.empty()) work.set_lod({lod.data(), lattice.spacing_m});
    // A masked side's nodes run with its mul, where the mask is not 0 (run/column_masks.hpp).
    const std::vector<ActiveMask> masks = active_column_masks(program, noise, lattice.bounds());
    std::vector<const ActiveMask*> mask_at(program.nodes.size(), nullptr);
    std::vector<bool> masked(program.nodes.size(), false);
    for (const ActiveMask& mask : masks) {
        mask_at[static_cast<std::size_t>(mask.mask->mul)] = &mask;
        for (const int n : mask.mask->nodes) masked[static_cast<std::size_t>(n)] = true;
    }
    for (const int n : columns) {
        if (masked[static_cast<std::size_t>(n)]) continue;
        if (const ActiveMask* mask = mask_at[static_cast<std::size_t>(n)])
            run_column_mask(program, noise, *mask, cx.data(), cz.data(), cv.count, work, stats);
        work.run(n, noise, cx.data(), nullptr, cz.data(), cv.count);
    }
    // Kept: what the samples read (their column inputs, the gates' deciding sides, the sdf
    // itself when it is a column node) and the column outputs.
    std::vector<bool> keep = read_per_sample(program, sdf_nodes(program, false));
    for (const Operand& output : outputs)
        if (!output.is_constant()) keep[static_cast<std::size_t>(output.node)] = true;
    cv.slot.assign(program.nodes.size() * kMaxPorts, -1);
    for (const int n : columns) {
        if (!keep[static_cast<std::size_t>(n)]) continue;
        for (int port = 0; port < program.nodes[static_cast<std::size_t>(n)].ports; ++port) {
            const double* b = work.buffer(n, port);
            cv.slot[static_cast<std::size_t>(n) * kMaxPorts + static_cast<std::size_t>(port)] = static_cast<int>(cv.buffers.size());
            cv.buffers.emplace_back(b, b + cv.count);
        }
    }
    return cv;
}

// The column outputs `sinks` wants, each from the column part (or the output's number).
void put_column_outputs(const Program& program, const ColumnValues& column_work, std::size_t ncol, const ColumnSinks& sinks) {
    const auto put = [&](const Operand& output, float* to) {
        if (!to || (output.is_constant() && std::isnan(output.constant))) return;
        const double* g = output.is_constant() ? nullptr : column_work.get(output.node, output.port);
        for (std::size_t c = 0; c < ncol; ++c) to[c] = static_cast<float>(g ? g[c] : output.constant);
    };
    put(program.ground, sinks.ground);
    if (ColumnLooks* looks = sinks.looks) {
        looks->clear();
        const auto look = [&](const Operand& output, std::vector<float>& v) {
            if (output.is_constant() && std::isnan(output.constant)) return;
            v.resize(ncol);
            put(output, v.data());
        };
        look(program.water, looks->water);
        look(program.snow_line, looks->snow_line);
        look(program.scree, looks->scree);
    }
}

}  // namespace isoterra::graph
