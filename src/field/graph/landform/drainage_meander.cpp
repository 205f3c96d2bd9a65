// drainage's meanders (issue 53): each channel of every level bends across its line as
// bend sin(pi waves t), a whole number of half-waves of about meander_cells of its level's
// cells, so it leaves its source and meets the channel below on its line; an ease over the
// first and last quarter-wave levels the bends there, so consecutive channels join without a
// kink and a tributary meets its junction along its own line (its angle the network's). The
// sharpest turn, bend pi waves / length, is the node's `meander`: a sine of slope a has
// sinuosity about 1 + a^2 / 4 for small a.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

namespace {
// The ease at share x of a quarter-wave from an end, and its derivative in x.
double ease(double x, double* slope) {
    if (x >= 1.0) return *slope = 0.0, 1.0;
    if (!(x > 0.0)) return *slope = 0.0, 0.0;
    *slope = 6.0 * x * (1.0 - x);
    return x * x * (3.0 - 2.0 * x);
}
}  // namespace

double meander_offset(const Channel& c, double t, double* slope) {
    if (c.bend == 0.0) return *slope = 0.0, 0.0;
    const double quarter = 0.25 / c.waves;  // an eighth of a wave: the share of the channel eased
    double ds0 = 0.0, ds1 = 0.0;
    const double e0 = ease(t / quarter, &ds0), e1 = ease((1.0 - t) / quarter, &ds1);
    const double e = e0 * e1, de = (ds0 * e1 - e0 * ds1) / quarter;
    const double phase = std::numbers::pi * c.waves * t;
    const double s = std::sin(phase);
    *slope = c.bend * (std::numbers::pi * c.waves * std::cos(phase) * e + s * de);
    return c.bend * s * e;
}

double felt_offset(const Channel& c, double t, double s, double* dt, double* ds) {
    *dt = *ds = 0.0;
    if (c.bend == 0.0) return 0.0;
    const double reach = std::abs(s), bend = std::abs(c.bend);
    const double wavelength = 2.0 / (c.waves * std::sqrt(c.inv_len2));
    const double r0 = 2.0 * bend, r1 = 4.0 * bend + 0.5 * wavelength;
    if (reach >= r1) return 0.0;
    double slope = 0.0;
    const double m = meander_offset(c, t, &slope);
    if (reach <= r0) return *dt = slope, m;
    // 1 - smoothstep(r0, r1, |s|): its slope less than 0.75 / the bend, so the distance
    // across the line still grows with |s| and the valley sides rise without a fold.
    const double x = (reach - r0) / (r1 - r0);
    const double fade = 1.0 - x * x * (3.0 - 2.0 * x);
    const double dfade = -6.0 * x * (1.0 - x) / (r1 - r0) * (s < 0.0 ? -1.0 : 1.0);
    *dt = slope * fade;
    *ds = m * dfade;
    return m * fade;
}

glm::dvec2 channel_point(const Channel& c, double t) {
    const glm::dvec2 qr = c.r - c.q;
    double slope = 0.0;
    const double offset = meander_offset(c, t, &slope);
    return c.q + t * qr + (offset == 0.0 ? glm::dvec2(0.0) : offset * std::sqrt(c.inv_len2) * glm::dvec2(-qr.y, qr.x));
}

double channel_distance(const Channel& c, const glm::dvec2& at, double* share) {
    const double t = std::clamp(glm::dot(at - c.q, c.r - c.q) * c.inv_len2, 0.0, 1.0);
    if (share) *share = t;
    if (c.bend == 0.0) return glm::length(at - channel_point(c, t));
    const glm::dvec2 qr = c.r - c.q;
    const glm::dvec2 across = std::sqrt(c.inv_len2) * glm::dvec2(-qr.y, qr.x);
    const glm::dvec2 on_line = c.q + t * qr;
    double dt = 0.0, ds = 0.0;
    return glm::length(at - on_line - felt_offset(c, t, glm::dot(at - on_line, across), &dt, &ds) * across);
}

void bend_channel(const Params& p, std::uint64_t hash, Channel& c) {
    if (!(p.meander > 0.0) || !(c.inv_len2 > 0.0)) return;
    const double length = 1.0 / std::sqrt(c.inv_len2);
    const double half_wave = 0.5 * p.meander_cells * p.cell(c.level);
    c.waves = std::max(1.0, std::round(length / half_wave));
    // Which side it bends to first: the channel's own coin.
    const double side = cell_random(hash, 2) < 0.5 ? -1.0 : 1.0;
    c.bend = side * p.meander * length / (std::numbers::pi * c.waves);
}

}  // namespace isoterra::graph::drainage

namespace isoterra {

glm::dvec2 GraphChannel::point(double t) const {
    graph::drainage::Channel c;
    c.q = from, c.r = to;
    c.inv_len2 = 1.0 / glm::dot(to - from, to - from);
    c.bend = bend, c.waves = waves;
    return graph::drainage::channel_point(c, t);
}

}  // namespace isoterra
