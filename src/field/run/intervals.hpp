// Proven ranges of a graph's nodes over a box (internal to field/).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "field/compile/program.hpp"
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

/// What a node's range rule (NodeType::ranges) sees: the box (grown by a step for a node on a
/// grid), the ranges of the node's inputs (in the table's order, at least three), and the
/// program, noise and the node's place in the program (for the ranges of inputs read at
/// other points: node_intervals(program, noise, other_box, nullptr, index)).
struct RangeContext {
    const Program& program;
    const NoiseSet& noise;
    const Box& box;
    const std::vector<ValueRange>& in;
    std::size_t index;
    /// A coordinate of the node (input `slot`), or the box's side `side` when the file gave none.
    const ValueRange& axis(const Node& node, int slot, const ValueRange& side) const {
        return node.coordinate_default[static_cast<std::size_t>(slot)] ? side : in[static_cast<std::size_t>(slot)];
    }
    ValueRange x() const { return {box.lo.x, box.hi.x}; }
    ValueRange y() const { return {box.lo.y, box.hi.y}; }
    ValueRange z() const { return {box.lo.z, box.hi.z}; }
};

/// Interval arithmetic for the rules (run/intervals.cpp). Results are widened by 16 ulps
/// of the largest magnitude involved (`scale` too), which covers the rounding of each
/// formula (a few operations), so a sampled value never falls outside by rounding.
namespace interval {
inline constexpr ValueRange kAll{-kInf, kInf};
double magnitude(const ValueRange& r);
/// Outward by 16 ulps of the largest of the result and `scale`; NaN means anything.
ValueRange widen(ValueRange r, double scale = 0.0);
inline ValueRange point(double v) { return {v, v}; }
ValueRange hull(double a, double b);
ValueRange add(const ValueRange& a, const ValueRange& b);
ValueRange neg(const ValueRange& a);
ValueRange sub(const ValueRange& a, const ValueRange& b);
ValueRange mul(const ValueRange& a, const ValueRange& b);
ValueRange min_of(const ValueRange& a, const ValueRange& b);
ValueRange max_of(const ValueRange& a, const ValueRange& b);
ValueRange abs_of(const ValueRange& a);
/// A function that does not decrease (or, `rising` false, does not increase) on the range.
template <class F>
ValueRange monotone(const ValueRange& a, F f, bool rising, double scale = 0.0) {
    const double lo = f(a.lo), hi = f(a.hi);
    return widen(rising ? ValueRange{lo, hi} : ValueRange{hi, lo}, scale);
}
}  // namespace interval

}  // namespace isoterra::graph
