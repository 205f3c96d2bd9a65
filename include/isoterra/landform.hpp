// Landforms (stage landform/): measures of whether a grid of ground heights looks like
// land. Depressions filled by Priority-Flood+epsilon, D8 flow routing, drainage area and
// the longest flow path, then the figures geomorphology compares landscapes by: the share
// under closed pits, slope-area concavity, Hack's exponent, hypsometry and the slope
// histogram. The procedure: docs/guides/landforms.md ("Measuring").
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>

namespace isoterra {

/// Ground heights on a regular grid: `width` columns along x, `height` rows along z, x
/// fastest. Columns are `dx_m` apart and rows `dz_m` (they may differ, as a geographic
/// raster's do). NaN is a cell without data.
struct HeightGrid {
    int width = 0, height = 0;
    double dx_m = 1.0, dz_m = 1.0;
    glm::dvec2 origin{0.0};  // (x, z) of cell (0, 0), for maps and reports
    std::vector<double> heights;

    std::size_t count() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }
    std::size_t index(int column, int row) const { return static_cast<std::size_t>(row) * width + column; }
};

/// What a cell is to the measures: land is measured; sea and cells without data are left
/// out of every figure and drain what flows into them, as the grid's edge does.
enum class CellKind : std::uint8_t { land, sea, no_data };

/// Returns each cell's kind: no_data where the height is not finite, sea where it lies
/// below `sea_level_m`, land elsewhere. Thread-safe.
std::vector<CellKind> classify_cells(const HeightGrid& grid, double sea_level_m);

/// Fills every closed depression (Priority-Flood+epsilon, Barnes, Lehman and Mulla 2014)
/// with the grid's edge, sea and no-data cells as outlets: returns the filled heights, each
/// land cell off the edge strictly above the neighbour it was reached from (flats drain),
/// no-data cells NaN. O(N log N). Thread-safe.
std::vector<double> fill_depressions(const HeightGrid& grid, const std::vector<CellKind>& kinds);

/// No receiver: the cell is an outlet (the grid's edge, sea, no data) or nothing lower is
/// next to it.
inline constexpr std::int32_t kNoReceiver = -1;

/// Returns each cell's D8 receiver on the `filled` surface: the neighbour of the steepest
/// descent (drop over the true distance: dx, dz or their diagonal), kNoReceiver for the
/// outlets (edge, sea, no data) and for cells with no lower data neighbour. Thread-safe.
std::vector<std::int32_t> d8_receivers(const HeightGrid& grid, const std::vector<double>& filled, const std::vector<CellKind>& kinds);

/// What flows through each cell.
struct FlowAccumulation {
    std::vector<double> area_m2;   // drainage area: the cell's own dx*dz plus all upstream (0: no data)
    std::vector<double> length_m;  // the longest flow path from a cell upstream to this one (0: nothing flows in)
};

/// Accumulates the drainage area and the longest upstream flow path along `receivers`,
/// visiting cells in order of decreasing filled height (receivers are always lower).
/// Returns both per cell. O(N log N). Thread-safe.
FlowAccumulation accumulate_flow(const HeightGrid& grid, const std::vector<double>& filled, const std::vector<std::int32_t>& receivers,
                                 const std::vector<CellKind>& kinds);

/// A least-squares line through (log10 x, log10 y): log10 y = intercept + slope log10 x.
/// NaN slope, intercept and r2 when there are fewer than 3 points or x does not vary.
struct LogLogFit {
    double slope = NAN, intercept = NAN, r2 = NAN;
    std::size_t count = 0;
};

/// Returns the least-squares fit of log10 y on log10 x over the pairs with x > 0 and y > 0
/// (the others are skipped). Thread-safe.
LogLogFit fit_log_log(const std::vector<double>& x, const std::vector<double>& y);

/// The drainage areas counted as channels by the concavity and Hack fits: open interval.
struct ChannelRange {
    double min_area_m2 = 5.0e4;  // 0.05 km2
    double max_area_m2 = 5.0e7;  // 50 km2
};

/// Slope-area concavity: the fit of log S on log A over land cells whose area lies in
/// `channels` and whose slope S to their D8 receiver, on the unfilled ground, is above 0.
/// Returns the fit: theta = -slope, the steepness index ks = 10^intercept (A in m2).
/// Thread-safe.
LogLogFit slope_area_fit(const HeightGrid& grid, const std::vector<CellKind>& kinds, const std::vector<std::int32_t>& receivers,
                         const FlowAccumulation& flow, const ChannelRange& channels = {});

/// Hack's law L ~ A^h: the fit of log L (longest upstream flow path) on log A over the land
/// cells whose area lies in `channels`. Returns the fit: h = slope. Thread-safe.
LogLogFit hack_fit(const std::vector<CellKind>& kinds, const FlowAccumulation& flow, const ChannelRange& channels = {});

/// Returns the share of land cells where `filled` lies more than `depth_m` above the
/// ground: the area under closed pits (0 when there is no land). Thread-safe.
double pit_share(const HeightGrid& grid, const std::vector<double>& filled, const std::vector<CellKind>& kinds, double depth_m = 1.0);

/// Heights of the land cells.
struct Hypsometry {
    std::size_t cells = 0;
    double min_m = NAN, max_m = NAN, mean_m = NAN;
    double relief_m = NAN;  // max - min
    double integral = NAN;  // (mean - min) / (max - min); NaN when flat
};

/// Returns the land cells' height range, mean and hypsometric integral. Thread-safe.
Hypsometry hypsometry(const HeightGrid& grid, const std::vector<CellKind>& kinds);

/// The slopes of the land cells, from central differences of the ground (one-sided at the
/// edge and next to no-data cells), in degrees.
struct SlopeStatistics {
    static constexpr double kBinDeg = 5.0;
    std::size_t cells = 0;
    std::vector<double> bin_share;  // 18 bins of 5 degrees from 0 to 90: the share of cells in each
    double mean_deg = NAN, median_deg = NAN;
    double share_over_30 = NAN, share_over_45 = NAN;  // steeper than 30 (45) degrees
};

/// Returns the slope histogram and figures of the land cells. Thread-safe.
SlopeStatistics slope_statistics(const HeightGrid& grid, const std::vector<CellKind>& kinds);

/// What measure_landform() takes.
struct LandformOptions {
    double sea_level_m = -1e9;  // ground below it is sea; very low: none
    double pit_depth_m = 1.0;   // a cell is in a pit when filling raises it more than this
    ChannelRange channels;
};

/// Every figure of a grid.
struct LandformReport {
    std::size_t cells = 0, land_cells = 0, sea_cells = 0, no_data_cells = 0;
    Hypsometry heights;
    double pit_share = NAN;
    LogLogFit concavity;  // theta = -concavity.slope
    LogLogFit hack;       // h = hack.slope
    SlopeStatistics slopes;

    double theta() const { return -concavity.slope; }
};

/// Measures `grid`: classifies, fills, routes, accumulates and fits as the functions above
/// do. Returns the figures; fills `kinds_out` and `flow_out` when given (for a flow map).
/// Throws std::invalid_argument for a grid under 3 x 3 cells, spacings that are not
/// positive and finite, or heights that do not match the size. Thread-safe.
LandformReport measure_landform(const HeightGrid& grid, const LandformOptions& options = {}, std::vector<CellKind>* kinds_out = nullptr,
                                FlowAccumulation* flow_out = nullptr);

/// A flow accumulation map: 16-bit grey, log-scaled. Land pixel p >= 1 stands for a
/// drainage area of 10^(log10_min_m2 + (p - 1) / 65534 * (log10_max_m2 - log10_min_m2))
/// m2; 0 is sea or no data.
struct FlowMap {
    std::vector<std::uint16_t> pixels;  // one per cell, the grid's order
    double log10_min_m2 = 0.0, log10_max_m2 = 0.0;
};

/// Returns the map of `flow` over the land cells, normalised from the smallest to the
/// largest land drainage area. Thread-safe.
FlowMap flow_map(const FlowAccumulation& flow, const std::vector<CellKind>& kinds);

}  // namespace isoterra
