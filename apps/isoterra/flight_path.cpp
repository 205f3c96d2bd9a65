#include "flight_path.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "cli.hpp"
#include "isoterra/io.hpp"

namespace isoterra::app {

namespace {

constexpr double kFloorStep_m = 8.0;  // the floor's samples along the path (a few metres of climb apart on a steep slope)

}  // namespace

void Path::follow_floor(std::function<double(double, double)> floor_at, double ahead) {
    const double here = floor_at(start.x, start.z);
    if (!std::isfinite(here)) return;
    floor = std::move(floor_at);
    above_m = start.y - here;
    ahead_m = std::max(ahead, 0.0);
    floor_samples_.clear();
}

double Path::floor_along(double s) const {
    // Linear between the samples, so that the height is continuous in s.
    const double k = std::max(s, 0.0) / kFloorStep_m;
    const auto i = static_cast<std::size_t>(k);
    while (floor_samples_.size() < i + 2) {
        const glm::dvec3 p = along(static_cast<double>(floor_samples_.size()) * kFloorStep_m);
        const double f = floor(p.x, p.z);
        floor_samples_.push_back(std::isfinite(f) ? f : start.y - above_m);
    }
    const double t = k - static_cast<double>(i);
    return floor_samples_[i] * (1.0 - t) + floor_samples_[i + 1] * t;
}

glm::dvec3 Path::at(double s) const {
    glm::dvec3 p = along(s);
    if (!floor) return p;
    // The highest floor over the look-ahead: its two ends and the samples between.
    const double end = s + ahead_m * std::clamp(s / std::max(ahead_m, 1e-9), 0.0, 1.0);
    double high = std::max(floor_along(s), floor_along(end));
    for (double k = std::floor(s / kFloorStep_m) + 1.0; k * kFloorStep_m < end; k += 1.0)
        high = std::max(high, floor_along(k * kFloorStep_m));
    p.y = high + above_m;
    return p;
}

glm::dvec3 Path::along(double s) const {
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
