// The whole measure: which cells are land, then fill, route, accumulate and fit, each by
// its own file's algorithm, in the order the notes' procedure gives (docs/guides/landforms.md).
#include <cmath>
#include <stdexcept>
#include <string>

#include "isoterra/measure.hpp"

namespace isoterra {

std::vector<CellKind> classify_cells(const HeightGrid& grid, double sea_level_m) {
    std::vector<CellKind> kinds(grid.count(), CellKind::land);
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const double z = grid.heights[i];
        if (!std::isfinite(z)) kinds[i] = CellKind::no_data;
        else if (z < sea_level_m) kinds[i] = CellKind::sea;
    }
    return kinds;
}

void check_height_grid(const HeightGrid& grid) {
    if (grid.width < 3 || grid.height < 3)
        throw std::invalid_argument("landform: the grid has " + std::to_string(grid.width) + "x" + std::to_string(grid.height) +
                                    " cells; at least 3x3 are needed");
    // Cell indices are 32-bit receivers.
    if (grid.count() >= (std::size_t{1} << 31)) throw std::invalid_argument("landform: the grid has more than 2^31 cells");
    if (!(std::isfinite(grid.dx_m) && std::isfinite(grid.dz_m) && grid.dx_m > 0.0 && grid.dz_m > 0.0))
        throw std::invalid_argument("landform: the cell spacing must be positive and finite");
    if (grid.heights.size() != grid.count()) throw std::invalid_argument("landform: the heights do not match the grid's size");
}

LandformReport measure_landform(const HeightGrid& grid, const LandformOptions& options, std::vector<CellKind>* kinds_out,
                                FlowAccumulation* flow_out) {
    check_height_grid(grid);

    LandformReport report;
    std::vector<CellKind> kinds = classify_cells(grid, options.sea_level_m);
    report.cells = grid.count();
    for (const CellKind k : kinds) {
        report.land_cells += k == CellKind::land;
        report.sea_cells += k == CellKind::sea;
        report.no_data_cells += k == CellKind::no_data;
    }
    report.heights = hypsometry(grid, kinds);
    report.slopes = slope_statistics(grid, kinds);

    const std::vector<double> filled = fill_depressions(grid, kinds);
    report.pit_share = pit_share(grid, filled, kinds, options.pit_depth_m);
    const std::vector<std::int32_t> receivers = d8_receivers(grid, filled, kinds);
    FlowAccumulation flow = accumulate_flow(grid, filled, receivers, kinds);
    report.concavity = slope_area_fit(grid, kinds, receivers, flow, options.channels);
    report.hack = hack_fit(kinds, flow, options.channels);

    if (flow_out) *flow_out = std::move(flow);
    if (kinds_out) *kinds_out = std::move(kinds);
    return report;
}

}  // namespace isoterra
