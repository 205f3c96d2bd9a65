// The project's side of ../shared/peers (harness.cpp includes this when it exists): the fast
// noise flavour over the harness's 33^3 lattice, point (i, j, k) at ((10 + i) / 50,
// (-20 + j) / 35, (10 + k) / 50), x fastest, seed 1337. Every call computes every value.
#pragma once

#include <string>

#include <isoterra/noise.hpp>

namespace peer_adapter {

inline isoterra::NoiseLattice harness_lattice() {
    isoterra::NoiseLattice l;
    l.origin = {10, -20, 10};
    l.size = {33, 33, 33};
    l.feature = {50.0, 35.0, 50.0};
    return l;
}

inline const char* name() {
    static const std::string text =
        std::string("isoterra FastSimplex3 (fast flavour), ") + isoterra::noise_path_name(isoterra::noise_path()) + " path";
    return text.c_str();
}

inline void noise3_lattice(float* out) { isoterra::FastSimplex3(1337).lattice(harness_lattice(), out); }

// Amplitudes 1, 1/2, ... normalised by their sum (as FastNoise2's FractalFBm), so values stay in [-1, 1].
inline void fbm5_lattice(float* out) {
    isoterra::FastSimplex3(1337).fbm_lattice(harness_lattice(), isoterra::FbmShape{5, 2.0, 0.5, 1.0 / 1.9375}, out);
}

}  // namespace peer_adapter
