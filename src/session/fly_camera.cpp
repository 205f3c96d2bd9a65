// A flying camera's axes and the ray through a point of its picture (for the brush).
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "isoterra/session.hpp"

namespace isoterra {

glm::dvec3 FlyCamera::forward() const { return {-std::sin(yaw) * std::cos(pitch), std::sin(pitch), -std::cos(yaw) * std::cos(pitch)}; }

glm::dvec3 FlyCamera::right() const { return {std::cos(yaw), 0.0, -std::sin(yaw)}; }

glm::dvec3 FlyCamera::ray_through(double nx, double ny, double fov_deg, double aspect) const {
    const double tan_half = std::tan(glm::radians(fov_deg / 2.0));
    const glm::dvec3 f = forward(), r = right(), up = glm::cross(r, f);
    return glm::normalize(f + r * (nx * tan_half * aspect) + up * (ny * tan_half));
}

}  // namespace isoterra
