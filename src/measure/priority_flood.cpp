// Priority-Flood+epsilon (Barnes, Lehman and Mulla 2014, "Priority-Flood: An optimal
// depression-filling and watershed-labeling algorithm", Algorithm 3): a flood from the
// outlets inwards, lowest cell first; a cell reached from a higher one is raised to the
// next double above it, so every filled flat slopes, by the smallest step, to its outlet.
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "isoterra/measure.hpp"
#include "neighbours.hpp"

namespace isoterra {

std::vector<double> fill_depressions(const HeightGrid& grid, const std::vector<CellKind>& kinds) {
    using measure::inside, measure::kNeighbours, measure::on_edge;
    const std::size_t n = grid.count();
    std::vector<double> filled(grid.heights);
    std::vector<std::uint8_t> closed(n, 0);
    // (height, index): ties by index keep the result the same on every run.
    using Entry = std::pair<double, std::int64_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    std::deque<std::int64_t> pit;  // raised cells: their heights only grow, so FIFO is in order

    // The outlets: the edge, the sea, the holes. A hole floods first (as -inf) and drains
    // its neighbours the way the edge does.
    for (int r = 0; r < grid.height; ++r)
        for (int c = 0; c < grid.width; ++c) {
            const std::size_t i = grid.index(c, r);
            if (kinds[i] == CellKind::land && !on_edge(grid, c, r)) continue;
            closed[i] = 1;
            open.emplace(kinds[i] == CellKind::no_data ? -std::numeric_limits<double>::infinity() : filled[i],
                         static_cast<std::int64_t>(i));
        }

    while (!open.empty() || !pit.empty()) {
        std::int64_t cell;
        double level;
        // Lowest first; on a tie the open queue goes first, as in the paper.
        if (!pit.empty() && (open.empty() || filled[pit.front()] < open.top().first)) {
            cell = pit.front();
            pit.pop_front();
            level = filled[cell];
        } else {
            cell = open.top().second;
            level = open.top().first;
            open.pop();
        }
        const int c = static_cast<int>(cell % grid.width), r = static_cast<int>(cell / grid.width);
        const double raised = std::nextafter(level, std::numeric_limits<double>::infinity());
        for (const auto& d : kNeighbours) {
            const int nc = c + d.dc, nr = r + d.dr;
            if (!inside(grid, nc, nr)) continue;
            const std::size_t j = grid.index(nc, nr);
            if (closed[j]) continue;
            closed[j] = 1;
            if (filled[j] <= raised) {
                filled[j] = raised;
                pit.push_back(static_cast<std::int64_t>(j));
            } else {
                open.emplace(filled[j], static_cast<std::int64_t>(j));
            }
        }
    }
    return filled;
}

}  // namespace isoterra
