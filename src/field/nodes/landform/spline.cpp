// spline: a monotone cubic Hermite interpolant through knots (x_i, y_i) (Fritsch and Carlson
// 1980; slopes as Fritsch and Butland 1984 and PCHIP): the slope at an inner knot is 0 where
// the secants either side differ in sign, else their weighted harmonic mean; at the ends a
// three-point estimate kept to the first secant's sign and to three times it. Every slope is
// then within [0, 3] times the secants beside it, so each piece is monotone between its two
// knots: no overshoot. Flat beyond the ends. The y_i may be nodes (nested splines), so the
// slopes are found per lane, from the four knots around the lane's piece.
#include <algorithm>
#include <cmath>

#include "landform.hpp"

namespace isoterra::graph {
namespace {

// The interpolant at v for knots x (node.knots[i].x) and values y(i).
template <class Y>
double spline_at(const std::vector<glm::dvec2>& knots, const Y& y, double v) {
    const std::size_t n = knots.size();
    if (std::isnan(v)) return v;
    if (v <= knots.front().x) return y(0);
    if (v >= knots.back().x) return y(n - 1);
    const auto above = std::upper_bound(knots.begin(), knots.end(), v, [](double value, const glm::dvec2& k) { return value < k.x; });
    const std::size_t k = static_cast<std::size_t>(above - knots.begin()) - 1;  // x_k <= v < x_k+1
    const auto width = [&](std::size_t i) { return knots[i + 1].x - knots[i].x; };
    const auto secant = [&](std::size_t i) { return (y(i + 1) - y(i)) / width(i); };
    const auto sign = [](double s) { return (s > 0.0) - (s < 0.0); };
    const auto slope = [&](std::size_t i) -> double {
        if (n == 2) return secant(0);
        if (i == 0 || i == n - 1) {
            // The end's secant d0 and the next one in, d1.
            const std::size_t near = i == 0 ? 0 : n - 2, next = i == 0 ? 1 : n - 3;
            const double d0 = secant(near), d1 = secant(next), h0 = width(near), h1 = width(next);
            const double m = ((2.0 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
            if (sign(m) != sign(d0)) return 0.0;
            if (sign(d0) != sign(d1) && std::fabs(m) > 3.0 * std::fabs(d0)) return 3.0 * d0;
            return m;
        }
        const double d0 = secant(i - 1), d1 = secant(i);
        if (!(sign(d0) * sign(d1) > 0)) return 0.0;
        const double w1 = 2.0 * width(i) + width(i - 1), w2 = width(i) + 2.0 * width(i - 1);
        return (w1 + w2) / (w1 / d0 + w2 / d1);
    };
    const double h = width(k), t = (v - knots[k].x) / h;
    const double y0 = y(k), y1 = y(k + 1);
    const double s = 1.0 - t;
    // Hermite basis: y0 (1 - h01) + y1 h01 + h (m0 h10 + m1 h11); at t = 0 exactly y0.
    const double h01 = t * t * (3.0 - 2.0 * t), h10 = t * s * s, h11 = -t * t * s;
    return y0 + h01 * (y1 - y0) + h * (slope(k) * h10 + slope(k + 1) * h11);
}

}  // namespace

void run_spline(const Node& node, const Lanes& l) {
    for (std::size_t lane = 0; lane < l.count; ++lane) {
        const auto y = [&](std::size_t i) { return l.in[1 + i][lane]; };
        l.out[0][lane] = spline_at(node.knots, y, l.in[0][lane]);
    }
}

ValueRange spline_range(const Node& node, const RangeContext& c) {
    // Each piece is monotone, so over the part of it the input reaches it lies between its
    // two knots' values, and between its values at that part's ends when the knots that fix
    // it (its own two and one either side, for the slopes) are numbers. Beyond the ends:
    // the end values.
    const std::vector<glm::dvec2>& knots = node.knots;
    const std::size_t n = knots.size();
    const auto knot = [&](std::size_t i) { return c.in[1 + i]; };
    ValueRange in = c.in[0];
    if (std::isnan(in.lo) || std::isnan(in.hi)) in = {-INFINITY, INFINITY};
    double lo = INFINITY, hi = -INFINITY, scale = 0.0;
    bool unknown = false;  // a NaN: anything
    const auto include = [&](const ValueRange& r) {
        unknown = unknown || std::isnan(r.lo) || std::isnan(r.hi);
        lo = std::min(lo, r.lo), hi = std::max(hi, r.hi);
        for (const double v : {r.lo, r.hi})
            if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
    };
    if (in.lo < knots.front().x) include(knot(0));
    if (in.hi > knots.back().x) include(knot(n - 1));
    for (std::size_t k = 0; k + 1 < n; ++k) {
        if (knots[k].x > in.hi || knots[k + 1].x < in.lo) continue;
        bool fixed = true;
        for (std::size_t i = k == 0 ? 0 : k - 1; i <= std::min(k + 2, n - 1); ++i) fixed = fixed && knot(i).lo == knot(i).hi;
        if (fixed) {
            const auto y = [&](std::size_t i) { return knot(i).lo; };
            include({spline_at(knots, y, std::max(in.lo, knots[k].x)), spline_at(knots, y, std::max(in.lo, knots[k].x))});
            include({spline_at(knots, y, std::min(in.hi, knots[k + 1].x)), spline_at(knots, y, std::min(in.hi, knots[k + 1].x))});
        } else {
            include(knot(k));
            include(knot(k + 1));
        }
    }
    if (unknown) return {-INFINITY, INFINITY};
    // The Hermite sum rounds within a few ulps of the largest value it adds (|h m| is at
    // most three times the piece's rise).
    const double slack = scale * 0x1p-44;
    return {lo - slack, hi + slack};
}

}  // namespace isoterra::graph
