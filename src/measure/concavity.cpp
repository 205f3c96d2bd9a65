// Slope-area concavity (Flint 1974; the channel-steepness form S = ks A^-theta of Wobus et
// al. 2006): over channel cells, the slope to the D8 receiver is measured on the unfilled
// ground, since filled flats would add slopes of zero that no river has.
#include <cmath>

#include "isoterra/measure.hpp"

namespace isoterra {

LogLogFit slope_area_fit(const HeightGrid& grid, const std::vector<CellKind>& kinds, const std::vector<std::int32_t>& receivers,
                         const FlowAccumulation& flow, const ChannelRange& channels) {
    std::vector<double> area, slope;
    const double diagonal = std::hypot(grid.dx_m, grid.dz_m);
    for (std::size_t i = 0; i < grid.count(); ++i) {
        const std::int32_t j = receivers[i];
        if (kinds[i] != CellKind::land || j == kNoReceiver) continue;
        const double a = flow.area_m2[i];
        if (!(a > channels.min_area_m2 && a < channels.max_area_m2)) continue;
        const bool same_row = i / grid.width == static_cast<std::size_t>(j) / grid.width;
        const bool same_column = i % grid.width == static_cast<std::size_t>(j) % grid.width;
        const double step = same_row ? grid.dx_m : same_column ? grid.dz_m : diagonal;
        const double s = (grid.heights[i] - grid.heights[j]) / step;
        if (!(s > 0.0)) continue;
        area.push_back(a);
        slope.push_back(s);
    }
    return fit_log_log(area, slope);
}

}  // namespace isoterra
