// Coarse first (internal to world/): while finer columns are built, the inner nodes of the
// level tree stand in for them, so the whole view is shown early at some level and then
// refines region by region.
#pragma once

#include <functional>

#include "isoterra/world.hpp"

namespace isoterra::detail {

/// How many of the coarsest levels have stand-ins. Each stand-in is built on top of the
/// target's columns: with the coarsest level alone, the 8 km first view builds 3.5-5 % more
/// chunks and shows the whole view in a fifth to a third of the time; with two levels, 4-10 %
/// more (docs/benchmarks.md, "Coarse first").
inline constexpr int kStandInLevels = 1;

/// Returns the inner nodes of `target` within the `depth` coarsest of `levels` that may stand
/// in for their finer columns: those with no column of `shown` strictly inside them (where
/// something finer is shown already, a stand-in would only be a step back).
LodColumnSet stand_ins(const LodTarget& target, const LodColumnSet& shown, int levels, int depth = kStandInLevels);

/// Returns what the shown columns move towards now: `target`'s leaves, except that a ready
/// stand-in is kept whole where not all of its four quarters can be shown yet (each quarter
/// ready or shown itself, or split into quarters that can). Not necessarily balanced:
/// next_shown keeps the shown columns balanced.
LodColumnSet staged_target(const LodTarget& target, const LodColumnSet& stand_ins, const LodColumnSet& shown, int levels,
                           const std::function<bool(const LodColumn&)>& ready);

/// Returns true when every column of `leaves` is covered by `shown`: by itself, a coarser
/// column over it, or finer columns that tile it.
bool view_covered(const LodColumnSet& shown, const LodColumnSet& leaves, int levels);

}  // namespace isoterra::detail
