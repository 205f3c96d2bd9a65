// Interval arithmetic over a compiled graph: each node's range over a box from its inputs'
// ranges. Results are widened by 16 ulps of the largest magnitude involved, which covers
// the rounding of every formula here (each is a few operations), so a sampled value never
// falls outside by rounding. Noises: 2D ones by their proven slope (Simplex2::kLipschitz)
// around the centre value, 3D ones by their value range (they have tiny jumps).
#include "graph_intervals.hpp"
#include "height_raster.hpp"
#include "landform_nodes.hpp"
#include "../terrain_node.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include <glm/geometric.hpp>

namespace isoterra::graph {
namespace {

const ValueRange kAll{-kInf, kInf};

double magnitude(const ValueRange& r) { return std::max(std::fabs(r.lo), std::fabs(r.hi)); }

// Outward by 16 ulps of the largest of the result and `scale`; NaN means anything.
ValueRange widen(ValueRange r, double scale = 0.0) {
    if (std::isnan(r.lo) || std::isnan(r.hi)) return kAll;
    const double slack = std::max(magnitude(r), scale) * 0x1p-48 + DBL_TRUE_MIN;
    if (std::isfinite(slack)) r.lo -= slack, r.hi += slack;
    return r;
}

ValueRange point(double v) { return {v, v}; }
ValueRange hull(double a, double b) { return {std::min(a, b), std::max(a, b)}; }

ValueRange add(const ValueRange& a, const ValueRange& b) { return widen({a.lo + b.lo, a.hi + b.hi}, std::max(magnitude(a), magnitude(b))); }
ValueRange neg(const ValueRange& a) { return {-a.hi, -a.lo}; }
ValueRange sub(const ValueRange& a, const ValueRange& b) { return add(a, neg(b)); }
ValueRange mul(const ValueRange& a, const ValueRange& b) {
    const double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
    for (const double v : p)
        if (std::isnan(v)) return kAll;  // 0 * inf
    return widen({*std::min_element(p, p + 4), *std::max_element(p, p + 4)});
}
ValueRange min_of(const ValueRange& a, const ValueRange& b) { return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)}; }
ValueRange max_of(const ValueRange& a, const ValueRange& b) { return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)}; }
ValueRange abs_of(const ValueRange& a) {
    if (a.lo >= 0.0) return a;
    if (a.hi <= 0.0) return neg(a);
    return {0.0, std::max(-a.lo, a.hi)};
}
// A function that does not decrease (or, `rising` false, does not increase) on the range.
template <class F>
ValueRange monotone(const ValueRange& a, F f, bool rising, double scale = 0.0) {
    const double lo = f(a.lo), hi = f(a.hi);
    return widen(rising ? ValueRange{lo, hi} : ValueRange{hi, lo}, scale);
}

ValueRange smooth_min_range(const ValueRange& a, const ValueRange& b, double k) {
    // smooth_min lies between min(a, b) - k / 4 and min(a, b), up to the rounding of
    // b + (a - b) h, which is relative to the larger input.
    const ValueRange m = min_of(a, b);
    return widen({m.lo - 0.25 * k, m.hi}, std::max({magnitude(a), magnitude(b), k}));
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

ValueRange curve_range(const std::vector<glm::dvec2>& knots, const ValueRange& in) {
    const auto at = [&](double v) {
        if (v <= knots.front().x) return knots.front().y;
        if (v >= knots.back().x) return knots.back().y;
        const auto above = std::upper_bound(knots.begin(), knots.end(), v, [](double value, const glm::dvec2& k) { return value < k.x; });
        const glm::dvec2 a = *(above - 1), b = *above;
        return a.y + (v - a.x) * ((b.y - a.y) / (b.x - a.x));
    };
    double lo = at(in.lo), hi = lo, scale = 0.0;
    const double end = at(in.hi);
    lo = std::min(lo, end), hi = std::max(hi, end);
    for (const glm::dvec2& k : knots) {
        scale = std::max({scale, std::fabs(k.y), std::fabs(k.x)});
        if (k.x > in.lo && k.x < in.hi) lo = std::min(lo, k.y), hi = std::max(hi, k.y);
    }
    return widen({lo, hi}, scale);
}

// The rule of node `n` (the ranges' switch, one case per node type, as evaluate() is the
// values'): its ranges over `box` (`nbox`: the box its rule reads, grown for a
// node on a grid) from its inputs' ranges `in` (at least three).
NodeRanges node_range(const Program& program, const NoiseSet& noise, std::size_t n, const Box& box, const Box& nbox,
                      const std::vector<ValueRange>& in) {
    const Node& node = program.nodes[n];
    const std::vector<double>& p = node.number;
    const ValueRange bx{nbox.lo.x, nbox.hi.x}, by{nbox.lo.y, nbox.hi.y}, bz{nbox.lo.z, nbox.hi.z};
    NodeRanges out;
    const ValueRange& a = in[0];
    const ValueRange& b = in[1];
    const ValueRange& c = in[2];
    // A noise node's coordinate: its input, or the box's side.
    const auto axis = [&](int slot, const ValueRange& side) {
        return node.coordinate_default[static_cast<std::size_t>(slot)] ? side : in[static_cast<std::size_t>(slot)];
    };
    switch (node.op) {
        case Op::x: out[0] = bx; break;
        case Op::y: out[0] = by; break;
        case Op::z: out[0] = bz; break;
        case Op::constant: out[0] = point(p[0]); break;
        case Op::add: out[0] = add(a, b); break;
        case Op::sub: out[0] = sub(a, b); break;
        case Op::mul: out[0] = mul(a, b); break;
        case Op::min:
        case Op::union_: out[0] = min_of(a, b); break;
        case Op::max:
        case Op::intersect: out[0] = max_of(a, b); break;
        case Op::subtract: out[0] = max_of(a, neg(b)); break;
        case Op::neg: out[0] = neg(a); break;
        case Op::abs: out[0] = abs_of(a); break;
        case Op::clamp: out[0] = min_of(max_of(a, b), c); break;
        case Op::lerp: out[0] = add(a, mul(sub(b, a), c)); break;
        case Op::smoothstep:
            out[0] = monotone(
                a, [&](double v) { return smoothstep(p[0], p[1], v); }, p[1] > p[0], 1.0);
            break;
        case Op::pow:
            out[0] = monotone(
                a, [&](double v) { return std::pow(std::max(v, 0.0), p[0]); }, true);
            break;
        case Op::remap: {
            const double slope = (p[3] - p[2]) / (p[1] - p[0]);
            const auto f = [&](double v) { return p[2] + (v - p[0]) * slope; };
            out[0] = widen(hull(f(a.lo), f(a.hi)),
                           std::max({std::fabs(p[2]), std::fabs((a.lo - p[0]) * slope), std::fabs((a.hi - p[0]) * slope)}));
            break;
        }
        case Op::curve: out[0] = curve_range(node.knots, a); break;
        case Op::terrace: {
            const double lo = std::floor(a.lo / p[0]) * p[0];
            const double hi = std::floor(a.hi / p[0]) * p[0] + (p[1] > 0.0 ? p[0] : 0.0);
            out[0] = widen({lo, hi}, p[0]);
            break;
        }
        case Op::hypot: {
            const ValueRange ma = abs_of(a), mb = abs_of(b);
            out[0] = widen({std::hypot(ma.lo, mb.lo), std::hypot(ma.hi, mb.hi)});
            break;
        }
        case Op::plane: out[0] = sub(by, a); break;
        case Op::sphere: {
            const glm::dvec3 centre(p[0], p[1], p[2]);
            const glm::dvec3 nearest = glm::clamp(centre, box.lo, box.hi);
            const glm::dvec3 far = glm::max(glm::abs(box.lo - centre), glm::abs(box.hi - centre));
            // the radius is the node's one value input
            out[0] = widen({glm::length(nearest - centre) - a.hi, glm::length(far) - a.lo}, std::max(glm::length(far), magnitude(a)));
            break;
        }
        case Op::box: {
            // A distance changes by at most the distance moved.
            const glm::dvec3 mid = (box.lo + box.hi) * 0.5;
            const double reach = glm::length(glm::max(mid - box.lo, box.hi - mid));
            const double v = box_distance(mid, {p[0], p[1], p[2]}, {p[3], p[4], p[5]});
            out[0] = widen({v - reach, v + reach}, std::max(std::fabs(v), reach));
            break;
        }
        case Op::smooth_union: out[0] = smooth_min_range(a, b, p[0]); break;
        case Op::smooth_subtract: out[0] = neg(smooth_min_range(neg(a), b, p[0])); break;
        case Op::simplex2:
        case Op::fbm2:
        case Op::ridged2: {
            const ValueRange u = noise_coordinate(axis(0, bx), p[0], p[1]);
            const ValueRange v = noise_coordinate(axis(1, bz), p[0], p[2]);
            const FbmShape shape = node.op == Op::simplex2 ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape;
            out[0] = fbm2_range(noise, node.fast_noise, u, v, shape);
            // With `lod`, a World column's level may keep any first octaves, blended with all
            // (graph_lod.hpp): within the hull of every such sum (none: 0).
            for (FbmShape part = shape; node.lod && part.octaves > 0;) {
                --part.octaves;
                const ValueRange r = part.octaves > 0 ? fbm2_range(noise, node.fast_noise, u, v, part) : point(0.0);
                out[0] = widen({std::min(out[0].lo, r.lo), std::max(out[0].hi, r.hi)});  // the blend's rounding
            }
            if (node.op == Op::ridged2) out[0] = ridge_range(out[0], p[3], p[4], p[5]);
            break;
        }
        // The seed flavour's lattice kernel is within 2e-6 of its double path; the fast
        // flavour's one path stays within [-0.9975, 0.9975].
        case Op::simplex3: out[0] = node.fast_noise ? ValueRange{-1.0, 1.0} : ValueRange{-1.0 - 1e-5, 1.0 + 1e-5}; break;
        case Op::fbm3: {
            const double most = node.shape.max_abs();
            out[0] = widen({-most, most}, most);
            break;
        }
        case Op::ridge_profile: out[0] = ridge_range(a, p[0], p[1], p[2]); break;
        case Op::fold: out[0] = fold_range(a); break;
        case Op::dfbm2: out = dfbm2_ranges(node, {program, noise, nbox, in, n}); break;
        case Op::erosion: out = erosion_ranges(node, {program, noise, nbox, in, n}); break;
        case Op::spline: out[0] = spline_range(node, {program, noise, nbox, in, n}); break;
        case Op::slope: out[0] = slope_range(node, {program, noise, nbox, in, n}); break;
        case Op::curvature: out[0] = curvature_range(node, {program, noise, nbox, in, n}); break;
        case Op::cellular: out = cellular_ranges(node, {program, noise, nbox, in, n}); break;
        case Op::drainage: out = drainage_ranges(node, {program, noise, nbox, in, n}); break;
        case Op::terrain: out[0] = terrain_range(node, noise, nbox); break;
        case Op::terrain_ground: out[0] = terrain_ground_range(node, noise, nbox); break;
        case Op::heightmap: {
            const ValueRange u = axis(0, bx), v = axis(1, bz);
            out[0] = widen(node.raster->range(u.lo, u.hi, v.lo, v.hi));
            break;
        }
        case Op::warp2:
        case Op::warp3: {
            // Each coordinate moves by noise (within [-1, 1]) times the distance.
            const double d = p[1];
            const int axes = node.op == Op::warp2 ? 2 : 3;
            const ValueRange sides[3] = {bx, node.op == Op::warp2 ? bz : by, bz};
            for (int k = 0; k < axes; ++k) {
                const ValueRange s = axis(k, sides[k]);
                const ValueRange held = std::isfinite(s.lo) && std::isfinite(s.hi)
                                            ? ValueRange{std::clamp(s.lo, -1e9, 1e9), std::clamp(s.hi, -1e9, 1e9)}
                                            : ValueRange{-1e9, 1e9};
                out[static_cast<std::size_t>(k)] = widen({held.lo - d, held.hi + d}, d);
            }
            break;
        }
    }
    return out;
}

}  // namespace

ValueRange operand_range(const std::vector<NodeRanges>& ranges, const Operand& op) {
    if (op.is_constant()) return point(op.constant);
    return ranges[static_cast<std::size_t>(op.node)][static_cast<std::size_t>(op.port)];
}

std::vector<NodeRanges> node_intervals(const Program& program, const NoiseSet& noise, const Box& box, const PinnedRange* pin,
                                       std::size_t upto) {
    std::vector<NodeRanges> ranges(program.nodes.size());
    std::vector<ValueRange> in;  // most nodes have at most three value inputs; a spline one per knot
    for (std::size_t n = 0; n < std::min(upto, program.nodes.size()); ++n) {
        const Node& node = program.nodes[n];
        in.assign(std::max<std::size_t>(node.in.size(), 3), ValueRange{});
        // A node on a grid takes values at grid nodes up to a step beyond the box (its lanes'
        // values lie between them): its rule over the grown box, with its inputs' there.
        const bool gridded = node.grid_m > 0.0;
        const Box grown{box.lo - glm::dvec3(node.grid_m, 0.0, node.grid_m), box.hi + glm::dvec3(node.grid_m, 0.0, node.grid_m)};
        const Box& nbox = gridded ? grown : box;
        if (gridded) {
            const auto around = node_intervals(program, noise, grown, nullptr, n);  // a pin holds at samples only
            for (std::size_t i = 0; i < node.in.size(); ++i) in[i] = operand_range(around, node.in[i]);
        } else {
            for (std::size_t i = 0; i < node.in.size(); ++i) in[i] = operand_range(ranges, node.in[i]);
        }
        NodeRanges& out = ranges[n] = node_range(program, noise, n, box, nbox, in);
        // A level that cannot show it blends it toward its `far` (graph_lod.hpp).
        if (node.detail_m > 0.0) out[0] = widen({std::min(out[0].lo, node.far), std::max(out[0].hi, node.far)}, std::fabs(node.far));
        if (pin && !pin->output.is_constant() && pin->output.node == static_cast<int>(n)) {
            ValueRange& r = out[static_cast<std::size_t>(pin->output.port)];
            r = {std::max(r.lo, pin->range.lo), std::min(r.hi, pin->range.hi)};
        }
    }
    return ranges;
}

}  // namespace isoterra::graph
