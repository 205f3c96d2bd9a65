// Where a moving focus is heading: the velocity over the last quarter second (steady over a
// frame's jitter, and 0 a quarter second after the focus stops), and the focus led ahead
// along it, so that the World builds what a fast camera flies into before it gets there.
#include <glm/geometric.hpp>

#include "isoterra/world.hpp"

namespace isoterra {
namespace {

constexpr double kWindow_s = 0.25;
constexpr double kJump_m_s = 5000.0;  // faster than any vehicle: the focus was moved, not flown

}  // namespace

glm::dvec3 FocusLead::update(const glm::dvec3& focus, double time_s, double lead_s, double most_m) {
    if (!recent_.empty()) {
        const auto& [t, p] = recent_.back();
        const double step = glm::length(focus - p), dt = time_s - t;
        if (dt < 0.0 || step > kJump_m_s * std::max(dt, 1.0 / 240.0)) recent_.clear();
    }
    // The oldest kept is the last one at least a window old, so the span covers the window.
    while (recent_.size() > 1 && recent_[1].first <= time_s - kWindow_s) recent_.erase(recent_.begin());
    recent_.emplace_back(time_s, focus);
    const auto& [t0, p0] = recent_.front();
    velocity_ = time_s > t0 ? (focus - p0) / (time_s - t0) : glm::dvec3(0.0);
    glm::dvec3 ahead = velocity_ * lead_s;
    const double reach = glm::length(ahead);
    if (reach > most_m) ahead *= most_m / reach;
    return focus + ahead;
}

}  // namespace isoterra
