// The flow accumulation map: drainage area on a log scale (it spans from one cell to the
// whole grid, six orders of magnitude and more), normalised over the land to 1..65535,
// with 0 kept for sea and no data.
#include <algorithm>
#include <cmath>

#include "isoterra/measure.hpp"

namespace isoterra {

FlowMap flow_map(const FlowAccumulation& flow, const std::vector<CellKind>& kinds) {
    FlowMap map;
    map.pixels.assign(kinds.size(), 0);
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t i = 0; i < kinds.size(); ++i)
        if (kinds[i] == CellKind::land && flow.area_m2[i] > 0.0) {
            const double l = std::log10(flow.area_m2[i]);
            lo = std::min(lo, l), hi = std::max(hi, l);
        }
    if (!(lo <= hi)) return map;
    map.log10_min_m2 = lo, map.log10_max_m2 = hi;
    const double span = hi > lo ? hi - lo : 1.0;
    for (std::size_t i = 0; i < kinds.size(); ++i)
        if (kinds[i] == CellKind::land && flow.area_m2[i] > 0.0) {
            const double t = (std::log10(flow.area_m2[i]) - lo) / span;
            map.pixels[i] = static_cast<std::uint16_t>(1 + std::lround(std::clamp(t, 0.0, 1.0) * 65534.0));
        }
    return map;
}

}  // namespace isoterra
