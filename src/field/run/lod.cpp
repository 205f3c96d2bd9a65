// Detail a level cannot show left out inside World columns: the weights per column, a noise's
// octaves and a node's far value blended by them, the lattice noises gated to where they are
// needed, and which nodes only such a node reads (run/lod.hpp).
#include "lod.hpp"

#include <algorithm>
#include <cmath>

#include "field/nodes/table.hpp"
#include "field/nodes/landform/landform.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {

std::vector<double> lod_weights(const Program& program, const Lattice& lattice) {
    const std::int64_t c = lattice.lod_column_samples, exact = lattice.lod_exact_samples;
    const bool any = std::any_of(program.nodes.begin(), program.nodes.end(),
                                 [](const Node& n) { return n.lod || n.detail_m > 0.0 || widens_far_beds(n); });
    if (c <= 0 || !any) return {};
    // Samples from the nearest face of the column, along x and along z.
    const auto from_faces = [c](std::int64_t origin, int size) {
        std::vector<std::int64_t> d(static_cast<std::size_t>(size));
        std::int64_t r = ((origin % c) + c) % c;
        for (int i = 0; i < size; ++i, r = r + 1 == c ? 0 : r + 1) d[static_cast<std::size_t>(i)] = std::min(r, c - r);
        return d;
    };
    const std::vector<std::int64_t> dx = from_faces(lattice.origin.x, lattice.size.x), dz = from_faces(lattice.origin.z, lattice.size.z);
    std::vector<double> weight(dx.size() * dz.size());
    for (std::size_t k = 0; k < dz.size(); ++k)
        for (std::size_t i = 0; i < dx.size(); ++i)
            weight[k * dx.size() + i] = std::clamp(0.5 * static_cast<double>(std::min(dx[i], dz[k]) - exact), 0.0, 1.0);
    return weight;
}

int kept_octaves(const Node& node, const FbmShape& shape, double spacing_m) {
    if (shape.octaves > 1 && !(shape.lacunarity > 1.0)) return shape.octaves;
    // The 3D noises' finer scale decides (a vertical scale under the horizontal one).
    double wavelength = node.kind->lattice != LatticeKernel::none ? std::min(node.number[0], node.number[1]) : node.number[0];
    int kept = 0;
    for (; kept < shape.octaves && wavelength >= 2.0 * spacing_m; ++kept) wavelength /= shape.lacunarity;
    return kept;
}

void run_lod_octaves(const Node& node, const FbmShape& shape, const Lanes& l, const OctaveRun& run, double* out) {
    const int kept = node.lod && l.lod.weight ? kept_octaves(node, shape, l.lod.spacing_m) : shape.octaves;
    if (kept >= shape.octaves) return run(shape, nullptr, l.count, out);
    // Every octave where some of it shows, the level's octaves where the blend reads them.
    thread_local std::vector<std::size_t> every_lane, level_lane;
    thread_local std::vector<double> every, level;
    every_lane.clear(), level_lane.clear();
    const double* w = l.lod.weight;
    for (std::size_t i = 0; i < l.count; ++i) {
        if (w[i] < 1.0) every_lane.push_back(i);
        if (w[i] > 0.0) level_lane.push_back(i);
    }
    every.resize(every_lane.size());
    level.resize(level_lane.size());
    if (!every_lane.empty()) run(shape, every_lane.data(), every_lane.size(), every.data());
    FbmShape shown = shape;
    shown.octaves = kept;
    if (kept > 0 && !level_lane.empty()) run(shown, level_lane.data(), level_lane.size(), level.data());
    else std::fill(level.begin(), level.end(), 0.0);
    std::size_t e = 0, v = 0;
    for (std::size_t i = 0; i < l.count; ++i) {
        const double full = w[i] < 1.0 ? every[e++] : 0.0;
        const double part = w[i] > 0.0 ? level[v++] : 0.0;
        out[i] = w[i] <= 0.0 ? full : w[i] >= 1.0 ? part : part * w[i] + full * (1.0 - w[i]);
    }
}

bool detail_dropped(const Node& node, double spacing_m) { return node.detail_m > 0.0 && node.detail_m < 2.0 * spacing_m; }

namespace {

// A lattice noise's every detail (`every`) and its level's part (`level`, a whole row of
// them where given, else `far`), blended by the weights of the row. (These loops run over
// every lane of a lattice: selects, not branches, so they run on vectors.)
ISOTERRA_CLONES_WIDE void blend_row(float* every, const float* level, double far, const double* weight, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const double w = weight[i], part = level ? static_cast<double>(level[i]) : far;
        const double blended = part * w + static_cast<double>(every[i]) * (1.0 - w);
        every[i] = w >= 1.0 ? static_cast<float>(part) : w > 0.0 ? static_cast<float>(blended) : every[i];
    }
}

// A row of a gate: `own` (or open, null) where `weight` is in the part (over 0 with `level`,
// else under 1), closed elsewhere. Selects, so the loop runs on vectors.
ISOTERRA_CLONES_WIDE void gate_row(const double* weight, bool level, const float* own, float below, float* gate, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const bool wanted = level ? weight[i] > 0.0 : weight[i] < 1.0;
        const float open = own ? own[i] - below : 1.0f;
        gate[i] = wanted ? open : -1.0f;
    }
}

// `run` with `shape` over `l` (laid out as `out`), gated off (with l's own gate) in the columns
// whose weight is under 1 (`level` false: those needing every detail) or over 0 (true: the
// level's part). The kernels skip groups of points gated whole; a chunk's rows are too short
// for boxes of columns to run on the widest kernels, so the whole lattice runs, gated.
void run_gated(const NoiseLattice& l, const double* weight, bool level, const FbmShape& shape, const SubLatticeRun& run, float* out) {
    thread_local std::vector<float> gate;
    const std::size_t nx = static_cast<std::size_t>(l.size.x), ny = static_cast<std::size_t>(l.size.y);
    gate.resize(nx * ny * static_cast<std::size_t>(l.size.z));
    for (std::size_t k = 0; k < static_cast<std::size_t>(l.size.z); ++k)
        for (std::size_t j = 0; j < ny; ++j) {
            const std::size_t row = (k * ny + j) * nx;
            gate_row(weight + k * nx, level, l.gate ? l.gate + row : nullptr, l.gate_below, gate.data() + row, nx);
        }
    NoiseLattice gated = l;
    gated.gate = gate.data();
    gated.gate_below = 0.0f;
    run(gated, shape, out);
}

}  // namespace

ISOTERRA_CLONES_WIDE void blend_to_far(double* values, const double* weight, std::size_t count, double far) {
    for (std::size_t i = 0; i < count; ++i) {
        const double v = values[i], w = weight[i];
        const double blended = v * (1.0 - w) + far * w;
        values[i] = w >= 1.0 ? far : w > 0.0 ? blended : v;
    }
}

bool lod_noise_of(const Node& node, const Lattice& lattice, bool read_inside, LodNoise& out) {
    out.every = node.kind->lattice == LatticeKernel::fbm ? node.shape : FbmShape{1, 1.0, 1.0, 1.0};
    out.shown = out.every;
    out.shown.octaves = node.lod ? kept_octaves(node, out.every, lattice.spacing_m) : out.every.octaves;
    out.far = 0.0;
    if (detail_dropped(node, lattice.spacing_m)) out.shown.octaves = 0, out.far = node.far;
    out.simplified = out.shown.octaves < out.every.octaves;
    return out.simplified || !read_inside;
}

void run_lod_noise(const NoiseLattice& lattice, const double* weight, const LodNoise& noise, const SubLatticeRun& run, float* out) {
    run_gated(lattice, weight, false, noise.every, run, out);
    thread_local std::vector<float> level;
    const bool part = noise.simplified && noise.shown.octaves > 0;
    if (part) {
        level.resize(static_cast<std::size_t>(lattice.size.x) * lattice.size.y * lattice.size.z);
        run_gated(lattice, weight, true, noise.shown, run, level.data());
    }
    // (Kept whole but not read where the weight is 1: what the gated kernel left there stays.)
    if (!noise.simplified) return;
    const std::size_t nx = static_cast<std::size_t>(lattice.size.x), ny = static_cast<std::size_t>(lattice.size.y);
    for (std::size_t k = 0; k < static_cast<std::size_t>(lattice.size.z); ++k)
        for (std::size_t j = 0; j < ny; ++j) {
            const std::size_t row = (k * ny + j) * nx;
            blend_row(out + row, part ? level.data() + row : nullptr, noise.far, weight + k * nx, nx);
        }
}

namespace {

// True when node `node` is left out whole inside the World column `lattice` lies in: its first
// octave (`lod`) or its detail (`detail_m`).
bool dropped_at_level(const Node& node, const Lattice& lattice) {
    if (lattice.lod_column_samples <= 0) return false;
    // (A node left out only deep under the ground reads its inputs above that.)
    return (detail_dropped(node, lattice.spacing_m) && node.depth_m <= 0.0) ||
           (node.lod && kept_octaves(node, FbmShape{1, 1.0, 1.0, 1.0}, lattice.spacing_m) == 0);
}

}  // namespace

std::vector<bool> read_only_where_shown(const Program& program, const Lattice& lattice) {
    if (lattice.lod_column_samples <= 0 || program.sdf.is_constant()) return {};
    // What the sdf needs, and what it needs without following the inputs of the nodes left out.
    const std::size_t n = program.nodes.size();
    std::vector<bool> left_out(n);
    for (std::size_t k = 0; k < n; ++k) left_out[k] = dropped_at_level(program.nodes[k], lattice);
    const std::vector<bool> all = needed_mask(program, program.sdf), shown = needed_mask(program, program.sdf, left_out);
    std::vector<bool> unread(n);
    for (std::size_t k = 0; k < n; ++k) unread[k] = all[k] && !shown[k];
    return unread;
}

ISOTERRA_CLONES_WIDE void widen_to_far(const double* weight, double far, double* lo, double* hi, std::size_t count) {
    // (An end left NaN, not needed, stays NaN.)
    for (std::size_t i = 0; i < count; ++i) {
        const double w = weight[i], l = lo[i], h = hi[i];
        const double to_lo = w >= 1.0 || far < l ? far : l, to_hi = w >= 1.0 || far > h ? far : h;
        lo[i] = w > 0.0 && l == l ? to_lo : l;
        hi[i] = w > 0.0 && h == h ? to_hi : h;
    }
}

DepthWeights::DepthWeights(const Program& program, const Lattice& lattice, const std::vector<double>& column, const double* ground)
    : column_(column.data()), ground_(ground), spacing_m_(lattice.spacing_m), lanes_(column.size()) {
    if (column.empty()) return;
    std::vector<int> depth_of(program.nodes.size(), -1);  // per node: its index in depths_
    for (std::size_t n = 0; n < program.nodes.size(); ++n) {
        const Node& node = program.nodes[n];
        if (node.depth_m <= 0.0 || !detail_dropped(node, spacing_m_)) continue;
        const auto known = std::find(depths_.begin(), depths_.end(), node.depth_m);
        depth_of[n] = static_cast<int>(known - depths_.begin());
        if (known == depths_.end()) depths_.push_back(node.depth_m);
    }
    if (depths_.empty()) return;
    if (!ground_) {
        ground_number_.assign(lanes_, program.ground.constant);
        ground_ = ground_number_.data();
    }
    weights_.assign(depths_.size(), std::vector<double>(lanes_));
    per_node_.assign(program.nodes.size(), nullptr);
    for (std::size_t n = 0; n < program.nodes.size(); ++n)
        if (depth_of[n] >= 0) per_node_[n] = weights_[static_cast<std::size_t>(depth_of[n])].data();
}

namespace {

ISOTERRA_CLONES_WIDE void depth_ramp(const double* column, const double* ground, double top, double per_m, double* out, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) out[i] = column[i] * std::min(std::max((ground[i] - top) * per_m, 0.0), 1.0);
}

}  // namespace

const double* const* DepthWeights::at_height(double y_m) {
    // Left out from depth_m under the ground, wholly two samples deeper.
    for (std::size_t d = 0; d < depths_.size(); ++d)
        depth_ramp(column_, ground_, y_m + depths_[d], 0.5 / spacing_m_, weights_[d].data(), lanes_);
    return per_node_.data();
}

}  // namespace isoterra::graph
