// Proven ranges of a graph's nodes over a box (internal to field/graph/).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "graph_program.hpp"
#include "isoterra/noise.hpp"

namespace isoterra::graph {

/// A range known for one node's output at the points that matter (a survey's ground range
/// over a column's samples), intersected with the node's own rule.
struct PinnedRange {
    Operand output;
    ValueRange range;
};

/// For each node (and each port), a range that holds every value the node takes at points
/// of `box`, on the point path and the lattice path alike. Never too narrow: each rule is
/// exact interval arithmetic rounded outward, noises bounded by their proven slopes. With
/// `pin`, that output's range is narrowed to pin->range (which the caller proves). Only the
/// first `upto` nodes are worked out (a node's rule asking for its inputs' ranges over
/// another box; the rest are left empty).
std::vector<NodeRanges> node_intervals(const Program& program, const NoiseSet& noise, const Box& box, const PinnedRange* pin = nullptr,
                                       std::size_t upto = SIZE_MAX);

/// The range of an operand given the nodes' ranges.
ValueRange operand_range(const std::vector<NodeRanges>& ranges, const Operand& op);

}  // namespace isoterra::graph
