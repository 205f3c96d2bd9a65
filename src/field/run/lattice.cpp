// The lattice path of a graph program: the column part (run/columns.cpp), then per y-slab
// (an xz plane, laid out as the columns are, so the per-sample nodes read the columns' values
// where they lie) the per-sample nodes, 3D noises of the raw position on the lattice kernel,
// gated noises skipped where they cannot matter, and inside a World column those its level
// leaves out (run/lod.hpp) skipped where nothing of them shows.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "eval_parts.hpp"
#include "gates.hpp"
#include "intervals.hpp"
#include "lattice_parts.hpp"
#include "lod.hpp"
#include "field/nodes/table.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {
namespace {

// The lattice noises' floats into a node's lanes, and the sdf's lanes out as floats, on the
// widest vectors the CPU has (conversions are exact or rounded the same on every path):
// `rows` rows of `length`, `stride` apart on the lattice's side and packed on the lanes'.
ISOTERRA_CLONES_WIDE void widen(const float* from, double* to, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) to[i] = static_cast<double>(from[i]);
}
ISOTERRA_CLONES_WIDE void widen_rows(const float* from, std::size_t stride, double* to, std::size_t length, std::size_t rows) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < length; ++i) to[r * length + i] = static_cast<double>(from[r * stride + i]);
}
// How many of `count` gate values are under 0 (skipped): counted, not searched, so the loop
// runs on vectors (an early exit kept it to one compare at a time).
ISOTERRA_CLONES_WIDE std::size_t count_skipped(const float* gate, std::size_t count) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) n += gate[i] < 0.0f;
    return n;
}
ISOTERRA_CLONES_WIDE void narrow_rows(const double* from, float* to, std::size_t stride, std::size_t length, std::size_t rows) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < length; ++i) to[r * stride + i] = static_cast<float>(from[r * length + i]);
}

}  // namespace

// A lattice noise node (is_lattice_noise) over a lattice: the seed flavour's kernel (which
// may skip gated points), or the fast flavour's noise or fBm (which computes every point).
// (With `shape`, the fast flavour's fBm of those octaves.)
void lattice_noise_values(const Node& node, const NoiseSet& noise, const NoiseLattice& lattice, float* out,
                          const FbmShape* shape = nullptr) {
    if (!node.fast_noise) return noise.noise3.lattice_fast(lattice, out);
    const FastSimplex3 fast(noise.seed);
    if (node.kind->lattice == LatticeKernel::fbm) return fast.fbm_lattice(lattice, shape ? *shape : node.shape, out);
    fast.lattice(lattice, out);
}

namespace {

// Lattice noise `n` over `nl` (the whole lattice, or a slab) into `out`: inside a World column
// (`lod` weights given) only what its level shows or reads (run/lod.hpp).
void lattice_noise_at_level(const Program& program, const NoiseSet& noise, const Lattice& lattice, int n, const NoiseLattice& nl,
                            const std::vector<double>& lod, const std::vector<bool>& unread, float* out) {
    const Node& node = program.nodes[static_cast<std::size_t>(n)];
    LodNoise level;
    if (lod.empty() || !lod_noise_of(node, lattice, unread.empty() || !unread[static_cast<std::size_t>(n)], level))
        return lattice_noise_values(node, noise, nl, out);
    run_lod_noise(
        nl, lod.data(), level,
        [&](const NoiseLattice& sub, const FbmShape& shape, float* to) { lattice_noise_values(node, noise, sub, to, &shape); }, out);
}

}  // namespace

namespace {

// The gates active over a lattice (run/gates.hpp): per gate its threshold from the ranges
// over the lattice (NaN: inactive), and per node the gate of the noise it is (-1: none).
struct LatticeGates {
    std::vector<int> gate_of;
    std::vector<double> thresholds;
    std::vector<ValueRange> noise_ranges;      // per gate: its noise's range over the lattice
    std::vector<std::vector<GateStep>> paths;  // per gate: for bounds per sample (gate_path)
};

// The active gates; the per-sample nodes that read a gated noise are moved after the rest of
// `samples`, so the deciding sides are there when they run.
LatticeGates active_gates(const Program& program, const NoiseSet& noise, const Lattice& lattice, std::vector<int>& samples) {
    LatticeGates gates;
    gates.gate_of.assign(program.nodes.size(), -1);
    if (program.gates.empty()) return gates;
    const auto ranges = node_intervals(program, noise, lattice.bounds());
    std::vector<Gate> active;
    for (std::size_t g = 0; g < program.gates.size(); ++g) {
        gates.thresholds.push_back(gate_threshold(program, program.gates[g], ranges));
        if (std::isnan(gates.thresholds.back())) continue;
        gates.gate_of[static_cast<std::size_t>(program.gates[g].noise)] = static_cast<int>(g);
        active.push_back(program.gates[g]);
    }
    const std::vector<bool> late = reads_gated(program, active);
    std::stable_partition(samples.begin(), samples.end(), [&](int n) { return !late[static_cast<std::size_t>(n)]; });
    gates.noise_ranges.resize(program.gates.size());
    gates.paths.resize(program.gates.size());
    for (std::size_t g = 0; g < program.gates.size(); ++g) {
        if (std::isnan(gates.thresholds[g])) continue;
        gates.noise_ranges[g] = ranges[static_cast<std::size_t>(program.gates[g].noise)][0];
        gates.paths[g] = gate_path(program, program.gates[g], samples);
    }
    return gates;
}

// A lattice noise node's lattice: the lattice in its noise's units.
NoiseLattice noise_lattice_of(const Lattice& lattice, const Node& node) {
    return NoiseLattice{lattice.origin, lattice.size, lattice.spacing_m, glm::dvec3(node.number[0], node.number[1], node.number[0]),
                        glm::dvec3(node.number[2], node.number[3], node.number[4])};
}

// 3D noises of the raw position, ungated: the whole lattice at once on the lattice kernel.
// Returns per node its values (null: not such a noise), held per thread until the next call:
// a chunk a call, and 144 KB a noise is more than malloc reuses.
std::vector<float*> whole_lattice_noises(const Program& program, const NoiseSet& noise, const Lattice& lattice,
                                         const std::vector<int>& samples, const std::vector<int>& gate_of, const std::vector<double>& lod,
                                         const std::vector<bool>& unread) {
    thread_local std::vector<float> noise_store;
    std::vector<float*> lattice_noise(program.nodes.size(), nullptr);
    const auto whole_lattice = [&](int n) {
        return is_lattice_noise(program.nodes[static_cast<std::size_t>(n)]) && gate_of[static_cast<std::size_t>(n)] < 0;
    };
    const std::size_t stored = static_cast<std::size_t>(std::count_if(samples.begin(), samples.end(), whole_lattice));
    if (noise_store.size() < stored * lattice.count()) noise_store.resize(stored * lattice.count());
    float* next_store = noise_store.data();
    for (const int n : samples) {
        if (!whole_lattice(n)) continue;
        const Node& node = program.nodes[static_cast<std::size_t>(n)];
        float* values = lattice_noise[static_cast<std::size_t>(n)] = next_store;
        next_store += lattice.count();
        lattice_noise_at_level(program, noise, lattice, n, noise_lattice_of(lattice, node), lod, unread, values);
    }
    return lattice_noise;
}

// Gated noise node `n` (gate `g`) over y-slab `j` of the lattice into its buffer, skipped where
// the guard's other side decides alone; `gate` and `gated_noise` hold a slab each.
void run_gated_noise(const Program& program, const NoiseSet& noise, const Lattice& lattice, int n, int g, const LatticeGates& gates,
                     std::size_t j, eval::Workspace& work, std::vector<float>& gate, std::vector<float>& gated_noise,
                     eval::SkippedBlocks& skipped, LatticeStats* stats, const std::vector<double>& lod, const std::vector<bool>& unread) {
    const std::size_t slab = gate.size();
    const Gate& gt = program.gates[static_cast<std::size_t>(g)];
    const Operand& other = program.nodes[static_cast<std::size_t>(gt.guard)].in[static_cast<std::size_t>(1 - gt.side)];
    const std::size_t at = static_cast<std::size_t>(g);
    bounded_gate_values(program, gt, gates.thresholds[at], gates.noise_ranges[at], gates.paths[at], work,
                        work.buffer(other.node, other.port), gate.data(), slab);
    // The blocks of a fused run it skipped whole (the guard then takes its other side there).
    std::vector<char>& blocks = skipped[at];
    blocks.assign((slab + eval::kFusedBlock - 1) / eval::kFusedBlock, 0);
    std::size_t skipped_here = 0;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const std::size_t lanes = std::min(eval::kFusedBlock, slab - b * eval::kFusedBlock);
        const std::size_t n = count_skipped(gate.data() + b * eval::kFusedBlock, lanes);
        blocks[b] = n == lanes;
        skipped_here += n;
    }
    if (stats) {
        stats->gated_samples += slab;
        stats->skipped_samples += skipped_here;
    }
    const Node& node = program.nodes[static_cast<std::size_t>(n)];
    NoiseLattice nl = noise_lattice_of(lattice, node);
    nl.origin.y += static_cast<std::int64_t>(j);
    nl.size.y = 1;
    nl.gate = gate.data();
    nl.gate_below = 0.0f;
    lattice_noise_at_level(program, noise, lattice, n, nl, lod, unread, gated_noise.data());
    widen(gated_noise.data(), work.buffer(n, 0), slab);
}

// The per-sample nodes as steps: a node alone (`run` -1), or a run of pointwise nodes fused
// (run/fused.cpp), which stores only what the rest reads: later steps, the gates' deciding
// sides, the sdf.
struct SampleStep {
    int node = -1;
    int run = -1;
};

std::vector<SampleStep> sample_steps(const Program& program, const std::vector<int>& samples, const std::vector<float*>& lattice_noise,
                                     const LatticeGates& gates, std::vector<eval::FusedRun>& runs) {
    const std::vector<int>& gate_of = gates.gate_of;
    const auto fusable = [&](int n) {
        const Node& node = program.nodes[static_cast<std::size_t>(n)];
        return eval::is_pointwise(node) && node.grid_m <= 0.0 && node.ports == 1 && !lattice_noise[static_cast<std::size_t>(n)] &&
               gate_of[static_cast<std::size_t>(n)] < 0;
    };
    // The values a gate's bound reads on its way (its nodes' other inputs), besides those
    // read_per_sample names.
    std::vector<bool> bounds_read(program.nodes.size(), false);
    for (const std::vector<GateStep>& path : gates.paths)
        for (const GateStep& step : path)
            for (std::size_t i = 0; i < program.nodes[static_cast<std::size_t>(step.node)].in.size(); ++i) {
                const Operand& in = program.nodes[static_cast<std::size_t>(step.node)].in[i];
                if (static_cast<int>(i) != step.on && !in.is_constant()) bounds_read[static_cast<std::size_t>(in.node)] = true;
            }
    std::vector<int> active;  // the gates in use over this lattice
    for (std::size_t g = 0; g < gates.thresholds.size(); ++g)
        if (!std::isnan(gates.thresholds[g])) active.push_back(static_cast<int>(g));
    std::vector<SampleStep> steps;
    for (std::size_t s = 0; s < samples.size();) {
        if (!fusable(samples[s])) {
            steps.push_back({samples[s], -1});
            ++s;
            continue;
        }
        std::size_t end = s;
        while (end < samples.size() && fusable(samples[end])) ++end;
        std::vector<int> others(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(s));
        others.insert(others.end(), samples.begin() + static_cast<std::ptrdiff_t>(end), samples.end());
        std::vector<bool> read_outside = read_per_sample(program, others);
        for (std::size_t n = 0; n < read_outside.size(); ++n) read_outside[n] = read_outside[n] || bounds_read[n];
        steps.push_back({-1, static_cast<int>(runs.size())});
        runs.emplace_back(
            program, std::vector<int>(samples.begin() + static_cast<std::ptrdiff_t>(s), samples.begin() + static_cast<std::ptrdiff_t>(end)),
            read_outside, active);
        s = end;
    }
    return steps;
}

}  // namespace

void run_lattice(const Program& program, const NoiseSet& noise, const Lattice& lattice, float* values, const ColumnSinks& sinks,
                 LatticeStats* stats, const ColumnValues* given) {
    const std::size_t nx = static_cast<std::size_t>(lattice.size.x), ny = static_cast<std::size_t>(lattice.size.y);
    const std::size_t nz = static_cast<std::size_t>(lattice.size.z);
    const std::size_t ncol = nx * nz, slab = ncol;
    // The column part, once per column (or as a World column's survey worked it out).
    ColumnValues made;
    if (!given || !given->fits(lattice)) given = &(made = column_values(program, noise, lattice, stats));
    const ColumnValues& column_work = *given;
    std::vector<int> samples = sdf_nodes(program, false);
    const std::vector<int> columns = sdf_nodes(program, true);
    put_column_outputs(program, column_work, ncol, sinks);
    const LatticeGates gates = active_gates(program, noise, lattice, samples);
    const std::vector<double> lod = lod_weights(program, lattice);
    const std::vector<bool> unread = read_only_where_shown(program, lattice);
    const std::vector<float*> lattice_noise = whole_lattice_noises(program, noise, lattice, samples, gates.gate_of, lod, unread);
    // The rest per y-slab: z rows of x, as the columns lie.
    eval::Workspace work(program, slab);
    if (!lod.empty()) work.set_lod({lod.data(), lattice.spacing_m});
    DepthWeights deep(program, lattice, lod,
                      program.ground.is_constant() ? nullptr : column_work.get(program.ground.node, program.ground.port));
    std::vector<double> sx(slab), sy(slab), sz(slab);
    std::vector<float> gate(slab), gated_noise(slab);
    eval::SkippedBlocks skipped(program.gates.size());
    // The column values the per-sample nodes read (or that are the sdf): the same in every
    // slab, so in their buffers once.
    const std::vector<bool> read = read_per_sample(program, samples);
    for (const int n : columns) {
        if (!read[static_cast<std::size_t>(n)]) continue;
        for (int port = 0; port < program.nodes[static_cast<std::size_t>(n)].ports; ++port) {
            const double* c = column_work.get(n, port);
            std::copy(c, c + ncol, work.buffer(n, port));
        }
    }
    // x and z are the same in every slab (a position's coordinates are computed apart).
    for (std::size_t k = 0; k < nz; ++k)
        for (std::size_t i = 0; i < nx; ++i) {
            const glm::dvec3 p = lattice.position(static_cast<int>(i), 0, static_cast<int>(k));
            sx[k * nx + i] = p.x, sz[k * nx + i] = p.z;
        }
    std::vector<eval::FusedRun> runs;
    const std::vector<SampleStep> steps = sample_steps(program, samples, lattice_noise, gates, runs);
    for (std::size_t j = 0; j < ny; ++j) {
        work.begin_pass();
        std::fill(sy.begin(), sy.end(), lattice.position(0, static_cast<int>(j), 0).y);
        if (!deep.empty()) work.set_lod({lod.data(), lattice.spacing_m, deep.at_height(sy[0])});
        for (const SampleStep& step : steps) {
            if (step.run >= 0) {
                runs[static_cast<std::size_t>(step.run)].run(work, sx.data(), sy.data(), sz.data(), slab, &skipped);
                continue;
            }
            const int n = step.node;
            if (const float* whole = lattice_noise[static_cast<std::size_t>(n)]) {
                widen_rows(whole + j * nx, ny * nx, work.buffer(n, 0), nx, nz);
                continue;
            }
            if (const int g = gates.gate_of[static_cast<std::size_t>(n)]; g >= 0) {
                run_gated_noise(program, noise, lattice, n, g, gates, j, work, gate, gated_noise, skipped, stats, lod, unread);
                continue;
            }
            work.run(n, noise, sx.data(), sy.data(), sz.data(), slab);
        }
        float* out = values + j * nx;
        if (!program.sdf.is_constant()) narrow_rows(work.buffer(program.sdf.node, program.sdf.port), out, ny * nx, nx, nz);
        else
            for (std::size_t k = 0; k < nz; ++k)
                std::fill(out + k * ny * nx, out + k * ny * nx + nx, static_cast<float>(program.sdf.constant));
    }
}

}  // namespace isoterra::graph
