// The benchmarks' random points, the same as `isoterra bench` times: 2 km square, 250 m tall.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/vec3.hpp>

#include "isoterra/noise.hpp"

namespace isoterra::bench {

inline std::vector<glm::dvec3> random_points(std::size_t n) {
    Mulberry32 rng(12345);
    std::vector<glm::dvec3> pts(n);
    for (auto& p : pts) p = {rng.next() * 2000 - 1000, rng.next() * 200 - 50, rng.next() * 2000 - 1000};
    return pts;
}

}  // namespace isoterra::bench
