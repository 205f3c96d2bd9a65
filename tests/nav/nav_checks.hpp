// What the navigation tests share: the tutorial field, ground points found by a ray from
// above, and the checks a path must pass (on the ground, no leg too steep).
#pragma once

#include <cmath>
#include <memory>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "isoterra/edit.hpp"
#include "isoterra/field.hpp"
#include "isoterra/nav.hpp"

namespace isoterra::test {

inline std::shared_ptr<const Field> nav_tutorial() {
    static const std::shared_ptr<const Field> field = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    return field;
}

/// The highest ground at (x, z): where a ray from 500 m down first meets rock.
inline glm::dvec3 top_ground(const Field& field, double x, double z, const ChunkDeltas& deltas = {}) {
    glm::dvec3 hit;
    EXPECT_TRUE(ray_cast(field, deltas, {x, 500.0, z}, {0.0, -1.0, 0.0}, 1000.0, hit, 0.25)) << x << "," << z;
    return hit;
}

/// The value of base + deltas at p.
inline double edited_value(const Field& field, const ChunkDeltas& deltas, const glm::dvec3& p) {
    double v = 0.0;
    sample_edited(field, deltas, &p, 1, &v);
    return v;
}

/// Carves a tunnel from `foot_a` to `foot_b` into `history`: balls of 3 m every 2 m (51 of
/// them), their centres 2.5 m above the line between the feet (a floor half a metre down).
/// Returns the box of what changed.
inline Box carve_tunnel(EditHistory& history, const glm::dvec3& foot_a, const glm::dvec3& foot_b) {
    Box changed{glm::dvec3(1e9), glm::dvec3(-1e9)};
    for (int i = 0; i <= 50; ++i) {
        EditOp op;
        op.centre = foot_a + (foot_b - foot_a) * (i / 50.0) + glm::dvec3(0.0, 2.5, 0.0);
        op.radius_m = 3.0;
        history.apply(op);
        const Box e = edit_box(op);
        changed = {glm::min(changed.lo, e.lo), glm::max(changed.hi, e.hi)};
    }
    return changed;
}

/// Levels the floor of a tunnel carved by carve_tunnel as docs/guides/navigation.md shows:
/// flatten balls of 3 m every 1.5 m along the line between the feet, half a metre under it.
/// Returns the box of what changed.
inline Box flatten_floor(EditHistory& history, const glm::dvec3& foot_a, const glm::dvec3& foot_b) {
    Box changed{glm::dvec3(1e9), glm::dvec3(-1e9)};
    const int balls = static_cast<int>(std::ceil(glm::distance(foot_a, foot_b) / 1.5));
    for (int i = 0; i <= balls; ++i) {
        EditOp op;
        op.kind = BrushKind::flatten;
        op.centre = foot_a + (foot_b - foot_a) * (double(i) / balls) - glm::dvec3(0.0, 0.5, 0.0);
        op.radius_m = 3.0;
        history.apply(op);
        const Box e = edit_box(op);
        changed = {glm::min(changed.lo, e.lo), glm::max(changed.hi, e.hi)};
    }
    return changed;
}

/// Checks every waypoint lies within `tolerance` metres of ground along the vertical (rock
/// below, air above within that distance) and no leg climbs steeper than `max_slope_deg`.
inline void expect_walkable_path(const Field& field, const ChunkDeltas& deltas, const NavPath& path, double max_slope_deg,
                                 double tolerance = 0.5) {
    ASSERT_GE(path.points.size(), 2u);
    for (const glm::dvec3& p : path.points) {
        EXPECT_LT(edited_value(field, deltas, p - glm::dvec3(0.0, tolerance, 0.0)), 0.0)
            << "no rock just below " << p.x << "," << p.y << "," << p.z;
        EXPECT_GT(edited_value(field, deltas, p + glm::dvec3(0.0, tolerance, 0.0)), 0.0)
            << "no air just above " << p.x << "," << p.y << "," << p.z;
    }
    const double limit = std::tan(max_slope_deg * M_PI / 180.0);
    for (std::size_t i = 1; i < path.points.size(); ++i) {
        const glm::dvec3 d = path.points[i] - path.points[i - 1];
        const double run = std::hypot(d.x, d.z);
        EXPECT_LE(std::fabs(d.y), limit * run + 1e-6) << "leg " << i << " rises " << d.y << " m over " << run << " m";
    }
}

}  // namespace isoterra::test
