// ISOTERRA_CLONES: build a function for AVX2 and for the baseline, and pick one at load
// time (GCC target_clones, an ifunc). Off where that does not exist (other compilers, the
// WebAssembly build) and under sanitizers, whose runtimes are not ready when ifunc
// resolvers run (define ISOTERRA_NO_TARGET_CLONES).
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__EMSCRIPTEN__) && !defined(ISOTERRA_NO_TARGET_CLONES)
#define ISOTERRA_CLONES __attribute__((target_clones("avx2", "default")))
// The same with an AVX-512 clone (x86-64-v4: F, BW, CD, DQ, VL) first.
#define ISOTERRA_CLONES_WIDE __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define ISOTERRA_CLONES
#define ISOTERRA_CLONES_WIDE
#endif
