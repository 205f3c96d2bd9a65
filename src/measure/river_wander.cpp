// How much rivers wander (issue 53's measure): the median sinuosity of long reaches, length
// over the distance between their ends, and the share of their length on straight pieces: a
// piece of piece_m along the river counts as straight when every point of the river within
// it lies within tolerance_m of the chord between its ends; the river length covered by any
// straight piece, over the whole length.
#include <algorithm>
#include <cmath>

#include "isoterra/measure.hpp"

namespace isoterra {
namespace {

double distance_to_line(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b) {
    const glm::dvec2 d = b - a;
    const double len2 = d.x * d.x + d.y * d.y;
    if (len2 == 0.0) return std::hypot(p.x - a.x, p.y - a.y);
    const double t = std::clamp(((p.x - a.x) * d.x + (p.y - a.y) * d.y) / len2, 0.0, 1.0);
    return std::hypot(p.x - a.x - t * d.x, p.y - a.y - t * d.y);
}

// The length of the line covered by straight pieces, a piece starting at each point.
double straight_length(const std::vector<glm::dvec2>& p, const std::vector<double>& s, double piece, double tolerance) {
    double covered = 0.0, covered_to = 0.0;  // the union of [s_i, s_i + piece], in increasing s_i
    std::size_t end = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (s.back() - s[i] < piece) break;
        end = std::max(end, i + 1);
        while (s[end] < s[i] + piece) ++end;  // s[end-1] < s_i + piece <= s[end]
        const double t = (s[i] + piece - s[end - 1]) / (s[end] - s[end - 1]);
        const glm::dvec2 b = p[end - 1] + t * (p[end] - p[end - 1]);
        bool straight = true;
        for (std::size_t k = i + 1; k < end && straight; ++k) straight = distance_to_line(p[k], p[i], b) <= tolerance;
        if (!straight) continue;
        covered += s[i] + piece - std::max(s[i], covered_to);
        covered_to = s[i] + piece;
    }
    return covered;
}

}  // namespace

RiverWander measure_wander(const std::vector<RiverReach>& reaches, RiverWander wander) {
    std::vector<double> sinuosity;
    double straight = 0.0;
    wander.length_m = 0.0;
    for (const RiverReach& reach : reaches) {
        if (reach.order < wander.min_order || reach.points.size() < 2) continue;
        std::vector<glm::dvec2> p;
        std::vector<double> s;
        for (const glm::dvec3& q : reach.points) {
            s.push_back(p.empty() ? 0.0 : s.back() + std::hypot(q.x - p.back().x, q.y - p.back().y));
            p.emplace_back(q.x, q.y);
        }
        const double chord = std::hypot(p.back().x - p.front().x, p.back().y - p.front().y);
        if (chord < wander.min_chord_m) continue;
        sinuosity.push_back(s.back() / chord);
        wander.length_m += s.back();
        straight += straight_length(p, s, wander.piece_m, wander.tolerance_m);
    }
    wander.reaches = sinuosity.size();
    if (sinuosity.empty()) return wander;
    std::sort(sinuosity.begin(), sinuosity.end());
    const std::size_t m = sinuosity.size() / 2;
    wander.median_sinuosity = sinuosity.size() % 2 ? sinuosity[m] : 0.5 * (sinuosity[m - 1] + sinuosity[m]);
    wander.straight_share = straight / wander.length_m;
    return wander;
}

}  // namespace isoterra
