// The river network of a height grid, from what the ground gives: depressions filled, D8
// receivers and drainage areas as the landform measure has them; a channel wherever the area
// reaches a threshold; Strahler orders by Kahn's order over the channel tree (a cell is done
// once all its channel donors are); one reach from each source or junction down to the next
// junction, the sea or the edge. Why the ground and not a drainage node's own channels: those
// are straight segments in the node's coordinates, which a graph warps (the presets meander
// them with warp2) by an expression the network cannot invert, and a graph may have no
// drainage node at all (a raster, the tutorial); the ground is what a player sees and walks.
// D8's lines step along the grid's eight directions, so each reach is smoothed by a Gaussian
// of a couple of cells (ends kept), far shorter than any meander it should keep.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "isoterra/base.hpp"
#include "isoterra/measure.hpp"

namespace isoterra {
namespace {

// Each interior point moved to the Gaussian mean of its neighbours along the line, the
// window shrunk symmetrically near the ends so that the ends stay.
void smooth_line(std::vector<glm::dvec3>& points, double sigma) {
    const int n = static_cast<int>(points.size());
    if (sigma <= 0.0 || n < 3) return;
    const int reach = static_cast<int>(std::ceil(3.0 * sigma));
    std::vector<glm::dvec3> out(points);
    for (int i = 1; i + 1 < n; ++i) {
        const int w = std::min({reach, i, n - 1 - i});
        glm::dvec2 sum(0.0);
        double weights = 0.0;
        for (int k = -w; k <= w; ++k) {
            const double g = std::exp(-0.5 * k * k / (sigma * sigma));
            sum += g * glm::dvec2(points[i + k].x, points[i + k].y);
            weights += g;
        }
        out[i].x = sum.x / weights;
        out[i].y = sum.y / weights;
    }
    points.swap(out);
}

// The Strahler order of every channel cell (0 elsewhere), how many channel cells drain
// into each cell, and `level` lowered where a donor's is lower: water never rises downstream
// (a D8 path zigzags over a valley's floor, whose cells lie a little above its line).
void strahler_orders(const std::vector<std::uint8_t>& channel, const std::vector<std::int32_t>& receivers, std::vector<int>& order,
                     std::vector<int>& donors, std::vector<double>& level) {
    const std::size_t n = channel.size();
    order.assign(n, 0);
    donors.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        if (channel[i] && receivers[i] != kNoReceiver && channel[receivers[i]]) ++donors[receivers[i]];
    std::vector<int> waiting(donors), highest(n, 0), at_highest(n, 0);
    std::vector<std::int32_t> ready;
    for (std::size_t i = 0; i < n; ++i)
        if (channel[i] && donors[i] == 0) ready.push_back(static_cast<std::int32_t>(i));
    while (!ready.empty()) {
        const std::int32_t i = ready.back();
        ready.pop_back();
        order[i] = donors[i] == 0 ? 1 : highest[i] + (at_highest[i] >= 2 ? 1 : 0);
        const std::int32_t j = receivers[i];
        if (j == kNoReceiver || !channel[j]) continue;
        if (order[i] > highest[j]) highest[j] = order[i], at_highest[j] = 0;
        if (order[i] == highest[j]) ++at_highest[j];
        level[j] = std::min(level[j], level[i]);
        if (--waiting[j] == 0) ready.push_back(j);
    }
}

}  // namespace

double river_width_m(double area_m2) { return 4.0 * std::sqrt(0.02 * std::max(area_m2, 0.0) / 1.0e6); }

std::vector<RiverReach> river_network(const HeightGrid& grid, const RiverOptions& options, const std::vector<double>* water,
                                      const std::vector<double>* widths) {
    check_height_grid(grid);
    check_memory_budget(kRiverBytesPerCell * static_cast<double>(grid.count()),
                        "a river network of " + std::to_string(grid.width) + "x" + std::to_string(grid.height) + " cells");
    if (water && water->size() != grid.count()) throw std::invalid_argument("rivers: the water levels do not match the grid's size");
    if (widths && widths->size() != grid.count()) throw std::invalid_argument("rivers: the river widths do not match the grid's size");
    if (!(options.min_area_m2 > 0.0) || !std::isfinite(options.min_area_m2))
        throw std::invalid_argument("rivers: the channel threshold (drainage area) must be positive and finite");
    const std::vector<CellKind> kinds = classify_cells(grid, options.sea_level_m);
    const std::vector<double> filled = fill_depressions(grid, kinds);
    const std::vector<std::int32_t> receivers = d8_receivers(grid, filled, kinds);
    const FlowAccumulation flow = accumulate_flow(grid, filled, receivers, kinds);
    const std::size_t n = grid.count();
    std::vector<std::uint8_t> channel(n, 0);
    for (std::size_t i = 0; i < n; ++i) channel[i] = kinds[i] == CellKind::land && flow.area_m2[i] >= options.min_area_m2;
    std::vector<double> level(grid.heights);
    for (std::size_t i = 0; i < n; ++i) {
        if (water && (*water)[i] > level[i]) level[i] = (*water)[i];
        if (kinds[i] == CellKind::sea) level[i] = std::max(level[i], options.sea_level_m);
    }
    std::vector<int> order, donors;
    strahler_orders(channel, receivers, order, donors, level);

    const auto point = [&](std::size_t i) {
        const auto c = static_cast<double>(i % grid.width), r = static_cast<double>(i / grid.width);
        return glm::dvec3(grid.origin.x + c * grid.dx_m, grid.origin.y + r * grid.dz_m, level[i]);
    };
    std::vector<RiverReach> reaches;
    for (std::size_t start = 0; start < n; ++start) {
        if (!channel[start] || donors[start] == 1) continue;  // reaches start at sources and junctions
        RiverReach reach;
        reach.order = order[start];
        std::size_t i = start;
        reach.points.push_back(point(i));
        for (;;) {
            const std::int32_t j = receivers[i];
            if (j == kNoReceiver) break;
            reach.points.push_back(point(j));  // a junction, the sea or the next cell
            if (!channel[j] || donors[j] != 1) break;
            i = static_cast<std::size_t>(j);
        }
        reach.area_m2 = flow.area_m2[i];
        const double given = widths ? (*widths)[i] : NAN;
        reach.width_m = given > 0.0 ? given : river_width_m(reach.area_m2);
        if (reach.points.size() >= 2) {
            smooth_line(reach.points, options.smooth_cells);
            reaches.push_back(std::move(reach));
        }
    }
    return reaches;
}

}  // namespace isoterra
