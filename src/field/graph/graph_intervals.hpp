// Proven ranges of a graph's nodes over a box (internal to field/graph/).
#pragma once

#include <array>
#include <vector>

#include "graph_program.hpp"
#include "isoterra/noise.hpp"

namespace isoterra::graph {

/// For each node (and each port), a range that holds every value the node takes at points
/// of `box`, on the point path and the lattice path alike. Never too narrow: each rule is
/// exact interval arithmetic rounded outward, noises bounded by their proven slopes.
std::vector<std::array<ValueRange, 3>> node_intervals(const Program& program, const NoiseSet& noise, const Box& box);

/// The range of an operand given the nodes' ranges.
ValueRange operand_range(const std::vector<std::array<ValueRange, 3>>& ranges, const Operand& op);

}  // namespace isoterra::graph
