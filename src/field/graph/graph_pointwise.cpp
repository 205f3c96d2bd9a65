// Pointwise nodes: those whose value at a lane depends only on their inputs and the position at
// that lane (arithmetic, CSG, shapes, curves). One loop each over the lanes given; the
// evaluator runs them over a whole batch, the fused lattice path (graph_fused.cpp) over blocks
// small enough to stay in the first-level cache. One formula per node type, so both agree bit for bit.
#include <algorithm>
#include <cmath>
#include <vector>

#include "graph_eval_parts.hpp"
#include "landform_nodes.hpp"
#include "isoterra/field.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph::eval {
namespace {

double curve_at(const std::vector<glm::dvec2>& k, double v) {
    if (v <= k.front().x) return k.front().y;
    if (v >= k.back().x) return k.back().y;
    const auto above = std::upper_bound(k.begin(), k.end(), v, [](double value, const glm::dvec2& knot) { return value < knot.x; });
    if (above == k.begin() || above == k.end()) return std::nan("");  // v is NaN
    const glm::dvec2 a = *(above - 1), b = *above;
    return a.y + (v - a.x) * ((b.y - a.y) / (b.x - a.x));
}

double terrace_at(double v, double step, double smoothness) {
    const double base = std::floor(v / step) * step;
    const double rise = smoothness > 0.0 ? smoothstep(1.0 - smoothness, 1.0, (v - base) / step) : 0.0;
    return base + step * rise;
}

}  // namespace

bool is_pointwise(const Node& node) {
    // clang-format off
    switch (node.op) {
        case Op::x: case Op::y: case Op::z: case Op::constant: case Op::add: case Op::sub: case Op::mul: case Op::min:
        case Op::max: case Op::union_: case Op::intersect: case Op::subtract: case Op::neg: case Op::abs: case Op::clamp:
        case Op::lerp: case Op::smoothstep: case Op::pow: case Op::remap: case Op::curve: case Op::terrace: case Op::hypot:
        case Op::plane: case Op::sphere: case Op::box: case Op::smooth_union: case Op::smooth_subtract:
        case Op::ridge_profile: case Op::fold:
            return true;
        default: return false;
    }
    // clang-format on
}

// Cloned for AVX2 and AVX-512 as the built-in's loops are: the loops then run 4 or 8 lanes an
// instruction with the same bits (no contraction into FMA, see CMakeLists).
ISOTERRA_CLONES_WIDE
void run_pointwise(const Node& node, const PointwiseLanes& l) {
    const std::size_t n = l.count;
    const double *a = l.a, *b = l.b, *c = l.c;
    double* out = l.out;
    const std::vector<double>& p = node.number;
    // clang-format off
    switch (node.op) {
        case Op::x: std::copy(l.x, l.x + n, out); return;
        case Op::y: std::copy(l.y, l.y + n, out); return;
        case Op::z: std::copy(l.z, l.z + n, out); return;
        case Op::constant: std::fill(out, out + n, p[0]); return;
        case Op::add: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i]; return;
        case Op::sub: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] - b[i]; return;
        case Op::mul: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] * b[i]; return;
        case Op::min: for (std::size_t i = 0; i < n; ++i) out[i] = std::min(a[i], b[i]); return;
        case Op::max: for (std::size_t i = 0; i < n; ++i) out[i] = std::max(a[i], b[i]); return;
        case Op::union_: for (std::size_t i = 0; i < n; ++i) out[i] = op_union(a[i], b[i]); return;
        case Op::intersect: for (std::size_t i = 0; i < n; ++i) out[i] = op_intersect(a[i], b[i]); return;
        case Op::subtract: for (std::size_t i = 0; i < n; ++i) out[i] = op_subtract(a[i], b[i]); return;
        case Op::neg: for (std::size_t i = 0; i < n; ++i) out[i] = -a[i]; return;
        case Op::abs: for (std::size_t i = 0; i < n; ++i) out[i] = std::fabs(a[i]); return;
        case Op::clamp: for (std::size_t i = 0; i < n; ++i) out[i] = std::min(std::max(a[i], b[i]), c[i]); return;
        case Op::lerp: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + (b[i] - a[i]) * c[i]; return;
        case Op::smoothstep: for (std::size_t i = 0; i < n; ++i) out[i] = smoothstep(p[0], p[1], a[i]); return;
        case Op::pow: for (std::size_t i = 0; i < n; ++i) out[i] = std::pow(std::max(a[i], 0.0), p[0]); return;
        case Op::remap: {
            const double slope = (p[3] - p[2]) / (p[1] - p[0]);
            for (std::size_t i = 0; i < n; ++i) out[i] = p[2] + (a[i] - p[0]) * slope;
            return;
        }
        case Op::curve: for (std::size_t i = 0; i < n; ++i) out[i] = curve_at(node.knots, a[i]); return;
        case Op::terrace: for (std::size_t i = 0; i < n; ++i) out[i] = terrace_at(a[i], p[0], p[1]); return;
        case Op::hypot:
            if (l.lattice) for (std::size_t i = 0; i < n; ++i) out[i] = std::sqrt(a[i] * a[i] + b[i] * b[i]);
            else for (std::size_t i = 0; i < n; ++i) out[i] = js_hypot(a[i], b[i]);
            return;
        case Op::plane: for (std::size_t i = 0; i < n; ++i) out[i] = l.y[i] - a[i]; return;
        case Op::sphere:
            for (std::size_t i = 0; i < n; ++i) out[i] = sphere_distance({l.x[i], l.y[i], l.z[i]}, {p[0], p[1], p[2]}, a[i]);
            return;
        case Op::box:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = box_distance({l.x[i], l.y[i], l.z[i]}, {p[0], p[1], p[2]}, {p[3], p[4], p[5]});
            return;
        case Op::smooth_union: for (std::size_t i = 0; i < n; ++i) out[i] = op_smooth_union(a[i], b[i], p[0]); return;
        case Op::smooth_subtract: for (std::size_t i = 0; i < n; ++i) out[i] = op_smooth_subtract(a[i], b[i], p[0]); return;
        case Op::ridge_profile: for (std::size_t i = 0; i < n; ++i) out[i] = ridge_profile(a[i], p[0], p[1], p[2]); return;
        case Op::fold: for (std::size_t i = 0; i < n; ++i) out[i] = fold_at(a[i]); return;
        default: return;
    }
    // clang-format on
}

}  // namespace isoterra::graph::eval
