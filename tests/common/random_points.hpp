// Points spread uniformly over a cube, the same every run (mulberry32): for tests that compare
// a field against a formula at many points.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "isoterra/noise.hpp"

namespace isoterra::test {

/// `count` points with each coordinate in [-reach, reach).
inline std::vector<glm::dvec3> random_points(std::uint32_t seed, int count, double reach) {
    Mulberry32 r(seed);
    std::vector<glm::dvec3> points;
    for (int i = 0; i < count; ++i) points.emplace_back((r.next() * 2 - 1) * reach, (r.next() * 2 - 1) * reach, (r.next() * 2 - 1) * reach);
    return points;
}

}  // namespace isoterra::test
