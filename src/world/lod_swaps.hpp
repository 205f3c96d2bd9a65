// How the shown columns move towards the wanted ones (internal to world/).
#pragma once

#include <functional>

#include "isoterra/world.hpp"

namespace isoterra::detail {

/// Returns the next shown partition: `shown` with every region swapped whose replacement in
/// `target` is `ready` (a column split into the target's finer ones once all of them are
/// ready, finer ones joined into a target column once it is, a target column shown where
/// nothing was, and shown columns outside the target dropped), as long as the result stays
/// balanced (lod_balanced); a swap that would unbalance it waits for its neighbours'.
/// `shown` must be a balanced partition.
LodColumnSet next_shown(const LodColumnSet& shown, const LodColumnSet& target, int levels,
                        const std::function<bool(const LodColumn&)>& ready);

}  // namespace isoterra::detail
