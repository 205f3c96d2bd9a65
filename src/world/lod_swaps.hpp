// How the shown columns move towards the wanted ones (internal to world/).
#pragma once

#include <functional>

#include "isoterra/world.hpp"

namespace isoterra::detail {

/// A triangle budget on what is shown: `triangles(c, n)` is what column `c` (every chunk of
/// it handed over) draws beside the levels `n`.
struct ShownBudget {
    std::size_t budget = 0;  // 0: none
    std::function<std::size_t(const LodColumn&, const Neighbourhood&)> triangles;
    glm::dvec3 focus{0.0};  // the swaps that add triangles go nearest this first
    /// Returns what `columns` (a partition) draw in all, each beside its neighbours there.
    std::size_t total(const LodColumnSet& columns, int levels) const;
};

/// Returns the next shown partition: `shown` with every region swapped whose replacement in
/// `target` is `ready` (a column split into the target's finer ones once all of them are
/// ready, finer ones joined into a target column once it is, a target column shown where
/// nothing was, and shown columns outside the target dropped), as long as the result stays
/// balanced (lod_balanced); a swap that would unbalance it waits for its neighbours'.
/// With a `limit`, the swaps that add triangles go nearest its focus first, as many as keep
/// the total within the budget (or within what `shown` draws, when that is over already);
/// `held` (if given) is set when one waits for that. `shown` must be a balanced partition.
LodColumnSet next_shown(const LodColumnSet& shown, const LodColumnSet& target, int levels,
                        const std::function<bool(const LodColumn&)>& ready, const ShownBudget* limit = nullptr, bool* held = nullptr);

}  // namespace isoterra::detail
