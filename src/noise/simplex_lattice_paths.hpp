// The instruction-set paths of Simplex3::lattice_fast, each the same arithmetic (same bits).
#pragma once

#include <cstdint>

#include "isoterra/noise.hpp"

namespace isoterra {

/// Eight points at a time (simplex_avx2.cpp); rows of at least 8. Call only where the CPU has AVX2.
void lattice_avx2(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out);
/// Sixteen at a time (simplex_avx512.cpp); rows of at least 16. Call only where the CPU has
/// AVX-512 F, DQ, VL and BW.
void lattice_avx512(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out);

}  // namespace isoterra
