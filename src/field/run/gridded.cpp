// Nodes run on a coarser global grid (`grid_m`): whether a batch's lanes all lie on the grid's
// nodes (then the node runs there as any other), else the node run at the grid's nodes around
// the lanes and each port interpolated to them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "eval_parts.hpp"
#include "field/nodes/table.hpp"

namespace isoterra::graph::eval {

bool on_grid(double g, const double* x, const double* z, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const double u = x[i] / g, v = z[i] / g;
        if (!(u == std::floor(u) && v == std::floor(v) && std::fabs(u) < 1e15 && std::fabs(v) < 1e15)) return false;
    }
    return true;
}

namespace {

// A coordinate's cell on the grid of step g, and its share of the way across that cell.
double grid_cell(double v, double g) { return std::floor(std::clamp(std::isfinite(v) ? v : 0.0, -1e15, 1e15) / g); }
double grid_share(double v, double g) { return std::clamp(std::isfinite(v) ? v : 0.0, -1e15, 1e15) / g - grid_cell(v, g); }

// The nodes of the grid of step g that `count` lanes need (each once), and per lane the
// places of its cell's four corners among them (x, then z across).
struct GridNodes {
    std::vector<double> x, z;
    std::vector<std::int64_t> corner;
};

GridNodes grid_nodes_around(double g, const double* x, const double* z, std::size_t count) {
    // The grid nodes the lanes need, over the rectangle of their cells.
    double i0 = INFINITY, i1 = -INFINITY, j0 = INFINITY, j1 = -INFINITY;
    for (std::size_t i = 0; i < count; ++i) {
        const double ci = grid_cell(x[i], g), cj = grid_cell(z[i], g);
        i0 = std::min(i0, ci), i1 = std::max(i1, ci), j0 = std::min(j0, cj), j1 = std::max(j1, cj);
    }
    // A lane on a grid line needs no nodes across it: its share of them is 0.
    const bool dense = (i1 - i0 + 2.0) * (j1 - j0 + 2.0) <= 4.0 * static_cast<double>(count) + 64.0;
    GridNodes nodes;
    std::vector<double>& gx = nodes.x;
    std::vector<double>& gz = nodes.z;
    std::vector<std::int64_t>& corner = nodes.corner;
    corner.resize(4 * count);
    const std::int64_t w = dense ? static_cast<std::int64_t>(i1 - i0) + 2 : 0, h = dense ? static_cast<std::int64_t>(j1 - j0) + 2 : 0;
    std::vector<std::int64_t> slot(static_cast<std::size_t>(w * h), -1);
    for (std::size_t i = 0; i < count; ++i) {
        const double ci = grid_cell(x[i], g), cj = grid_cell(z[i], g);
        const bool across_x = grid_share(x[i], g) != 0.0, across_z = grid_share(z[i], g) != 0.0;
        for (int c = 0; c < 4; ++c) {
            const int dx = (c & 1) && across_x ? 1 : 0, dz = (c >> 1) && across_z ? 1 : 0;
            std::int64_t* s = nullptr;
            std::int64_t fresh = -1;
            if (dense)
                s = &slot[static_cast<std::size_t>((static_cast<std::int64_t>(cj - j0) + dz) * w + static_cast<std::int64_t>(ci - i0) +
                                                   dx)];
            else s = &fresh;
            if (*s < 0) {
                *s = static_cast<std::int64_t>(gx.size());
                gx.push_back((ci + dx) * g);
                gz.push_back((cj + dz) * g);
            }
            corner[4 * i + static_cast<std::size_t>(c)] = *s;
        }
    }
    return nodes;
}

}  // namespace

// Node `n` (of x and z only) with grid_m g at `count` lanes: run at the nodes of the global grid
// of step g around the lanes (its inputs read there), then each port interpolated: bilinear,
// or the most of the four nodes where its table says. A lane on a grid node gets that node's
// value exactly, so every level of detail whose samples are grid nodes agrees with the finer.
// The grid's nodes are computed on this workspace's path, so a lane on a node gets the same
// bits whether or not its batch runs on the grid.
void Workspace::run_gridded(int n, const NoiseSet& noise, const double* x, const double* z, std::size_t count, double* const* out) {
    const Program& program = program_;
    const Node& node = program.nodes[static_cast<std::size_t>(n)];
    const double g = node.grid_m;
    const GridNodes grid = grid_nodes_around(g, x, z, count);
    // The node at the grid's nodes: its inputs evaluated there first, in one run.
    const std::size_t m = grid.x.size();
    Workspace work(program, m, path_);
    for (const int k : needed_by(program, node.in)) work.run(k, noise, grid.x.data(), nullptr, grid.z.data(), m);
    std::vector<const double*> in_lanes(node.in.size());
    for (std::size_t k = 0; k < node.in.size(); ++k) in_lanes[k] = work.operand(n, k);
    std::vector<std::vector<double>> values(static_cast<std::size_t>(node.ports), std::vector<double>(m));
    double* value_lanes[kMaxPorts] = {};
    for (int port = 0; port < node.ports; ++port) value_lanes[port] = values[static_cast<std::size_t>(port)].data();
    work.run_node(noise, node, in_lanes.data(), value_lanes, grid.x.data(), nullptr, grid.z.data(), m);
    // Interpolated to the lanes.
    const std::string blend = node.kind->port_blend;
    for (int port = 0; port < node.ports; ++port) {
        const double* v = values[static_cast<std::size_t>(port)].data();
        double* o = out[port];
        const bool most = static_cast<std::size_t>(port) < blend.size() && blend[static_cast<std::size_t>(port)] == 'm';
        for (std::size_t i = 0; i < count; ++i) {
            const std::int64_t* c = &grid.corner[4 * i];
            const double v00 = v[c[0]], v10 = v[c[1]], v01 = v[c[2]], v11 = v[c[3]];
            if (most) {
                o[i] = std::max(std::max(v00, v10), std::max(v01, v11));
                continue;
            }
            const double tx = grid_share(x[i], g), tz = grid_share(z[i], g);
            const double a = tx == 0.0 ? v00 : v00 + tx * (v10 - v00);
            const double b = tx == 0.0 ? v01 : v01 + tx * (v11 - v01);
            o[i] = tz == 0.0 ? a : a + tz * (b - a);
        }
    }
}

}  // namespace isoterra::graph::eval
