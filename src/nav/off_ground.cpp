// Why a path's end has no walkable ground under it, in one line that says what to do: how
// far inside rock or up in the air it lies, and for a point on ground no agent walks (a
// slope too steep, a ledge too narrow), where the nearest walkable ground is.
#include <cmath>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <recastnavigation/DetourNavMeshQuery.h>

#include "nav/nav_parts.hpp"

namespace isoterra::nav_detail {
namespace {

// Within this of the surface along the vertical a point counts as on it (the goal's
// tolerance for a waypoint): what refuses it is the ground, not the rock or the air.
constexpr double kOnSurface_m = 0.5;
// How far a refused point's nearest walkable ground is looked for, sideways.
constexpr float kNearbyGround_m = 8.0f;

std::string point_text(const glm::dvec3& p) { return fmt::format("{:.2f},{:.2f},{:.2f}", p.x, p.y, p.z); }

// Returns how far below the surface the rock point `p` lies (the first air straight up, in
// steps of a quarter metre, then to a millimetre), or infinity when there is none within `reach_m`.
double depth_in_rock(const Field& field, const ChunkDeltas& deltas, const glm::dvec3& p, double reach_m) {
    constexpr int kBatch = 64;
    constexpr double kStep_m = 0.25;
    glm::dvec3 up[kBatch];
    double v[kBatch];
    for (double base = 0.0; base < reach_m; base += kBatch * kStep_m) {
        for (int i = 0; i < kBatch; ++i) up[i] = p + glm::dvec3(0.0, base + kStep_m * (i + 1), 0.0);
        sample_edited(field, deltas, up, kBatch, v);
        for (int i = 0; i < kBatch; ++i) {
            if (v[i] <= 0.0) continue;
            double lo = base + kStep_m * i, hi = lo + kStep_m;  // rock at lo, air at hi
            while (hi - lo > 0.001) {
                const double mid = 0.5 * (lo + hi);
                const glm::dvec3 q = p + glm::dvec3(0.0, mid, 0.0);
                double w;
                sample_edited(field, deltas, &q, 1, &w);
                (w > 0.0 ? hi : lo) = mid;
            }
            return hi;
        }
    }
    return INFINITY;
}

// Returns "the nearest walkable ground is X,Y,Z, D m away" for ground point `p` (or that
// there is none within kNearbyGround_m).
std::string nearest_walkable(const dtNavMeshQuery& q, const dtQueryFilter& filter, const AgentSettings& agent, const glm::dvec3& p) {
    const float at[3] = {float(p.x), float(p.y), float(p.z)};
    const float extents[3] = {kNearbyGround_m, float(agent.height_m), kNearbyGround_m};
    dtPolyRef poly = 0;
    float near[3];
    if (dtStatusFailed(q.findNearestPoly(at, extents, &filter, &poly, near)) || poly == 0)
        return fmt::format("no walkable ground within {:g} m", kNearbyGround_m);
    const glm::dvec3 n(near[0], near[1], near[2]);
    return fmt::format("the nearest walkable ground is {}, {:.1f} m away", point_text(n), glm::distance(n, p));
}

}  // namespace

std::string off_ground_reason(const dtNavMeshQuery& q, const dtQueryFilter& filter, const Field& field, const ChunkDeltas* deltas,
                              bool held, const AgentSettings& agent, const glm::dvec3& p) {
    if (!held) return "lies outside the navigation mesh's region";
    static const ChunkDeltas kNone;
    const ChunkDeltas& edits = deltas ? *deltas : kNone;
    double value = 0.0;
    sample_edited(field, edits, &p, 1, &value);
    glm::dvec3 ground = p;
    if (value <= 0.0) {
        const double depth = depth_in_rock(field, edits, p, 1000.0);
        if (std::isinf(depth)) return "lies inside rock, with no air above it within 1000 m";
        ground.y += depth;
        if (depth > kOnSurface_m) return fmt::format("lies inside rock, {:.1f} m under the ground at {}", depth, point_text(ground));
    } else {
        if (!ray_cast(field, edits, p, {0.0, -1.0, 0.0}, 1000.0, ground)) return "lies in the air with no ground below it within 1000 m";
        if (p.y - ground.y > agent.height_m)
            return fmt::format("lies in the air, {:.1f} m above the ground at {}", p.y - ground.y, point_text(ground));
    }
    return fmt::format("is not on walkable ground (steeper than {:g} degrees, too low or too narrow for the agent); {}",
                       agent.max_slope_deg, nearest_walkable(q, filter, agent, ground));
}

}  // namespace isoterra::nav_detail
