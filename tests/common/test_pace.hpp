// How hard a test may push: the sanitizer runners set ISOTERRA_TEST_SLOW, because the program
// they test runs several times slower. Real-time checks then ask less, and the longest sweeps
// take a sparser sample of their cases. The Release tree runs every case of the noise, field
// and landform suites and of the world's sweeps (tests/CMakeLists.txt); the store's full-disk
// sweep runs whole only with ISOTERRA_ALL_SUITES=ON.
#pragma once

#include <cstdlib>

namespace isoterra::test {

inline bool slow_build() { return std::getenv("ISOTERRA_TEST_SLOW") != nullptr; }

/// The step through a sweep: `step` normally, `step * sparser` in a slow build.
inline int sweep_step(int step, int sparser) { return slow_build() ? step * sparser : step; }

}  // namespace isoterra::test
