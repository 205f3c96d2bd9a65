// The fast flavour's constants and a lattice's coordinates split for its kernel, shared by
// the instruction-set paths (fast_simplex.cpp builds the tables, fast_simplex_kernel.hpp runs
// them).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "isoterra/noise.hpp"
#include "simplex_lattice_paths.hpp"

namespace isoterra {

inline constexpr float kFastF3 = 1.0f / 3.0f;
inline constexpr float kFastG3 = 1.0f / 6.0f;
inline constexpr float kFastG3x2 = 1.0f / 3.0f;
inline constexpr float kFastG3x3m1 = -0.5f;  // 3 G3 - 1, exact
// Hash primes and multiplier (the ones FastNoise2 uses; any large odd numbers would do).
inline constexpr std::uint32_t kFastPrimeX = 501125321u;
inline constexpr std::uint32_t kFastPrimeY = 1136930381u;
inline constexpr std::uint32_t kFastPrimeZ = 1720413743u;
inline constexpr std::uint32_t kFastHashMultiplier = 0x27d4eb2du;
// The gradients, by hash number g in [0, 32): g / 8 names an axis whose component is 0 (3:
// none), bits 0, 1, 2 of g make x, y, z negative. The twelve cube edges twice each and the
// eight diagonals once: the cube's symmetries, so no direction is favoured.
constexpr float fast_gradient_component(int g, int axis) { return g >> 3 == axis ? 0.0f : (g >> axis & 1) ? -1.0f : 1.0f; }
struct FastGradientTable {
    float component[3][32];
    constexpr FastGradientTable() : component{} {
        for (int axis = 0; axis < 3; ++axis)
            for (int g = 0; g < 32; ++g) component[axis][g] = fast_gradient_component(g, axis);
    }
    constexpr const float* operator[](int axis) const { return component[axis]; }
};
inline constexpr FastGradientTable kFastGradients{};
// Brings the largest |sum of the four corners| found by search, 0.0160891, to 0.9975.
inline constexpr float kFastScale = 62.0f;
// The same for 2D (FastSimplex2): the largest |sum of the three corners| found, 0.0100802,
// to 0.998.
inline constexpr float kFastScale2 = 99.0f;

/// One coordinate as 3 whole + part: whole = floor(c / 3) (wrapped to 32 bits), part in [0, 3].
inline void split_fast_coordinate(double c, std::uint32_t& whole, float& part) {
    double u = std::floor(c / 3.0);
    if (c - 3.0 * u < 0.0) u -= 1.0;  // c / 3 rounded up to a whole number
    whole = static_cast<std::uint32_t>(static_cast<std::int64_t>(u));
    part = static_cast<float>(c - 3.0 * u);
}

/// A coordinate's terms of the corner hash (see FastRowParts).
struct FastHashTerms {
    std::uint32_t term[3];
};
inline FastHashTerms fast_x_terms(std::uint32_t u) { return {{4 * u * kFastPrimeX, u * kFastPrimeY, u * kFastPrimeZ}}; }
inline FastHashTerms fast_row_terms(std::uint32_t v, std::uint32_t w, std::uint32_t seed) {
    return {{(v + w) * kFastPrimeX, (4 * v + w) * kFastPrimeY, (v + 4 * w) * kFastPrimeZ + seed}};
}

/// The octaves of an fBm: frequency (lacunarity^o, in double), amplitude (float) and the
/// first octave's seed (octave o has seed + o).
struct FastOctaves {
    int count = 1;
    std::vector<double> frequency;
    std::vector<float> amplitude;
    std::uint32_t seed = 0;
};
inline FastOctaves fast_octaves(const FbmShape& shape, std::uint32_t seed) {
    FastOctaves o;
    o.count = std::max(shape.octaves, 1);
    o.seed = seed;
    double frequency = 1.0, amplitude = shape.amplitude;
    for (int i = 0; i < o.count; ++i, frequency *= shape.lacunarity, amplitude *= shape.gain) {
        o.frequency.push_back(frequency);
        o.amplitude.push_back(static_cast<float>(amplitude));
    }
    return o;
}

/// A row's (y, z) parts: the float parts, and the row's terms of the corner hash. With whole
/// parts v and w, the skewed cell's whole part is (4u + v + w, u + 4v + w, u + v + 4w), so the
/// row holds ((v + w) px, (4v + w) py, (v + 4w) pz + seed) and x holds (4u px, u py, u pz).
struct FastRowParts {
    std::uint32_t hash[3];
    float fy, fz;
};

/// A lattice's coordinates split per octave: x parts (x_stride = nx + 16 each, running on past
/// the row's end into the next row's start) and each row's parts.
struct FastLatticeTables {
    int nx = 0;
    std::size_t rows = 0;
    FastOctaves octaves;
    std::size_t x_stride = 0;
    std::vector<std::uint32_t> x_hash[3];
    std::vector<float> x_part;
    std::vector<FastRowParts> rows_yz;
};

#ifdef ISOTERRA_HAVE_SIMD_PATHS
/// The paths by instruction set (fast_simplex_avx2.cpp, fast_simplex_avx512.cpp); at least
/// 8 (16) points. Call only where the CPU has AVX2 (AVX-512 F, DQ, VL, BW).
void fast_lattice_avx2(const FastLatticeTables& tables, float* out);
void fast_lattice_avx512(const FastLatticeTables& tables, float* out);
#endif

}  // namespace isoterra
