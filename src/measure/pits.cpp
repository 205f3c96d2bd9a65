// The share of land under closed pits: where filling the depressions raised the ground by
// more than a depth (1 m by default, so that the epsilon slopes of flats do not count).
#include "isoterra/measure.hpp"

namespace isoterra {

double pit_share(const HeightGrid& grid, const std::vector<double>& filled, const std::vector<CellKind>& kinds, double depth_m) {
    std::size_t land = 0, pits = 0;
    for (std::size_t i = 0; i < grid.count(); ++i) {
        if (kinds[i] != CellKind::land) continue;
        ++land;
        pits += filled[i] - grid.heights[i] > depth_m;
    }
    return land ? static_cast<double>(pits) / static_cast<double>(land) : 0.0;
}

}  // namespace isoterra
