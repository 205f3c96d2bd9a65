// The eight neighbours of a grid cell (internal to landform/), with the true distance to
// each: columns are dx apart, rows dz, diagonals the hypotenuse.
#pragma once

#include <array>
#include <cmath>

#include "isoterra/measure.hpp"

namespace isoterra::measure {

struct Neighbour {
    int dc, dr;
};

// Axis neighbours first: D8 keeps the first of equal slopes, so ties go to them.
inline constexpr std::array<Neighbour, 8> kNeighbours{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}};

// Distances to each neighbour in kNeighbours' order.
inline std::array<double, 8> neighbour_distances(const HeightGrid& grid) {
    const double diagonal = std::hypot(grid.dx_m, grid.dz_m);
    return {grid.dx_m, grid.dx_m, grid.dz_m, grid.dz_m, diagonal, diagonal, diagonal, diagonal};
}

inline bool inside(const HeightGrid& grid, int c, int r) { return c >= 0 && r >= 0 && c < grid.width && r < grid.height; }

inline bool on_edge(const HeightGrid& grid, int c, int r) { return c == 0 || r == 0 || c == grid.width - 1 || r == grid.height - 1; }

}  // namespace isoterra::measure
