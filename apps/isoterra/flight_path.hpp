// Camera paths for `fly` and `view --frames`: a straight line north, a circle, or a file of
// waypoints, as a function of the distance flown.
#pragma once

#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace isoterra::app {

struct Path {
    std::vector<glm::dvec3> points;  // waypoints (a line or a file)
    double radius = 0.0;             // > 0: a circle of this radius around the start
    glm::dvec3 start{0.0};

    /// Returns the position after flying `s` metres (the last waypoint once past the end).
    glm::dvec3 at(double s) const;
};

/// Parses --path: "line", "circle:R" or a file of "x y z" lines. Throws UsageError.
Path make_path(const std::string& spec, const glm::dvec3& start);

}  // namespace isoterra::app
