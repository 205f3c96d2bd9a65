// FastSimplex2, the fast flavour's 2D noise: skew and unskew in double (2D's skew factor is
// irrational, so the 3D flavour's split into whole and float parts does not carry over), the
// rest in float with the arithmetic hash; eight points at a time over GCC/Clang vector types,
// cloned for AVX-512 and AVX2 and compiled once for other CPUs and WebAssembly: the same
// operations everywhere, so the same bits.
#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"  // the four-lane doubles of inline helpers, without AVX
#endif

#include "fast_simplex_tables.hpp"
#include "isoterra/noise.hpp"
#include "simd/target_clones.hpp"

namespace isoterra {
namespace {

constexpr int kLanes = 8;
typedef double D __attribute__((vector_size(8 * kLanes)));
typedef std::int64_t L __attribute__((vector_size(8 * kLanes)));
typedef float F __attribute__((vector_size(4 * kLanes)));
typedef std::int32_t I __attribute__((vector_size(4 * kLanes)));
typedef std::uint32_t U __attribute__((vector_size(4 * kLanes)));

constexpr double kF2 = 0.36602540378443864676;  // (sqrt(3) - 1) / 2
constexpr double kG2 = 0.21132486540518711775;  // (3 - sqrt(3)) / 6
constexpr float kG2f = static_cast<float>(kG2);
constexpr float kDiagonal = 0.70710678f;  // the diagonal gradients' components, unit length

// floor by the 1.5 * 2^52 trick (adds and compares only, so every instruction set vectorises
// it), for |v| below 2^51; and the floor's low 32 bits, from the same sum's mantissa.
constexpr double kMagic = 6755399441055744.0;
__attribute__((always_inline)) inline D floor_of(D v) {
    const D r = (v + kMagic) - kMagic;  // v rounded to the nearest whole number
    return r - (r > v ? D{} + 1.0 : D{});
}
__attribute__((always_inline)) inline U low_bits(D whole) { return __builtin_convertvector(reinterpret_cast<L>(whole + kMagic), U); }

// A corner: gradient from the hash's top three bits g (g & 4: an axis, x if g & 2 is clear,
// else y; otherwise a diagonal; bit 0 makes the first component negative, bit 1 the second
// of a diagonal), dotted with the offset, times (0.5 - r^2)^4.
__attribute__((always_inline)) inline F corner(F x, F y, U h) {
    const U g = h >> 29;
    const I axis = reinterpret_cast<I>((g & 4u) != 0u), second = reinterpret_cast<I>((g & 2u) != 0u);
    const F s0 = reinterpret_cast<F>(((g & 1u) << 31) | reinterpret_cast<U>(F{} + 1.0f));
    const F s1 = reinterpret_cast<F>(((g & 2u) << 30) | reinterpret_cast<U>(F{} + 1.0f));
    const F gx = axis ? (second ? F{} : s0) : s0 * kDiagonal;
    const F gy = axis ? (second ? s0 : F{}) : s1 * kDiagonal;
    const F dot = gx * x + gy * y;
    F t = 0.5f - (x * x + y * y);
    t = t > 0.0f ? t : 0.0f;
    t = t * t;
    return (t * t) * dot;
}

__attribute__((always_inline)) inline F noise_lanes(D x, D y, std::uint32_t seed) {
    const D s = (x + y) * kF2;
    const D fi = floor_of(x + s), fj = floor_of(y + s);
    const D t = (fi + fj) * kG2;
    const D dx = x - (fi - t), dy = y - (fj - t);
    const F x0 = __builtin_convertvector(dx, F), y0 = __builtin_convertvector(dy, F);
    const I first_x = __builtin_convertvector(dx > dy, I);  // the second corner steps along x
    const F x1 = x0 + (first_x ? F{} + (kG2f - 1.0f) : F{} + kG2f), y1 = y0 + (first_x ? F{} + kG2f : F{} + (kG2f - 1.0f));
    const F x2 = x0 + (2.0f * kG2f - 1.0f), y2 = y0 + (2.0f * kG2f - 1.0f);
    const U ip = low_bits(fi) * kFastPrimeX;
    const U jp = low_bits(fj) * kFastPrimeY + seed;
    const U zero{}, px = zero + kFastPrimeX, py = zero + kFastPrimeY;
    const U h0 = (ip ^ jp) * kFastHashMultiplier;
    const U h1 = ((ip + (first_x ? px : zero)) ^ (jp + (first_x ? zero : py))) * kFastHashMultiplier;
    const U h2 = ((ip + px) ^ (jp + py)) * kFastHashMultiplier;
    return ((corner(x0, y0, h0) + corner(x1, y1, h1)) + corner(x2, y2, h2)) * kFastScale2;
}

}  // namespace

// Per corner |gradient of t^4 (g . d)| <= |g| (t^4 + 8 t^3 r^2), |g| <= 1; the sum over a
// simplex's three corners is at most 0.1322 on a 1500^2 grid of the cell, 0.135 with the
// grid's spacing allowed for (tests/noise/fast_simplex_test.cpp checks finite differences
// against it); times the scale, 99.
const double FastSimplex2::kLipschitz = 0.135 * 99.0;

// AVX-512, AVX2 and baseline clones of the same vector code: the same bits.
ISOTERRA_CLONES_WIDE void FastSimplex2::fbm_points(const double* x, const double* y, std::size_t count, const FbmShape& shape,
                                                   float* out) const {
    const FastOctaves octaves = fast_octaves(shape, seed_);
    for (std::size_t n = 0; n < count; n += kLanes) {
        D px, py;
        for (int l = 0; l < kLanes; ++l) {
            const std::size_t m = std::min(n + l, count - 1);
            px[l] = x[m], py[l] = y[m];
        }
        F sum{};
        for (int o = 0; o < octaves.count; ++o) {
            const F v = noise_lanes(px * octaves.frequency[o], py * octaves.frequency[o], octaves.seed + static_cast<std::uint32_t>(o));
            sum = o == 0 ? v * octaves.amplitude[0] : sum + v * octaves.amplitude[o];
        }
        std::memcpy(out + n, &sum, sizeof(float) * std::min<std::size_t>(kLanes, count - n));
    }
}

float FastSimplex2::fbm(double x, double y, const FbmShape& shape) const {
    float out = 0.0f;
    fbm_points(&x, &y, 1, shape, &out);
    return out;
}

float FastSimplex2::operator()(double x, double y) const { return fbm(x, y, FbmShape{1, 2.0, 0.5, 1.0}); }

}  // namespace isoterra
