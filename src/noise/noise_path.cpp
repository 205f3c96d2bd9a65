// Which instruction set the lattice noise uses: the widest the CPU has, at most a cap set
// from ISOTERRA_NOISE_PATH at start-up or by limit_noise_path().
#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "isoterra/noise.hpp"
#include "simplex_lattice_paths.hpp"

namespace isoterra {
namespace {

NoisePath widest_on_this_cpu() {
#ifdef ISOTERRA_HAVE_SIMD_PATHS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw"))
        return NoisePath::avx512;
    // (Every CPU with AVX2 here has FMA too; the fast flavour's AVX2 kernel uses it.)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return NoisePath::avx2;
#endif
    return NoisePath::baseline;
}

// No cap when unset or unknown (the program refuses an unknown name before it starts).
NoisePath cap_from_environment() {
    const char* v = std::getenv("ISOTERRA_NOISE_PATH");
    return (v ? noise_path_named(v) : std::nullopt).value_or(NoisePath::avx512);
}

std::atomic<int>& cap() {
    static std::atomic<int> c{static_cast<int>(cap_from_environment())};
    return c;
}

}  // namespace

NoisePath noise_path() {
    static const NoisePath widest = widest_on_this_cpu();
    return static_cast<NoisePath>(std::min(static_cast<int>(widest), cap().load(std::memory_order_relaxed)));
}

void limit_noise_path(NoisePath c) { cap().store(static_cast<int>(c), std::memory_order_relaxed); }

const char* noise_path_name(NoisePath path) {
    switch (path) {
        case NoisePath::avx512: return "avx512";
        case NoisePath::avx2: return "avx2";
        default: return "baseline";
    }
}

std::optional<NoisePath> noise_path_named(std::string_view name) {
    for (const NoisePath p : {NoisePath::baseline, NoisePath::avx2, NoisePath::avx512})
        if (name == noise_path_name(p)) return p;
    return std::nullopt;
}

}  // namespace isoterra
