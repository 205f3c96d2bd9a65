// The math nodes: the position, constants, arithmetic, clamps and blends, curves and steps.
// Each is pointwise (one loop over the lanes, cloned for AVX2 and AVX-512 as the built-in's
// loops are: 4 or 8 lanes an instruction with the same bits) with an interval rule.
#include <algorithm>
#include <cmath>
#include <vector>

#include "field/run/eval.hpp"
#include "field/run/intervals.hpp"
#include "table.hpp"
#include "isoterra/field.hpp"
#include "isoterra/noise.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {
namespace {

using namespace interval;

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

ValueRange curve_range(const std::vector<glm::dvec2>& knots, const ValueRange& in) {
    double lo = curve_at(knots, in.lo), hi = lo, scale = 0.0;
    const double end = curve_at(knots, in.hi);
    lo = std::min(lo, end), hi = std::max(hi, end);
    for (const glm::dvec2& k : knots) {
        scale = std::max({scale, std::fabs(k.y), std::fabs(k.x)});
        if (k.x > in.lo && k.x < in.hi) lo = std::min(lo, k.y), hi = std::max(hi, k.y);
    }
    return widen({lo, hi}, scale);
}

// clang-format off
ISOTERRA_CLONES_WIDE void run_x(const Node&, const PL& l) { std::copy(l.x, l.x + l.count, l.out); }
ISOTERRA_CLONES_WIDE void run_y(const Node&, const PL& l) { std::copy(l.y, l.y + l.count, l.out); }
ISOTERRA_CLONES_WIDE void run_z(const Node&, const PL& l) { std::copy(l.z, l.z + l.count, l.out); }
ISOTERRA_CLONES_WIDE void run_const(const Node& node, const PL& l) { std::fill(l.out, l.out + l.count, node.number[0]); }
ISOTERRA_CLONES_WIDE void run_add(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = a[i] + b[i];
}
ISOTERRA_CLONES_WIDE void run_sub(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = a[i] - b[i];
}
ISOTERRA_CLONES_WIDE void run_mul(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = a[i] * b[i];
}
ISOTERRA_CLONES_WIDE void run_min(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = std::min(a[i], b[i]);
}
ISOTERRA_CLONES_WIDE void run_max(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = std::max(a[i], b[i]);
}
ISOTERRA_CLONES_WIDE void run_neg(const Node&, const PL& l) {
    const double* a = l.a; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = -a[i];
}
ISOTERRA_CLONES_WIDE void run_abs(const Node&, const PL& l) {
    const double* a = l.a; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = std::fabs(a[i]);
}
ISOTERRA_CLONES_WIDE void run_clamp(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b, *c = l.c; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = std::min(std::max(a[i], b[i]), c[i]);
}
ISOTERRA_CLONES_WIDE void run_lerp(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b, *c = l.c; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = a[i] + (b[i] - a[i]) * c[i];
}
ISOTERRA_CLONES_WIDE void run_smoothstep(const Node& node, const PL& l) {
    const double* a = l.a; double* out = l.out; const std::vector<double>& p = node.number;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = smoothstep(p[0], p[1], a[i]);
}
ISOTERRA_CLONES_WIDE void run_pow(const Node& node, const PL& l) {
    const double* a = l.a; double* out = l.out; const std::vector<double>& p = node.number;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = std::pow(std::max(a[i], 0.0), p[0]);
}
ISOTERRA_CLONES_WIDE void run_remap(const Node& node, const PL& l) {
    const double* a = l.a; double* out = l.out; const std::vector<double>& p = node.number;
    const double slope = (p[3] - p[2]) / (p[1] - p[0]);
    for (std::size_t i = 0; i < l.count; ++i) out[i] = p[2] + (a[i] - p[0]) * slope;
}
ISOTERRA_CLONES_WIDE void run_curve(const Node& node, const PL& l) {
    const double* a = l.a; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = curve_at(node.knots, a[i]);
}
ISOTERRA_CLONES_WIDE void run_terrace(const Node& node, const PL& l) {
    const double* a = l.a; double* out = l.out; const std::vector<double>& p = node.number;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = terrace_at(a[i], p[0], p[1]);
}
ISOTERRA_CLONES_WIDE void run_hypot(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = js_hypot(a[i], b[i]);
}
ISOTERRA_CLONES_WIDE void run_hypot_lattice(const Node&, const PL& l) {
    const double *a = l.a, *b = l.b; double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = std::sqrt(a[i] * a[i] + b[i] * b[i]);
}
// clang-format on

NodeRanges remap_range(const Node& node, const RC& c) {
    const std::vector<double>& p = node.number;
    const ValueRange& a = c.in[0];
    const double slope = (p[3] - p[2]) / (p[1] - p[0]);
    const auto f = [&](double v) { return p[2] + (v - p[0]) * slope; };
    return one(
        widen(hull(f(a.lo), f(a.hi)), std::max({std::fabs(p[2]), std::fabs((a.lo - p[0]) * slope), std::fabs((a.hi - p[0]) * slope)})));
}

NodeRanges terrace_range(const Node& node, const RC& c) {
    const std::vector<double>& p = node.number;
    const double lo = std::floor(c.in[0].lo / p[0]) * p[0];
    const double hi = std::floor(c.in[0].hi / p[0]) * p[0] + (p[1] > 0.0 ? p[0] : 0.0);
    return one(widen({lo, hi}, p[0]));
}

void check_smoothstep(Node& node, const NodeSetup& s) {
    if (node.number[0] == node.number[1]) s.fail("input 'to': must differ from 'from'");
}
void check_remap(Node& node, const NodeSetup& s) {
    if (node.number[0] == node.number[1]) s.fail("input 'from': its two ends must differ");
}

}  // namespace

NodeFamily nodes_math() {
    using namespace rows;
    const auto ab = [] { return std::vector<InputSpec>{value("a"), value("b")}; };
    // clang-format off
    return {10, {
        {.name = "x", .inputs = {}, .formula = "the sample's x in metres", .pointwise = run_x,
         .ranges = [](const Node&, const RC& c) { return one(c.x()); }, .axes = kX},
        {.name = "y", .inputs = {}, .formula = "the sample's y (up) in metres", .pointwise = run_y,
         .ranges = [](const Node&, const RC& c) { return one(c.y()); }, .axes = kY},
        {.name = "z", .inputs = {}, .formula = "the sample's z in metres", .pointwise = run_z,
         .ranges = [](const Node&, const RC& c) { return one(c.z()); }, .axes = kZ},
        {.name = "const", .inputs = {number("value", true, 0, -1e300, 1e300)}, .formula = "value", .pointwise = run_const,
         .ranges = [](const Node& n, const RC&) { return one(point(n.number[0])); }},
        {.name = "add", .inputs = ab(), .formula = "a + b", .pointwise = run_add,
         .ranges = [](const Node&, const RC& c) { return one(add(c.in[0], c.in[1])); }, .bound = BoundStep::add},
        {.name = "sub", .inputs = ab(), .formula = "a - b", .pointwise = run_sub,
         .ranges = [](const Node&, const RC& c) { return one(sub(c.in[0], c.in[1])); }, .bound = BoundStep::sub},
        {.name = "mul", .inputs = ab(), .formula = "a * b", .pointwise = run_mul,
         .ranges = [](const Node&, const RC& c) { return one(mul(c.in[0], c.in[1])); },
         .guard = Guard::mask, .bound = BoundStep::mul},  // a noise times a mask: not needed where the mask is 0
        {.name = "min", .inputs = ab(), .formula = "the smaller of a and b", .pointwise = run_min,
         .ranges = [](const Node&, const RC& c) { return one(min_of(c.in[0], c.in[1])); }, .guard = Guard::min, .bound = BoundStep::min},
        {.name = "max", .inputs = ab(), .formula = "the larger of a and b", .pointwise = run_max,
         .ranges = [](const Node&, const RC& c) { return one(max_of(c.in[0], c.in[1])); }, .guard = Guard::max, .bound = BoundStep::max},
        {.name = "neg", .inputs = {value("in")}, .formula = "-in", .pointwise = run_neg,
         .ranges = [](const Node&, const RC& c) { return one(neg(c.in[0])); }, .bound = BoundStep::neg},
        {.name = "abs", .inputs = {value("in")}, .formula = "|in|", .pointwise = run_abs,
         .ranges = [](const Node&, const RC& c) { return one(abs_of(c.in[0])); }, .bound = BoundStep::abs, .unsigned_zero = true},
        {.name = "clamp", .inputs = {value("in"), value("lo"), value("hi")}, .formula = "min(max(in, lo), hi)", .pointwise = run_clamp,
         .ranges = [](const Node&, const RC& c) { return one(min_of(max_of(c.in[0], c.in[1]), c.in[2])); }},
        {.name = "lerp", .inputs = {value("a"), value("b"), value("t")}, .formula = "a + (b - a) * t", .pointwise = run_lerp,
         .ranges = [](const Node&, const RC& c) { return one(add(c.in[0], mul(sub(c.in[1], c.in[0]), c.in[2]))); }},
        {.name = "smoothstep",
         .inputs = {value("in"), number("from", true, 0, -1e9, 1e9).with("the value of in where the output is 0"),
                    number("to", true, 0, -1e9, 1e9).with("the value of in where the output is 1")},
         .formula = "t * t * (3 - 2 t), t = (in - from) / (to - from) clamped to [0, 1]", .pointwise = run_smoothstep,
         .ranges = [](const Node& n, const RC& c) {
             const std::vector<double>& p = n.number;
             return one(monotone(c.in[0], [&](double v) { return smoothstep(p[0], p[1], v); }, p[1] > p[0], 1.0));
         },
         .setup = check_smoothstep},
        {.name = "pow", .inputs = {value("in"), number("exponent", true, 1, 0, 16, true)}, .formula = "max(in, 0) ^ exponent",
         .pointwise = run_pow,
         .ranges = [](const Node& n, const RC& c) {
             return one(monotone(c.in[0], [&](double v) { return std::pow(std::max(v, 0.0), n.number[0]); }, true));
         }},
        {.name = "remap",
         .inputs = {value("in"), point(InputKind::point2, "from", true).with("[a, b]: the range of in"),
                    point(InputKind::point2, "to", true).with("[c, d]: what a and b become")},
         .formula = "c + (in - a) * ((d - c) / (b - a)) for from = [a, b], to = [c, d]; not clamped", .pointwise = run_remap,
         .ranges = remap_range, .setup = check_remap},
        {.name = "curve", .inputs = {value("in"), point(InputKind::knots, "points", true)},
         .formula = "piecewise linear through points [[x, y], ...] (x increasing), flat beyond the ends", .pointwise = run_curve,
         .ranges = [](const Node& n, const RC& c) { return one(curve_range(n.knots, c.in[0])); }},
        {.name = "terrace",
         .inputs = {value("in"), number("step", true, 1, 0, 1e9, true).with("the height of one terrace"),
                    number("smoothness", false, 0, 0, 1).with("the share of each step that rises to the next (0: sharp steps)")},
         .formula = "steps of `step`: flat for (1 - smoothness) of each step, then a smoothstep up to the next",
         .pointwise = run_terrace, .ranges = terrace_range},
        {.name = "hypot", .inputs = ab(), .formula = "sqrt(a * a + b * b)", .pointwise = run_hypot, .lattice_pointwise = run_hypot_lattice,
         .ranges = [](const Node&, const RC& c) {
             const ValueRange ma = abs_of(c.in[0]), mb = abs_of(c.in[1]);
             return one(widen({std::hypot(ma.lo, mb.lo), std::hypot(ma.hi, mb.hi)}));
         },
         .bound = BoundStep::hypot},
    }};
    // clang-format on
}

}  // namespace isoterra::graph
