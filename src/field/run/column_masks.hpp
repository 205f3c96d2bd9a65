// Skipping a column part where a mask is 0 (internal to field/). A mul of column nodes
// whose one side nothing else reads (the ridges of a mountain mask) needs that side only in
// the columns where the other side is not 0: elsewhere the product is a zero whatever the
// side says, provided the side is finite, which the proven ranges over the lattice tell.
// Skipped columns read a zero of the side's sign, so the product keeps every bit.
#pragma once

#include <cstddef>
#include <vector>

#include "eval_parts.hpp"
#include "field/compile/program.hpp"

namespace isoterra::graph {

/// Finds the column masks of `program` (Program::column_masks); run by the compiler. Each
/// node belongs to one mask at most; the search stops at kGateSearchVisits node visits.
void find_column_masks(Program& program);

/// A column mask that applies over a box, and the zero its skipped columns read.
struct ActiveMask {
    const ColumnMask* mask = nullptr;
    double zero = 0.0;  // +0 or -0: the sign the side's values have
};

/// The column masks that apply over a box: where the other side can be 0, no node of the
/// masked side can be infinite or NaN (every range finite), and the side's sign is known.
std::vector<ActiveMask> active_column_masks(const Program& program, const NoiseSet& noise, const Box& box);

/// Runs the masked side at the `count` columns x, z of `work` (the mask's other side already
/// run there): its nodes only where the other side is not 0, the rest reading `active.zero`.
void run_column_mask(const Program& program, const NoiseSet& noise, const ActiveMask& active, const double* x, const double* z,
                     std::size_t count, eval::Workspace& work, LatticeStats* stats);

}  // namespace isoterra::graph
