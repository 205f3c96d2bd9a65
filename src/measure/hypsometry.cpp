// Hypsometry of the land cells: the height range and the hypsometric integral (Strahler
// 1952), computed as the elevation-relief ratio (mean - min) / (max - min), which equals
// the integral of the hypsometric curve (Pike and Wilson 1971).
#include <algorithm>
#include <cmath>

#include "isoterra/measure.hpp"

namespace isoterra {

Hypsometry hypsometry(const HeightGrid& grid, const std::vector<CellKind>& kinds) {
    Hypsometry h;
    double lo = INFINITY, hi = -INFINITY, sum = 0.0;
    for (std::size_t i = 0; i < grid.count(); ++i) {
        if (kinds[i] != CellKind::land) continue;
        const double z = grid.heights[i];
        lo = std::min(lo, z), hi = std::max(hi, z), sum += z;
        ++h.cells;
    }
    if (h.cells == 0) return h;
    h.min_m = lo, h.max_m = hi, h.mean_m = sum / static_cast<double>(h.cells);
    h.relief_m = hi - lo;
    if (hi > lo) h.integral = std::clamp((h.mean_m - lo) / (hi - lo), 0.0, 1.0);
    return h;
}

}  // namespace isoterra
