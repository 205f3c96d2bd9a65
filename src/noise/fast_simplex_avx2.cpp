// The fast flavour's kernel (fast_simplex_kernel.hpp) at 8 lanes, compiled for AVX2 and FMA (the
// noise path "avx2" asks the CPU for both).
#include <algorithm>
#include <cstring>

#include "fast_simplex_tables.hpp"

#ifdef ISOTERRA_HAVE_SIMD_PATHS
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#include "fast_simplex_kernel.hpp"

void isoterra::fast_lattice_avx2(const FastLatticeTables& tables, float* out) { fast_lattice_groups<8>(tables, out); }

#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif
