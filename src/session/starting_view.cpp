// Where a front end starts when it is given no eye: 40 m above the ground (or the sea) at
// (0, 40), as the tutorial did, looking north unless another way shows clearly more land.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "isoterra/session.hpp"

namespace isoterra {
namespace {

constexpr double kAbove_m = 40.0;
constexpr int kDirections = 16;
constexpr double kStep_m = 60.0, kFar_m = 1500.0, kNear_m = 240.0, kTarget_m = 420.0;

// The ground at a column, or NaN where the field has none there.
double ground_at(const Field& field, double x, double z) {
    const double g = field.ground_height(x, z);
    return std::isfinite(g) ? g : std::nan("");
}

// The eye's column: its ground height, else (a field without one) the highest solid sample
// of the column, 8 m apart; the sea when that is higher.
double floor_at(const Field& field, double x, double z) {
    double ground = ground_at(field, x, z);
    for (double y = 4096.0; std::isnan(ground) && y >= -4096.0; y -= 8.0)
        if (field.value({x, y, z}) < 0.0) ground = y;
    return std::max(std::isnan(ground) ? 0.0 : ground, field.sea_level_m());
}

// How much land a look along `yaw` shows: the dry columns out to kFar_m that no nearer one
// hides, less everything when a slope rises steeply within kNear_m (a wall in the face).
double land_in_sight(const Field& field, const glm::dvec3& eye, double yaw) {
    const double dx = -std::sin(yaw), dz = -std::cos(yaw), sea = field.sea_level_m();
    double horizon = -1e9, score = 0.0;
    for (double d = kStep_m; d <= kFar_m; d += kStep_m) {
        const double g = ground_at(field, eye.x + dx * d, eye.z + dz * d);
        if (std::isnan(g)) continue;
        const double slope = (std::max(g, sea) - eye.y) / d;
        if (d <= kNear_m && slope > 0.35) return -1.0;
        if (slope >= horizon && g > sea) score += 1.0;
        horizon = std::max(horizon, slope);
    }
    return score;
}

}  // namespace

FlyCamera StartingView::camera() const {
    const glm::dvec3 d = target - eye;
    FlyCamera c{eye};
    c.yaw = std::atan2(-d.x, -d.z);
    c.pitch = std::atan2(d.y, std::hypot(d.x, d.z));
    return c;
}

StartingView starting_view(const Field& field) {
    StartingView view;
    view.eye = {0.0, floor_at(field, 0.0, 40.0) + kAbove_m, 40.0};
    double best_yaw = 0.0, best = -2.0;
    for (int i = 0; i < kDirections; ++i) {
        const double yaw = 2.0 * std::numbers::pi * i / kDirections, score = land_in_sight(field, view.eye, yaw);
        if (score > best) best = score, best_yaw = yaw;
    }
    // North, the tutorial's look (and its pictures'), unless another shows clearly more.
    const double north = land_in_sight(field, view.eye, 0.0);
    if (north >= 0.8 * best) best_yaw = 0.0;
    // Down onto the ground kTarget_m out (over the sea: the first land beyond), between a
    // glance (as the tutorial's) and a steep look.
    const double dx = -std::sin(best_yaw), dz = -std::cos(best_yaw), sea = field.sea_level_m();
    double out = kTarget_m, g = ground_at(field, view.eye.x + dx * out, view.eye.z + dz * out);
    for (double d = kTarget_m; !(g > sea) && d <= kFar_m; d += kStep_m) {
        const double there = ground_at(field, view.eye.x + dx * d, view.eye.z + dz * d);
        if (there > sea) out = d, g = there;
    }
    const double drop = std::isnan(g) ? 0.0 : view.eye.y - std::max(g, sea);
    const double pitch = -std::clamp(std::atan2(drop, out), 0.03, 0.3);
    view.target = view.eye + glm::dvec3{dx * std::cos(pitch), std::sin(pitch), dz * std::cos(pitch)} * out;
    return view;
}

}  // namespace isoterra
