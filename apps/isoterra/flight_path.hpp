// Camera paths for `fly` and `view --frames`: a straight line north, a circle, or a file of
// waypoints, as a function of the distance flown.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace isoterra::app {

struct Path {
    std::vector<glm::dvec3> points;  // waypoints (a line or a file)
    double radius = 0.0;             // > 0: a circle of this radius around the start
    glm::dvec3 start{0.0};
    // Set by follow_floor: the height above the floor (ground or sea) at `start`, held over
    // the highest floor from here to `ahead_m` on, as a pilot flies over the land.
    std::function<double(double, double)> floor;
    double above_m = 0.0, ahead_m = 0.0;

    /// Returns the position after flying `s` metres (the last waypoint once past the end).
    glm::dvec3 at(double s) const;
    /// Makes at() follow `floor` (the height of the ground or the sea at x, z; NaN where it
    /// has none) at the start's height above it, climbing before a rise `ahead_m` on (the
    /// look-ahead opens over the first ahead_m, so that the flight leaves from `start`).
    /// Nothing changes where the floor at the start is NaN. Not thread-safe (at() keeps
    /// the floor's samples).
    void follow_floor(std::function<double(double, double)> floor_at, double ahead);

private:
    glm::dvec3 along(double s) const;
    double floor_along(double s) const;
    mutable std::vector<double> floor_samples_;  // the floor every kFloorStep_m metres along the path
};

/// Parses --path: "line", "circle:R" or a file of "x y z" lines. Throws UsageError.
Path make_path(const std::string& spec, const glm::dvec3& start);

}  // namespace isoterra::app
