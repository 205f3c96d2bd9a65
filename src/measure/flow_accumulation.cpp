// Flow accumulation: cells in order of decreasing filled height (a receiver is always
// lower, so every cell is complete before it is handed on), each passing its drainage area
// and its longest upstream path, lengthened by the step, to its receiver.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "isoterra/measure.hpp"

namespace isoterra {

FlowAccumulation accumulate_flow(const HeightGrid& grid, const std::vector<double>& filled, const std::vector<std::int32_t>& receivers,
                                 const std::vector<CellKind>& kinds) {
    const std::size_t n = grid.count();
    FlowAccumulation flow;
    flow.area_m2.assign(n, 0.0);
    flow.length_m.assign(n, 0.0);
    std::vector<std::int32_t> order;
    order.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (kinds[i] != CellKind::no_data) {
            order.push_back(static_cast<std::int32_t>(i));
            flow.area_m2[i] = grid.dx_m * grid.dz_m;
        }
    // Highest first; ties by index so that the sums add in the same order on every run.
    std::sort(order.begin(), order.end(),
              [&](std::int32_t a, std::int32_t b) { return filled[a] != filled[b] ? filled[a] > filled[b] : a < b; });
    const double diagonal = std::hypot(grid.dx_m, grid.dz_m);
    for (const std::int32_t i : order) {
        const std::int32_t j = receivers[i];
        if (j == kNoReceiver) continue;
        flow.area_m2[j] += flow.area_m2[i];
        const bool same_row = i / grid.width == j / grid.width, same_column = i % grid.width == j % grid.width;
        const double step = same_row ? grid.dx_m : same_column ? grid.dz_m : diagonal;
        flow.length_m[j] = std::max(flow.length_m[j], flow.length_m[i] + step);
    }
    return flow;
}

}  // namespace isoterra
