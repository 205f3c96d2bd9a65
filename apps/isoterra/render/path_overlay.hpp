// A path drawn over a picture: its waypoints projected the way the terrain renderer projects
// (the same camera, field of view and aspect), legs cut at the near plane, and the line
// stamped into the picture's pixels on top of the terrain (`render --path`); the viewer
// projects its path and navigation mesh with the same function.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "terrain_renderer.hpp"

namespace isoterra::app {

/// The colour paths are drawn in (magenta: found nowhere in the terrain's palette).
inline constexpr std::array<std::uint8_t, 3> kPathColour{255, 0, 255};

/// Returns where `p` (world metres) falls in a `width` x `height` picture seen by `camera`,
/// in pixels from the top-left corner, or nothing when it lies behind the near plane.
std::optional<glm::dvec2> project_to_picture(const Camera& camera, int width, int height, const glm::dvec3& p);

/// Returns the leg from `a` to `b` cut to what lies in front of the near plane, projected
/// (nothing when all of it lies behind).
std::optional<std::array<glm::dvec2, 2>> project_leg(const Camera& camera, int width, int height, const glm::dvec3& a, const glm::dvec3& b);

/// Draws `points` as a line `thickness` pixels wide in `colour` into `rgb` (rows from the
/// top, 3 bytes a pixel), clipped to the picture. Returns how many pixels it set.
std::size_t draw_path(std::vector<std::uint8_t>& rgb, int width, int height, const Camera& camera, const std::vector<glm::dvec3>& points,
                      const std::array<std::uint8_t, 3>& colour, int thickness);

}  // namespace isoterra::app
