// Masks from the shape of the ground: slope (the angle of a gradient) and curvature (how far
// a column input rises above the mean of its four neighbours), for detail only where it
// belongs (sharp detail on ridges, scree in hollows) and for materials.
#include <algorithm>
#include <cmath>
#include <vector>

#include "landform.hpp"

namespace isoterra::graph {
namespace {

constexpr double kDegrees = 180.0 / 3.14159265358979323846;

}  // namespace

void run_slope(const Node&, const Lanes& l) {
    for (std::size_t i = 0; i < l.count; ++i) l.out[0][i] = std::atan(std::hypot(l.in[0][i], l.in[1][i])) * kDegrees;
}

ValueRange slope_range(const Node&, const RangeContext& c) {
    // atan(hypot) rises with |gradient|: from the least to the most |gradient| in the box.
    const auto least = [](const ValueRange& r) { return r.lo > 0.0 ? r.lo : r.hi < 0.0 ? -r.hi : 0.0; };
    const auto most = [](const ValueRange& r) { return std::max(std::fabs(r.lo), std::fabs(r.hi)); };
    const ValueRange& dx = c.in[0];
    const ValueRange& dz = c.in[1];
    if (std::isnan(dx.lo) || std::isnan(dx.hi) || std::isnan(dz.lo) || std::isnan(dz.hi)) return {0.0, 90.0};
    const double lo = std::atan(std::hypot(least(dx), least(dz))) * kDegrees;
    const double hi = std::atan(std::hypot(most(dx), most(dz))) * kDegrees;
    return {std::max(0.0, lo - 1e-9), std::min(90.0, hi + 1e-9)};
}

void run_curvature(const Node& node, const Lanes& l) {
    // The four neighbours of every lane in one batch: x+, x-, z+, z-.
    const double step = node.number[0];
    const std::size_t n = l.count;
    std::vector<double> xs(4 * n), zs(4 * n), around(4 * n);
    for (std::size_t i = 0; i < n; ++i) {
        const double x = l.x[i], z = l.z[i];
        xs[i] = x + step, zs[i] = z;
        xs[n + i] = x - step, zs[n + i] = z;
        xs[2 * n + i] = x, zs[2 * n + i] = z + step;
        xs[3 * n + i] = x, zs[3 * n + i] = z - step;
    }
    run_columns(*l.program, *l.noise, xs.data(), zs.data(), 4 * n, node.in[0], around.data());
    for (std::size_t i = 0; i < n; ++i) {
        const double mean = 0.25 * ((around[i] + around[n + i]) + (around[2 * n + i] + around[3 * n + i]));
        l.out[0][i] = (l.in[0][i] - mean) / step;
    }
}

ValueRange curvature_range(const Node& node, const RangeContext& c) {
    // The centre and its neighbours all lie within the input's range over the box grown by
    // the step, so their difference lies within that range's width either way.
    const double step = node.number[0];
    const Operand& in = node.in[0];
    if (in.is_constant()) return {0.0, 0.0};  // a number has no curvature (folded before this runs)
    const Box grown{c.box.lo - glm::dvec3(step, 0.0, step), c.box.hi + glm::dvec3(step, 0.0, step)};
    // Over the nodes before this one only: this node's range would ask for the grown box's
    // again, without end.
    const ValueRange r = operand_range(node_intervals(c.program, c.noise, grown, nullptr, c.index), in);
    const double width = (r.hi - r.lo) / step;
    if (!std::isfinite(width)) return {-INFINITY, INFINITY};
    return {-width * (1.0 + 0x1p-40) - 1e-300, width * (1.0 + 0x1p-40) + 1e-300};
}

}  // namespace isoterra::graph
