// Simplex 3D over a batch of points, bit-identical to Simplex3::operator(): the same IEEE
// operations in the same order, four points at a time in GCC vector types, the branches
// turned into masks. GCC builds an AVX2 clone of the loop and picks it at run time where the
// CPU has it; the default clone runs the same code on SSE2 pairs.
#include <cstring>

// The vector helpers are always inlined: a helper left out of line would be called across
// target clones with different vector ABIs (what -Wpsabi warns about).
#pragma GCC diagnostic ignored "-Wpsabi"

#include "simd/target_clones.hpp"
#include "isoterra/noise.hpp"

namespace isoterra {
namespace {

using v4d = double __attribute__((vector_size(32)));
using v4l = long long __attribute__((vector_size(32)));

constexpr double kF3 = 1.0 / 3.0;
constexpr double kG3 = 1.0 / 6.0;

// floor() as integers, without a libm call. Valid while |v| < 2^31 noise units, where it
// equals the scalar path's wrapped floor.
__attribute__((always_inline)) inline v4l floor_l(v4d v) {
    const v4l t = __builtin_convertvector(v, v4l);
    return t + (v < __builtin_convertvector(t, v4d));  // a true mask is -1
}

__attribute__((always_inline)) inline v4d to_d(v4l v) { return __builtin_convertvector(v, v4d); }

// Contribution of four corners: (max(t, 0))^4 * (g . d), the gradients gathered by index.
__attribute__((always_inline)) inline v4d corner(v4d t, v4l g, const double* gx, const double* gy, const double* gz, v4d x, v4d y, v4d z) {
    const v4d px = {gx[g[0]], gx[g[1]], gx[g[2]], gx[g[3]]};
    const v4d py = {gy[g[0]], gy[g[1]], gy[g[2]], gy[g[3]]};
    const v4d pz = {gz[g[0]], gz[g[1]], gz[g[2]], gz[g[3]]};
    const v4l keep = t >= 0.0;
    v4d tc = (v4d)((v4l)t & keep);  // negative t contributes exactly 0, as in the scalar code
    tc *= tc;
    return tc * tc * (px * x + py * y + pz * z);
}

__attribute__((always_inline)) inline v4l lookup(const std::int32_t* perm, v4l idx) {
    return v4l{perm[idx[0]], perm[idx[1]], perm[idx[2]], perm[idx[3]]};
}

}  // namespace

ISOTERRA_CLONES
void Simplex3::batch(const double* xs, const double* ys, const double* zs, double* out, std::size_t count) const {
    const std::int32_t* perm = perm32_.data();
    const double* gx = grad_x_.data();
    const double* gy = grad_y_.data();
    const double* gz = grad_z_.data();
    std::size_t n = 0;
    for (; n + 4 <= count; n += 4) {
        v4d x, y, z;
        std::memcpy(&x, xs + n, sizeof x);
        std::memcpy(&y, ys + n, sizeof y);
        std::memcpy(&z, zs + n, sizeof z);
        const v4d s = (x + y + z) * kF3;
        const v4l i = floor_l(x + s), j = floor_l(y + s), k = floor_l(z + s);
        const v4d t = (to_d(i) + to_d(j) + to_d(k)) * kG3;
        const v4d x0 = x - (to_d(i) - t), y0 = y - (to_d(j) - t), z0 = z - (to_d(k) - t);
        // The scalar code's six-way branch as boolean algebra on three comparisons (masks
        // are -1 for true; negate to get the 0/1 offsets).
        const v4l a = x0 >= y0, b = y0 >= z0, c = x0 >= z0;
        const v4l i1 = -(a & c), j1 = -(~a & b), k1 = -(~(b | c));
        const v4l i2 = -(a | c), j2 = -(~a | b), k2 = -(~(b & c));
        const v4d x1 = x0 - to_d(i1) + kG3, y1 = y0 - to_d(j1) + kG3, z1 = z0 - to_d(k1) + kG3;
        const v4d x2 = x0 - to_d(i2) + 2.0 * kG3, y2 = y0 - to_d(j2) + 2.0 * kG3, z2 = z0 - to_d(k2) + 2.0 * kG3;
        const v4d x3 = x0 - 1.0 + 3.0 * kG3, y3 = y0 - 1.0 + 3.0 * kG3, z3 = z0 - 1.0 + 3.0 * kG3;
        const v4l ii = i & 255, jj = j & 255, kk = k & 255;
        const v4l g0 = ii + lookup(perm, jj + lookup(perm, kk));
        const v4l g1 = ii + i1 + lookup(perm, jj + j1 + lookup(perm, kk + k1));
        const v4l g2 = ii + i2 + lookup(perm, jj + j2 + lookup(perm, kk + k2));
        const v4l g3 = ii + 1 + lookup(perm, jj + 1 + lookup(perm, kk + 1));
        const v4d n0 = corner(0.6 - x0 * x0 - y0 * y0 - z0 * z0, g0, gx, gy, gz, x0, y0, z0);
        const v4d n1 = corner(0.6 - x1 * x1 - y1 * y1 - z1 * z1, g1, gx, gy, gz, x1, y1, z1);
        const v4d n2 = corner(0.6 - x2 * x2 - y2 * y2 - z2 * z2, g2, gx, gy, gz, x2, y2, z2);
        const v4d n3 = corner(0.6 - x3 * x3 - y3 * y3 - z3 * z3, g3, gx, gy, gz, x3, y3, z3);
        const v4d v = 32.0 * (n0 + n1 + n2 + n3);
        std::memcpy(out + n, &v, sizeof v);
    }
    for (; n < count; ++n) out[n] = (*this)(xs[n], ys[n], zs[n]);
}

}  // namespace isoterra
