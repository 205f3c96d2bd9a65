// Projection of world points into a picture, as TerrainRenderer::draw sets it up (glm's
// lookAt with the sky up, or north up when looking straight down; a symmetric frustum of
// the camera's vertical field of view), and a line stamped into RGB pixels.
#include "path_overlay.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace isoterra::app {
namespace {

// The camera's axes: right, up and forward (the renderer's lookAt).
struct Axes {
    glm::dvec3 right, up, forward;
};

Axes camera_axes(const Camera& camera) {
    const glm::dvec3 f = glm::normalize(camera.target - camera.eye);
    const glm::dvec3 sky = std::fabs(f.y) > 0.999 ? glm::dvec3(0, 0, -1) : glm::dvec3(0, 1, 0);
    const glm::dvec3 r = glm::normalize(glm::cross(f, sky));
    return {r, glm::cross(r, f), f};
}

glm::dvec3 in_camera(const Axes& ax, const Camera& camera, const glm::dvec3& p) {
    const glm::dvec3 d = p - camera.eye;
    return {glm::dot(d, ax.right), glm::dot(d, ax.up), glm::dot(d, ax.forward)};
}

glm::dvec2 to_pixels(const Camera& camera, int width, int height, const glm::dvec3& c) {
    const double f = 1.0 / std::tan(camera.fov_deg * M_PI / 360.0), aspect = double(width) / double(height);
    const double nx = f / aspect * c.x / c.z, ny = f * c.y / c.z;
    return {(nx + 1.0) * 0.5 * width, (1.0 - ny) * 0.5 * height};
}

// Cuts the segment a-b to the rectangle [lo, hi] (Liang and Barsky); false when it misses.
bool clip_to(glm::dvec2& a, glm::dvec2& b, const glm::dvec2& lo, const glm::dvec2& hi) {
    double t0 = 0.0, t1 = 1.0;
    const glm::dvec2 d = b - a;
    const double p[4] = {-d.x, d.x, -d.y, d.y}, q[4] = {a.x - lo.x, hi.x - a.x, a.y - lo.y, hi.y - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0) return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
    }
    if (t0 > t1) return false;
    const glm::dvec2 a0 = a;
    a = a0 + d * t0;
    b = a0 + d * t1;
    return true;
}

}  // namespace

std::optional<glm::dvec2> project_to_picture(const Camera& camera, int width, int height, const glm::dvec3& p) {
    const glm::dvec3 c = in_camera(camera_axes(camera), camera, p);
    if (c.z < camera.near_m) return std::nullopt;
    return to_pixels(camera, width, height, c);
}

std::optional<std::array<glm::dvec2, 2>> project_leg(const Camera& camera, int width, int height, const glm::dvec3& a,
                                                     const glm::dvec3& b) {
    const Axes ax = camera_axes(camera);
    glm::dvec3 ca = in_camera(ax, camera, a), cb = in_camera(ax, camera, b);
    const double near = camera.near_m;
    if (ca.z < near && cb.z < near) return std::nullopt;
    // Cut at the near plane: the part behind the eye would project mirrored.
    if (ca.z < near) ca = ca + (cb - ca) * ((near - ca.z) / (cb.z - ca.z));
    if (cb.z < near) cb = cb + (ca - cb) * ((near - cb.z) / (ca.z - cb.z));
    return std::array<glm::dvec2, 2>{to_pixels(camera, width, height, ca), to_pixels(camera, width, height, cb)};
}

std::size_t draw_path(std::vector<std::uint8_t>& rgb, int width, int height, const Camera& camera, const std::vector<glm::dvec3>& points,
                      const std::array<std::uint8_t, 3>& colour, int thickness) {
    std::size_t set = 0;
    const int lo = -(thickness - 1) / 2, hi = thickness / 2;
    const auto stamp = [&](double px, double py) {
        const int cx = static_cast<int>(std::floor(px)), cy = static_cast<int>(std::floor(py));
        for (int y = cy + lo; y <= cy + hi; ++y)
            for (int x = cx + lo; x <= cx + hi; ++x) {
                if (x < 0 || y < 0 || x >= width || y >= height) continue;
                std::uint8_t* px3 = &rgb[(static_cast<std::size_t>(y) * width + x) * 3];
                if (px3[0] != colour[0] || px3[1] != colour[1] || px3[2] != colour[2]) ++set;
                std::copy(colour.begin(), colour.end(), px3);
            }
    };
    for (std::size_t i = 1; i < points.size(); ++i) {
        const auto leg = project_leg(camera, width, height, points[i - 1], points[i]);
        if (!leg) continue;
        glm::dvec2 a = (*leg)[0], b = (*leg)[1];
        if (!clip_to(a, b, glm::dvec2(-thickness), glm::dvec2(width + thickness, height + thickness))) continue;
        const double steps = std::ceil(2.0 * glm::length(b - a));  // half-pixel steps
        for (double s = 0.0; s <= steps; s += 1.0) {
            const glm::dvec2 p = steps > 0.0 ? a + (b - a) * (s / steps) : a;
            stamp(p.x, p.y);
        }
    }
    return set;
}

}  // namespace isoterra::app
