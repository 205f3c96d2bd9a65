// A noise's octaves under two samples left out inside World columns, blended toward the
// columns' faces (graph_lod.hpp).
#include "graph_lod.hpp"

#include <algorithm>
#include <cmath>

namespace isoterra::graph {

std::vector<double> lod_weights(const Lattice& lattice) {
    const std::int64_t c = lattice.lod_column_samples;
    if (c <= 0) return {};
    // Samples from the nearest face of the column along one axis.
    const auto from_face = [c](std::int64_t g) {
        const std::int64_t r = ((g % c) + c) % c;
        return std::min(r, c - r);
    };
    const std::size_t nx = static_cast<std::size_t>(lattice.size.x), nz = static_cast<std::size_t>(lattice.size.z);
    std::vector<double> weight(nx * nz);
    for (std::size_t k = 0; k < nz; ++k) {
        const std::int64_t dz = from_face(lattice.origin.z + static_cast<std::int64_t>(k));
        for (std::size_t i = 0; i < nx; ++i) {
            const std::int64_t d = std::min(dz, from_face(lattice.origin.x + static_cast<std::int64_t>(i)));
            weight[k * nx + i] = std::clamp(0.5 * static_cast<double>(d - 2), 0.0, 1.0);
        }
    }
    return weight;
}

int kept_octaves(const Node& node, const FbmShape& shape, double spacing_m) {
    if (shape.octaves > 1 && !(shape.lacunarity > 1.0)) return shape.octaves;
    // The 3D noises' finer scale decides (a vertical scale under the horizontal one).
    double wavelength = node.op == Op::simplex3 || node.op == Op::fbm3 ? std::min(node.number[0], node.number[1]) : node.number[0];
    int kept = 0;
    for (; kept < shape.octaves && wavelength >= 2.0 * spacing_m; ++kept) wavelength /= shape.lacunarity;
    return kept;
}

void run_lod_octaves(const Node& node, const FbmShape& shape, const Lanes& l, const OctaveRun& run, double* out) {
    const int kept = node.lod && l.lod_weight ? kept_octaves(node, shape, l.lod_spacing_m) : shape.octaves;
    if (kept >= shape.octaves) return run(shape, nullptr, l.count, out);
    // Every octave where some of it shows, the level's octaves where the blend reads them.
    thread_local std::vector<std::size_t> every_lane, level_lane;
    thread_local std::vector<double> every, level;
    every_lane.clear(), level_lane.clear();
    const double* w = l.lod_weight;
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

bool dropped_at_level(const Node& node, const Lattice& lattice) {
    if (lattice.lod_column_samples <= 0) return false;
    return detail_dropped(node, lattice.spacing_m) || (node.lod && kept_octaves(node, FbmShape{1, 1.0, 1.0, 1.0}, lattice.spacing_m) == 0);
}

double far_at_level(const Node& node, const Lattice& lattice) { return detail_dropped(node, lattice.spacing_m) ? node.far : 0.0; }

namespace {

template <class T>
void blend_lanes(T* values, const double* weight, std::size_t count, double far) {
    for (std::size_t i = 0; i < count; ++i)
        if (weight[i] > 0.0)
            values[i] = weight[i] >= 1.0 ? static_cast<T>(far)
                                         : static_cast<T>(static_cast<double>(values[i]) * (1.0 - weight[i]) + far * weight[i]);
}

}  // namespace

void blend_to_far(float* values, const double* weight, std::size_t count, double far) { blend_lanes(values, weight, count, far); }
void blend_to_far(double* values, const double* weight, std::size_t count, double far) { blend_lanes(values, weight, count, far); }

std::vector<bool> read_only_where_shown(const Program& program, const Lattice& lattice) {
    if (lattice.lod_column_samples <= 0 || program.sdf.is_constant()) return {};
    // What the sdf needs, and what it needs with the inputs of the nodes left out cut.
    const std::size_t n = program.nodes.size();
    std::vector<bool> all(n, false), shown(n, false);
    all[static_cast<std::size_t>(program.sdf.node)] = shown[static_cast<std::size_t>(program.sdf.node)] = true;
    for (std::size_t k = n; k-- > 0;) {
        const Node& node = program.nodes[k];
        const bool cut = dropped_at_level(node, lattice) || detail_dropped(node, lattice.spacing_m);
        for (const Operand& in : node.in) {
            if (in.is_constant()) continue;
            if (all[k]) all[static_cast<std::size_t>(in.node)] = true;
            if (shown[k] && !cut) shown[static_cast<std::size_t>(in.node)] = true;
        }
    }
    std::vector<bool> unread(n);
    for (std::size_t k = 0; k < n; ++k) unread[k] = all[k] && !shown[k];
    return unread;
}

void close_lod_gate(float* gate, const double* weight, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
        if (weight[i] >= 1.0) gate[i] = -1.0f;
}

}  // namespace isoterra::graph
