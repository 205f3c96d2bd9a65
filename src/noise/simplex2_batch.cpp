// Simplex 2D and its fBm over batches of points, bit-identical to Simplex2::operator() and
// fbm2(): the same IEEE operations in the same order, several points at a time in GCC vector
// types with the branches as masks: eight where the noise may use AVX-512 (noise_path()),
// else four (an AVX2 clone picked at run time where the CPU has it).
#include <cmath>
#include <cstring>

#include "simd/target_clones.hpp"
#include "isoterra/noise.hpp"
#include "simplex_lattice_paths.hpp"

// The vector helpers are always inlined: a helper left out of line would be called across
// target clones with different vector ABIs (what -Wpsabi warns about).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace isoterra {
namespace {

// N lanes of doubles, 64-bit masks and 32-bit integers.
template <int N>
struct LaneTypes;
template <>
struct LaneTypes<4> {
    using d = double __attribute__((vector_size(32)));
    using l = long long __attribute__((vector_size(32)));
    using i = int __attribute__((vector_size(16)));
};
template <>
struct LaneTypes<8> {
    using d = double __attribute__((vector_size(64)));
    using l = long long __attribute__((vector_size(64)));
    using i = int __attribute__((vector_size(32)));
};
template <int N>
using vd = typename LaneTypes<N>::d;
template <int N>
using vl = typename LaneTypes<N>::l;
template <int N>
using vi = typename LaneTypes<N>::i;

const double kSqrt3 = std::sqrt(3.0);
const double kF2 = 0.5 * (kSqrt3 - 1.0);
const double kG2 = (3.0 - kSqrt3) / 6.0;

template <int N>
__attribute__((always_inline)) inline vd<N> splat(double v) {
    return vd<N>{} + v;
}

// floor() kept in double (the values are whole numbers), through 32-bit conversions the
// hardware has (64-bit ones it lacks before AVX-512). Valid while |v| < 2^31.
template <int N>
__attribute__((always_inline)) inline vd<N> floor_d(vd<N> v) {
    const vd<N> t = __builtin_convertvector(__builtin_convertvector(v, vi<N>), vd<N>);
    const vl<N> below = v < t;
    return (vd<N>)(((vl<N>)(t - 1.0) & below) | ((vl<N>)t & ~below));
}

template <int N>
__attribute__((always_inline)) inline vd<N> term(vd<N> t, vd<N> px, vd<N> py, vd<N> x, vd<N> y) {
    const vl<N> keep = t >= 0.0;
    vd<N> tc = (vd<N>)((vl<N>)t & keep);
    tc *= tc;
    return tc * tc * (px * x + py * y);
}

// A corner's term with each lane's gradient looked up from its own index.
template <int N>
__attribute__((always_inline)) inline vd<N> gathered(vd<N> t, vl<N> g, const double* gx, const double* gy, vd<N> x, vd<N> y) {
    vd<N> px, py;
    for (int q = 0; q < N; ++q) px[q] = gx[g[q]], py[q] = gy[g[q]];
    return term<N>(t, px, py, x, y);
}

template <int N>
__attribute__((always_inline)) inline vl<N> lookup(const std::int32_t* perm, vl<N> idx) {
    vl<N> r;
    for (int q = 0; q < N; ++q) r[q] = perm[idx[q]];
    return r;
}

template <int N>
__attribute__((always_inline)) inline vd<N> noise_lanes(const std::int32_t* perm, const double* gx, const double* gy, vd<N> x, vd<N> y) {
    const vd<N> s = (x + y) * kF2;
    const vd<N> fi = floor_d<N>(x + s), fj = floor_d<N>(y + s);
    const vd<N> t = (fi + fj) * kG2;
    const vd<N> x0 = x - (fi - t), y0 = y - (fj - t);
    const vl<N> i1 = -(x0 > y0), j1 = 1 - i1;
    const vd<N> x1 = x0 - __builtin_convertvector(i1, vd<N>) + kG2, y1 = y0 - __builtin_convertvector(j1, vd<N>) + kG2;
    const vd<N> x2 = x0 - 1.0 + 2.0 * kG2, y2 = y0 - 1.0 + 2.0 * kG2;
    const vi<N> i32 = __builtin_convertvector(fi, vi<N>) & 255, j32 = __builtin_convertvector(fj, vi<N>) & 255;
    const vl<N> ii = __builtin_convertvector(i32, vl<N>), jj = __builtin_convertvector(j32, vl<N>);
    bool one_cell = true;
    for (int q = 1; q < N; ++q) one_cell = one_cell && i32[q] == i32[0] && j32[q] == j32[0];
    if (one_cell) {
        // All the points in one skewed cell (the usual case along a row): the corners'
        // gradients are shared, and the middle corner is one of two per lane.
        const long long a = ii[0], b = jj[0];
        const long long g00 = a + perm[b], g10 = a + 1 + perm[b], g01 = a + perm[b + 1], g11 = a + 1 + perm[b + 1];
        const vl<N> lower = i1 != 0;  // the (1, 0) corner, else (0, 1)
        const vd<N> gx1 = (vd<N>)(((vl<N>)splat<N>(gx[g10]) & lower) | ((vl<N>)splat<N>(gx[g01]) & ~lower));
        const vd<N> gy1 = (vd<N>)(((vl<N>)splat<N>(gy[g10]) & lower) | ((vl<N>)splat<N>(gy[g01]) & ~lower));
        const vd<N> n0 = term<N>(0.5 - x0 * x0 - y0 * y0, splat<N>(gx[g00]), splat<N>(gy[g00]), x0, y0);
        const vd<N> n1 = term<N>(0.5 - x1 * x1 - y1 * y1, gx1, gy1, x1, y1);
        const vd<N> n2 = term<N>(0.5 - x2 * x2 - y2 * y2, splat<N>(gx[g11]), splat<N>(gy[g11]), x2, y2);
        return 70.0 * (n0 + n1 + n2);
    }
    const vd<N> n0 = gathered<N>(0.5 - x0 * x0 - y0 * y0, ii + lookup<N>(perm, jj), gx, gy, x0, y0);
    const vd<N> n1 = gathered<N>(0.5 - x1 * x1 - y1 * y1, ii + i1 + lookup<N>(perm, jj + j1), gx, gy, x1, y1);
    const vd<N> n2 = gathered<N>(0.5 - x2 * x2 - y2 * y2, ii + 1 + lookup<N>(perm, jj + 1), gx, gy, x2, y2);
    return 70.0 * (n0 + n1 + n2);
}

// The fBm of the points N at a time; returns how many it did (the rest go one by one).
template <int N>
__attribute__((always_inline)) inline std::size_t fbm_lanes(const std::int32_t* perm, const double* gx, const double* gy, const double* xs,
                                                            const double* ys, double* out, std::size_t count, const FbmShape& shape) {
    std::size_t n = 0;
    for (; n + N <= count; n += N) {
        vd<N> x, y;
        std::memcpy(&x, xs + n, sizeof x);
        std::memcpy(&y, ys + n, sizeof y);
        vd<N> sum = {};
        double a = shape.amplitude;
        for (int o = 0; o < shape.octaves; ++o) {
            sum += noise_lanes<N>(perm, gx, gy, x, y) * a;
            x *= shape.lacunarity;
            y *= shape.lacunarity;
            a *= shape.gain;
        }
        std::memcpy(out + n, &sum, sizeof sum);
    }
    return n;
}

ISOTERRA_CLONES
std::size_t fbm_four(const std::int32_t* perm, const double* gx, const double* gy, const double* xs, const double* ys, double* out,
                     std::size_t count, const FbmShape& shape) {
    return fbm_lanes<4>(perm, gx, gy, xs, ys, out, count, shape);
}

#ifdef ISOTERRA_HAVE_SIMD_PATHS
// Eight lanes a vector where the noise may use AVX-512 (noise_path()).
__attribute__((target("arch=x86-64-v4"))) std::size_t fbm_eight(const std::int32_t* perm, const double* gx, const double* gy,
                                                                const double* xs, const double* ys, double* out, std::size_t count,
                                                                const FbmShape& shape) {
    return fbm_lanes<8>(perm, gx, gy, xs, ys, out, count, shape);
}
#endif

}  // namespace

void Simplex2::fbm_batch(const double* xs, const double* ys, double* out, std::size_t count, const FbmShape& shape) const {
    std::size_t n = 0;
#ifdef ISOTERRA_HAVE_SIMD_PATHS
    if (noise_path() == NoisePath::avx512) n = fbm_eight(perm32_.data(), grad_x_.data(), grad_y_.data(), xs, ys, out, count, shape);
#endif
    n += fbm_four(perm32_.data(), grad_x_.data(), grad_y_.data(), xs + n, ys + n, out + n, count - n, shape);
    for (; n < count; ++n) out[n] = fbm2(*this, xs[n], ys[n], shape);
}

}  // namespace isoterra
