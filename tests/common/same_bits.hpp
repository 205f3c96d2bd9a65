// Bit-for-bit equality, for tests that hold two paths to the same IEEE result (a NaN equals
// itself, 0.0 differs from -0.0).
#pragma once

#include <cstring>
#include <vector>

namespace isoterra::test {

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace isoterra::test
