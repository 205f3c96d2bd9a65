// cellular: Worley's F1, the distance to the nearest of one jittered point per square cell.
// The point of cell (i, j) lies at (i + 0.5 + jitter (r0 - 0.5), j + 0.5 + jitter (r1 - 0.5))
// cells, r0 and r1 from the cell's seeded hash. With jitter <= 1 a cell's own point is at
// most a diagonal away, so the 5 x 5 cells around a point always hold the nearest one;
// the outer ring is searched only where it could be nearer than the best of the inner 3 x 3.
#include <algorithm>
#include <cmath>

#include "../landform_nodes.hpp"

namespace isoterra::graph {
namespace {

constexpr std::uint32_t kStream = 0x63656c6c;  // "cell"

struct Nearest {
    double distance2 = INFINITY;  // in cells, squared
    double x = 0.0, z = 0.0;      // the point, in cells
};

void visit(std::uint32_t seed, std::int64_t i, std::int64_t j, double jitter, double u, double v, Nearest& best) {
    const std::uint64_t h = cell_hash(seed, i, j, kStream);
    const double px = static_cast<double>(i) + 0.5 + jitter * (cell_random(h, 0) - 0.5);
    const double pz = static_cast<double>(j) + 0.5 + jitter * (cell_random(h, 1) - 0.5);
    const double d2 = (px - u) * (px - u) + (pz - v) * (pz - v);
    // Ties (measure zero) go to the lower cell, so the answer does not depend on the order.
    if (d2 < best.distance2 || (d2 == best.distance2 && (px < best.x || (px == best.x && pz < best.z))))
        best = {d2, px, pz};
}

}  // namespace

void run_cellular(const Node& node, const NoiseSet& noise, const Lanes& l) {
    const double cell = node.number[0], jitter = node.number[1], ox = node.number[2], oz = node.number[3];
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    for (std::size_t k = 0; k < l.count; ++k) {
        const double u = std::clamp(std::isfinite(xs[k]) ? xs[k] / cell + ox : 0.0, -1e12, 1e12);
        const double v = std::clamp(std::isfinite(zs[k]) ? zs[k] / cell + oz : 0.0, -1e12, 1e12);
        const std::int64_t ci = static_cast<std::int64_t>(std::floor(u)), cj = static_cast<std::int64_t>(std::floor(v));
        Nearest best;
        for (std::int64_t dj = -1; dj <= 1; ++dj)
            for (std::int64_t di = -1; di <= 1; ++di) visit(noise.seed, ci + di, cj + dj, jitter, u, v, best);
        // The outer ring's cells are at least this far from the point.
        const double fu = u - static_cast<double>(ci), fv = v - static_cast<double>(cj);
        const double ring = std::min({1.0 + fu, 2.0 - fu, 1.0 + fv, 2.0 - fv});
        if (best.distance2 > ring * ring)
            for (std::int64_t dj = -2; dj <= 2; ++dj)
                for (std::int64_t di = -2; di <= 2; ++di)
                    if (std::max(std::abs(di), std::abs(dj)) == 2) visit(noise.seed, ci + di, cj + dj, jitter, u, v, best);
        l.out[0][k] = std::sqrt(best.distance2) * cell;
        l.out[1][k] = (best.x - ox) * cell;
        l.out[2][k] = (best.z - oz) * cell;
    }
}

NodeRanges cellular_ranges(const Node& node, const RangeContext& c) {
    // F1 is 1-Lipschitz in the point and at most a cell's diagonal; the nearest point lies
    // within that diagonal of the point.
    const double cell = node.number[0];
    const double most = std::sqrt(2.0) * cell * (1.0 + 1e-12);
    const ValueRange x = node.coordinate_default[0] ? ValueRange{c.box.lo.x, c.box.hi.x} : c.in[0];
    const ValueRange z = node.coordinate_default[1] ? ValueRange{c.box.lo.z, c.box.hi.z} : c.in[1];
    NodeRanges out{};
    out[0] = {0.0, most};
    if (!(std::isfinite(x.lo) && std::isfinite(x.hi) && std::isfinite(z.lo) && std::isfinite(z.hi))) {
        out[1] = out[2] = {-INFINITY, INFINITY};
        return out;
    }
    // The point read is held to +-1e12 cells (rising with x and z, so its range is the held
    // ends'), and the nearest point lies within a diagonal of it.
    const double ox = node.number[2], oz = node.number[3];
    const auto metres = [&](double c, double offset) { return (std::clamp(c / cell + offset, -1e12, 1e12) - offset) * cell; };
    const ValueRange hx{metres(x.lo, ox), metres(x.hi, ox)}, hz{metres(z.lo, oz), metres(z.hi, oz)};
    const double reach = most + 1e-9 * std::max({std::fabs(hx.lo), std::fabs(hx.hi), std::fabs(hz.lo), std::fabs(hz.hi), cell});
    out[1] = {hx.lo - reach, hx.hi + reach};
    out[2] = {hz.lo - reach, hz.hi + reach};
    // The distance at the centre of the rectangle, plus or minus half its diagonal.
    if (x.hi - x.lo < 64.0 * cell && z.hi - z.lo < 64.0 * cell) {
        Node centre_node = node;
        centre_node.coordinate_default = {false, false, true};
        const double cx = 0.5 * (x.lo + x.hi), cz = 0.5 * (z.lo + z.hi);
        const double* inputs[2] = {&cx, &cz};
        double d = 0.0, px = 0.0, pz = 0.0;
        Lanes one;
        one.in = inputs;
        one.out[0] = &d, one.out[1] = &px, one.out[2] = &pz;
        one.count = 1;
        run_cellular(centre_node, c.noise, one);
        const double half = 0.5 * std::hypot(x.hi - x.lo, z.hi - z.lo);
        const double slack = 1e-9 * (d + half + cell);
        out[0] = {std::max(0.0, d - half - slack), std::min(most, d + half + slack)};
    }
    return out;
}

}  // namespace isoterra::graph
