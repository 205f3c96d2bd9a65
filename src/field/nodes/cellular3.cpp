// cellular3: 3D Worley distances for rock and cave shapes (FastNoise2's CellularDistance):
// the distances in metres to the nearest (F1) and second nearest (F2) of one jittered point
// per cube of side cell_m, and F2 - F1 (0 on the walls between two cells' regions). The point
// of cell (i, j, k) lies at (i, j, k) + 0.5 + jitter (r - 0.5) cells, r three fractions of the
// cell's seeded hash, so it stays inside its cell. F2 is under sqrt(4.25) cells (the own
// cell's point and the neighbour's across the nearest face), and a cell three away is more
// than 2 cells off: cells up to three away are searched, each only where its nearest corner
// could beat F2. F1 and F2 move by at most the distance the point moves; F2 - F1 by twice it.
// Adding this node type touched this file alone (docs/design/architecture.md, How to extend).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "field/run/eval.hpp"
#include "field/run/intervals.hpp"
#include "table.hpp"
#include "isoterra/noise.hpp"

namespace isoterra::graph {
namespace {

constexpr std::uint32_t kCell3Stream = 0x63656c33;   // "cel3"
constexpr double kCell3MostF2 = 2.0615528128088303;  // sqrt(4.25) cells, a little over

struct Cell3Point {
    double x, y, z;
};

Cell3Point cell3_point(std::uint32_t seed, double jitter, std::int64_t i, std::int64_t j, std::int64_t k) {
    const std::uint64_t h = cell_hash(seed, i, j, kCell3Stream);
    const std::uint64_t g = cell_hash(seed, static_cast<std::int64_t>(h), k, kCell3Stream + 1);
    return {static_cast<double>(i) + 0.5 + jitter * (cell_random(g, 0) - 0.5),
            static_cast<double>(j) + 0.5 + jitter * (cell_random(g, 1) - 0.5),
            static_cast<double>(k) + 0.5 + jitter * (cell_random(h, 0) - 0.5)};
}

// The points of a block of cells, made once for a batch whose lanes share them (a slab of a
// chunk lies in a few cells); cells outside it are made when asked for.
class Cell3Block {
public:
    Cell3Block(std::uint32_t seed, double jitter) : seed_(seed), jitter_(jitter) {}
    void cover(const std::int64_t lo[3], const std::int64_t hi[3]) {
        for (int a = 0; a < 3; ++a)
            if (hi[a] - lo[a] >= 24) return;
        for (int a = 0; a < 3; ++a) lo_[a] = lo[a], size_[a] = hi[a] - lo[a] + 1;
        points_.resize(static_cast<std::size_t>(size_[0] * size_[1] * size_[2]));
        for (std::int64_t k = 0; k < size_[2]; ++k)
            for (std::int64_t j = 0; j < size_[1]; ++j)
                for (std::int64_t i = 0; i < size_[0]; ++i)
                    points_[static_cast<std::size_t>((k * size_[1] + j) * size_[0] + i)] =
                        cell3_point(seed_, jitter_, lo[0] + i, lo[1] + j, lo[2] + k);
    }
    Cell3Point at(std::int64_t i, std::int64_t j, std::int64_t k) const {
        const std::int64_t a = i - lo_[0], b = j - lo_[1], c = k - lo_[2];
        if (a >= 0 && a < size_[0] && b >= 0 && b < size_[1] && c >= 0 && c < size_[2])
            return points_[static_cast<std::size_t>((c * size_[1] + b) * size_[0] + a)];
        return cell3_point(seed_, jitter_, i, j, k);
    }

private:
    std::uint32_t seed_;
    double jitter_;
    std::int64_t lo_[3] = {0, 0, 0}, size_[3] = {0, 0, 0};
    std::vector<Cell3Point> points_;
};

// How far a cell `d` steps along an axis lies from a point at fraction `f` of its own cell.
double cell3_gap(std::int64_t d, double f) { return d > 0 ? static_cast<double>(d) - f : d < 0 ? f - static_cast<double>(d + 1) : 0.0; }

// The squared distances in cells to the nearest two points from (u, v, w).
void cell3_nearest_two(const Cell3Block& cells, const double p[3], double& f1, double& f2) {
    const std::int64_t c[3] = {static_cast<std::int64_t>(std::floor(p[0])), static_cast<std::int64_t>(std::floor(p[1])),
                               static_cast<std::int64_t>(std::floor(p[2]))};
    const double f[3] = {p[0] - static_cast<double>(c[0]), p[1] - static_cast<double>(c[1]), p[2] - static_cast<double>(c[2])};
    f1 = f2 = INFINITY;
    const auto visit = [&](std::int64_t di, std::int64_t dj, std::int64_t dk) {
        const Cell3Point q = cells.at(c[0] + di, c[1] + dj, c[2] + dk);
        const double d2 = (q.x - p[0]) * (q.x - p[0]) + (q.y - p[1]) * (q.y - p[1]) + (q.z - p[2]) * (q.z - p[2]);
        if (d2 < f1) f2 = f1, f1 = d2;
        else if (d2 < f2) f2 = d2;
    };
    for (std::int64_t dk = -1; dk <= 1; ++dk)
        for (std::int64_t dj = -1; dj <= 1; ++dj)
            for (std::int64_t di = -1; di <= 1; ++di) visit(di, dj, dk);
    // Then the cells two and three away whose nearest corner is nearer than F2.
    for (std::int64_t dk = -3; dk <= 3; ++dk) {
        const double gk = cell3_gap(dk, f[2]) * cell3_gap(dk, f[2]);
        if (gk >= f2) continue;
        for (std::int64_t dj = -3; dj <= 3; ++dj) {
            const double gj = gk + cell3_gap(dj, f[1]) * cell3_gap(dj, f[1]);
            if (gj >= f2) continue;
            for (std::int64_t di = -3; di <= 3; ++di)
                if (std::max({std::abs(di), std::abs(dj), std::abs(dk)}) > 1 && gj + cell3_gap(di, f[0]) * cell3_gap(di, f[0]) < f2)
                    visit(di, dj, dk);
        }
    }
}

double cell3_held(double v) { return std::clamp(std::isfinite(v) ? v : 0.0, -1e12, 1e12); }

void run_cellular3(const Node& node, const Lanes& l) {
    const double cell = node.number[0], jitter = node.number[1];
    const double* at[3] = {coordinate(node, l, 0, l.x), coordinate(node, l, 1, l.y), coordinate(node, l, 2, l.z)};
    std::int64_t lo[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, hi[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
    for (std::size_t n = 0; n < l.count; ++n)
        for (int a = 0; a < 3; ++a) {
            const auto c = static_cast<std::int64_t>(std::floor(cell3_held(at[a][n] / cell + node.number[2 + a])));
            lo[a] = std::min(lo[a], c - 3), hi[a] = std::max(hi[a], c + 3);
        }
    Cell3Block cells(l.noise->seed, jitter);
    if (l.count > 16) cells.cover(lo, hi);
    for (std::size_t n = 0; n < l.count; ++n) {
        const double p[3] = {cell3_held(at[0][n] / cell + node.number[2]), cell3_held(at[1][n] / cell + node.number[3]),
                             cell3_held(at[2][n] / cell + node.number[4])};
        double f1 = 0.0, f2 = 0.0;
        cell3_nearest_two(cells, p, f1, f2);
        const double d1 = std::sqrt(f1) * cell, d2 = std::sqrt(f2) * cell;
        l.out[0][n] = d1;
        if (l.ports_read & 2u) l.out[1][n] = d2;
        if (l.ports_read & 4u) l.out[2][n] = d2 - d1;
    }
}

// The values at the box's centre, plus or minus how far a point of the box is from it (twice
// that for F2 - F1), within [0, the most]; the whole range where the box is large or unbounded.
NodeRanges cellular3_ranges(const Node& node, const RangeContext& c) {
    const double cell = node.number[0];
    const double most = kCell3MostF2 * cell * (1.0 + 1e-12);
    NodeRanges out{};
    out[0] = {0.0, std::sqrt(3.0) * cell * (1.0 + 1e-12)};
    out[1] = out[2] = {0.0, most};
    const ValueRange r[3] = {c.axis(node, 0, c.x()), c.axis(node, 1, c.y()), c.axis(node, 2, c.z())};
    double half2 = 0.0, far = 0.0, centre[3];
    for (int a = 0; a < 3; ++a) {
        if (!(std::isfinite(r[a].lo) && std::isfinite(r[a].hi)) || r[a].hi - r[a].lo > 64.0 * cell) return out;
        centre[a] = 0.5 * (r[a].lo + r[a].hi);
        half2 += 0.25 * (r[a].hi - r[a].lo) * (r[a].hi - r[a].lo);
        far = std::max({far, std::fabs(r[a].lo), std::fabs(r[a].hi)});
    }
    Node at_centre = node;
    at_centre.coordinate_default = {false, false, false};
    const double* inputs[3] = {&centre[0], &centre[1], &centre[2]};
    double v[3] = {0.0, 0.0, 0.0};
    Lanes one;
    one.in = inputs;
    one.out[0] = &v[0], one.out[1] = &v[1], one.out[2] = &v[2];
    one.count = 1;
    one.noise = &c.noise;
    run_cellular3(at_centre, one);
    // The rounding of the coordinates in cells, of the points and of the distances.
    const double half = std::sqrt(half2), slack = 1e-9 * (v[1] + half + cell) + 1e-12 * far;
    out[0] = {std::max(0.0, v[0] - half - slack), std::min(out[0].hi, v[0] + half + slack)};
    out[1] = {std::max(0.0, v[1] - half - slack), std::min(most, v[1] + half + slack)};
    out[2] = {std::max(0.0, v[2] - 2.0 * half - slack), std::min(most, v[2] + 2.0 * half + slack)};
    return out;
}

}  // namespace

NodeFamily nodes_cellular3() {
    using namespace rows;
    // clang-format off
    return {70, {
        {.name = "cellular3",
         .inputs = {coordinate("x"), coordinate("y"), coordinate("z"),
                    number("cell_m", true, 1.0, 0.1, 1e7).with("the cells' size: one jittered point per cube of this side"),
                    number("jitter", false, 1.0, 0, 1),
                    point(InputKind::point3, "offset", false).with("[x, y, z] added to the position in cells: another set of points")},
         .formula = "3D Worley distances in metres to the nearest and second nearest of one jittered point per cell_m cube: "
                    "'ID.f1' (also plain 'ID'), 'ID.f2' and 'ID.edge' (f2 - f1: 0 on the walls between cells, for rock "
                    "cracks and cave walls)",
         .outputs = "f1,f2,edge", .run = run_cellular3, .ranges = cellular3_ranges, .noise = true, .bare_is_first = true},
    }};
    // clang-format on
}

}  // namespace isoterra::graph
