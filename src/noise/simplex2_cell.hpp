// The 2D simplex cell a point falls in, with npm simplex-noise 4.0.3's arithmetic in its
// order: the skew, the cell, the three corners' offsets and the permutation's indices.
// The value (simplex.cpp) and its derivatives (simplex2_derivatives.cpp) share it, so they
// stay the same bits.
#pragma once

#include <cmath>
#include <cstdint>

namespace isoterra::simplex2 {

inline const double kF2 = 0.5 * (std::sqrt(3.0) - 1.0);
inline const double kG2 = (3.0 - std::sqrt(3.0)) / 6.0;

/// Math.floor(v) | 0 of JavaScript: the floor, wrapped to int32.
inline std::int32_t js_floor(double v) { return static_cast<std::int32_t>(static_cast<std::int64_t>(std::floor(v))); }

struct Cell {
    double x0, y0, x1, y1, x2, y2;  // the point from each corner
    int i1, j1;                     // the middle corner's step: (1, 0) or (0, 1)
    int ii, jj;                     // the cell, wrapped to the permutation table
};

inline Cell cell_of(double x, double y) {
    Cell c;
    const double s = (x + y) * kF2;
    const std::int32_t i = js_floor(x + s);
    const std::int32_t j = js_floor(y + s);
    const double t = (static_cast<double>(i) + static_cast<double>(j)) * kG2;
    c.x0 = x - (i - t);
    c.y0 = y - (j - t);
    c.i1 = c.x0 > c.y0 ? 1 : 0;
    c.j1 = 1 - c.i1;
    c.x1 = c.x0 - c.i1 + kG2;
    c.y1 = c.y0 - c.j1 + kG2;
    c.x2 = c.x0 - 1.0 + 2.0 * kG2;
    c.y2 = c.y0 - 1.0 + 2.0 * kG2;
    c.ii = i & 255;
    c.jj = j & 255;
    return c;
}

}  // namespace isoterra::simplex2
