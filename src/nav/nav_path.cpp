// Paths over a NavMesh: both ends snapped to the walkable ground near them (or refused,
// saying why: off_ground.cpp), A* over the polygons, then the
// string-pulled waypoints (Detour's findPath, with and without line-of-sight shortcuts, and
// findStraightPath), the shorter walk of the two.
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshQuery.h>

#include "nav/nav_detour.hpp"
#include "nav/nav_parts.hpp"

namespace isoterra {
namespace {

constexpr int kMaxCorridor = 8192;  // polygons along one path
constexpr int kMaxWaypoints = 8192;
constexpr double kWaypointStep_m = 1.0;  // the most between waypoints along a leg

std::string point_text(const glm::dvec3& p) { return fmt::format("{:g},{:g},{:g}", p.x, p.y, p.z); }

}  // namespace

namespace nav_detail {

// Returns `p` moved to the height of polygon `poly`'s detail mesh there (Detour's corners
// and crossings lie on the coarser polygon).
glm::dvec3 on_detail(const dtNavMeshQuery& q, dtPolyRef poly, const glm::dvec3& p) {
    const float at[3] = {float(p.x), float(p.y), float(p.z)};
    float closest[3];
    if (dtStatusFailed(q.closestPointOnPoly(poly, at, closest, nullptr))) return p;
    return {p.x, closest[1], p.z};
}

// Appends the points of the leg from `a` to `b` (on polygon `poly`) every `step` metres at
// most, between them, at the height of the polygon's detail mesh (a and b by value: they may
// lie in `out`).
void follow_ground(const dtNavMeshQuery& q, dtPolyRef poly, const glm::dvec3 a, const glm::dvec3 b, double step,
                   std::vector<glm::dvec3>& out) {
    const int pieces = static_cast<int>(std::ceil(std::hypot(b.x - a.x, b.z - a.z) / step));
    for (int k = 1; k < pieces; ++k) out.push_back(on_detail(q, poly, a + (b - a) * (double(k) / pieces)));
}

// Returns the polygons from ends[0] to ends[1] by Detour's A* with `options` (empty: no
// path reaches ends[1]).
std::vector<dtPolyRef> corridor(dtNavMeshQuery& q, const dtQueryFilter& filter, const dtPolyRef (&ends)[2], const float (&at)[2][3],
                                unsigned int options) {
    std::vector<dtPolyRef> out(kMaxCorridor);
    int count = 0;
    dtStatus found;
    if (options == 0) {
        found = q.findPath(ends[0], ends[1], at[0], at[1], &filter, out.data(), &count, kMaxCorridor);
    } else {
        found = q.initSlicedFindPath(ends[0], ends[1], at[0], at[1], &filter, options);
        if (!dtStatusFailed(found)) found = q.updateSlicedFindPath(std::numeric_limits<int>::max(), nullptr);
        if (!dtStatusFailed(found)) found = q.finalizeSlicedFindPath(out.data(), &count, kMaxCorridor);
    }
    if (dtStatusFailed(found) || count == 0 || out[count - 1] != ends[1]) return {};
    out.resize(static_cast<std::size_t>(count));
    return out;
}

// Returns the waypoints along `polys` from at[0] to at[1] on the ground, and their length.
// Throws NoPathError (naming the ends by `text`) when they are more than a query holds.
NavPath walk(const dtNavMeshQuery& q, const std::vector<dtPolyRef>& polys, const float (&at)[2][3], const Field& field,
             const ChunkDeltas* deltas, const std::string& text) {
    // A corner at every polygon crossed, so that each leg lies on one polygon and follows its
    // height detail: the path walks over a hill rather than through it.
    std::vector<float> straight(3 * kMaxWaypoints);
    std::vector<dtPolyRef> refs(kMaxWaypoints);
    int n = 0;
    if (dtStatusFailed(q.findStraightPath(at[0], at[1], polys.data(), static_cast<int>(polys.size()), straight.data(), nullptr, refs.data(),
                                          &n, kMaxWaypoints, DT_STRAIGHTPATH_ALL_CROSSINGS)) ||
        n == kMaxWaypoints)
        throw NoPathError(fmt::format("no path {} (too long for one query: {} waypoints)", text, n));
    NavPath out;
    for (int i = 0; i < n; ++i) {
        const glm::dvec3 p = on_detail(q, refs[i], {straight[3 * i], straight[3 * i + 1], straight[3 * i + 2]});
        if (i > 0) follow_ground(q, refs[i - 1], out.points.back(), p, kWaypointStep_m, out.points);
        out.points.push_back(p);
    }
    thin_and_ground(field, deltas, out.points);
    for (std::size_t i = 1; i < out.points.size(); ++i) out.length_m += glm::distance(out.points[i - 1], out.points[i]);
    return out;
}

}  // namespace nav_detail

NavPath NavMesh::path(const glm::dvec3& from, const glm::dvec3& to, const std::string& from_what, const std::string& to_what) const {
    dtNavMeshQuery& q = *detour_->query;
    dtQueryFilter filter;
    // Within a cell or two sideways; up to the agent's height above the ground, a metre below it.
    const float extents[3] = {float(2.0 * agent_.cell_size_m), float(std::max(agent_.height_m, 1.0)), float(2.0 * agent_.cell_size_m)};
    dtPolyRef ends[2] = {0, 0};
    float at[2][3];
    const glm::dvec3 points[2] = {from, to};
    const std::string* names[2] = {&from_what, &to_what};
    for (int e = 0; e < 2; ++e) {
        const float p[3] = {float(points[e].x), float(points[e].y), float(points[e].z)};
        // Detour takes a polygon whose bounds meet the box even when its ground there lies
        // farther up or down (a cave's point snapped to the ground above it): refused too.
        if (dtStatusFailed(q.findNearestPoly(p, extents, &filter, &ends[e], at[e])) || ends[e] == 0 ||
            std::fabs(at[e][1] - p[1]) > extents[1])
            throw NavError(
                fmt::format("{} {} {}", *names[e], point_text(points[e]),
                            nav_detail::off_ground_reason(q, filter, *field_, deltas_.get(), holds(points[e]), agent_, points[e])));
    }
    const std::string text = fmt::format("from {} to {}", point_text(from), point_text(to));
    const std::vector<dtPolyRef> plain = nav_detail::corridor(q, filter, ends, at, 0);
    if (plain.empty()) throw NoPathError("no path " + text);
    NavPath best = nav_detail::walk(q, plain, at, *field_, deltas_.get(), text);
    // Detour's A* measures a path between the midpoints of the polygons' edges: across long
    // thin polygons (a tunnel's mouth on a slope) that zigzags to twice the distance, and the
    // way over a hill can win. With line-of-sight shortcuts it measures such stretches
    // straight, but a hill in one as flat: the shorter walk of the two is the path.
    const std::vector<dtPolyRef> shortcut = nav_detail::corridor(q, filter, ends, at, DT_FINDPATH_ANY_ANGLE);
    if (!shortcut.empty() && shortcut != plain) {
        NavPath other = nav_detail::walk(q, shortcut, at, *field_, deltas_.get(), text);
        if (other.length_m < best.length_m) best = std::move(other);
    }
    return best;
}

}  // namespace isoterra
