// Landforms (stage measure/): measures of whether a grid of ground heights looks like
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
#include <glm/vec3.hpp>

namespace isoterra {

class Field;

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

/// The most bytes measure_landform and a flow map hold per cell of a grid (heights, kinds,
/// the filled surface, receivers, the flood's queue, drainage area and length, the fits'
/// samples): what a command plans against the memory budget before it makes a grid
/// (tests/measure/landform_test.cpp measures the peak against it).
inline constexpr double kLandformBytesPerCell = 160.0;

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

// ---- River networks (river_network.cpp, river_wander.cpp) --------------------------------

/// What river_network() takes.
struct RiverOptions {
    double sea_level_m = -INFINITY;  // ground below it is sea: where rivers end
    double min_area_m2 = 1.0e6;      // a cell is a channel where its drainage area reaches this
    double smooth_cells = 2.0;       // the Gaussian's sigma, in cells, that takes D8's stairs out of a line (0: none)
};

/// One reach: a channel from a source or a junction down to the next junction, the sea or
/// the grid's edge, upstream first.
struct RiverReach {
    std::vector<glm::dvec3> points;  // (x, z, water level) in metres
    int order = 1;                   // Strahler: 1 for a reach with nothing upstream
    double area_m2 = 0.0;            // the drainage area at its last land cell
    double width_m = 0.0;
};

/// The bytes a river network reckons with per grid cell (the heights and water, the fill,
/// routing, areas, orders and levels); checked against the memory budget before anything
/// is allocated.
inline constexpr double kRiverBytesPerCell = 128.0;

/// Returns a river's width from its drainage area: hydraulic geometry (Leopold and Maddock
/// 1953), w = 4 Q^0.5 m with a mean discharge Q of 0.02 m3/s per km2. Thread-safe.
double river_width_m(double area_m2);

/// The river network of `grid`: depressions filled, D8, drainage area as measure_landform()
/// has them; channels where the area reaches options.min_area_m2; Strahler orders; one
/// reach per stretch between junctions, in the order of their first cells (row by row).
/// Each point's level is the highest of the ground, `water` at that cell (when given: one
/// value per cell, NaN for none) and, in the sea, the sea level, then held to the lowest
/// upstream along the channels, so that water never rises downstream. `width_m` per reach from
/// `widths` at its last land cell when given (NaN or not positive: none), else
/// river_width_m(). Throws MemoryBudgetError for a grid over the memory budget,
/// std::invalid_argument as measure_landform() does, and for
/// `water` or `widths` not matching the grid or a threshold that is not positive.
/// Deterministic; thread-safe.
std::vector<RiverReach> river_network(const HeightGrid& grid, const RiverOptions& options = {}, const std::vector<double>* water = nullptr,
                                      const std::vector<double>* widths = nullptr);

/// How much rivers wander: over the reaches of order >= min_order whose ends lie at least
/// min_chord_m apart, the median sinuosity (length / distance between the ends) and the
/// share of their length on straight pieces (piece_m along the river within tolerance_m of
/// the chord between the piece's ends).
struct RiverWander {
    int min_order = 2;
    double min_chord_m = 1000.0, piece_m = 200.0, tolerance_m = 2.0;
    std::size_t reaches = 0;  // measured
    double length_m = 0.0;    // their total length
    double median_sinuosity = NAN;
    double straight_share = NAN;
};

/// Measures `reaches` with the settings in `wander` (its figures are filled in). Lengths in
/// x and z only. Thread-safe.
RiverWander measure_wander(const std::vector<RiverReach>& reaches, RiverWander wander = {});

/// A field's ground and water on a grid whose columns are the whole multiples of `step_m`
/// from `lo` to `hi` (x, z), as its lattice has them: the heights, and per cell the water
/// surface (ColumnLooks::water; NaN where the field draws none).
struct FieldGround {
    HeightGrid grid;
    std::vector<double> water;
};

/// Samples `field` so, one row per job on `threads` threads (< 1: one). Throws
/// MemoryBudgetError when the grid's river network would not fit the memory budget,
/// std::invalid_argument for a field without a ground, a step that is not positive and
/// finite, or fewer than 3 columns a side. Thread-safe.
FieldGround sample_field_ground(const Field& field, const glm::dvec2& lo, const glm::dvec2& hi, double step_m, int threads);

/// The river network of `field` from `lo` to `hi` every `step_m`: sample_field_ground(),
/// then river_network() with the field's water and, unless `options` has one, its sea
/// level. Thread-safe.
std::vector<RiverReach> field_rivers(const Field& field, const glm::dvec2& lo, const glm::dvec2& hi, double step_m, RiverOptions options,
                                     int threads);

/// Checks a grid for the measures: throws std::invalid_argument under 3 x 3 cells, 2^31
/// cells or more, spacings that are not positive and finite, heights not matching the size.
void check_height_grid(const HeightGrid& grid);

}  // namespace isoterra
