// The evaluator: each node is one loop over its lanes (a buffer per output), in the order
// the compiler gave, so a value used by many nodes is computed once. Noise coordinates are
// held to +-1e9 noise units (NaN: 0), the noise kernels' safe range; inside the world's
// limits no coordinate comes near it.
#include "graph_eval.hpp"
#include "graph_gates.hpp"
#include "graph_intervals.hpp"
#include "graph_nodes.hpp"
#include "height_raster.hpp"
#include "landform_nodes.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "isoterra/field.hpp"

namespace isoterra::graph {
namespace {

double noise_coordinate(double c) { return std::isfinite(c) ? std::clamp(c, -1e9, 1e9) : 0.0; }

double curve_at(const std::vector<glm::dvec2>& k, double v) {
    if (v <= k.front().x) return k.front().y;
    if (v >= k.back().x) return k.back().y;
    const auto above = std::upper_bound(k.begin(), k.end(), v, [](double value, const glm::dvec2& knot) { return value < knot.x; });
    if (above == k.begin() || above == k.end()) return std::nan("");  // v is NaN
    const glm::dvec2 a = *(above - 1), b = *above;
    return a.y + (v - a.x) * ((b.y - a.y) / (b.x - a.x));
}

double terrace_at(double v, double step, double smoothness) {
    const double base = std::floor(v / step) * step;
    const double rise = smoothness > 0.0 ? smoothstep(1.0 - smoothness, 1.0, (v - base) / step) : 0.0;
    return base + step * rise;
}

}  // namespace

const double* coordinate(const Node& node, const Lanes& l, int axis_slot, const double* position) {
    return node.coordinate_default[static_cast<std::size_t>(axis_slot)] ? position : l.in[axis_slot];
}

namespace {

void evaluate(const Node& node, const NoiseSet* noise, const Lanes& l) {
    const std::size_t n = l.count;
    const double* a = node.in.size() > 0 ? l.in[0] : nullptr;
    const double* b = node.in.size() > 1 ? l.in[1] : nullptr;
    const double* c = node.in.size() > 2 ? l.in[2] : nullptr;
    double* out = l.out[0];
    const std::vector<double>& p = node.number;
    thread_local std::vector<double> u, v, w;
    thread_local std::vector<float> fast_values;
    switch (node.op) {
        case Op::x: std::copy(l.x, l.x + n, out); return;
        case Op::y: std::copy(l.y, l.y + n, out); return;
        case Op::z: std::copy(l.z, l.z + n, out); return;
        case Op::constant: std::fill(out, out + n, p[0]); return;
        case Op::add: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + b[i]; return;
        case Op::sub: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] - b[i]; return;
        case Op::mul: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] * b[i]; return;
        case Op::min: for (std::size_t i = 0; i < n; ++i) out[i] = std::min(a[i], b[i]); return;
        case Op::max: for (std::size_t i = 0; i < n; ++i) out[i] = std::max(a[i], b[i]); return;
        case Op::union_: for (std::size_t i = 0; i < n; ++i) out[i] = op_union(a[i], b[i]); return;
        case Op::intersect: for (std::size_t i = 0; i < n; ++i) out[i] = op_intersect(a[i], b[i]); return;
        case Op::subtract: for (std::size_t i = 0; i < n; ++i) out[i] = op_subtract(a[i], b[i]); return;
        case Op::neg: for (std::size_t i = 0; i < n; ++i) out[i] = -a[i]; return;
        case Op::abs: for (std::size_t i = 0; i < n; ++i) out[i] = std::fabs(a[i]); return;
        case Op::clamp: for (std::size_t i = 0; i < n; ++i) out[i] = std::min(std::max(a[i], b[i]), c[i]); return;
        case Op::lerp: for (std::size_t i = 0; i < n; ++i) out[i] = a[i] + (b[i] - a[i]) * c[i]; return;
        case Op::smoothstep: for (std::size_t i = 0; i < n; ++i) out[i] = smoothstep(p[0], p[1], a[i]); return;
        case Op::pow: for (std::size_t i = 0; i < n; ++i) out[i] = std::pow(std::max(a[i], 0.0), p[0]); return;
        case Op::remap: {
            const double slope = (p[3] - p[2]) / (p[1] - p[0]);
            for (std::size_t i = 0; i < n; ++i) out[i] = p[2] + (a[i] - p[0]) * slope;
            return;
        }
        case Op::curve: for (std::size_t i = 0; i < n; ++i) out[i] = curve_at(node.knots, a[i]); return;
        case Op::terrace: for (std::size_t i = 0; i < n; ++i) out[i] = terrace_at(a[i], p[0], p[1]); return;
        case Op::hypot:
            if (l.lattice) for (std::size_t i = 0; i < n; ++i) out[i] = std::sqrt(a[i] * a[i] + b[i] * b[i]);
            else for (std::size_t i = 0; i < n; ++i) out[i] = js_hypot(a[i], b[i]);
            return;
        case Op::plane: for (std::size_t i = 0; i < n; ++i) out[i] = l.y[i] - a[i]; return;
        case Op::sphere:
            for (std::size_t i = 0; i < n; ++i) out[i] = sphere_distance({l.x[i], l.y[i], l.z[i]}, {p[0], p[1], p[2]}, a[i]);
            return;
        case Op::box:
            for (std::size_t i = 0; i < n; ++i)
                out[i] = box_distance({l.x[i], l.y[i], l.z[i]}, {p[0], p[1], p[2]}, {p[3], p[4], p[5]});
            return;
        case Op::smooth_union: for (std::size_t i = 0; i < n; ++i) out[i] = op_smooth_union(a[i], b[i], p[0]); return;
        case Op::smooth_subtract: for (std::size_t i = 0; i < n; ++i) out[i] = op_smooth_subtract(a[i], b[i], p[0]); return;
        case Op::simplex2: case Op::fbm2: case Op::ridged2: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* zs = coordinate(node, l, 1, l.z);
            u.resize(n), v.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                u[i] = noise_coordinate(xs[i] / p[0] + p[1]);
                v[i] = noise_coordinate(zs[i] / p[0] + p[2]);
            }
            const FbmShape shape = node.op == Op::simplex2 ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape;
            if (node.fast_noise) {
                fast_values.resize(n);
                FastSimplex2(noise->seed).fbm_points(u.data(), v.data(), n, shape, fast_values.data());
                std::copy(fast_values.begin(), fast_values.end(), out);
            } else {
                noise->noise2.fbm_batch(u.data(), v.data(), out, n, shape);
            }
            if (node.op == Op::ridged2)
                for (std::size_t i = 0; i < n; ++i) out[i] = ridge_profile(out[i], p[3], p[4], p[5]);
            return;
        }
        case Op::simplex3: case Op::fbm3: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* ys = coordinate(node, l, 1, l.y);
            const double* zs = coordinate(node, l, 2, l.z);
            u.resize(n), v.resize(n), w.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                u[i] = noise_coordinate(xs[i] / p[0] + p[2]);
                v[i] = noise_coordinate(ys[i] / p[1] + p[3]);
                w[i] = noise_coordinate(zs[i] / p[0] + p[4]);
            }
            if (node.fast_noise) {
                fast_values.resize(n);
                FastSimplex3(noise->seed)
                    .fbm_points(u.data(), v.data(), w.data(), n, node.op == Op::simplex3 ? FbmShape{1, 1.0, 1.0, 1.0} : node.shape,
                                fast_values.data());
                std::copy(fast_values.begin(), fast_values.end(), out);
            } else if (node.op == Op::simplex3) {
                noise->noise3.batch(u.data(), v.data(), w.data(), out, n);
            } else {
                for (std::size_t i = 0; i < n; ++i) out[i] = fbm3(noise->noise3, u[i], v[i], w[i], node.shape);
            }
            return;
        }
        case Op::ridge_profile: for (std::size_t i = 0; i < n; ++i) out[i] = ridge_profile(a[i], p[0], p[1], p[2]); return;
        case Op::warp2: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* zs = coordinate(node, l, 1, l.z);
            for (std::size_t i = 0; i < n; ++i) {
                double wx = noise_coordinate(xs[i]), wz = noise_coordinate(zs[i]);
                warp2(noise->noise2, p[0], p[1], wx, wz);
                l.out[0][i] = wx, l.out[1][i] = wz;
            }
            return;
        }
        case Op::heightmap: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* zs = coordinate(node, l, 1, l.z);
            for (std::size_t i = 0; i < n; ++i) out[i] = node.raster->at(xs[i], zs[i]);
            return;
        }
        case Op::fold: for (std::size_t i = 0; i < n; ++i) out[i] = fold_at(a[i]); return;
        case Op::dfbm2: run_dfbm2(node, *noise, l); return;
        case Op::erosion: run_erosion(node, *noise, l); return;
        case Op::spline: run_spline(node, l); return;
        case Op::slope: run_slope(node, l); return;
        case Op::curvature: run_curvature(node, l); return;
        case Op::cellular: run_cellular(node, *noise, l); return;
        case Op::drainage: run_drainage(node, l); return;
        case Op::warp3: {
            const double* xs = coordinate(node, l, 0, l.x);
            const double* ys = coordinate(node, l, 1, l.y);
            const double* zs = coordinate(node, l, 2, l.z);
            for (std::size_t i = 0; i < n; ++i) {
                double wx = noise_coordinate(xs[i]), wy = noise_coordinate(ys[i]), wz = noise_coordinate(zs[i]);
                warp3(noise->noise3, p[0], p[1], wx, wy, wz);
                l.out[0][i] = wx, l.out[1][i] = wy, l.out[2][i] = wz;
            }
            return;
        }
    }
}

void run_gridded(const Program& program, const NoiseSet& noise, int n, const double* x, const double* z, std::size_t count,
                 double* const* out, bool lattice);
std::vector<int> needed_by(const Program& program, const std::vector<Operand>& outputs);

// True when every lane lies on a node of the grid of step g: a node on that grid runs there
// as any other (its inputs read at those very points).
bool on_grid(double g, const double* x, const double* z, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        const double u = x[i] / g, v = z[i] / g;
        if (!(u == std::floor(u) && v == std::floor(v) && std::fabs(u) < 1e15 && std::fabs(v) < 1e15)) return false;
    }
    return true;
}

// Buffers for one run: per node and port, `lanes` doubles; constants broadcast.
class Workspace {
public:
    Workspace(const Program& program, std::size_t lanes) : program_(program), lanes_(lanes) {
        buffers_.resize(program.nodes.size() * kMaxPorts);
        constants_.resize(program.nodes.size());
        done_.assign(program.nodes.size(), 0);
    }
    // A new set of lanes (positions): what was run before is stale.
    void begin_pass() { ++pass_; }
    double* buffer(int node, int port) {
        std::vector<double>& b = buffers_[static_cast<std::size_t>(node) * kMaxPorts + static_cast<std::size_t>(port)];
        b.resize(lanes_);
        return b.data();
    }
    // The lanes of input `i` of node `n`: its source's buffer, or the number repeated (filled
    // once per workspace: a program's numbers never change).
    const double* operand(int n, std::size_t i) {
        const Operand& op = program_.nodes[static_cast<std::size_t>(n)].in[i];
        if (!op.is_constant()) return buffer(op.node, op.port);
        std::vector<std::vector<double>>& per_input = constants_[static_cast<std::size_t>(n)];
        if (per_input.size() <= i) per_input.resize(i + 1);
        if (per_input[i].empty()) per_input[i].assign(lanes_, op.constant);
        return per_input[i].data();
    }
    // Runs node `n` over the first `count` lanes.
    void run(int n, const NoiseSet& noise, const double* x, const double* y, const double* z, std::size_t count, bool lattice) {
        const Node& node = program_.nodes[static_cast<std::size_t>(n)];
        done_[static_cast<std::size_t>(n)] = pass_;
        if (node.grid_m > 0.0) {
            if (!on_grid(node.grid_m, x, z, count)) {
                std::vector<double*> out(static_cast<std::size_t>(node.ports));
                for (int port = 0; port < node.ports; ++port) out[static_cast<std::size_t>(port)] = buffer(n, port);
                run_gridded(program_, noise, n, x, z, count, out.data(), lattice);
                return;
            }
            // Every lane a grid node: its inputs here (those not run yet), then as any node.
            for (const int k : needed_by(program_, node.in))
                if (done_[static_cast<std::size_t>(k)] != pass_) run(k, noise, x, y, z, count, lattice);
        }
        inputs_.resize(node.in.size());
        for (std::size_t i = 0; i < node.in.size(); ++i) inputs_[i] = operand(n, i);
        Lanes l;
        l.in = inputs_.data();
        for (int port = 0; port < node.ports; ++port) l.out[port] = buffer(n, port);
        l.x = x, l.y = y, l.z = z;
        l.count = count;
        l.lattice = lattice;
        l.ports_read = node.ports_read;
        l.program = &program_;
        l.noise = &noise;
        evaluate(node, &noise, l);
    }

private:
    const Program& program_;
    std::size_t lanes_;
    std::vector<std::vector<double>> buffers_;
    std::vector<std::vector<std::vector<double>>> constants_;
    std::vector<const double*> inputs_;
    std::vector<std::uint32_t> done_;  // per node: the pass it last ran in
    std::uint32_t pass_ = 1;
};

bool is_column(const Node& node) { return !(node.axes & kY); }

// The nodes `outputs` need that are run (not folded), in order; a node run on a grid reads
// its inputs at the grid's nodes itself, so what only it reads is not run at the lanes.
std::vector<int> needed_by(const Program& program, const std::vector<Operand>& outputs) {
    std::vector<bool> need(program.nodes.size(), false);
    for (const Operand& output : outputs)
        if (!output.is_constant()) need[static_cast<std::size_t>(output.node)] = true;
    for (std::size_t n = program.nodes.size(); n-- > 0;) {
        if (!need[n] || program.nodes[n].grid_m > 0.0) continue;
        for (const Operand& in : program.nodes[n].in)
            if (!in.is_constant()) need[static_cast<std::size_t>(in.node)] = true;
    }
    std::vector<int> list;
    for (std::size_t n = 0; n < need.size(); ++n)
        if (need[n] && !program.nodes[n].folded) list.push_back(static_cast<int>(n));
    return list;
}
std::vector<int> needed_by(const Program& program, const Operand& output) { return needed_by(program, std::vector<Operand>{output}); }

}  // namespace

std::vector<bool> needed_mask(const Program& program, const Operand& output, int cut, int slot) {
    std::vector<bool> need(program.nodes.size(), false);
    if (!output.is_constant()) need[static_cast<std::size_t>(output.node)] = true;
    for (std::size_t n = program.nodes.size(); n-- > 0;) {
        if (!need[n]) continue;
        const Node& node = program.nodes[n];
        for (std::size_t i = 0; i < node.in.size(); ++i)
            if (!node.in[i].is_constant() && !(static_cast<int>(n) == cut && static_cast<int>(i) == slot))
                need[static_cast<std::size_t>(node.in[i].node)] = true;
    }
    return need;
}

bool is_noise(Op op) {
    switch (op) {
        case Op::simplex2: case Op::fbm2: case Op::ridged2: case Op::simplex3: case Op::fbm3: case Op::warp2: case Op::warp3:
        case Op::dfbm2: case Op::erosion: case Op::cellular: case Op::drainage:
            return true;
        default:
            return false;
    }
}

double evaluate_constant(const Node& node) {
    std::vector<double> inputs(node.in.size());
    std::vector<const double*> lanes(node.in.size());
    for (std::size_t i = 0; i < node.in.size(); ++i) inputs[i] = node.in[i].constant, lanes[i] = &inputs[i];
    double out = 0.0;
    Lanes l;
    l.in = lanes.data();
    l.out[0] = &out;
    l.count = 1;
    evaluate(node, nullptr, l);
    return out;
}

void run_points(const Program& program, const NoiseSet& noise, const glm::dvec3* points, std::size_t count,
                const Operand& output, double* out) {
    if (output.is_constant()) {
        std::fill(out, out + count, output.constant);
        return;
    }
    constexpr std::size_t kBatch = 256;
    const std::vector<int> order = needed_by(program, output);
    Workspace work(program, kBatch);
    double xs[kBatch], ys[kBatch], zs[kBatch];
    for (std::size_t start = 0; start < count; start += kBatch) {
        const std::size_t n = std::min(kBatch, count - start);
        for (std::size_t i = 0; i < n; ++i) xs[i] = points[start + i].x, ys[i] = points[start + i].y, zs[i] = points[start + i].z;
        work.begin_pass();
        for (const int node : order) work.run(node, noise, xs, ys, zs, n, false);
        const double* result = work.buffer(output.node, output.port);
        std::copy(result, result + n, out + start);
    }
}

void run_columns(const Program& program, const NoiseSet& noise, const double* xs, const double* zs, std::size_t count,
                 const Operand& output, double* out) {
    if (output.is_constant()) {
        std::fill(out, out + count, output.constant);
        return;
    }
    Workspace work(program, count);
    for (const int node : needed_by(program, output)) work.run(node, noise, xs, nullptr, zs, count, true);
    const double* result = work.buffer(output.node, output.port);
    std::copy(result, result + count, out);
}

namespace {

// The nodes a lattice runs per sample (the sdf's nodes that depend on y), in order.
std::vector<int> sample_nodes(const Program& program) {
    std::vector<int> samples;
    for (const int n : needed_by(program, program.sdf))
        if (!is_column(program.nodes[static_cast<std::size_t>(n)])) samples.push_back(n);
    return samples;
}

// The column outputs a graph has (ground, water, snow line, scree).
std::vector<Operand> column_outputs(const Program& program) {
    std::vector<Operand> out;
    for (const Operand* o : {&program.ground, &program.water, &program.snow_line, &program.scree})
        if (!o->is_constant() || !std::isnan(o->constant)) out.push_back(*o);
    return out;
}

}  // namespace

const double* ColumnValues::get(int node, int port) const {
    const int s = slot[static_cast<std::size_t>(node) * kMaxPorts + static_cast<std::size_t>(port)];
    return s < 0 ? nullptr : buffers[static_cast<std::size_t>(s)].data();
}

bool ColumnValues::fits(const Lattice& other) const {
    return origin.x == other.origin.x && origin.y == other.origin.z && size.x == other.size.x && size.y == other.size.z &&
           spacing_m == other.spacing_m;
}

ColumnValues column_values(const Program& program, const NoiseSet& noise, const Lattice& lattice) {
    const std::size_t nx = static_cast<std::size_t>(lattice.size.x), nz = static_cast<std::size_t>(lattice.size.z);
    ColumnValues cv;
    cv.origin = {lattice.origin.x, lattice.origin.z};
    cv.size = {lattice.size.x, lattice.size.z};
    cv.spacing_m = lattice.spacing_m;
    cv.count = nx * nz;
    std::vector<double> cx(cv.count), cz(cv.count);
    for (std::size_t k = 0; k < nz; ++k)
        for (std::size_t i = 0; i < nx; ++i) {
            const glm::dvec3 p = lattice.position(static_cast<int>(i), 0, static_cast<int>(k));
            cx[k * nx + i] = p.x, cz[k * nx + i] = p.z;
        }
    // Every column node the sdf or a column output needs, run once per column.
    std::vector<int> columns;
    for (const int n : needed_by(program, program.sdf))
        if (is_column(program.nodes[static_cast<std::size_t>(n)])) columns.push_back(n);
    const std::vector<Operand> outputs = column_outputs(program);
    for (const Operand& output : outputs)
        for (const int n : needed_by(program, output)) columns.push_back(n);
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    Workspace work(program, cv.count);
    for (const int n : columns) work.run(n, noise, cx.data(), nullptr, cz.data(), cv.count, true);
    // Kept: what the samples read (their column inputs, the gates' deciding sides, the sdf
    // itself when it is a column node) and the column outputs.
    std::vector<bool> keep(program.nodes.size(), false);
    for (const int n : sample_nodes(program))
        for (const Operand& in : program.nodes[static_cast<std::size_t>(n)].in)
            if (!in.is_constant()) keep[static_cast<std::size_t>(in.node)] = true;
    for (const Gate& g : program.gates) {
        const Operand& other = program.nodes[static_cast<std::size_t>(g.guard)].in[static_cast<std::size_t>(1 - g.side)];
        keep[static_cast<std::size_t>(other.node)] = true;
    }
    if (!program.sdf.is_constant()) keep[static_cast<std::size_t>(program.sdf.node)] = true;
    for (const Operand& output : outputs)
        if (!output.is_constant()) keep[static_cast<std::size_t>(output.node)] = true;
    cv.slot.assign(program.nodes.size() * kMaxPorts, -1);
    for (const int n : columns) {
        if (!keep[static_cast<std::size_t>(n)]) continue;
        for (int port = 0; port < program.nodes[static_cast<std::size_t>(n)].ports; ++port) {
            const double* b = work.buffer(n, port);
            cv.slot[static_cast<std::size_t>(n) * kMaxPorts + static_cast<std::size_t>(port)] = static_cast<int>(cv.buffers.size());
            cv.buffers.emplace_back(b, b + cv.count);
        }
    }
    return cv;
}

namespace {

// Node `n` (of x and z only) with grid_m g at `count` lanes: run at the nodes of the global grid
// of step g around the lanes (its inputs read there), then each port interpolated: bilinear,
// or the most of the four nodes where its table says. A lane on a grid node gets that node's
// value exactly, so every level of detail whose samples are grid nodes agrees with the finer.
// `lattice` as the caller's path: the grid's nodes are computed as that path computes them
// (hypot), so a lane on a node gets the same bits whether or not its batch runs on the grid.
void run_gridded(const Program& program, const NoiseSet& noise, int n, const double* x, const double* z, std::size_t count,
                 double* const* out, bool lattice) {
    const Node& node = program.nodes[static_cast<std::size_t>(n)];
    const double g = node.grid_m;
    const auto cell = [&](double v) { return std::floor(std::clamp(std::isfinite(v) ? v : 0.0, -1e15, 1e15) / g); };
    // The grid nodes the lanes need, over the rectangle of their cells.
    double i0 = INFINITY, i1 = -INFINITY, j0 = INFINITY, j1 = -INFINITY;
    for (std::size_t i = 0; i < count; ++i) {
        const double ci = cell(x[i]), cj = cell(z[i]);
        i0 = std::min(i0, ci), i1 = std::max(i1, ci), j0 = std::min(j0, cj), j1 = std::max(j1, cj);
    }
    // A lane on a grid line needs no nodes across it: its share of them is 0.
    const auto share = [&](double v) { return std::clamp(std::isfinite(v) ? v : 0.0, -1e15, 1e15) / g - cell(v); };
    const bool dense = (i1 - i0 + 2.0) * (j1 - j0 + 2.0) <= 4.0 * static_cast<double>(count) + 64.0;
    std::vector<double> gx, gz;
    std::vector<std::int64_t> corner(4 * count);  // per lane, the four nodes' places in gx, gz
    const std::int64_t w = dense ? static_cast<std::int64_t>(i1 - i0) + 2 : 0, h = dense ? static_cast<std::int64_t>(j1 - j0) + 2 : 0;
    std::vector<std::int64_t> slot(static_cast<std::size_t>(w * h), -1);
    for (std::size_t i = 0; i < count; ++i) {
        const double ci = cell(x[i]), cj = cell(z[i]);
        const bool across_x = share(x[i]) != 0.0, across_z = share(z[i]) != 0.0;
        for (int c = 0; c < 4; ++c) {
            const int dx = (c & 1) && across_x ? 1 : 0, dz = (c >> 1) && across_z ? 1 : 0;
            std::int64_t* s = nullptr;
            std::int64_t fresh = -1;
            if (dense) s = &slot[static_cast<std::size_t>((static_cast<std::int64_t>(cj - j0) + dz) * w + static_cast<std::int64_t>(ci - i0) + dx)];
            else s = &fresh;
            if (*s < 0) {
                *s = static_cast<std::int64_t>(gx.size());
                gx.push_back((ci + dx) * g);
                gz.push_back((cj + dz) * g);
            }
            corner[4 * i + static_cast<std::size_t>(c)] = *s;
        }
    }
    // The node at the grid's nodes: its inputs evaluated there first, in one run.
    const std::size_t m = gx.size();
    Workspace work(program, m);
    for (const int k : needed_by(program, node.in)) work.run(k, noise, gx.data(), nullptr, gz.data(), m, lattice);
    std::vector<const double*> in_lanes(node.in.size());
    for (std::size_t k = 0; k < node.in.size(); ++k) in_lanes[k] = work.operand(n, k);
    std::vector<std::vector<double>> values(static_cast<std::size_t>(node.ports), std::vector<double>(m));
    Lanes l;
    l.in = in_lanes.data();
    for (int port = 0; port < node.ports; ++port) l.out[port] = values[static_cast<std::size_t>(port)].data();
    l.x = gx.data(), l.z = gz.data();
    l.count = m;
    l.lattice = lattice;
    l.ports_read = node.ports_read;
    l.program = &program;
    l.noise = &noise;
    evaluate(node, &noise, l);
    // Interpolated to the lanes.
    const std::string blend = find_node_type(node.type)->port_blend;
    for (int port = 0; port < node.ports; ++port) {
        const double* v = values[static_cast<std::size_t>(port)].data();
        double* o = out[port];
        const bool most = static_cast<std::size_t>(port) < blend.size() && blend[static_cast<std::size_t>(port)] == 'm';
        for (std::size_t i = 0; i < count; ++i) {
            const std::int64_t* c = &corner[4 * i];
            const double v00 = v[c[0]], v10 = v[c[1]], v01 = v[c[2]], v11 = v[c[3]];
            if (most) {
                o[i] = std::max(std::max(v00, v10), std::max(v01, v11));
                continue;
            }
            const double tx = share(x[i]), tz = share(z[i]);
            const double a = tx == 0.0 ? v00 : v00 + tx * (v10 - v00);
            const double b = tx == 0.0 ? v01 : v01 + tx * (v11 - v01);
            o[i] = tz == 0.0 ? a : a + tz * (b - a);
        }
    }
}

}  // namespace

// A lattice noise node (is_lattice_noise) over a lattice: the seed flavour's kernel (which
// may skip gated points), or the fast flavour's noise or fBm (which computes every point).
void lattice_noise_values(const Node& node, const NoiseSet& noise, const NoiseLattice& lattice, float* out) {
    if (!node.fast_noise) return noise.noise3.lattice_fast(lattice, out);
    const FastSimplex3 fast(noise.seed);
    if (node.op == Op::fbm3) return fast.fbm_lattice(lattice, node.shape, out);
    fast.lattice(lattice, out);
}

void run_lattice(const Program& program, const NoiseSet& noise, const Lattice& lattice, float* values, const ColumnSinks& sinks,
                 LatticeStats* stats, const ColumnValues* given) {
    const std::size_t nx = static_cast<std::size_t>(lattice.size.x), ny = static_cast<std::size_t>(lattice.size.y);
    const std::size_t nz = static_cast<std::size_t>(lattice.size.z);
    const std::size_t ncol = nx * nz, slab = nx * ny;
    // The column part, once per column (or as a World column's survey worked it out).
    ColumnValues made;
    if (!given || !given->fits(lattice)) given = &(made = column_values(program, noise, lattice));
    const ColumnValues& column_work = *given;
    std::vector<int> samples = sample_nodes(program);
    std::vector<int> columns;
    for (const int n : needed_by(program, program.sdf))
        if (is_column(program.nodes[static_cast<std::size_t>(n)])) columns.push_back(n);
    // The column outputs wanted, each with the vector it goes to.
    const auto put = [&](const Operand& output, float* to) {
        if (!to || (output.is_constant() && std::isnan(output.constant))) return;
        const double* g = output.is_constant() ? nullptr : column_work.get(output.node, output.port);
        for (std::size_t c = 0; c < ncol; ++c) to[c] = static_cast<float>(g ? g[c] : output.constant);
    };
    put(program.ground, sinks.ground);
    if (ColumnLooks* looks = sinks.looks) {
        looks->clear();
        const auto look = [&](const Operand& output, std::vector<float>& v) {
            if (output.is_constant() && std::isnan(output.constant)) return;
            v.resize(ncol);
            put(output, v.data());
        };
        look(program.water, looks->water);
        look(program.snow_line, looks->snow_line);
        look(program.scree, looks->scree);
    }
    // Gated noises (graph_gates.hpp): thresholds from the ranges over this lattice; the
    // nodes that read them run after the rest of each slab, so the deciding sides are there.
    std::vector<int> gate_of(program.nodes.size(), -1);
    std::vector<double> thresholds;
    if (!program.gates.empty()) {
        const auto ranges = node_intervals(program, noise, lattice.bounds());
        std::vector<Gate> active;
        for (std::size_t g = 0; g < program.gates.size(); ++g) {
            thresholds.push_back(gate_threshold(program, program.gates[g], ranges));
            if (std::isnan(thresholds.back())) continue;
            gate_of[static_cast<std::size_t>(program.gates[g].noise)] = static_cast<int>(g);
            active.push_back(program.gates[g]);
        }
        const std::vector<bool> late = reads_gated(program, active);
        std::stable_partition(samples.begin(), samples.end(), [&](int n) { return !late[static_cast<std::size_t>(n)]; });
    }
    // 3D noises of the raw position, ungated: the whole lattice at once on the lattice kernel.
    // Kept per thread: a chunk a call, and 144 KB a noise is more than malloc reuses.
    thread_local std::vector<float> noise_store;
    std::vector<float*> lattice_noise(program.nodes.size(), nullptr);
    const auto whole_lattice = [&](int n) {
        return is_lattice_noise(program.nodes[static_cast<std::size_t>(n)]) && gate_of[static_cast<std::size_t>(n)] < 0;
    };
    const std::size_t stored = static_cast<std::size_t>(std::count_if(samples.begin(), samples.end(), whole_lattice));
    if (noise_store.size() < stored * lattice.count()) noise_store.resize(stored * lattice.count());
    float* next_store = noise_store.data();
    const auto noise_lattice = [&](const Node& node) {
        return NoiseLattice{lattice.origin, lattice.size, lattice.spacing_m, glm::dvec3(node.number[0], node.number[1], node.number[0]),
                            glm::dvec3(node.number[2], node.number[3], node.number[4])};
    };
    for (const int n : samples) {
        if (!whole_lattice(n)) continue;
        lattice_noise[static_cast<std::size_t>(n)] = next_store;
        next_store += lattice.count();
        lattice_noise_values(program.nodes[static_cast<std::size_t>(n)], noise, noise_lattice(program.nodes[static_cast<std::size_t>(n)]),
                             lattice_noise[static_cast<std::size_t>(n)]);
    }
    // The rest per z-slab: y rows of x, the columns' values repeated along y.
    Workspace work(program, slab);
    std::vector<double> sx(slab), sy(slab), sz(slab);
    std::vector<float> gate(slab), gated_noise(slab);
    // The column values the per-sample nodes read (or that are the sdf), repeated along y.
    std::vector<bool> read_per_sample(program.nodes.size(), false);
    for (const int n : samples)
        for (const Operand& in : program.nodes[static_cast<std::size_t>(n)].in)
            if (!in.is_constant()) read_per_sample[static_cast<std::size_t>(in.node)] = true;
    for (const Gate& g : program.gates) {
        const Operand& other = program.nodes[static_cast<std::size_t>(g.guard)].in[static_cast<std::size_t>(1 - g.side)];
        read_per_sample[static_cast<std::size_t>(other.node)] = true;
    }
    if (!program.sdf.is_constant()) read_per_sample[static_cast<std::size_t>(program.sdf.node)] = true;
    std::vector<int> spread_columns;
    for (const int n : columns)
        if (read_per_sample[static_cast<std::size_t>(n)]) spread_columns.push_back(n);
    // x and y are the same in every slab (a position's coordinates are computed apart).
    for (std::size_t j = 0; j < ny; ++j)
        for (std::size_t i = 0; i < nx; ++i) {
            const glm::dvec3 p = lattice.position(static_cast<int>(i), static_cast<int>(j), 0);
            sx[j * nx + i] = p.x, sy[j * nx + i] = p.y;
        }
    for (std::size_t k = 0; k < nz; ++k) {
        work.begin_pass();
        std::fill(sz.begin(), sz.end(), lattice.position(0, 0, static_cast<int>(k)).z);
        for (const int n : spread_columns) {
            const Node& node = program.nodes[static_cast<std::size_t>(n)];
            for (int port = 0; port < node.ports; ++port) {
                const double* c = column_work.get(n, port) + k * nx;
                double* spread = work.buffer(n, port);
                for (std::size_t j = 0; j < ny; ++j) std::copy(c, c + nx, spread + j * nx);
            }
        }
        for (const int n : samples) {
            if (lattice_noise[static_cast<std::size_t>(n)]) {
                const float* f = lattice_noise[static_cast<std::size_t>(n)] + k * slab;
                double* out = work.buffer(n, 0);
                for (std::size_t i = 0; i < slab; ++i) out[i] = static_cast<double>(f[i]);
                continue;
            }
            if (const int g = gate_of[static_cast<std::size_t>(n)]; g >= 0) {
                // This slab of the noise, skipped where the guard's other side decides alone.
                const Gate& gt = program.gates[static_cast<std::size_t>(g)];
                const Operand& other = program.nodes[static_cast<std::size_t>(gt.guard)].in[static_cast<std::size_t>(1 - gt.side)];
                gate_values(program, gt, thresholds[static_cast<std::size_t>(g)], work.buffer(other.node, other.port), gate.data(), slab);
                NoiseLattice nl = noise_lattice(program.nodes[static_cast<std::size_t>(n)]);
                nl.origin.z += static_cast<std::int64_t>(k);
                nl.size.z = 1;
                nl.gate = gate.data();
                nl.gate_below = 0.0f;
                lattice_noise_values(program.nodes[static_cast<std::size_t>(n)], noise, nl, gated_noise.data());
                double* out = work.buffer(n, 0);
                for (std::size_t i = 0; i < slab; ++i) out[i] = static_cast<double>(gated_noise[i]);
                if (stats) {
                    stats->gated_samples += slab;
                    for (std::size_t i = 0; i < slab; ++i) stats->skipped_samples += gate[i] < 0.0f;
                }
                continue;
            }
            work.run(n, noise, sx.data(), sy.data(), sz.data(), slab, true);
        }
        const double* result = program.sdf.is_constant() ? nullptr : work.buffer(program.sdf.node, program.sdf.port);
        float* out = values + k * slab;
        for (std::size_t i = 0; i < slab; ++i) out[i] = static_cast<float>(result ? result[i] : program.sdf.constant);
    }
}

}  // namespace isoterra::graph
