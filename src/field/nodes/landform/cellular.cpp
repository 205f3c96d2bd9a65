// cellular: Worley's F1, the distance to the nearest of one jittered point per square cell.
// The point of cell (i, j) lies at (i + 0.5 + jitter (r0 - 0.5), j + 0.5 + jitter (r1 - 0.5))
// cells, r0 and r1 from the cell's seeded hash. With jitter <= 1 a cell's own point is at
// most a diagonal away, so the 5 x 5 cells around a point always hold the nearest one;
// the outer ring is searched only where it could be nearer than the best of the inner 3 x 3.
#include <algorithm>
#include <cmath>
#include <vector>

#include "landform.hpp"

namespace isoterra::graph {
namespace {

constexpr std::uint32_t kStream = 0x63656c6c;  // "cell"

struct Nearest {
    double distance2 = INFINITY;  // in cells, squared
    double x = 0.0, z = 0.0;      // the point, in cells
};

// The points of a block of cells, worked out once for a batch whose lanes share them (a
// chunk's columns lie in a few cells at most).
class CellPoints {
public:
    CellPoints(std::uint32_t seed, double jitter) : seed_(seed), jitter_(jitter) {}
    // Keeps the points of cells [i0, i1] x [j0, j1] when that block is small; else none.
    void cover(std::int64_t i0, std::int64_t j0, std::int64_t i1, std::int64_t j1) {
        if (i1 - i0 >= 32 || j1 - j0 >= 32) return;
        i0_ = i0, j0_ = j0, w_ = i1 - i0 + 1, h_ = j1 - j0 + 1;
        points_.resize(static_cast<std::size_t>(w_ * h_));
        for (std::int64_t j = 0; j < h_; ++j)
            for (std::int64_t i = 0; i < w_; ++i) points_[static_cast<std::size_t>(j * w_ + i)] = make(i0 + i, j0 + j);
    }
    glm::dvec2 at(std::int64_t i, std::int64_t j) const {
        const std::int64_t a = i - i0_, b = j - j0_;
        if (a >= 0 && a < w_ && b >= 0 && b < h_) return points_[static_cast<std::size_t>(b * w_ + a)];
        return make(i, j);
    }

private:
    glm::dvec2 make(std::int64_t i, std::int64_t j) const {
        const std::uint64_t h = cell_hash(seed_, i, j, kStream);
        return {static_cast<double>(i) + 0.5 + jitter_ * (cell_random(h, 0) - 0.5),
                static_cast<double>(j) + 0.5 + jitter_ * (cell_random(h, 1) - 0.5)};
    }
    std::uint32_t seed_;
    double jitter_;
    std::int64_t i0_ = 0, j0_ = 0, w_ = 0, h_ = 0;
    std::vector<glm::dvec2> points_;
};

void visit(const CellPoints& cells, std::int64_t i, std::int64_t j, double u, double v, Nearest& best) {
    const glm::dvec2 p = cells.at(i, j);
    const double d2 = (p.x - u) * (p.x - u) + (p.y - v) * (p.y - v);
    // Ties (measure zero) go to the lower cell, so the answer does not depend on the order.
    if (d2 < best.distance2 || (d2 == best.distance2 && (p.x < best.x || (p.x == best.x && p.y < best.z)))) best = {d2, p.x, p.y};
}

}  // namespace

void run_cellular(const Node& node, const NoiseSet& noise, const Lanes& l) {
    const double cell = node.number[0], jitter = node.number[1], ox = node.number[2], oz = node.number[3];
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    const auto held = [](double v) { return std::clamp(std::isfinite(v) ? v : 0.0, -1e12, 1e12); };
    std::int64_t i0 = INT64_MAX, i1 = INT64_MIN, j0 = INT64_MAX, j1 = INT64_MIN;
    for (std::size_t k = 0; k < l.count; ++k) {
        const std::int64_t ci = static_cast<std::int64_t>(std::floor(held(std::isfinite(xs[k]) ? xs[k] / cell + ox : 0.0)));
        const std::int64_t cj = static_cast<std::int64_t>(std::floor(held(std::isfinite(zs[k]) ? zs[k] / cell + oz : 0.0)));
        i0 = std::min(i0, ci), i1 = std::max(i1, ci), j0 = std::min(j0, cj), j1 = std::max(j1, cj);
    }
    CellPoints cells(noise.seed, jitter);
    if (l.count > 8) cells.cover(i0 - 2, j0 - 2, i1 + 2, j1 + 2);
    for (std::size_t k = 0; k < l.count; ++k) {
        const double u = held(std::isfinite(xs[k]) ? xs[k] / cell + ox : 0.0);
        const double v = held(std::isfinite(zs[k]) ? zs[k] / cell + oz : 0.0);
        const std::int64_t ci = static_cast<std::int64_t>(std::floor(u)), cj = static_cast<std::int64_t>(std::floor(v));
        Nearest best;
        for (std::int64_t dj = -1; dj <= 1; ++dj)
            for (std::int64_t di = -1; di <= 1; ++di) visit(cells, ci + di, cj + dj, u, v, best);
        // The outer ring's cells are at least this far from the point.
        const double fu = u - static_cast<double>(ci), fv = v - static_cast<double>(cj);
        const double ring = std::min({1.0 + fu, 2.0 - fu, 1.0 + fv, 2.0 - fv});
        if (best.distance2 > ring * ring)
            for (std::int64_t dj = -2; dj <= 2; ++dj)
                for (std::int64_t di = -2; di <= 2; ++di)
                    if (std::max(std::abs(di), std::abs(dj)) == 2) visit(cells, ci + di, cj + dj, u, v, best);
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
