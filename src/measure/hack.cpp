// Hack's law (Hack 1957): the longest flow path to a point grows as a power of the area
// draining to it, L ~ A^h, with h slightly under 0.6 on real rivers; fitted over channel
// cells only, where the law is meant to hold.
#include "isoterra/measure.hpp"

namespace isoterra {

LogLogFit hack_fit(const std::vector<CellKind>& kinds, const FlowAccumulation& flow, const ChannelRange& channels) {
    std::vector<double> area, length;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const double a = flow.area_m2[i];
        if (kinds[i] != CellKind::land || !(a > channels.min_area_m2 && a < channels.max_area_m2)) continue;
        area.push_back(a);
        length.push_back(flow.length_m[i]);
    }
    return fit_log_log(area, length);
}

}  // namespace isoterra
