// The shape and CSG nodes: a plane, a ball and a box as exact signed distances, and the
// unions, intersections and cuts of solids, sharp or rounded. Pointwise, each with its
// interval rule; the CSG nodes are guards the gates read (run/gates.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "field/run/eval.hpp"
#include "field/run/intervals.hpp"
#include "table.hpp"
#include "isoterra/field.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {
namespace {

using namespace interval;

ValueRange smooth_min_range(const ValueRange& a, const ValueRange& b, double k) {
    // smooth_min lies between min(a, b) - k / 4 and min(a, b), up to the rounding of
    // b + (a - b) h, which is relative to the larger input.
    const ValueRange m = min_of(a, b);
    return widen({m.lo - 0.25 * k, m.hi}, std::max({magnitude(a), magnitude(b), k}));
}

// clang-format off
ISOTERRA_CLONES_WIDE void run_plane(const Node&, const PL& l) {
    const double* a = l.a; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = l.y[i] - a[i];
}
ISOTERRA_CLONES_WIDE void run_sphere(const Node& node, const PL& l) {
    const double* a = l.a; double* out = l.out; const std::vector<double>& p = node.number;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = sphere_distance({l.x[i], l.y[i], l.z[i]}, {p[0], p[1], p[2]}, a[i]);
}
ISOTERRA_CLONES_WIDE void run_box(const Node& node, const PL& l) {
    double* out = l.out; const std::vector<double>& p = node.number;
    for (std::size_t i = 0; i < l.count; ++i)
        out[i] = box_distance({l.x[i], l.y[i], l.z[i]}, {p[0], p[1], p[2]}, {p[3], p[4], p[5]});
}
ISOTERRA_CLONES_WIDE void run_union(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = op_union(a[i], b[i]);
}
ISOTERRA_CLONES_WIDE void run_intersect(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = op_intersect(a[i], b[i]);
}
ISOTERRA_CLONES_WIDE void run_subtract(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = op_subtract(a[i], b[i]);
}
ISOTERRA_CLONES_WIDE void run_smooth_union(const Node& node, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out; const double k = node.number[0];
    for (std::size_t i = 0; i < l.count; ++i) out[i] = op_smooth_union(a[i], b[i], k);
}
ISOTERRA_CLONES_WIDE void run_smooth_subtract(const Node& node, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out; const double k = node.number[0];
    for (std::size_t i = 0; i < l.count; ++i) out[i] = op_smooth_subtract(a[i], b[i], k);
}
// clang-format on

NodeRanges sphere_range(const Node& node, const RC& c) {
    const std::vector<double>& p = node.number;
    const ValueRange& a = c.in[0];  // the radius is the node's one value input
    const glm::dvec3 centre(p[0], p[1], p[2]);
    const glm::dvec3 nearest = glm::clamp(centre, c.box.lo, c.box.hi);
    const glm::dvec3 far = glm::max(glm::abs(c.box.lo - centre), glm::abs(c.box.hi - centre));
    return one(widen({glm::length(nearest - centre) - a.hi, glm::length(far) - a.lo}, std::max(glm::length(far), magnitude(a))));
}

NodeRanges box_range(const Node& node, const RC& c) {
    // A distance changes by at most the distance moved.
    const std::vector<double>& p = node.number;
    const glm::dvec3 mid = (c.box.lo + c.box.hi) * 0.5;
    const double reach = glm::length(glm::max(mid - c.box.lo, c.box.hi - mid));
    const double v = box_distance(mid, {p[0], p[1], p[2]}, {p[3], p[4], p[5]});
    return one(widen({v - reach, v + reach}, std::max(std::fabs(v), reach)));
}

}  // namespace

NodeFamily nodes_shapes() {
    using namespace rows;
    const auto ab = [] { return std::vector<InputSpec>{value("a"), value("b")}; };
    const auto abk = [] { return std::vector<InputSpec>{value("a"), value("b"), number("k", true, 1, 0, 1e6, true)}; };
    // clang-format off
    return {20, {
        {.name = "plane", .inputs = {value("height", false, 0.0)}, .formula = "y - height: solid below", .pointwise = run_plane,
         .ranges = [](const Node&, const RC& c) { return one(sub(c.y(), c.in[0])); }, .axes = kY},
        {.name = "sphere", .inputs = {point(InputKind::point3, "center", false), value("radius")}, .formula = "|p - center| - radius",
         .pointwise = run_sphere, .ranges = sphere_range, .axes = kXYZ},
        {.name = "box", .inputs = {point(InputKind::point3, "center", false), point(InputKind::point3, "half_extent", true, 0, 1e9)},
         .formula = "the exact distance to a box", .pointwise = run_box, .ranges = box_range, .axes = kXYZ},
        {.name = "union", .inputs = ab(), .formula = "min(a, b)", .pointwise = run_union,
         .ranges = [](const Node&, const RC& c) { return one(min_of(c.in[0], c.in[1])); }, .guard = Guard::min},
        {.name = "intersect", .inputs = ab(), .formula = "max(a, b)", .pointwise = run_intersect,
         .ranges = [](const Node&, const RC& c) { return one(max_of(c.in[0], c.in[1])); }, .guard = Guard::max},
        {.name = "subtract", .inputs = ab(), .formula = "max(a, -b): a with b cut away", .pointwise = run_subtract,
         .ranges = [](const Node&, const RC& c) { return one(max_of(c.in[0], neg(c.in[1]))); }, .guard = Guard::subtract},
        {.name = "smooth_union", .inputs = abk(), .formula = "smooth_min(a, b, k): min(a, b) rounded over k metres",
         .pointwise = run_smooth_union,
         .ranges = [](const Node& n, const RC& c) { return one(smooth_min_range(c.in[0], c.in[1], n.number[0])); },
         .guard = Guard::smooth_union},
        {.name = "smooth_subtract", .inputs = abk(), .formula = "-smooth_min(-a, b, k): a with b cut away, rounded over k metres",
         .pointwise = run_smooth_subtract,
         .ranges = [](const Node& n, const RC& c) { return one(neg(smooth_min_range(neg(c.in[0]), c.in[1], n.number[0]))); },
         .guard = Guard::smooth_subtract},
    }};
    // clang-format on
}

}  // namespace isoterra::graph
