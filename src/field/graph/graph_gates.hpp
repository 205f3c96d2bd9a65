// Skipping a noise where its value cannot matter (internal to field/graph/). A lattice noise
// (simplex3 of the raw position) whose every path to the sdf passes through one side of a
// min, max or CSG node is needed only where the other side does not decide that node on its
// own. Per lattice, the side's proven range gives a threshold; per sample, the other side's
// value against it gives the gate the lattice kernel skips by. Skipped samples read 0, a
// value the noise can take, so the deciding node's result is the same bits either way.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "graph_program.hpp"

namespace isoterra::graph {

/// The node visits the search for gates may make (each guard costs two walks of the graph).
inline constexpr double kGateSearchVisits = 2e7;

/// Finds the gates of `program`'s lattice noises (Program::gates); run by the compiler.
/// Gives up past kGateSearchVisits: the gates found by then, or none when checking them
/// would pass it (a noise without a gate is computed everywhere: slower, the same bits).
void find_gates(Program& program);

/// The nodes that read, directly or not, a noise one of `gates` skips (they run after it).
std::vector<bool> reads_gated(const Program& program, const std::vector<Gate>& gates);

/// The number the other side is compared with over a lattice, from the nodes' ranges
/// there; NaN when the ranges decide nothing (the noise is then computed everywhere).
double gate_threshold(const Program& program, const Gate& gate, const std::vector<NodeRanges>& ranges);

/// Writes one gate value per lane from the other side's values `other`: below 0 where the
/// noise is not needed.
void gate_values(const Program& program, const Gate& gate, double threshold, const double* other, float* out, std::size_t count);

}  // namespace isoterra::graph
