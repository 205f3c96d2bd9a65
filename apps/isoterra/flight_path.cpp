#include "flight_path.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "cli.hpp"
#include "isoterra/io.hpp"

namespace isoterra::app {

glm::dvec3 Path::at(double s) const {
    if (radius > 0.0) {
        const double a = s / radius;
        return start + glm::dvec3(radius * std::sin(a), 0.0, radius * (std::cos(a) - 1.0));
    }
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        const glm::dvec3 d = points[i + 1] - points[i];
        const double len = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
        if (s <= len || i + 2 == points.size()) return points[i] + d * (len > 0 ? std::min(s, len) / len : 0.0);
        s -= len;
    }
    return points.front();
}

Path make_path(const std::string& spec, const glm::dvec3& start) {
    Path p;
    p.start = start;
    if (spec == "line") {
        p.points = {start, start + glm::dvec3(0, 0, -1e7)};  // north, as the tutorial's camera looks
    } else if (spec.rfind("circle:", 0) == 0) {
        char* end = nullptr;
        p.radius = std::strtod(spec.c_str() + 7, &end);
        if (end == spec.c_str() + 7 || *end != '\0' || !(p.radius > 0.0) || !std::isfinite(p.radius))
            throw UsageError(fmt::format("--path: expected circle:R with R > 0 metres, got '{}'", text_excerpt(spec)));
    } else {
        try {
            p.points = read_points_file(spec);
        } catch (const PointsError& e) {
            throw UsageError(fmt::format("--path (line, circle:R or a waypoint file): {}", e.what()));
        }
        if (p.points.size() < 2) throw UsageError(fmt::format("{}: a path needs at least two waypoints", spec));
    }
    return p;
}

}  // namespace isoterra::app
