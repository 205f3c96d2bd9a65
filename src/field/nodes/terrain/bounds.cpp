// The terrain function's proven ranges (nodes/terrain/function.cpp is the function itself): the ground's
// over a square, by branch and bound on the columns' heights with a bound on how fast they
// change; the field's over a box from that and the overhangs' and caves' reach.
#include <algorithm>
#include <cmath>
#include <queue>

#include "function.hpp"

namespace isoterra {

double TerrainFunction::most_bend() const { return std::max(p_.overhang_plains_m, p_.overhang_mountains_m); }

double TerrainFunction::height_variation(double reach, double mountain_max) const {
    const double l2 = Simplex2::kLipschitz;
    // Warped points lie further apart than the points themselves, by the warp's own change.
    if (p_.warp_distance_m > 0.0)
        reach += std::sqrt(2.0) * std::min(2.0 * p_.warp_distance_m, p_.warp_distance_m * l2 * reach / p_.warp_scale_m);
    double hills = p_.hill_fbm.variation(Simplex2::kLipschitz, reach / p_.hill_scale_m);
    if (p_.reshape) {
        // g(n) = ((n + 1) / 2 * fudge)^e * multiplier is monotone: its slope at the top bounds it.
        const double u_max = (p_.hill_fbm.max_abs() + 1.0) * 0.5 * p_.reshape_fudge;
        const double g_slope =
            std::fabs(p_.reshape_multiplier_m) * p_.reshape_exponent * std::pow(u_max, p_.reshape_exponent - 1.0) * p_.reshape_fudge * 0.5;
        hills = std::min(hills * g_slope, std::fabs(p_.reshape_multiplier_m) * std::pow(u_max, p_.reshape_exponent));
    } else {
        hills *= std::fabs(p_.hill_height_m);
    }
    // |m1 R1 - m2 R2| <= |m1 - m2| + m_max |R1 - R2| with R in [0, 1] and m in [0, 1].
    const double dm = std::min(1.0, 1.5 / (p_.mountain_to - p_.mountain_from) * l2 * reach / p_.mountain_scale_m);
    const double dr =
        std::min(1.0, p_.ridge_exponent * p_.ridge_sharpness * p_.ridge_fbm.variation(Simplex2::kLipschitz, reach / p_.ridge_scale_m));
    return hills + std::fabs(p_.ridge_height_m) * (dm + mountain_max * dr);
}

// One side of the ground's range over a square, by branch and bound: every cell of a
// quadtree knows its centre's height, and no point of the cell is further from it than
// height_variation(half diagonal). The cell that could hold the most extreme height is
// split until that promise is within `kTolerance` of a height actually seen.
double TerrainFunction::height_extreme(double x0, double z0, double x1, double z1, double mountain_max, bool highest) const {
    struct Cell {
        double x, z, hx, hz, value, reach;
        double promise() const { return value + reach; }
        bool operator<(const Cell& o) const { return promise() < o.promise(); }
    };
    const double sign = highest ? 1.0 : -1.0;
    const auto make = [&](double x, double z, double hx, double hz) {
        return Cell{x, z, hx, hz, sign * column(x, z).height, height_variation(std::hypot(hx, hz), mountain_max)};
    };
    constexpr int kStart = 4;           // a 4x4 grid of cells to begin with
    constexpr int kBudget = 600;        // heights evaluated at most per side
    constexpr double kTolerance = 2.0;  // metres of slack accepted
    std::priority_queue<Cell> cells;
    const double hx = (x1 - x0) / (2 * kStart), hz = (z1 - z0) / (2 * kStart);
    double seen = -INFINITY;
    for (int i = 0; i < kStart; ++i)
        for (int k = 0; k < kStart; ++k) {
            cells.push(make(x0 + (2 * i + 1) * hx, z0 + (2 * k + 1) * hz, hx, hz));
            seen = std::max(seen, cells.top().value);
        }
    int evaluated = kStart * kStart;
    while (cells.top().promise() > seen + kTolerance && evaluated + 4 <= kBudget) {
        const Cell c = cells.top();
        cells.pop();
        for (int q = 0; q < 4; ++q) {
            const Cell child = make(c.x + (q & 1 ? 0.5 : -0.5) * c.hx, c.z + (q & 2 ? 0.5 : -0.5) * c.hz, c.hx * 0.5, c.hz * 0.5);
            seen = std::max(seen, child.value);
            cells.push(child);
        }
        evaluated += 4;
    }
    return sign * cells.top().promise();
}

ValueRange TerrainFunction::ground_range(double x0, double z0, double x1, double z1, bool bent) const {
    // How mountainous the square can be, from a coarse look: the mountain noise is slow.
    double m_hi = 0.0;
    for (int i = 0; i <= 2; ++i)
        for (int k = 0; k <= 2; ++k) m_hi = std::max(m_hi, column(x0 + (x1 - x0) * i / 2, z0 + (z1 - z0) * k / 2).mountain);
    const double l2 = Simplex2::kLipschitz;
    const double warp = p_.warp_distance_m > 0.0 ? 1.0 + 2.0 * p_.warp_distance_m * l2 / p_.warp_scale_m : 1.0;
    const double reach = 0.25 * std::hypot(x1 - x0, z1 - z0);
    m_hi = std::min(1.0, m_hi + reach * warp * 1.5 / (p_.mountain_to - p_.mountain_from) * l2 / p_.mountain_scale_m);
    const double bend = !bent ? 0.0
                              : std::max(std::fabs(p_.overhang_plains_m),
                                         std::fabs(p_.overhang_plains_m + (p_.overhang_mountains_m - p_.overhang_plains_m) * m_hi));
    return {height_extreme(x0, z0, x1, z1, m_hi, false) - bend, height_extreme(x0, z0, x1, z1, m_hi, true) + bend};
}

ValueRange TerrainFunction::bounds(const Box& box) const {
    return bounds_with_ground(box, ground_range(box.lo.x, box.lo.z, box.hi.x, box.hi.z));
}

ValueRange TerrainFunction::bounds_with_ground(const Box& box, const ValueRange& ground) const {
    // d = height - y + bend * noise3 lies within the bent ground range minus y.
    const double d_hi = ground.hi - box.lo.y;
    double d_lo = ground.lo - box.hi.y;
    if (p_.caves) {
        // The cave term is never below -(width * metres); smooth-min dips k/4 lower.
        d_lo = std::min(d_lo, -p_.cave_width * p_.cave_metres_per_unit);
        if (p_.cave_blend_m > 0.0) d_lo -= p_.cave_blend_m * 0.25;
    }
    return {-d_hi - p_.iso_level, -d_lo - p_.iso_level};
}

}  // namespace isoterra
