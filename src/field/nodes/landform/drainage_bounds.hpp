// The drainage node's bounds (internal to landform/): how near a channel comes to a group of
// lanes' rectangle and how far from it, and how low its valley can lie there or at one lane,
// so that drainage.cpp weighs only the channels that can matter (and skips the rest before
// the valley's own work, with the same bits as weighing them).
#pragma once

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

// The distance from a segment to a rectangle (0 where they meet), and the farthest a point
// of the rectangle lies from the segment (at a corner: the distance to a segment is convex).
inline double point_segment(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b) {
    const glm::dvec2 ab = b - a;
    const double len2 = glm::dot(ab, ab);
    const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    return glm::length(p - (a + t * ab));
}
inline double point_box(const glm::dvec2& p, const glm::dvec2& lo, const glm::dvec2& hi) {
    return glm::length(glm::max(glm::max(lo - p, p - hi), glm::dvec2(0.0)));
}
inline bool segments_cross(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c, const glm::dvec2& d) {
    const auto cross = [](const glm::dvec2& u, const glm::dvec2& v) { return u.x * v.y - u.y * v.x; };
    const double d1 = cross(b - a, c - a), d2 = cross(b - a, d - a), d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}
inline double segment_box_nearest(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& lo, const glm::dvec2& hi) {
    const auto inside = [&](const glm::dvec2& p) { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; };
    if (inside(a) || inside(b)) return 0.0;
    const glm::dvec2 corner[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
    for (int e = 0; e < 4; ++e)
        if (segments_cross(a, b, corner[e], corner[(e + 1) % 4])) return 0.0;
    double d = std::min(point_box(a, lo, hi), point_box(b, lo, hi));
    for (const glm::dvec2& c : corner) d = std::min(d, point_segment(c, a, b));
    return d;
}
inline double segment_box_farthest(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& lo, const glm::dvec2& hi) {
    const glm::dvec2 corner[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
    double d = 0.0;
    for (const glm::dvec2& c : corner) d = std::max(d, point_segment(c, a, b));
    return d;
}

// No point at least `near` from channel ch's line has its valley lower than this: the water
// no lower than its mouth's, the sides and the floodplain risen at that distance, the whole
// bed cut (Network::valley's terms, each at its least; its lift over the window comes on top).
inline double valley_at_least(const Params& p, const Channel& ch, double near) {
    const double beyond = rise_beyond_floor(near, p.floor_at(ch.level));
    return ch.zr - p.bed_depth_at(ch.level) + p.slope_at(ch.level) * beyond + p.floodplain * (near - beyond);
}

// No valley of channel ch at `at` is lower than this: Network::valley's terms at their least
// there, its water exact (it depends on the closest point's share along the line only, which
// a bend leaves), its distance no less than to the line less the most the bends stray (and a
// little for the rounding), its bed cut only where that distance is inside the bed.
// `sway`: most_offset(ch), worked out once per channel by the caller.
inline double lane_valley_at_least(const Params& p, const Channel& ch, double sway, const glm::dvec2& at) {
    const glm::dvec2 qr = ch.r - ch.q;
    const double t = std::clamp(glm::dot(at - ch.q, qr) * ch.inv_len2, 0.0, 1.0);
    const double line = glm::length(at - (ch.q + t * qr));
    const double near = std::max(0.0, line - sway - 1e-9 * (line + 1.0));
    const double water = std::max(ch.zr + (ch.zq - ch.zr) * power(1.0 - t, ch.gamma), p.sea_level);
    const double beyond = rise_beyond_floor(near, p.floor_at(ch.level));
    const double bed = near < p.bed_width_at(ch.level) ? p.bed_depth_at(ch.level) : 0.0;
    return water - bed + p.slope_at(ch.level) * beyond + p.floodplain * (near - beyond);
}

}  // namespace isoterra::graph::drainage
