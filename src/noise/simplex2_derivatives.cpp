// 2D simplex noise with its gradient and Hessian, analytic. Each corner adds
// 70 t^4 (g . d), t = 0.5 - |d|^2, d the point's offset from the corner; differentiated
// twice with t' = -2 d (the corners do not move with the point). The value follows
// operator()'s operation order, so it is the same bits. The batch does the same operations
// in the same order four points at a time (GCC vector types, an AVX2 clone where the CPU has
// it), so it gives the same bits as one point at a time.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "simd/target_clones.hpp"
#include "isoterra/noise.hpp"
#include "simplex2_cell.hpp"

// The vector helpers are always inlined: one left out of line would be called across target
// clones with different vector ABIs (what -Wpsabi warns about).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace isoterra {
namespace {

using simplex2::kF2;
using simplex2::kG2;

// One corner's term and its derivatives, added to `sum` (before the factor 70). Without a
// branch: a corner out of reach has t = 0, and every term of it is then 0 (an unpredictable
// branch per corner cost more than the arithmetic it skipped).
inline void add_corner(double t_raw, double x, double y, double gx, double gy, Simplex2::Derivatives& sum) {
    const double t = std::max(t_raw, 0.0);
    const double gd = gx * x + gy * y;
    const double t2 = t * t;
    const double t3 = t2 * t;
    sum.value += t2 * t2 * gd;  // (t t)(t t) gd: the order operator() uses
    // d/dx t^4 gd = t^3 (t gx - 8 x gd)
    sum.dx += t3 * (t * gx - 8.0 * x * gd);
    sum.dy += t3 * (t * gy - 8.0 * y * gd);
    // d2/dx2 = t^2 (48 x^2 gd - 8 t gd - 16 t x gx); d2/dxdy = t^2 (48 x y gd - 8 t (x gy + y gx))
    sum.dxx += t2 * (48.0 * x * x * gd - 8.0 * t * gd - 16.0 * t * x * gx);
    sum.dxy += t2 * (48.0 * x * y * gd - 8.0 * t * (x * gy + y * gx));
    sum.dyy += t2 * (48.0 * y * y * gd - 8.0 * t * gd - 16.0 * t * y * gy);
}

}  // namespace

Simplex2::Derivatives Simplex2::derivatives(double x, double y) const {
    const auto [x0, y0, x1, y1, x2, y2, i1, j1, ii, jj] = simplex2::cell_of(x, y);
    const int g0 = ii + perm_[jj];
    const int g1 = ii + i1 + perm_[jj + j1];
    const int g2 = ii + 1 + perm_[jj + 1];

    // Each corner is summed into its own record so the value adds n0 + n1 + n2 in
    // operator()'s order.
    Derivatives c[3];
    add_corner(0.5 - x0 * x0 - y0 * y0, x0, y0, grad_x_[g0], grad_y_[g0], c[0]);
    add_corner(0.5 - x1 * x1 - y1 * y1, x1, y1, grad_x_[g1], grad_y_[g1], c[1]);
    add_corner(0.5 - x2 * x2 - y2 * y2, x2, y2, grad_x_[g2], grad_y_[g2], c[2]);
    Derivatives d;
    d.value = 70.0 * (c[0].value + c[1].value + c[2].value);
    d.dx = 70.0 * (c[0].dx + c[1].dx + c[2].dx);
    d.dy = 70.0 * (c[0].dy + c[1].dy + c[2].dy);
    d.dxx = 70.0 * (c[0].dxx + c[1].dxx + c[2].dxx);
    d.dxy = 70.0 * (c[0].dxy + c[1].dxy + c[2].dxy);
    d.dyy = 70.0 * (c[0].dyy + c[1].dyy + c[2].dyy);
    return d;
}

namespace {

using v4d = double __attribute__((vector_size(32)));
using v4l = long long __attribute__((vector_size(32)));
using v4i = int __attribute__((vector_size(16)));

// floor() in double through 32-bit conversions (the values are whole numbers); valid while
// |v| < 2^31, which the caller makes sure of.
__attribute__((always_inline)) inline v4d floor4(v4d v) {
    const v4d t = __builtin_convertvector(__builtin_convertvector(v, v4i), v4d);
    const v4l below = v < t;
    return (v4d)(((v4l)(t - 1.0) & below) | ((v4l)t & ~below));
}

struct Sum4 {
    v4d value, dx, dy, dxx, dxy, dyy;
};

// add_corner() for four points: the same operations in the same order.
__attribute__((always_inline)) inline Sum4 corner4(v4d t_raw, v4d x, v4d y, v4d gx, v4d gy) {
    const v4d t = (v4d)((v4l)t_raw & ~(v4l)(t_raw < 0.0));  // max(t, 0); NaN stays NaN
    const v4d gd = gx * x + gy * y;
    const v4d t2 = t * t;
    const v4d t3 = t2 * t;
    // Added to zero as add_corner() adds to its record (a -0 term becomes +0 alike).
    const v4d zero = {0.0, 0.0, 0.0, 0.0};
    Sum4 c;
    c.value = zero + t2 * t2 * gd;
    c.dx = zero + t3 * (t * gx - 8.0 * x * gd);
    c.dy = zero + t3 * (t * gy - 8.0 * y * gd);
    c.dxx = zero + t2 * (48.0 * x * x * gd - 8.0 * t * gd - 16.0 * t * x * gx);
    c.dxy = zero + t2 * (48.0 * x * y * gd - 8.0 * t * (x * gy + y * gx));
    c.dyy = zero + t2 * (48.0 * y * y * gd - 8.0 * t * gd - 16.0 * t * y * gy);
    return c;
}

}  // namespace

ISOTERRA_CLONES
void Simplex2::derivatives_batch(const double* xs, const double* ys, std::size_t count, double* const out[6]) const {
    std::size_t n = 0;
    for (; n + 4 <= count; n += 4) {
        v4d x, y;
        std::memcpy(&x, xs + n, sizeof x);
        std::memcpy(&y, ys + n, sizeof y);
        // Past 1e9 (or NaN) the skewed cell may not fit 32 bits: one point at a time.
        bool near = true;
        for (int k = 0; k < 4; ++k) near = near && std::fabs(x[k]) <= 1e9 && std::fabs(y[k]) <= 1e9;
        if (!near) {
            for (std::size_t k = n; k < n + 4; ++k) {
                const Derivatives d = derivatives(xs[k], ys[k]);
                out[0][k] = d.value, out[1][k] = d.dx, out[2][k] = d.dy, out[3][k] = d.dxx, out[4][k] = d.dxy, out[5][k] = d.dyy;
            }
            continue;
        }
        const v4d s = (x + y) * kF2;
        const v4d fi = floor4(x + s), fj = floor4(y + s);
        const v4d t = (fi + fj) * kG2;
        const v4d x0 = x - (fi - t), y0 = y - (fj - t);
        const v4l lower = x0 > y0;  // all ones where i1 = 1
        const v4d i1 = (v4d)((v4l)(v4d{1.0, 1.0, 1.0, 1.0}) & lower), j1 = 1.0 - i1;
        const v4d x1 = x0 - i1 + kG2, y1 = y0 - j1 + kG2;
        const v4d x2 = x0 - 1.0 + 2.0 * kG2, y2 = y0 - 1.0 + 2.0 * kG2;
        const v4i ii = __builtin_convertvector(fi, v4i) & 255, jj = __builtin_convertvector(fj, v4i) & 255;
        v4d g0x, g0y, g1x, g1y, g2x, g2y;
        for (int k = 0; k < 4; ++k) {
            const int a = ii[k], b = jj[k], low = lower[k] != 0;
            const int g0 = a + perm_[b], g1 = a + low + perm_[b + 1 - low], g2 = a + 1 + perm_[b + 1];
            g0x[k] = grad_x_[g0], g0y[k] = grad_y_[g0];
            g1x[k] = grad_x_[g1], g1y[k] = grad_y_[g1];
            g2x[k] = grad_x_[g2], g2y[k] = grad_y_[g2];
        }
        const Sum4 c0 = corner4(0.5 - x0 * x0 - y0 * y0, x0, y0, g0x, g0y);
        const Sum4 c1 = corner4(0.5 - x1 * x1 - y1 * y1, x1, y1, g1x, g1y);
        const Sum4 c2 = corner4(0.5 - x2 * x2 - y2 * y2, x2, y2, g2x, g2y);
        const v4d columns[6] = {70.0 * (c0.value + c1.value + c2.value), 70.0 * (c0.dx + c1.dx + c2.dx),
                                70.0 * (c0.dy + c1.dy + c2.dy),          70.0 * (c0.dxx + c1.dxx + c2.dxx),
                                70.0 * (c0.dxy + c1.dxy + c2.dxy),       70.0 * (c0.dyy + c1.dyy + c2.dyy)};
        for (int c = 0; c < 6; ++c) std::memcpy(out[c] + n, &columns[c], sizeof(v4d));
    }
    for (; n < count; ++n) {
        const Derivatives d = derivatives(xs[n], ys[n]);
        out[0][n] = d.value, out[1][n] = d.dx, out[2][n] = d.dy, out[3][n] = d.dxx, out[4][n] = d.dxy, out[5][n] = d.dyy;
    }
}

}  // namespace isoterra
