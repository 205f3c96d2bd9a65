// A triangle budget (internal to world/): the World measures the triangles of a few columns
// of every level around the focus, estimates what its target would show for narrower rings,
// and takes the widest ring whose estimate fits the budget.
#pragma once

#include <cstddef>
#include <functional>
#include <unordered_map>

#include "isoterra/world.hpp"

namespace isoterra::detail {

/// Returns the columns a World measures before it chooses its ring: every node of `target`
/// at the coarsest of `levels` (coarse first builds them first), and at each finer level the
/// nodes of `target`, leaves or split, within kStandInReach columns of the one holding
/// `focus` (the stand-ins near the camera, and the finest columns around it). They depend
/// on the focus only, so the choice does not depend on the order the workers finish in.
LodColumnSet budget_probe(const LodTarget& target, int levels, const glm::dvec3& focus);

/// Returns the triangles `leaves` would show: each measured column's own count, any other the
/// mean of the measured columns of its level (or of the nearest coarser level with one).
double estimated_triangles(const LodColumnSet& leaves, const std::unordered_map<LodColumn, std::size_t, LodColumnHash>& measured,
                           int levels);

/// Returns the widest ring, from `ring` down to 2 in quarter steps, whose target's estimate
/// (`estimate_for(ring)`) is within `budget` triangles; 2 if none is. The estimate grows
/// with the ring, so a bisection over the steps finds it.
double ring_within_budget(double ring, std::size_t budget, const std::function<double(double)>& estimate_for);

}  // namespace isoterra::detail
