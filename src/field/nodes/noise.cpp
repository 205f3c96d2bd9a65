// The noise nodes: 2D and 3D simplex noise and their fBm, ridges, and the warps that move a
// position by noise. Noise coordinates are held to +-1e9 noise units (NaN: 0), the noise
// kernels' safe range; inside the world's limits no coordinate comes near it. 2D noises are
// bounded by their proven slope (Simplex2::kLipschitz) around the centre value, 3D ones by
// their value range (they have tiny jumps).
#include <algorithm>
#include <cmath>
#include <vector>

#include "field/run/eval.hpp"
#include "field/run/intervals.hpp"
#include "field/run/lod.hpp"
#include "table.hpp"
#include "isoterra/noise.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {
namespace {

using namespace interval;

double noise_coordinate(double c) { return std::isfinite(c) ? std::clamp(c, -1e9, 1e9) : 0.0; }

// The values of `from` at `lanes`, packed into `to`.
const double* gather(const double* from, const std::size_t* lanes, std::size_t count, std::vector<double>& to) {
    to.resize(count);
    for (std::size_t i = 0; i < count; ++i) to[i] = from[lanes[i]];
    return to.data();
}

thread_local std::vector<double> u, v, w, gu, gv, gw;
thread_local std::vector<float> fast_values;

// simplex2, fbm2 and ridged2. Cloned for AVX2 and AVX-512 as the built-in's loops are: the
// coordinate loops then run 4 or 8 lanes an instruction with the same bits.
ISOTERRA_CLONES_WIDE void run_noise2(const Node& node, const Lanes& l) {
    const std::size_t n = l.count;
    const std::vector<double>& p = node.number;
    const NoiseSet* noise = l.noise;
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    u.resize(n), v.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        u[i] = noise_coordinate(xs[i] / p[0] + p[1]);
        v[i] = noise_coordinate(zs[i] / p[0] + p[2]);
    }
    const FbmShape shape = node.is("simplex2") ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape;
    double* out = l.out[0];
    run_lod_octaves(
        node, shape, l,
        [&](const FbmShape& s, const std::size_t* lanes, std::size_t m, double* to) {
            const double *pu = u.data(), *pv = v.data();
            if (lanes) pu = gather(u.data(), lanes, m, gu), pv = gather(v.data(), lanes, m, gv);
            if (node.fast_noise) {
                fast_values.resize(m);
                FastSimplex2(noise->seed).fbm_points(pu, pv, m, s, fast_values.data());
                std::copy(fast_values.begin(), fast_values.begin() + static_cast<std::ptrdiff_t>(m), to);
            } else {
                noise->noise2.fbm_batch(pu, pv, to, m, s);
            }
        },
        out);
    if (node.is("ridged2"))
        for (std::size_t i = 0; i < n; ++i) out[i] = ridge_profile(out[i], p[3], p[4], p[5]);
}

// simplex3 and fbm3 at points (the lattice path runs them on the lattice kernel).
ISOTERRA_CLONES_WIDE void run_noise3(const Node& node, const Lanes& l) {
    const std::size_t n = l.count;
    const std::vector<double>& p = node.number;
    const NoiseSet* noise = l.noise;
    const double* xs = coordinate(node, l, 0, l.x);
    const double* ys = coordinate(node, l, 1, l.y);
    const double* zs = coordinate(node, l, 2, l.z);
    u.resize(n), v.resize(n), w.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        u[i] = noise_coordinate(xs[i] / p[0] + p[2]);
        v[i] = noise_coordinate(ys[i] / p[1] + p[3]);
        w[i] = noise_coordinate(zs[i] / p[0] + p[4]);
    }
    const bool single = node.kind->lattice == LatticeKernel::noise;
    const FbmShape shape = single ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape;
    run_lod_octaves(
        node, shape, l,
        [&](const FbmShape& s, const std::size_t* lanes, std::size_t m, double* to) {
            const double *pu = u.data(), *pv = v.data(), *pw = w.data();
            if (lanes) pu = gather(u.data(), lanes, m, gu), pv = gather(v.data(), lanes, m, gv), pw = gather(w.data(), lanes, m, gw);
            if (node.fast_noise) {
                fast_values.resize(m);
                FastSimplex3(noise->seed).fbm_points(pu, pv, pw, m, s, fast_values.data());
                std::copy(fast_values.begin(), fast_values.begin() + static_cast<std::ptrdiff_t>(m), to);
            } else if (single) {
                noise->noise3.batch(pu, pv, pw, to, m);
            } else {
                for (std::size_t i = 0; i < m; ++i) to[i] = fbm3(noise->noise3, pu[i], pv[i], pw[i], s);
            }
        },
        l.out[0]);
}

ISOTERRA_CLONES_WIDE void run_warp2(const Node& node, const Lanes& l) {
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    for (std::size_t i = 0; i < l.count; ++i) {
        double wx = noise_coordinate(xs[i]), wz = noise_coordinate(zs[i]);
        warp2(l.noise->noise2, node.number[0], node.number[1], wx, wz);
        l.out[0][i] = wx, l.out[1][i] = wz;
    }
}

ISOTERRA_CLONES_WIDE void run_warp3(const Node& node, const Lanes& l) {
    const double* xs = coordinate(node, l, 0, l.x);
    const double* ys = coordinate(node, l, 1, l.y);
    const double* zs = coordinate(node, l, 2, l.z);
    for (std::size_t i = 0; i < l.count; ++i) {
        double wx = noise_coordinate(xs[i]), wy = noise_coordinate(ys[i]), wz = noise_coordinate(zs[i]);
        warp3(l.noise->noise3, node.number[0], node.number[1], wx, wy, wz);
        l.out[0][i] = wx, l.out[1][i] = wy, l.out[2][i] = wz;
    }
}

ISOTERRA_CLONES_WIDE void run_ridge_profile(const Node& node, const PointwiseLanes& l) {
    const double* a = l.a;
    double* out = l.out;
    const std::vector<double>& p = node.number;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = ridge_profile(a[i], p[0], p[1], p[2]);
}

// The coordinate a noise reads: (c / scale + offset), held to +-1e9 as the evaluator does.
ValueRange noise_coordinate(const ValueRange& c, double scale, double offset) {
    if (!std::isfinite(c.lo) || !std::isfinite(c.hi)) return kAll;
    const ValueRange r = widen({c.lo / scale + offset, c.hi / scale + offset}, std::fabs(offset));
    return {std::clamp(r.lo, -1e9, 1e9), std::clamp(r.hi, -1e9, 1e9)};
}

// fBm of 2D noise over a rectangle of noise coordinates: the centre's value, plus or minus
// the most it can change over half the diagonal, within its largest value. The fast flavour
// (`fast`) works in float: a value is within about 1e-6 x its largest of the exact function
// whose slope the bound is (float offsets times the slope, and the sum), allowed for with
// room, twice (the centre's and the sample's).
ValueRange fbm2_range(const NoiseSet& noise, bool fast, const ValueRange& u, const ValueRange& v, const FbmShape& shape) {
    const double most = shape.max_abs();
    if (!std::isfinite(u.lo) || !std::isfinite(v.lo) || !std::isfinite(u.hi) || !std::isfinite(v.hi)) return widen({-most, most});
    const double cu = 0.5 * (u.lo + u.hi), cv = 0.5 * (v.lo + v.hi);
    // The centre may round off the middle: the reach is measured from it to the far corner.
    const double reach = std::hypot(std::max(cu - u.lo, u.hi - cu), std::max(cv - v.lo, v.hi - cv));
    const double centre = fast ? FastSimplex2(noise.seed).fbm(cu, cv, shape) : fbm2(noise.noise2, cu, cv, shape);
    const double change = shape.variation(fast ? FastSimplex2::kLipschitz : Simplex2::kLipschitz, reach) + (fast ? 1e-5 * most : 0.0);
    return widen({std::max(centre - change, -most), std::min(centre + change, most)}, most);
}

ValueRange ridge_range(const ValueRange& n, double sharpness, double crest, double exponent) {
    // ridge_profile falls as |n| grows.
    const ValueRange size = abs_of(n);
    return monotone(
        size, [&](double v) { return ridge_profile(v, sharpness, crest, exponent); }, false, 1.0);
}

NodeRanges noise2_ranges(const Node& node, const RC& c) {
    const std::vector<double>& p = node.number;
    const ValueRange uc = noise_coordinate(c.axis(node, 0, c.x()), p[0], p[1]);
    const ValueRange vc = noise_coordinate(c.axis(node, 1, c.z()), p[0], p[2]);
    const FbmShape shape = node.is("simplex2") ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape;
    NodeRanges out;
    out[0] = fbm2_range(c.noise, node.fast_noise, uc, vc, shape);
    // With `lod`, a World column's level may keep any first octaves, blended with all
    // (run/lod.hpp): within the hull of every such sum (none: 0).
    for (FbmShape part = shape; node.lod && part.octaves > 0;) {
        --part.octaves;
        const ValueRange r = part.octaves > 0 ? fbm2_range(c.noise, node.fast_noise, uc, vc, part) : point(0.0);
        out[0] = widen({std::min(out[0].lo, r.lo), std::max(out[0].hi, r.hi)});  // the blend's rounding
    }
    if (node.is("ridged2")) out[0] = ridge_range(out[0], p[3], p[4], p[5]);
    return out;
}

// warp2 and warp3: each coordinate moves by noise (within [-1, 1]) times the distance.
NodeRanges warp_ranges(const Node& node, const RC& c) {
    const double d = node.number[1];
    const int axes = node.ports;
    const ValueRange sides[3] = {c.x(), axes == 2 ? c.z() : c.y(), c.z()};
    NodeRanges out;
    for (int k = 0; k < axes; ++k) {
        const ValueRange s = c.axis(node, k, sides[k]);
        const ValueRange held = std::isfinite(s.lo) && std::isfinite(s.hi)
                                    ? ValueRange{std::clamp(s.lo, -1e9, 1e9), std::clamp(s.hi, -1e9, 1e9)}
                                    : ValueRange{-1e9, 1e9};
        out[static_cast<std::size_t>(k)] = widen({held.lo - d, held.hi + d}, d);
    }
    return out;
}

// The seed flavour's lattice kernel is within 2e-6 of its double path; the fast flavour's
// one path stays within [-0.9975, 0.9975].
NodeRanges simplex3_ranges(const Node& node, const RC&) {
    NodeRanges out;
    out[0] = node.fast_noise ? ValueRange{-1.0, 1.0} : ValueRange{-1.0 - 1e-5, 1.0 + 1e-5};
    return out;
}

NodeRanges fbm3_ranges(const Node& node, const RC&) {
    const double most = node.shape.max_abs();
    NodeRanges out;
    out[0] = widen({-most, most}, most);
    return out;
}

// The vertical scale: absent, the scale.
void vertical_scale(Node& node, const NodeSetup&) {
    if (std::isnan(node.number[1])) node.number[1] = node.number[0];
}

}  // namespace

NodeFamily nodes_noise() {
    using namespace rows;
    const double nan = std::nan("");
    const auto ridge = [] {
        return std::vector<InputSpec>{number("sharpness", false, 1.0, 0, 100, true), number("crest", false, 0.0, 0, 100),
                                      number("exponent", false, 1.0, 1, 8)};
    };
    const std::vector<InputSpec> at2 = {coordinate("x"), coordinate("z"), scale("scale_m"), point(InputKind::point2, "offset", false),
                                        flavour()};
    const std::vector<InputSpec> at3 = {coordinate("x"),
                                        coordinate("y"),
                                        coordinate("z"),
                                        scale("scale_m"),
                                        scale("vertical_scale_m", nan),
                                        point(InputKind::point3, "offset", false),
                                        flavour()};
    // clang-format off
    return {30, {
        {.name = "simplex2", .inputs = at2,
         .formula = "2D simplex noise at (x / scale_m + offset[0], z / scale_m + offset[1]), in [-1, 1]; noise = \"fast\" for the fast flavour",
         .run = run_noise2, .ranges = noise2_ranges, .noise = true, .lod = true},
        {.name = "fbm2", .inputs = join(at2, fbm_inputs()),
         .formula = "fBm of 2D simplex noise at (x / scale_m + offset[0], z / scale_m + offset[1]); noise = \"fast\" for the fast flavour (octave o: seed + o)",
         .run = run_noise2, .ranges = noise2_ranges, .noise = true, .lod = true},
        {.name = "ridged2", .inputs = join(join(at2, fbm_inputs()), ridge()),
         .formula = "ridge_profile of fbm2: 1 at the noise's zero lines, in [0, 1]",
         .run = run_noise2, .ranges = noise2_ranges, .noise = true, .lod = true, .unsigned_zero = true},
        {.name = "simplex3", .inputs = at3,
         .formula = "3D simplex noise at (x / scale_m, y / vertical_scale_m, z / scale_m) + offset, in [-1, 1]; noise = \"fast\" for the fast flavour",
         .run = run_noise3, .ranges = simplex3_ranges, .setup = vertical_scale, .noise = true, .lod = true, .lattice = LatticeKernel::noise},
        {.name = "fbm3", .inputs = join(at3, fbm_inputs()),
         .formula = "fBm of 3D simplex noise; noise = \"fast\" for the fast flavour (octave o: seed + o)",
         .run = run_noise3, .ranges = fbm3_ranges, .setup = vertical_scale, .noise = true, .lod = true, .lattice = LatticeKernel::fbm},
        {.name = "ridge_profile", .inputs = join({value("in")}, ridge()),
         .formula = "max(1 - hypot(in * sharpness, crest), 0) ^ exponent, in [0, 1]", .pointwise = run_ridge_profile,
         .ranges = [](const Node& n, const RC& c) {
             NodeRanges out;
             out[0] = ridge_range(c.in[0], n.number[0], n.number[1], n.number[2]);
             return out;
         },
         .unsigned_zero = true},
        {.name = "warp2", .inputs = {coordinate("x"), coordinate("z"), scale("scale_m"), number("distance_m", true, 0, 0, 1e6)},
         .formula = "(x, z) moved by up to distance_m by 2D noise; outputs 'ID.x' and 'ID.z'", .outputs = "x,z",
         .run = run_warp2, .ranges = warp_ranges, .noise = true},
        {.name = "warp3",
         .inputs = {coordinate("x"), coordinate("y"), coordinate("z"), scale("scale_m"), number("distance_m", true, 0, 0, 1e6)},
         .formula = "(x, y, z) moved by up to distance_m by 3D noise; outputs 'ID.x', 'ID.y' and 'ID.z'", .outputs = "x,y,z",
         .run = run_warp3, .ranges = warp_ranges, .noise = true},
    }};
    // clang-format on
}

}  // namespace isoterra::graph
