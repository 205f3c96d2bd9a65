// fold: Minecraft's "peaks and valleys" from a ridge noise, 1 - |3 |v| - 2|: 1 where |v| is
// 2/3, -1 at 0 and at 4/3 (and beyond). Piecewise linear, so its range is exact.
#include <algorithm>
#include <cmath>

#include "landform.hpp"

namespace isoterra::graph {

double fold_at(double v) { return 1.0 - std::fabs(3.0 * std::fabs(v) - 2.0); }

ValueRange fold_range(const ValueRange& in) {
    if (std::isnan(in.lo) || std::isnan(in.hi)) return {-INFINITY, INFINITY};
    // |v| over the range, then the tent 1 - |3 t - 2| over it: its ends, and its peak at 2/3.
    const double lo = in.lo >= 0.0 ? in.lo : in.hi <= 0.0 ? -in.hi : 0.0;
    const double hi = std::max(std::fabs(in.lo), std::fabs(in.hi));
    double a = fold_at(lo), b = fold_at(hi);
    double top = std::max(a, b), bottom = std::min(a, b);
    if (lo < 2.0 / 3.0 && hi > 2.0 / 3.0) top = 1.0;
    // Three operations: a few ulps of the magnitudes involved cover the rounding.
    const double slack = (3.0 * hi + 3.0) * 0x1p-48;
    return {bottom - slack, top + slack};
}

}  // namespace isoterra::graph
