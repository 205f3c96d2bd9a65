// The instruction-set paths of Simplex3::lattice_fast, each the same arithmetic (same bits).
#pragma once

#include <cstdint>

#include "isoterra/noise.hpp"

// x86-64 with GCC or Clang has the AVX2 and AVX-512 paths (picked at run time); the
// WebAssembly build and other targets have the one-point path only.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__EMSCRIPTEN__)
#define ISOTERRA_HAVE_SIMD_PATHS 1
#endif

namespace isoterra {

/// The hashes of skewed cell (i, j, k)'s eight corners (i, j, k taken & 255; pair is the
/// 257 x 257 table of perm[j + perm[k]]): corner (di, dj, dk) at out[di + 2 dj + 4 dk].
inline void cell_corner_hashes(const std::int32_t* pair, const std::int32_t* hash, int i, int j, int k, std::int32_t* out) {
    for (int n = 0; n < 8; ++n) out[n] = hash[i + (n & 1) + pair[(j + (n >> 1 & 1)) * 257 + k + (n >> 2 & 1)]];
}

/// Eight points at a time (simplex_avx2.cpp); rows of at least 8. Call only where the CPU has AVX2.
void lattice_avx2(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out);
/// Sixteen at a time (simplex_avx512.cpp); rows of at least 16. Call only where the CPU has
/// AVX-512 F, DQ, VL and BW.
void lattice_avx512(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out);

}  // namespace isoterra
