// The evaluator: each node is one loop over its lanes (a buffer per output), in the order
// the compiler gave, so a value used by many nodes is computed once. Noise coordinates are
// held to +-1e9 noise units (NaN: 0), the noise kernels' safe range; inside the world's
// limits no coordinate comes near it. This file holds one node's loop: the node switch over
// every type of the table (the pointwise ones in graph_pointwise.cpp), a constant node's
// value, and what counts as noise.
#include "graph_eval_parts.hpp"
#include "graph_lod.hpp"
#include "graph_nodes.hpp"
#include "height_raster.hpp"
#include "landform_nodes.hpp"
#include "../terrain_node.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "isoterra/field.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {
namespace {

double noise_coordinate(double c) { return std::isfinite(c) ? std::clamp(c, -1e9, 1e9) : 0.0; }

// The values of `from` at `lanes`, packed into `to`.
const double* gather(const double* from, const std::size_t* lanes, std::size_t count, std::vector<double>& to) {
    to.resize(count);
    for (std::size_t i = 0; i < count; ++i) to[i] = from[lanes[i]];
    return to.data();
}

}  // namespace

const double* coordinate(const Node& node, const Lanes& l, int axis_slot, const double* position) {
    return node.coordinate_default[static_cast<std::size_t>(axis_slot)] ? position : l.in[axis_slot];
}

namespace eval {

// Cloned for AVX2 and AVX-512 as the built-in's loops are: the noises' coordinate loops then
// run 4 or 8 lanes an instruction with the same bits (no contraction into FMA, see CMakeLists).
ISOTERRA_CLONES_WIDE
void evaluate(const Node& node, const NoiseSet* noise, const Lanes& l) {
    const std::size_t n = l.count;
    const double* a = node.in.size() > 0 ? l.in[0] : nullptr;
    const double* b = node.in.size() > 1 ? l.in[1] : nullptr;
    const double* c = node.in.size() > 2 ? l.in[2] : nullptr;
    double* out = l.out[0];
    const std::vector<double>& p = node.number;
    if (is_pointwise(node)) {
        run_pointwise(node, {a, b, c, l.x, l.y, l.z, out, n, l.lattice});
        return;
    }
    thread_local std::vector<double> u, v, w, gu, gv, gw;
    thread_local std::vector<float> fast_values;
    // clang-format off
    switch (node.op) {
        case Op::simplex2: case Op::fbm2: case Op::ridged2: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* zs = coordinate(node, l, 1, l.z);
            u.resize(n), v.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                u[i] = noise_coordinate(xs[i] / p[0] + p[1]);
                v[i] = noise_coordinate(zs[i] / p[0] + p[2]);
            }
            const FbmShape shape = node.op == Op::simplex2 ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape;
            run_lod_octaves(node, shape, l, [&](const FbmShape& s, const std::size_t* lanes, std::size_t m, double* to) {
                const double *pu = u.data(), *pv = v.data();
                if (lanes) pu = gather(u.data(), lanes, m, gu), pv = gather(v.data(), lanes, m, gv);
                if (node.fast_noise) {
                    fast_values.resize(m);
                    FastSimplex2(noise->seed).fbm_points(pu, pv, m, s, fast_values.data());
                    std::copy(fast_values.begin(), fast_values.begin() + static_cast<std::ptrdiff_t>(m), to);
                } else {
                    noise->noise2.fbm_batch(pu, pv, to, m, s);
                }
            }, out);
            if (node.op == Op::ridged2)
                for (std::size_t i = 0; i < n; ++i) out[i] = ridge_profile(out[i], p[3], p[4], p[5]);
            return;
        }
        case Op::simplex3: case Op::fbm3: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* ys = coordinate(node, l, 1, l.y);
            const double* zs = coordinate(node, l, 2, l.z);
            u.resize(n), v.resize(n), w.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                u[i] = noise_coordinate(xs[i] / p[0] + p[2]);
                v[i] = noise_coordinate(ys[i] / p[1] + p[3]);
                w[i] = noise_coordinate(zs[i] / p[0] + p[4]);
            }
            const FbmShape shape = node.op == Op::simplex3 ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape;
            run_lod_octaves(node, shape, l, [&](const FbmShape& s, const std::size_t* lanes, std::size_t m, double* to) {
                const double *pu = u.data(), *pv = v.data(), *pw = w.data();
                if (lanes) pu = gather(u.data(), lanes, m, gu), pv = gather(v.data(), lanes, m, gv), pw = gather(w.data(), lanes, m, gw);
                if (node.fast_noise) {
                    fast_values.resize(m);
                    FastSimplex3(noise->seed).fbm_points(pu, pv, pw, m, s, fast_values.data());
                    std::copy(fast_values.begin(), fast_values.begin() + static_cast<std::ptrdiff_t>(m), to);
                } else if (node.op == Op::simplex3) {
                    noise->noise3.batch(pu, pv, pw, to, m);
                } else {
                    for (std::size_t i = 0; i < m; ++i) to[i] = fbm3(noise->noise3, pu[i], pv[i], pw[i], s);
                }
            }, out);
            return;
        }
        case Op::warp2: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* zs = coordinate(node, l, 1, l.z);
            for (std::size_t i = 0; i < n; ++i) {
                double wx = noise_coordinate(xs[i]), wz = noise_coordinate(zs[i]);
                warp2(noise->noise2, p[0], p[1], wx, wz);
                l.out[0][i] = wx, l.out[1][i] = wz;
            }
            return;
        }
        case Op::heightmap: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* zs = coordinate(node, l, 1, l.z);
            for (std::size_t i = 0; i < n; ++i) out[i] = node.raster->at(xs[i], zs[i]);
            return;
        }
        case Op::dfbm2: run_dfbm2(node, *noise, l); return;
        case Op::erosion: run_erosion(node, *noise, l); return;
        case Op::spline: run_spline(node, l); return;
        case Op::slope: run_slope(node, l); return;
        case Op::curvature: run_curvature(node, l); return;
        case Op::cellular: run_cellular(node, *noise, l); return;
        case Op::drainage: run_drainage_far(node, l); return;
        case Op::terrain: run_terrain(node, *noise, l); return;
        case Op::terrain_ground: run_terrain_ground(node, *noise, l); return;
        default: return;  // pointwise, above
        case Op::warp3: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* ys = coordinate(node, l, 1, l.y);
            const double* zs = coordinate(node, l, 2, l.z);
            for (std::size_t i = 0; i < n; ++i) {
                double wx = noise_coordinate(xs[i]), wy = noise_coordinate(ys[i]), wz = noise_coordinate(zs[i]);
                warp3(noise->noise3, p[0], p[1], wx, wy, wz);
                l.out[0][i] = wx, l.out[1][i] = wy, l.out[2][i] = wz;
            }
            return;
        }
    }
    // clang-format on
}

void run_node(const Program& program, const NoiseSet& noise, const Node& node, const double* const* in, double* const* out, const double* x,
              const double* y, const double* z, std::size_t count, bool lattice, const LodLanes& lod) {
    Lanes l;
    l.in = in;
    for (int port = 0; port < node.ports; ++port) l.out[port] = out[port];
    l.x = x, l.y = y, l.z = z;
    l.count = count;
    l.lattice = lattice;
    l.ports_read = node.ports_read;
    l.program = &program;
    l.noise = &noise;
    l.lod = lod;
    evaluate(node, &noise, l);
}

}  // namespace eval

bool is_noise(Op op) {
    // clang-format off
    switch (op) {
        case Op::simplex2: case Op::fbm2: case Op::ridged2: case Op::simplex3: case Op::fbm3: case Op::warp2: case Op::warp3:
        case Op::dfbm2: case Op::erosion: case Op::cellular: case Op::drainage: case Op::terrain: case Op::terrain_ground:
            return true;
        default:
            return false;
    }
    // clang-format on
}

double evaluate_constant(const Node& node) {
    std::vector<double> inputs(node.in.size());
    std::vector<const double*> lanes(node.in.size());
    for (std::size_t i = 0; i < node.in.size(); ++i) inputs[i] = node.in[i].constant, lanes[i] = &inputs[i];
    double out = 0.0;
    Lanes l;
    l.in = lanes.data();
    l.out[0] = &out;
    l.count = 1;
    eval::evaluate(node, nullptr, l);
    return out;
}

}  // namespace isoterra::graph
