// Interval arithmetic over a compiled graph: each node's range over a box from its inputs'
// ranges, by its row's rule (nodes/table.hpp). Results are widened by 16 ulps of the largest
// magnitude involved, which covers the rounding of every formula (each is a few operations),
// so a sampled value never falls outside by rounding.
#include "intervals.hpp"
#include "field/nodes/table.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace isoterra::graph {
namespace interval {

double magnitude(const ValueRange& r) { return std::max(std::fabs(r.lo), std::fabs(r.hi)); }

ValueRange widen(ValueRange r, double scale) {
    if (std::isnan(r.lo) || std::isnan(r.hi)) return kAll;
    const double slack = std::max(magnitude(r), scale) * 0x1p-48 + DBL_TRUE_MIN;
    if (std::isfinite(slack)) r.lo -= slack, r.hi += slack;
    return r;
}

ValueRange hull(double a, double b) { return {std::min(a, b), std::max(a, b)}; }

ValueRange add(const ValueRange& a, const ValueRange& b) { return widen({a.lo + b.lo, a.hi + b.hi}, std::max(magnitude(a), magnitude(b))); }
ValueRange neg(const ValueRange& a) { return {-a.hi, -a.lo}; }
ValueRange sub(const ValueRange& a, const ValueRange& b) { return add(a, neg(b)); }
ValueRange mul(const ValueRange& a, const ValueRange& b) {
    const double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
    for (const double v : p)
        if (std::isnan(v)) return kAll;  // 0 * inf
    return widen({*std::min_element(p, p + 4), *std::max_element(p, p + 4)});
}
ValueRange min_of(const ValueRange& a, const ValueRange& b) { return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)}; }
ValueRange max_of(const ValueRange& a, const ValueRange& b) { return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)}; }
ValueRange abs_of(const ValueRange& a) {
    if (a.lo >= 0.0) return a;
    if (a.hi <= 0.0) return neg(a);
    return {0.0, std::max(-a.lo, a.hi)};
}

}  // namespace interval

ValueRange operand_range(const std::vector<NodeRanges>& ranges, const Operand& op) {
    if (op.is_constant()) return interval::point(op.constant);
    return ranges[static_cast<std::size_t>(op.node)][static_cast<std::size_t>(op.port)];
}

std::vector<NodeRanges> node_intervals(const Program& program, const NoiseSet& noise, const Box& box, const PinnedRange* pin,
                                       std::size_t upto) {
    std::vector<NodeRanges> ranges(program.nodes.size());
    std::vector<ValueRange> in;  // most nodes have at most three value inputs; a spline one per knot
    for (std::size_t n = 0; n < std::min(upto, program.nodes.size()); ++n) {
        const Node& node = program.nodes[n];
        in.assign(std::max<std::size_t>(node.in.size(), 3), ValueRange{});
        // A node on a grid takes values at grid nodes up to a step beyond the box (its lanes'
        // values lie between them): its rule over the grown box, with its inputs' there.
        const bool gridded = node.grid_m > 0.0;
        const Box grown{box.lo - glm::dvec3(node.grid_m, 0.0, node.grid_m), box.hi + glm::dvec3(node.grid_m, 0.0, node.grid_m)};
        const Box& nbox = gridded ? grown : box;
        if (gridded) {
            const auto around = node_intervals(program, noise, grown, nullptr, n);  // a pin holds at samples only
            for (std::size_t i = 0; i < node.in.size(); ++i) in[i] = operand_range(around, node.in[i]);
        } else {
            for (std::size_t i = 0; i < node.in.size(); ++i) in[i] = operand_range(ranges, node.in[i]);
        }
        NodeRanges& out = ranges[n] = node.kind->ranges(node, {program, noise, nbox, in, n});
        // A level that cannot show it blends it toward its `far` (run/lod.hpp).
        if (node.detail_m > 0.0)
            out[0] = interval::widen({std::min(out[0].lo, node.far), std::max(out[0].hi, node.far)}, std::fabs(node.far));
        if (pin && !pin->output.is_constant() && pin->output.node == static_cast<int>(n)) {
            ValueRange& r = out[static_cast<std::size_t>(pin->output.port)];
            r = {std::max(r.lo, pin->range.lo), std::min(r.hi, pin->range.hi)};
        }
    }
    return ranges;
}

}  // namespace isoterra::graph
