// The fast flavour's arithmetic (FastSimplex3), written once over GCC/Clang vector types of
// any width: every path (AVX-512, AVX2, SSE2, WebAssembly SIMD128) instantiates the same
// operations in the same order, and with no fused multiply-add (the library is built with
// -ffp-contract=off) they round alike: the same bits everywhere. Included by one file per
// instruction set, inside that file's target options; the unnamed namespace gives each its
// own copy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fast_simplex_tables.hpp"

namespace isoterra {
namespace {

template <int N>
struct FastLanes {
    typedef float F __attribute__((vector_size(4 * N)));
    typedef std::uint32_t U __attribute__((vector_size(4 * N)));
    typedef std::int32_t I __attribute__((vector_size(4 * N)));
};

#define ISOTERRA_FAST_INLINE inline __attribute__((always_inline))

// A vector from memory, unaligned, as a value (no copy through the stack).
template <class V, class T>
ISOTERRA_FAST_INLINE V fast_load(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Gradient component `axis` for each lane's hash number g in [0, 32): 0 where g / 8 names
// the axis, else -1 or 1 by bit `axis` of g (fast_gradient_component). At 16 lanes a
// two-table permute; elsewhere from the bits. The values are exact, so the same bits.
template <int N>
ISOTERRA_FAST_INLINE typename FastLanes<N>::F fast_gradient(typename FastLanes<N>::U g, int axis) {
    using F = typename FastLanes<N>::F;
    using U = typename FastLanes<N>::U;
    using I = typename FastLanes<N>::I;
#if defined(__GNUC__) && !defined(__clang__)
    if constexpr (N == 16) {
        F low, high;
        std::memcpy(&low, kFastGradients[axis], sizeof low);
        std::memcpy(&high, kFastGradients[axis] + 16, sizeof high);
        return __builtin_shuffle(low, high, reinterpret_cast<I>(g));
    }
#endif
    const U one = ((g >> axis) << 31) | 0x3f800000u;
    return reinterpret_cast<F>((g >> 3) == static_cast<std::uint32_t>(axis) ? U{} : one);
}

// whole * prime (wrapping) for a skewed cell's whole part, 0 to 6 (the parts lie in [0, 3]):
// at 8 and 16 lanes picked from a table of the first N multiples by one permute, where a
// 32-bit multiply is two slow operations; the same numbers.
template <int N>
ISOTERRA_FAST_INLINE typename FastLanes<N>::U fast_times_prime(typename FastLanes<N>::I whole, std::uint32_t prime) {
    using U = typename FastLanes<N>::U;
#if defined(__GNUC__) && !defined(__clang__)
    if constexpr (N == 8 || N == 16) {
        U multiples;
        for (int l = 0; l < N; ++l) multiples[l] = static_cast<std::uint32_t>(l) * prime;
        return __builtin_shuffle(multiples, reinterpret_cast<U>(whole));
    }
#endif
    return reinterpret_cast<U>(whole) * prime;
}

// `t > 0 ? t : 0` (t never NaN): on x86 one maxps, which returns its second operand unless
// the first is greater: the same value, +0 for -0 included, where GCC makes a compare and a
// blend of the select.
template <int N>
ISOTERRA_FAST_INLINE typename FastLanes<N>::F fast_positive_part(typename FastLanes<N>::F t) {
    using F = typename FastLanes<N>::F;
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
    if constexpr (N == 16) return __builtin_ia32_maxps512_mask(t, F{}, F{}, 0xffff, 4);
    if constexpr (N == 8) return __builtin_ia32_maxps256(t, F{});
    if constexpr (N == 4) return __builtin_ia32_maxps(t, F{});
#endif
    return t > 0.0f ? t : 0.0f;
}

// g * v + c where the product is exact (g is -1, 0 or 1): one rounding either way, so where
// there is a fused multiply-add (the AVX2 and AVX-512 paths) it gives the same bits as the
// multiply and add of the other paths.
template <int N>
ISOTERRA_FAST_INLINE typename FastLanes<N>::F fast_exact_madd(typename FastLanes<N>::F g, typename FastLanes<N>::F v,
                                                              typename FastLanes<N>::F c) {
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
    if constexpr (N == 16) return __builtin_ia32_vfmaddps512_mask(g, v, c, 0xffff, 4);
#if defined(__FMA__)
    if constexpr (N == 8) return __builtin_ia32_vfmaddps256(g, v, c);
#endif
#endif
    return g * v + c;
}

// One corner's contribution: the gradient picked by the hash's top five bits, dotted with
// the offset, times the kernel (0.5 - r^2)^4.
template <int N>
ISOTERRA_FAST_INLINE typename FastLanes<N>::F fast_corner(typename FastLanes<N>::F x, typename FastLanes<N>::F y,
                                                          typename FastLanes<N>::F z, typename FastLanes<N>::U h) {
    using F = typename FastLanes<N>::F;
    using U = typename FastLanes<N>::U;
    const U g = h >> 27;
    // ((gx x + gy y) + gz z), each product exact.
    const F dot = fast_exact_madd<N>(fast_gradient<N>(g, 2), z, fast_exact_madd<N>(fast_gradient<N>(g, 0), x, fast_gradient<N>(g, 1) * y));
    F t = fast_positive_part<N>(0.5f - ((x * x + y * y) + z * z));
    t = t * t;
    return (t * t) * dot;
}

// The noise at N points, from the parts of their coordinates (fast_simplex_tables.hpp):
// per x, the float part fx and the whole part's terms of the corner hash (xi, xj, xk); per
// row, fy, fz and theirs (ri, rj, rk, the seed in rk).
template <int N>
ISOTERRA_FAST_INLINE typename FastLanes<N>::F fast_simplex3(typename FastLanes<N>::U xi, typename FastLanes<N>::U xj,
                                                            typename FastLanes<N>::U xk, typename FastLanes<N>::F fx,
                                                            typename FastLanes<N>::U ri, typename FastLanes<N>::U rj,
                                                            typename FastLanes<N>::U rk, typename FastLanes<N>::F fy,
                                                            typename FastLanes<N>::F fz) {
    using F = typename FastLanes<N>::F;
    using U = typename FastLanes<N>::U;
    using I = typename FastLanes<N>::I;
    // Skew: the point (3u + fx, ...) has skew sum u + v + w + (fx + fy + fz) / 3; the whole
    // part moves every skewed coordinate by a whole number, so only the parts need float.
    const F s = (fx + (fy + fz)) * kFastF3;
    // fx + s >= 0, so truncation is the floor.
    const I ai = __builtin_convertvector(fx + s, I), bi = __builtin_convertvector(fy + s, I), ci = __builtin_convertvector(fz + s, I);
    const F a = __builtin_convertvector(ai, F), b = __builtin_convertvector(bi, F), c = __builtin_convertvector(ci, F);
    const F t = ((a + b) + c) * kFastG3;
    const F x0 = (fx - a) + t, y0 = (fy - b) + t, z0 = (fz - c) + t;
    // The skewed cell (4u + v + w + a, u + 4v + w + b, u + v + 4w + c) times the hash's
    // primes, wrapping: the whole parts' terms come premultiplied.
    const U ip = (xi + ri) + fast_times_prime<N>(ai, kFastPrimeX);
    const U jp = (xj + rj) + fast_times_prime<N>(bi, kFastPrimeY);
    const U kp = (xk + rk) + fast_times_prime<N>(ci, kFastPrimeZ);
    // The simplex: which corners follow the first, from the order of x0, y0, z0.
    const I xy = x0 >= y0, yz = y0 >= z0, xz = x0 >= z0;
    const I i1 = xy & xz, j1 = ~xy & yz, k1 = ~(yz | xz);
    const I i2 = xy | xz, j2 = ~xy | yz, k2 = ~(yz & xz);
    // The corners one after the other, each hashed arithmetically: (I px) ^ (J py) ^ (K pz +
    // seed), times an odd constant. (In this order few vectors are live at once: at 16 lanes
    // the four corners' offsets and hashes worked out first spilled to the stack.)
    const U px = U{} + kFastPrimeX, py = U{} + kFastPrimeY, pz = U{} + kFastPrimeZ;
    const F n0 = fast_corner<N>(x0, y0, z0, ((ip ^ jp) ^ kp) * kFastHashMultiplier);
    const F g1 = F{} + kFastG3, g1m = F{} + (kFastG3 - 1.0f);
    const F n1 = fast_corner<N>(x0 + (i1 ? g1m : g1), y0 + (j1 ? g1m : g1), z0 + (k1 ? g1m : g1),
                                (((i1 ? ip + px : ip) ^ (j1 ? jp + py : jp)) ^ (k1 ? kp + pz : kp)) * kFastHashMultiplier);
    const F n01 = n0 + n1;
    const F g2 = F{} + kFastG3x2, g2m = F{} + (kFastG3x2 - 1.0f);
    const F n2 = fast_corner<N>(x0 + (i2 ? g2m : g2), y0 + (j2 ? g2m : g2), z0 + (k2 ? g2m : g2),
                                (((i2 ? ip + px : ip) ^ (j2 ? jp + py : jp)) ^ (k2 ? kp + pz : kp)) * kFastHashMultiplier);
    const F n3 = fast_corner<N>(x0 + kFastG3x3m1, y0 + kFastG3x3m1, z0 + kFastG3x3m1,
                                (((ip + kFastPrimeX) ^ (jp + kFastPrimeY)) ^ (kp + kFastPrimeZ)) * kFastHashMultiplier);
    return (n01 + (n2 + n3)) * kFastScale;
}

// The noise at N points whose parts were gathered lane by lane: hash terms (x's three, then
// the row's three) and float parts (x, y, z).
template <int N>
ISOTERRA_FAST_INLINE typename FastLanes<N>::F fast_simplex3_lanes(const std::uint32_t (&terms)[6][N], const float (&parts)[3][N]) {
    using F = typename FastLanes<N>::F;
    using U = typename FastLanes<N>::U;
    return fast_simplex3<N>(fast_load<U>(terms[0]), fast_load<U>(terms[1]), fast_load<U>(terms[2]), fast_load<F>(parts[0]),
                            fast_load<U>(terms[3]), fast_load<U>(terms[4]), fast_load<U>(terms[5]), fast_load<F>(parts[1]),
                            fast_load<F>(parts[2]));
}

// Every group of N consecutive points of a lattice (x fastest), all octaves summed in
// registers. Rows at least N long take their x parts by one load each (the tables run on past
// a row's end into the next row's start) and at most two rows' parts; shorter rows fill lanes
// one by one. The last group overlaps the one before it; fewer than N points repeat the last.
template <int N, int kOctaves>
ISOTERRA_FAST_INLINE void fast_lattice_run(const FastLatticeTables& t, float* out) {
    using F = typename FastLanes<N>::F;
    using U = typename FastLanes<N>::U;
    using I = typename FastLanes<N>::I;
    const int nx = t.nx;
    const int octaves = kOctaves > 0 ? kOctaves : t.octaves.count;
    const std::size_t total = t.rows * static_cast<std::size_t>(nx);
    const bool short_lattice = total < N;
    I lane{};
    for (int l = 0; l < N; ++l) lane[l] = l;
    std::size_t row = 0;
    int i0 = 0;
    for (std::size_t n0 = 0; n0 < total; n0 += N, i0 += N) {
        while (i0 >= nx) i0 -= nx, ++row;
        std::size_t n = n0;
        if (n0 + N > total && !short_lattice) {
            n = total - N;
            row = n / nx;
            i0 = static_cast<int>(n - row * nx);
        }
        F sum{};
        for (int o = 0; o < octaves; ++o) {
            const std::size_t xo = static_cast<std::size_t>(o) * t.x_stride;
            const FastRowParts* rs = t.rows_yz.data() + static_cast<std::size_t>(o) * t.rows;
            F noise;
            if (nx >= N && !short_lattice) {
                const U xi = fast_load<U>(t.x_hash[0].data() + xo + i0), xj = fast_load<U>(t.x_hash[1].data() + xo + i0),
                        xk = fast_load<U>(t.x_hash[2].data() + xo + i0);
                const F fx = fast_load<F>(t.x_part.data() + xo + i0);
                const FastRowParts& p = rs[row];
                if (i0 + N <= nx) {
                    noise = fast_simplex3<N>(xi, xj, xk, fx, U{} + p.hash[0], U{} + p.hash[1], U{} + p.hash[2], F{} + p.fy, F{} + p.fz);
                } else {
                    // Lanes past the row's end take the next row's parts.
                    const I next = lane + i0 >= nx;
                    const FastRowParts& q = rs[row + 1 < t.rows ? row + 1 : row];
                    const auto pick_u = [&](int a) { return next ? U{} + q.hash[a] : U{} + p.hash[a]; };
                    noise = fast_simplex3<N>(xi, xj, xk, fx, pick_u(0), pick_u(1), pick_u(2), next ? F{} + q.fy : F{} + p.fy,
                                             next ? F{} + q.fz : F{} + p.fz);
                }
            } else {
                std::uint32_t terms[6][N];
                float parts[3][N];
                for (int l = 0; l < N; ++l) {
                    const std::size_t m = std::min(n + l, total - 1), r = m / nx, i = xo + (m - r * nx);
                    for (int a = 0; a < 3; ++a) terms[a][l] = t.x_hash[a][i], terms[3 + a][l] = rs[r].hash[a];
                    parts[0][l] = t.x_part[i], parts[1][l] = rs[r].fy, parts[2][l] = rs[r].fz;
                }
                noise = fast_simplex3_lanes<N>(terms, parts);
            }
            // (A lone octave of amplitude 1, plain noise, is the noise itself.)
            if (kOctaves == 1 && t.octaves.amplitude[0] == 1.0f) sum = noise;
            else sum = o == 0 ? noise * t.octaves.amplitude[0] : sum + noise * t.octaves.amplitude[o];
        }
        if (short_lattice) std::memcpy(out, &sum, sizeof(float) * total);
        else std::memcpy(out + n, &sum, sizeof sum);
    }
}

// N points anywhere (count of them, the last repeated to fill a group), each split on its
// own: the arithmetic of the lattice path lane by lane, so the same bits.
template <int N>
inline void fast_points(const double* const xyz[3], std::size_t count, const FastOctaves& octaves, float* out) {
    using F = typename FastLanes<N>::F;
    for (std::size_t n = 0; n < count; n += N) {
        F sum{};
        for (int o = 0; o < octaves.count; ++o) {
            std::uint32_t terms[6][N];
            float parts[3][N];
            for (int l = 0; l < N; ++l) {
                const std::size_t m = std::min(n + l, count - 1);
                std::uint32_t u, v, w;
                split_fast_coordinate(xyz[0][m] * octaves.frequency[o], u, parts[0][l]);
                split_fast_coordinate(xyz[1][m] * octaves.frequency[o], v, parts[1][l]);
                split_fast_coordinate(xyz[2][m] * octaves.frequency[o], w, parts[2][l]);
                const FastHashTerms x = fast_x_terms(u), r = fast_row_terms(v, w, octaves.seed + static_cast<std::uint32_t>(o));
                for (int a = 0; a < 3; ++a) terms[a][l] = x.term[a], terms[3 + a][l] = r.term[a];
            }
            const F noise = fast_simplex3_lanes<N>(terms, parts);
            sum = o == 0 ? noise * octaves.amplitude[0] : sum + noise * octaves.amplitude[o];
        }
        std::memcpy(out + n, &sum, sizeof(float) * std::min<std::size_t>(N, count - n));
    }
}

// A lattice's noise (one octave) or fBm at N lanes.
template <int N>
inline void fast_lattice_groups(const FastLatticeTables& t, float* out) {
    if (t.octaves.count == 1) fast_lattice_run<N, 1>(t, out);
    else fast_lattice_run<N, 0>(t, out);
}

#undef ISOTERRA_FAST_INLINE

}  // namespace
}  // namespace isoterra
