// D8 flow routing (O'Callaghan and Mark 1984): each cell drains to the one neighbour of
// steepest descent, the drop divided by the true distance, so diagonals and unequal dx, dz
// are weighed fairly. On a Priority-Flood+epsilon surface every land cell off the edge has
// a lower neighbour.
#include "isoterra/measure.hpp"
#include "neighbours.hpp"

namespace isoterra {

std::vector<std::int32_t> d8_receivers(const HeightGrid& grid, const std::vector<double>& filled, const std::vector<CellKind>& kinds) {
    using measure::inside, measure::kNeighbours, measure::on_edge;
    const auto distance = measure::neighbour_distances(grid);
    std::vector<std::int32_t> receivers(grid.count(), kNoReceiver);
    for (int r = 0; r < grid.height; ++r)
        for (int c = 0; c < grid.width; ++c) {
            const std::size_t i = grid.index(c, r);
            if (kinds[i] != CellKind::land || on_edge(grid, c, r)) continue;  // outlets
            // Slopes compared as drop_a * run_b > drop_b * run_a: an epsilon drop near 0 m is
            // a subnormal that a division by the run would round to no slope at all.
            double best_drop = 0.0, best_run = 1.0;
            for (std::size_t k = 0; k < kNeighbours.size(); ++k) {
                const int nc = c + kNeighbours[k].dc, nr = r + kNeighbours[k].dr;
                if (!inside(grid, nc, nr)) continue;
                const std::size_t j = grid.index(nc, nr);
                if (kinds[j] == CellKind::no_data) continue;
                const double drop = filled[i] - filled[j];
                if (drop > 0.0 && drop * best_run > best_drop * distance[k]) {
                    best_drop = drop, best_run = distance[k];
                    receivers[i] = static_cast<std::int32_t>(j);
                }
            }
        }
    return receivers;
}

}  // namespace isoterra
