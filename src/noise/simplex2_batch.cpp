// Simplex 2D and its fBm over batches of points, bit-identical to Simplex2::operator() and
// fbm2(): the same IEEE operations in the same order, four points at a time in GCC vector
// types with the branches as masks. An AVX2 clone is picked at run time where the CPU has it.
#include <cmath>
#include <cstring>

#include "target_clones.hpp"
#include "isoterra/noise.hpp"

// The vector helpers are always inlined: a helper left out of line would be called across
// target clones with different vector ABIs (what -Wpsabi warns about).
#pragma GCC diagnostic ignored "-Wpsabi"


namespace isoterra {
namespace {

using v4d = double __attribute__((vector_size(32)));
using v4l = long long __attribute__((vector_size(32)));

const double kSqrt3 = std::sqrt(3.0);
const double kF2 = 0.5 * (kSqrt3 - 1.0);
const double kG2 = (3.0 - kSqrt3) / 6.0;

__attribute__((always_inline)) inline v4l floor_l(v4d v) {
    const v4l t = __builtin_convertvector(v, v4l);
    return t + (v < __builtin_convertvector(t, v4d));
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
    const v4l i = floor_l(x + s), j = floor_l(y + s);
    const v4d t = (to_d(i) + to_d(j)) * kG2;
    const v4d x0 = x - (to_d(i) - t), y0 = y - (to_d(j) - t);
    const v4l i1 = -(x0 > y0), j1 = 1 - i1;
    const v4d x1 = x0 - to_d(i1) + kG2, y1 = y0 - to_d(j1) + kG2;
    const v4d x2 = x0 - 1.0 + 2.0 * kG2, y2 = y0 - 1.0 + 2.0 * kG2;
    const v4l ii = i & 255, jj = j & 255;
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
