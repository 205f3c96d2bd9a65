// erosion: gullies running down the slope of a height, octave after octave, each finer one
// following the slope the coarser ones made, so they branch (the erosion filter of Rune
// Skovbo Johansen 2026, after Clay John 2018 and Fewes 2023; written from docs/guides/landforms.md).
// An octave's stripes come from jittered cells, each with stripes through its own point
// along the local downhill direction, blended by a compact kernel; the value and its exact
// gradient (the blend's weights included) are carried from octave to octave.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "simd/target_clones.hpp"
#include "landform.hpp"

namespace isoterra::graph {
namespace {

constexpr double kTau = 6.283185307179586476925;
constexpr std::uint32_t kStream = 0x65726f73;  // "eros", plus the octave

// Cells are kCellPerWave wavelengths wide; a cell's point lies within kJitter / 2 cells of
// its centre, and the kernel reaches kRadius cells: 1.5 - kJitter / 2 >= kRadius, so every
// point with a weight lies in the 3 x 3 cells around the sample's own.
constexpr double kCellPerWave = 1.0;
constexpr double kJitter = 0.5;
constexpr double kRadius = 1.25;
constexpr double kInvRadius2 = 1.0 / (kRadius * kRadius);
// The blended phase vector u is divided by (|u|^4 + e^4)^(1/4): unit length where the cells
// agree, shorter (so weaker stripes) where they cancel out, and smooth everywhere.
constexpr double kNormalise = 0.3;
// The next octave reaches full strength where this one's stripes are at least this steep
// (|sin| of the phase); it fades at their crests and troughs, where they turn.
constexpr double kOctaveOnset = 0.9;
// How much an octave's stripes turn the next one's downhill direction: that many times their
// steepest slope is added to the carried direction slope.
constexpr double kSteer = 0.8;
// Each octave's grid is turned by the golden angle against the previous one's.
constexpr double kTurn = 2.399963229728653;

constexpr std::size_t kBlock = 64;
constexpr int kCells = 9;

struct Octave {
    double inv_cell;      // 1 / the cell's width in metres
    double cos_a, sin_a;  // the grid's turn
    double offset_u, offset_v;
    double strength;  // metres
    double wave;      // 2 pi / wavelength, per metre
    std::uint32_t stream;
};

// The jittered points of the 3 x 3 cells around cell (ci, cj), relative to that cell's corner.
struct CellBlock {
    std::int64_t ci = 0, cj = 0;
    bool valid = false;
    double px[kCells], pz[kCells];
};

void fill_cells(std::uint32_t seed, std::uint32_t stream, std::int64_t ci, std::int64_t cj, CellBlock& b) {
    int k = 0;
    for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di, ++k) {
            const std::uint64_t h = cell_hash(seed, ci + di, cj + dj, stream);
            b.px[k] = di + 0.5 + kJitter * (cell_random(h, 0) - 0.5);
            b.pz[k] = dj + 0.5 + kJitter * (cell_random(h, 1) - 0.5);
        }
    b.ci = ci, b.cj = cj, b.valid = true;
}

// sin and cos of t for |t| < 2^50: t reduced to [-pi, pi], Taylor polynomials of half of it
// (|y| <= pi / 2: sin to y^13, cos to y^14, errors below 1e-9) and the double angle. Plain
// operations only, so it vectorises and gives the same bits on every path.
inline void sin_cos(double t, double& s, double& c) {
    constexpr double kRound = 0x1.8p52;  // adding and taking it off rounds to an integer
    const double turns = (t * (1.0 / kTau) + kRound) - kRound;
    const double y = 0.5 * (t - turns * kTau);
    const double y2 = y * y;
    double sy = 1.0 / 6227020800.0, cy = -1.0 / 87178291200.0;
    sy = sy * y2 - 1.0 / 39916800.0, cy = cy * y2 + 1.0 / 479001600.0;
    sy = sy * y2 + 1.0 / 362880.0, cy = cy * y2 - 1.0 / 3628800.0;
    sy = sy * y2 - 1.0 / 5040.0, cy = cy * y2 + 1.0 / 40320.0;
    sy = sy * y2 + 1.0 / 120.0, cy = cy * y2 - 1.0 / 720.0;
    sy = sy * y2 - 1.0 / 6.0, cy = cy * y2 + 1.0 / 24.0;
    sy = (sy * y2 + 1.0) * y, cy = cy * y2 - 0.5;
    cy = cy * y2 + 1.0;
    s = 2.0 * sy * cy;
    c = 1.0 - 2.0 * sy * sy;
}

// ease(a) = 1 - (1 - a)^2 for a in [0, 1], 1 beyond; its slope 2 (1 - a), 0 beyond.
inline double ease(double a) { return a < 1.0 ? a * (2.0 - a) : 1.0; }
inline double ease_slope(double a) { return a < 1.0 ? 2.0 * (1.0 - a) : 0.0; }

// The gullies' target on flats from the input height: 2 smoothstep(valley, peak, h) - 1.
struct Target {
    bool on = false;
    double valley = 0.0, inv_span = 0.0;
    double at(double h, double& slope) const {
        if (!on) return slope = 0.0;
        const double a = std::clamp((h - valley) * inv_span, 0.0, 1.0);
        slope = 12.0 * a * (1.0 - a) * inv_span;
        return 2.0 * a * a * (3.0 - 2.0 * a) - 1.0;
    }
};

struct Setup {
    int octaves = 0;
    Octave octave[8];
    double total = 0.0;  // the strengths' sum
    double onset = 1.0;
    Target target;
};

Setup setup_of(const Node& node) {
    Setup s;
    const double scale = node.number[0], strength = node.number[1];
    s.onset = node.number[2];
    if (node.number.size() >= 5 && node.number[4] > node.number[3]) {
        s.target.on = true;
        s.target.valley = node.number[3];
        s.target.inv_span = 1.0 / (node.number[4] - node.number[3]);
    }
    s.octaves = std::clamp(node.shape.octaves, 1, 8);
    double wave_m = scale, amp = strength;
    for (int j = 0; j < s.octaves; ++j) {
        Octave& o = s.octave[j];
        o.inv_cell = 1.0 / (kCellPerWave * wave_m);
        o.cos_a = std::cos(kTurn * j), o.sin_a = std::sin(kTurn * j);
        o.offset_u = 0.381966 * j, o.offset_v = 0.618034 * j;
        o.strength = amp;
        o.wave = kTau / wave_m;
        o.stream = kStream + static_cast<std::uint32_t>(j);
        s.total += amp;
        wave_m /= node.shape.lacunarity;
        amp *= node.shape.gain;
    }
    return s;
}

double held(double v) { return std::isfinite(v) ? std::clamp(v, -1e12, 1e12) : 0.0; }

// One block of at most kBlock lanes.
struct Block {
    // Carried per lane: the height's change and its gradient, the fade target and its
    // gradient, the mask and its gradient, the ridge map's target and mask, the direction slope.
    double dh[kBlock], dhx[kBlock], dhz[kBlock];
    double t[kBlock], tx[kBlock], tz[kBlock];
    double m[kBlock], mx[kBlock], mz[kBlock];
    double r[kBlock], q[kBlock];
    double gsx[kBlock], gsz[kBlock];
    // This octave: the cells' points relative to the lane, the phase gradient (cell frame).
    double vx[kCells][kBlock], vz[kCells][kBlock];
    double gx[kBlock], gz[kBlock];
    double dirx[kBlock], dirz[kBlock];
    // Sums over the cells: weights, cos and sin weighted, and their weights' gradients.
    double W[kBlock], A[kBlock], B[kBlock];
    double Wx[kBlock], Wz[kBlock], Ax[kBlock], Az[kBlock], Bx[kBlock], Bz[kBlock];
};

// Inlined into erode_block, so that it is built for each of that function's targets.
[[gnu::always_inline]] inline void run_octave(const Octave& o, CellBlock& cache, std::uint32_t seed, const double* xs, const double* zs,
                                              std::size_t n, Block& b) {
    // The lanes' cells, and the direction of the stripes from the carried slope.
    for (std::size_t i = 0; i < n; ++i) {
        const double X = held(xs[i]) * o.inv_cell, Z = held(zs[i]) * o.inv_cell;
        const double u = std::clamp(o.cos_a * X - o.sin_a * Z + o.offset_u, -1e12, 1e12);
        const double v = std::clamp(o.sin_a * X + o.cos_a * Z + o.offset_v, -1e12, 1e12);
        const double fu = std::floor(u), fv = std::floor(v);
        const std::int64_t ci = static_cast<std::int64_t>(fu), cj = static_cast<std::int64_t>(fv);
        if (!cache.valid || cache.ci != ci || cache.cj != cj) fill_cells(seed, o.stream, ci, cj, cache);
        const double ru = u - fu, rv = v - fv;
        for (int k = 0; k < kCells; ++k) b.vx[k][i] = ru - cache.px[k], b.vz[k][i] = rv - cache.pz[k];
    }
    constexpr double kPhase = kTau * kCellPerWave;  // per cell: kCellPerWave waves a cell
    for (std::size_t i = 0; i < n; ++i) {
        const double gx = b.gsx[i], gz = b.gsz[i];
        const double len = std::sqrt(gx * gx + gz * gz);
        const bool some = len > 0.0 && std::isfinite(len);
        const double dx = some ? gx / len : 1.0, dz = some ? gz / len : 0.0;
        b.dirx[i] = dx, b.dirz[i] = dz;
        // Across the slope (the stripes run along it), turned into the cell frame.
        const double cx = o.cos_a * dx - o.sin_a * dz, cz = o.sin_a * dx + o.cos_a * dz;
        b.gx[i] = -cz * kPhase, b.gz[i] = cx * kPhase;
        b.W[i] = b.A[i] = b.B[i] = b.Wx[i] = b.Wz[i] = b.Ax[i] = b.Az[i] = b.Bx[i] = b.Bz[i] = 0.0;
    }
    // Each cell's stripes: weight w = (1 - r^2 / R^2)^3, phase g.v + pi / 2 (so the cell's
    // point lies on a stripe's flank), cos and sin of it summed with the weights and with the
    // weights' gradients.
    for (int k = 0; k < kCells; ++k) {
        const double* vxk = b.vx[k];
        const double* vzk = b.vz[k];
        for (std::size_t i = 0; i < n; ++i) {
            const double vx = vxk[i], vz = vzk[i];
            const double a = std::max(0.0, 1.0 - (vx * vx + vz * vz) * kInvRadius2);
            const double w = a * a * a;
            const double dw = -6.0 * kInvRadius2 * a * a;  // the weight's gradient is dw v
            double s, c;
            sin_cos(b.gx[i] * vx + b.gz[i] * vz, s, c);
            const double cosp = -s, sinp = c;  // of the phase plus pi / 2
            b.W[i] += w, b.A[i] += w * cosp, b.B[i] += w * sinp;
            b.Wx[i] += dw * vx, b.Wz[i] += dw * vz;
            const double dc = dw * cosp, ds = dw * sinp;
            b.Ax[i] += dc * vx, b.Az[i] += dc * vz;
            b.Bx[i] += ds * vx, b.Bz[i] += ds * vz;
        }
    }
}

// Adds one octave to the lanes from run_octave's sums: its phase, shortened, and gradient,
// faded towards the target where the mask is low; then the next octave's mask, the ridge map
// and the slope the next octave runs down. Inlined into erode_block like run_octave.
[[gnu::always_inline]] inline void add_octave(const Octave& o, std::size_t n, Block& b) {
    constexpr double kE4 = kNormalise * kNormalise * kNormalise * kNormalise;
    const double scale = o.inv_cell;
    for (std::size_t i = 0; i < n; ++i) {
        // The phase vector u = (A, B) / W and its gradient (cell frame): the cells'
        // stripes all have phase gradient g, their weights move u too.
        const double inv_w = 1.0 / b.W[i];
        const double ux = b.A[i] * inv_w, uy = b.B[i] * inv_w;
        const double gx = b.gx[i], gz = b.gz[i];
        const double uxx = (b.Ax[i] - gx * b.B[i] - ux * b.Wx[i]) * inv_w;
        const double uxz = (b.Az[i] - gz * b.B[i] - ux * b.Wz[i]) * inv_w;
        const double uyx = (b.Bx[i] + gx * b.A[i] - uy * b.Wx[i]) * inv_w;
        const double uyz = (b.Bz[i] + gz * b.A[i] - uy * b.Wz[i]) * inv_w;
        const double q2 = ux * ux + uy * uy;
        const double N = std::sqrt(std::sqrt(q2 * q2 + kE4));
        const double inv_n = 1.0 / N;
        const double C = ux * inv_n, S = uy * inv_n;  // cos and sin of the phase, shortened
        const double k = q2 * inv_n * inv_n * inv_n;  // N's gradient is k (u . grad u)
        const double nx = k * (ux * uxx + uy * uyx), nz = k * (ux * uxz + uy * uyz);
        const double ccx = (uxx - C * nx) * inv_n, ccz = (uxz - C * nz) * inv_n;
        const double scx = (uyx - S * nx) * inv_n, scz = (uyz - S * nz) * inv_n;
        // Back to world axes, per metre.
        const double Cx = (o.cos_a * ccx + o.sin_a * ccz) * scale, Cz = (-o.sin_a * ccx + o.cos_a * ccz) * scale;
        const double Sx = (o.cos_a * scx + o.sin_a * scz) * scale, Sz = (-o.sin_a * scx + o.cos_a * scz) * scale;
        // Fade towards the target where the mask is low; add the octave.
        const double m = b.m[i], t = b.t[i];
        const double f = t + m * (C - t);
        const double fx = (1.0 - m) * b.tx[i] + m * Cx + (C - t) * b.mx[i];
        const double fz = (1.0 - m) * b.tz[i] + m * Cz + (C - t) * b.mz[i];
        b.dh[i] += o.strength * f, b.dhx[i] += o.strength * fx, b.dhz[i] += o.strength * fz;
        b.t[i] = f, b.tx[i] = fx, b.tz[i] = fz;
        // The next octave's mask: this one's, raised, times how steep its stripes are.
        const double sign = S < 0.0 ? -1.0 : 1.0;
        const double a = std::fabs(S) * (1.0 / kOctaveOnset);
        const double e = ease(a), es = ease_slope(a) * sign * (1.0 / kOctaveOnset);
        const double raised = m * (2.0 - m), rs = 2.0 * (1.0 - m);
        b.m[i] = raised * e;
        b.mx[i] = rs * b.mx[i] * e + raised * es * Sx;
        b.mz[i] = rs * b.mz[i] * e + raised * es * Sz;
        // The ridge map: towards the cos of this octave's phase where its mask is on;
        // the mask then keeps sin^2 of it (for one octave the map is cos^3).
        const double inv_len = q2 > 0.0 ? 1.0 / std::sqrt(q2) : 0.0;
        const double sin_phase = uy * inv_len;
        b.r[i] += b.q[i] * (ux * inv_len - b.r[i]);
        b.q[i] *= sin_phase * sin_phase;
        // The next octave runs down the slope these stripes would have at their
        // steepest: piecewise constant on a plane, so the phase gradient stays exact.
        const double steer = kSteer * o.strength * o.wave * sign;
        b.gsx[i] += steer * b.dirz[i];
        b.gsz[i] -= steer * b.dirx[i];
    }
}

// Erodes lanes [0, n) of one block: the octaves in turn over the block, then the outputs.
ISOTERRA_CLONES
void erode_block(const Setup& s, CellBlock* caches, std::uint32_t seed, const double* x, const double* z, const double* hin,
                 const double* din_x, const double* din_z, std::size_t n, double* out_h, double* out_x, double* out_z, double* out_ridge) {
    Block b;
    for (std::size_t i = 0; i < n; ++i) {
        const double h = hin[i];
        const double gx = std::isfinite(din_x[i]) ? din_x[i] : 0.0;
        const double gz = std::isfinite(din_z[i]) ? din_z[i] : 0.0;
        double t_slope;
        const double t0 = s.target.at(h, t_slope);
        b.dh[i] = b.dhx[i] = b.dhz[i] = 0.0;
        b.t[i] = t0, b.tx[i] = t_slope * gx, b.tz[i] = t_slope * gz;
        // Gullies fade on flats: full strength from the slope `onset` up. (The mask's own
        // gradient needs the input's curvature, which the node does not have: taken as 0.)
        b.m[i] = ease(std::sqrt(gx * gx + gz * gz) / s.onset);
        b.mx[i] = b.mz[i] = 0.0;
        b.r[i] = t0, b.q[i] = b.m[i];
        b.gsx[i] = gx, b.gsz[i] = gz;
    }
    for (int j = 0; j < s.octaves; ++j) {
        const Octave& o = s.octave[j];
        run_octave(o, caches[j], seed, x, z, n, b);
        add_octave(o, n, b);
    }
    // Raise valleys and lower peaks by the target times the strengths' sum, so that a flat
    // (faded to the target in every octave) keeps its height.
    for (std::size_t i = 0; i < n; ++i) {
        double t_slope;
        const double t0 = s.target.at(hin[i], t_slope);
        out_h[i] = hin[i] + (b.dh[i] - s.total * t0);
        out_x[i] = din_x[i] + (b.dhx[i] - s.total * t_slope * din_x[i]);
        out_z[i] = din_z[i] + (b.dhz[i] - s.total * t_slope * din_z[i]);
        out_ridge[i] = std::clamp(b.r[i] * (1.0 - b.q[i]), -1.0, 1.0);
    }
}

}  // namespace

void run_erosion(const Node& node, const NoiseSet& noise, const Lanes& l) {
    const Setup s = setup_of(node);
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    CellBlock caches[8];
    for (std::size_t start = 0; start < l.count; start += kBlock) {
        const std::size_t n = std::min(kBlock, l.count - start);
        erode_block(s, caches, noise.seed, xs + start, zs + start, l.in[2] + start, l.in[3] + start, l.in[4] + start, n, l.out[0] + start,
                    l.out[1] + start, l.out[2] + start, l.out[3] + start);
    }
}

NodeRanges erosion_ranges(const Node& node, const RangeContext& c) {
    const Setup s = setup_of(node);
    const ValueRange& h = c.in[2];
    const ValueRange& dx = c.in[3];
    const ValueRange& dz = c.in[4];
    const ValueRange all{-INFINITY, INFINITY};
    NodeRanges out{};
    out[0] = out[1] = out[2] = all;
    out[3] = {-1.0, 1.0};
    if (std::isnan(h.lo) || std::isnan(h.hi)) return out;
    // Height: every octave adds its strength times a value in [-1, 1] (a blend of the target
    // and the shortened cos, both in [-1, 1]); then the target t0 times their sum is taken off.
    double unused, t_lo = 0.0, t_hi = 0.0;
    if (s.target.on) t_lo = s.target.at(h.lo, unused), t_hi = s.target.at(h.hi, unused);
    const double most = std::max(std::fabs(h.lo), std::fabs(h.hi)) + 2.0 * s.total;
    const double slack = (std::isfinite(most) ? most : 0.0) * 0x1p-40 + 1e-300;
    out[0] = {h.lo - s.total * (1.0 + t_hi) - slack, h.hi + s.total * (1.0 - t_lo) + slack};
    // Slope: the input's plus the most each octave's gradient can be (docs/guides/landforms.md).
    // The phase vector u = sum w_k e_k / W moves by at most |g| + 2 sum |grad w_k| / W per
    // cell; with |grad w| <= (6 / R) w^(2/3) and W at least the own cell's weight,
    // sum |grad w_k| / W <= (6 / R) 9^(1/3) / (1 - d^2 / R^2), d the own point's farthest.
    // The shortening u / (|u|^4 + e^4)^(1/4) is (1 / e)-Lipschitz.
    const double most_x = std::max(std::fabs(dx.lo), std::fabs(dx.hi));
    const double most_z = std::max(std::fabs(dz.lo), std::fabs(dz.hi));
    const double grad_in = std::hypot(most_x, most_z);
    if (!std::isfinite(grad_in)) return out;
    constexpr double kFar2 = 2.0 * (0.5 + 0.5 * kJitter) * (0.5 + 0.5 * kJitter);
    const double weights = 6.0 / kRadius * std::cbrt(9.0) / (1.0 - kFar2 * kInvRadius2);
    const double per_cell = (kTau * kCellPerWave + 2.0 * weights) / kNormalise;
    double T = s.target.on ? 3.0 * s.target.inv_span * grad_in : 0.0;  // |grad t|
    double M = 0.0;                                                    // |grad mask|
    double most_slope = s.total * T;
    for (int j = 0; j < s.octaves; ++j) {
        const double D = per_cell * s.octave[j].inv_cell;  // |grad C|, |grad S| per metre
        const double F = std::max(T, D) + 2.0 * M;         // |grad of the faded octave|
        most_slope += s.octave[j].strength * F;
        M = 2.0 * M + 2.0 / kOctaveOnset * D;
        T = F;
    }
    most_slope = most_slope * (1.0 + 0x1p-30) + (most_x + most_z) * 0x1p-40 + 1e-300;
    out[1] = {dx.lo - most_slope, dx.hi + most_slope};
    out[2] = {dz.lo - most_slope, dz.hi + most_slope};
    return out;
}

}  // namespace isoterra::graph
