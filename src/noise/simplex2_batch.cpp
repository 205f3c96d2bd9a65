// Simplex 2D and its fBm over batches of points, bit-identical to Simplex2::operator() and
// fbm2(): the same IEEE operations in the same order, four points at a time in GCC vector
// types with the branches as masks. An AVX2 clone is picked at run time where the CPU has it.
#include <cmath>
#include <cstring>

#include "simd/target_clones.hpp"
#include "isoterra/noise.hpp"

// The vector helpers are always inlined: a helper left out of line would be called across
// target clones with different vector ABIs (what -Wpsabi warns about).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace isoterra {
namespace {

using v4d = double __attribute__((vector_size(32)));
using v4l = long long __attribute__((vector_size(32)));
using v4i = int __attribute__((vector_size(16)));

const double kSqrt3 = std::sqrt(3.0);
const double kF2 = 0.5 * (kSqrt3 - 1.0);
const double kG2 = (3.0 - kSqrt3) / 6.0;

// floor() kept in double (the values are whole numbers), through 32-bit conversions the
// hardware has (64-bit ones it lacks before AVX-512). Valid while |v| < 2^31.
__attribute__((always_inline)) inline v4d floor_d(v4d v) {
    const v4d t = __builtin_convertvector(__builtin_convertvector(v, v4i), v4d);
    const v4l below = v < t;
    return (v4d)(((v4l)(t - 1.0) & below) | ((v4l)t & ~below));
}
__attribute__((always_inline)) inline v4d to_d(v4l v) { return __builtin_convertvector(v, v4d); }

__attribute__((always_inline)) inline v4d contribution(v4d t, v4l g, const double* gx, const double* gy, v4d x, v4d y) {
    const v4d px = {gx[g[0]], gx[g[1]], gx[g[2]], gx[g[3]]};
    const v4d py = {gy[g[0]], gy[g[1]], gy[g[2]], gy[g[3]]};
    const v4l keep = t >= 0.0;
    v4d tc = (v4d)((v4l)t & keep);
    tc *= tc;
    return tc * tc * (px * x + py * y);
}

__attribute__((always_inline)) inline v4l lookup(const std::int32_t* perm, v4l idx) {
    return v4l{perm[idx[0]], perm[idx[1]], perm[idx[2]], perm[idx[3]]};
}

__attribute__((always_inline)) inline v4d noise4(const std::int32_t* perm, const double* gx, const double* gy, v4d x, v4d y) {
    const v4d s = (x + y) * kF2;
    const v4d fi = floor_d(x + s), fj = floor_d(y + s);
    const v4d t = (fi + fj) * kG2;
    const v4d x0 = x - (fi - t), y0 = y - (fj - t);
    const v4l i1 = -(x0 > y0), j1 = 1 - i1;
    const v4d x1 = x0 - to_d(i1) + kG2, y1 = y0 - to_d(j1) + kG2;
    const v4d x2 = x0 - 1.0 + 2.0 * kG2, y2 = y0 - 1.0 + 2.0 * kG2;
    const v4i i32 = __builtin_convertvector(fi, v4i) & 255, j32 = __builtin_convertvector(fj, v4i) & 255;
    const v4l ii = {i32[0], i32[1], i32[2], i32[3]}, jj = {j32[0], j32[1], j32[2], j32[3]};
    if (i32[0] == i32[1] && i32[0] == i32[2] && i32[0] == i32[3] && j32[0] == j32[1] && j32[0] == j32[2] && j32[0] == j32[3]) {
        // All four points in one skewed cell (the usual case along a row): the corners'
        // gradients are shared, and the middle corner is one of two per lane.
        const long long a = ii[0], b = jj[0];
        const long long g00 = a + perm[b], g10 = a + 1 + perm[b], g01 = a + perm[b + 1], g11 = a + 1 + perm[b + 1];
        const v4l lower = i1 != 0;  // the (1, 0) corner, else (0, 1)
        const v4d gx1 =
            (v4d)(((v4l)(v4d{gx[g10], gx[g10], gx[g10], gx[g10]}) & lower) | ((v4l)(v4d{gx[g01], gx[g01], gx[g01], gx[g01]}) & ~lower));
        const v4d gy1 =
            (v4d)(((v4l)(v4d{gy[g10], gy[g10], gy[g10], gy[g10]}) & lower) | ((v4l)(v4d{gy[g01], gy[g01], gy[g01], gy[g01]}) & ~lower));
        const auto term = [](v4d t, v4d px, v4d py, v4d x, v4d y) {
            const v4l keep = t >= 0.0;
            v4d tc = (v4d)((v4l)t & keep);
            tc *= tc;
            return tc * tc * (px * x + py * y);
        };
        const v4d n0 =
            term(0.5 - x0 * x0 - y0 * y0, v4d{gx[g00], gx[g00], gx[g00], gx[g00]}, v4d{gy[g00], gy[g00], gy[g00], gy[g00]}, x0, y0);
        const v4d n1 = term(0.5 - x1 * x1 - y1 * y1, gx1, gy1, x1, y1);
        const v4d n2 =
            term(0.5 - x2 * x2 - y2 * y2, v4d{gx[g11], gx[g11], gx[g11], gx[g11]}, v4d{gy[g11], gy[g11], gy[g11], gy[g11]}, x2, y2);
        return 70.0 * (n0 + n1 + n2);
    }
    const v4d n0 = contribution(0.5 - x0 * x0 - y0 * y0, ii + lookup(perm, jj), gx, gy, x0, y0);
    const v4d n1 = contribution(0.5 - x1 * x1 - y1 * y1, ii + i1 + lookup(perm, jj + j1), gx, gy, x1, y1);
    const v4d n2 = contribution(0.5 - x2 * x2 - y2 * y2, ii + 1 + lookup(perm, jj + 1), gx, gy, x2, y2);
    return 70.0 * (n0 + n1 + n2);
}

}  // namespace

ISOTERRA_CLONES
void Simplex2::fbm_batch(const double* xs, const double* ys, double* out, std::size_t count, const FbmShape& shape) const {
    std::size_t n = 0;
    for (; n + 4 <= count; n += 4) {
        v4d x, y;
        std::memcpy(&x, xs + n, sizeof x);
        std::memcpy(&y, ys + n, sizeof y);
        v4d sum = {0.0, 0.0, 0.0, 0.0};
        double a = shape.amplitude;
        for (int o = 0; o < shape.octaves; ++o) {
            sum += noise4(perm32_.data(), grad_x_.data(), grad_y_.data(), x, y) * a;
            x *= shape.lacunarity;
            y *= shape.lacunarity;
            a *= shape.gain;
        }
        std::memcpy(out + n, &sum, sizeof sum);
    }
    for (; n < count; ++n) out[n] = fbm2(*this, xs[n], ys[n], shape);
}

}  // namespace isoterra
