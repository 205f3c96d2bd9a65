// The slope of each land cell from central differences of the ground, one-sided where a
// neighbour is off the grid or has no data; sea cells still count as neighbours (their
// ground is real). Binned by 5 degrees, with the mean, median and steep shares.
#include <algorithm>
#include <cmath>

#include "isoterra/measure.hpp"

namespace isoterra {
namespace {

constexpr double kDegreesPerRadian = 57.295779513082320876798;

// The derivative along one axis at a cell from the neighbours before and after it that
// have data (NaN when neither has).
double derivative(double before, double here, double after, double spacing) {
    const bool b = std::isfinite(before), a = std::isfinite(after);
    if (b && a) return (after - before) / (2.0 * spacing);
    if (a) return (after - here) / spacing;
    if (b) return (here - before) / spacing;
    return NAN;
}

}  // namespace

SlopeStatistics slope_statistics(const HeightGrid& grid, const std::vector<CellKind>& kinds) {
    SlopeStatistics s;
    const int bins = static_cast<int>(90.0 / SlopeStatistics::kBinDeg);
    s.bin_share.assign(static_cast<std::size_t>(bins), 0.0);
    std::vector<double> slopes;
    const auto at = [&](int c, int r) {
        return c < 0 || r < 0 || c >= grid.width || r >= grid.height ? NAN : grid.heights[grid.index(c, r)];
    };
    for (int r = 0; r < grid.height; ++r)
        for (int c = 0; c < grid.width; ++c) {
            const std::size_t i = grid.index(c, r);
            if (kinds[i] != CellKind::land) continue;
            const double z = grid.heights[i];
            double gx = derivative(at(c - 1, r), z, at(c + 1, r), grid.dx_m);
            double gz = derivative(at(c, r - 1), z, at(c, r + 1), grid.dz_m);
            // A cell with no neighbour with data along an axis: no slope that way.
            if (std::isnan(gx)) gx = 0.0;
            if (std::isnan(gz)) gz = 0.0;
            slopes.push_back(std::atan(std::hypot(gx, gz)) * kDegreesPerRadian);
        }
    s.cells = slopes.size();
    if (slopes.empty()) return s;
    double sum = 0.0;
    std::size_t over30 = 0, over45 = 0;
    for (const double d : slopes) {
        sum += d;
        over30 += d > 30.0, over45 += d > 45.0;
        ++s.bin_share[static_cast<std::size_t>(std::clamp(static_cast<int>(d / SlopeStatistics::kBinDeg), 0, bins - 1))];
    }
    const double n = static_cast<double>(slopes.size());
    for (double& b : s.bin_share) b /= n;
    s.mean_deg = sum / n;
    s.share_over_30 = over30 / n, s.share_over_45 = over45 / n;
    // The median: the middle one, or the mean of the middle two.
    const std::size_t mid = slopes.size() / 2;
    std::nth_element(slopes.begin(), slopes.begin() + mid, slopes.end());
    s.median_deg = slopes[mid];
    if (slopes.size() % 2 == 0) s.median_deg = 0.5 * (s.median_deg + *std::max_element(slopes.begin(), slopes.begin() + mid));
    return s;
}

}  // namespace isoterra
