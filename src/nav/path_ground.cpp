// A path's waypoints put on the ground itself: Detour's height detail follows the ground to
// within a cell height where it is smooth, but cuts across sharp steps by up to the step.
// Each waypoint moves to the surface of the edited field within a metre of it (one secant
// step between the nearest samples half a metre apart that bracket it), and waypoints closer
// than a metre apart are merged, so that no leg is a sliver across a step.
#include <cmath>

#include "nav/nav_parts.hpp"

namespace isoterra::nav_detail {

void thin_and_ground(const Field& field, const ChunkDeltas* deltas, std::vector<glm::dvec3>& points) {
    constexpr double kMinLeg_m = 1.0;
    std::vector<glm::dvec3> kept;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const bool last = i + 1 == points.size();
        if (!kept.empty() && std::hypot(points[i].x - kept.back().x, points[i].z - kept.back().z) < kMinLeg_m) {
            if (!last) continue;
            if (kept.size() > 1) kept.pop_back();
        }
        kept.push_back(points[i]);
    }
    // The value at each waypoint, then half a metre and a metre towards the ground (down in
    // air, up in rock): the nearest pair with a sign change brackets the surface.
    static const ChunkDeltas kNone;
    const std::size_t n = kept.size();
    std::vector<glm::dvec3> probes(3 * n);
    std::vector<double> v(3 * n);
    sample_edited(field, deltas ? *deltas : kNone, kept.data(), n, v.data());
    for (std::size_t i = 0; i < n; ++i)
        for (int k = 1; k <= 2; ++k) probes[3 * i + k] = kept[i] + glm::dvec3(0.0, (v[i] > 0.0 ? -0.5 : 0.5) * k, 0.0);
    for (std::size_t i = 0; i < n; ++i) probes[3 * i] = kept[i];
    sample_edited(field, deltas ? *deltas : kNone, probes.data(), probes.size(), v.data());
    for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < 2; ++k) {
            const double a = v[3 * i + k], b = v[3 * i + k + 1];
            if ((a > 0.0) == (b > 0.0)) continue;
            const glm::dvec3& pa = probes[3 * i + k];
            kept[i].y = pa.y + (probes[3 * i + k + 1].y - pa.y) * a / (a - b);
            break;
        }
    points = std::move(kept);
}

}  // namespace isoterra::nav_detail
