// Coarse first (internal to world/): while finer columns are built, the inner nodes of the
// level tree stand in for them, so the whole view is shown early at some level and then
// refines region by region.
#pragma once

#include <functional>

#include "isoterra/world.hpp"

namespace isoterra::detail {

/// How many of the coarsest wanted levels have stand-ins everywhere, besides the level above
/// them that only stands in (LodParams::stand_in_roots: a quarter as many columns, so the
/// whole view is shown after a quarter of the coarsest level's work). Below them, only the
/// inner nodes around the focus stand in (`kStandInReach`), so the camera's surroundings
/// refine level by level instead of waiting for the whole of the coarsest column around it.
/// Each stand-in is built on top of the target's columns (docs/design/benchmarks.md, "Coarse first").
inline constexpr int kStandInLevels = 1;
/// The inner nodes of every level within this many columns of the focus's (in x and z) stand in.
inline constexpr int kStandInReach = 2;

/// Returns true when column `c` lies within kStandInReach columns (in x and z) of the column
/// of its level that holds `focus`.
bool near_focus(const LodColumn& c, const glm::dvec3& focus);

/// Returns the inner nodes of `target` that may stand in for their finer columns: those of
/// the `depth` coarsest of `levels`, and those within kStandInReach columns of the one
/// holding `focus` at their level; of these, those with no column of `shown` strictly inside
/// them (where something finer is shown already, a stand-in would only be a step back).
/// `around_focus` false: the coarsest levels' alone (in flight: the camera's surroundings
/// are built at their own levels, what they fly into first, not level by level).
LodColumnSet stand_ins(const LodTarget& target, const LodColumnSet& shown, int levels, const glm::dvec3& focus, int depth = kStandInLevels,
                       bool around_focus = true);

/// Returns what the shown columns move towards now: `target`'s leaves, except that a ready
/// stand-in is kept whole where not all of its four quarters can be shown yet (each quarter
/// ready or shown itself, or split into quarters that can), or where showing them would put
/// columns more than one level finer than a column beside them. next_shown keeps the shown
/// columns balanced in any case.
LodColumnSet staged_target(const LodTarget& target, const LodColumnSet& stand_ins, const LodColumnSet& shown, int levels,
                           const std::function<bool(const LodColumn&)>& ready);

/// Returns true when every column of `leaves` nearer `focus` than `view_distance_m` (in x and
/// z) is covered by `shown`: by itself, a coarser column over it, or finer columns that tile
/// it. Those farther off are only made ready before they come into view (select_lod's
/// margin); the fog is full at the view distance.
bool view_covered(const LodColumnSet& shown, const LodColumnSet& leaves, int levels, const glm::dvec3& focus, double view_distance_m);

}  // namespace isoterra::detail
