// The graph the drainage tests share: a coast with a drainage node whose settings the test
// gives.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <glm/vec2.hpp>

#include "isoterra/graph.hpp"

namespace isoterra {

// A coast: the sea (control below 0) where x < -3 km, land rising inland 20 m a kilometre with
// gentle noise across, hills of up to 300 m on it.
inline std::string coast_graph(const std::string& drainage_settings, const std::string& ground = "drain") {
    return fmt::format(R"(format = 1
seed = 77
sea_level = 0.0
[node]
px = {{ type = "x" }}
tilt = {{ type = "mul", a = "px", b = 0.02 }}
wobble = {{ type = "fbm2", scale_m = 5000.0, octaves = 2, amplitude = 40.0 }}
rise = {{ type = "add", a = "tilt", b = "wobble" }}
control = {{ type = "add", a = "rise", b = 60.0 }}
relief = {{ type = "const", value = 300.0 }}
envelope = {{ type = "add", a = "control", b = "relief" }}
drain = {{ type = "drainage", control = "control", relief = "relief", {} }}
out = {{ type = "plane", height = "drain" }}
[output]
sdf = "out"
ground = "{}"
water = "drain.water"
)",
                       drainage_settings, ground);
}

// Where the ground of `height` is smooth (away from the creases where two valleys meet, and
// from the envelope, where the ports read 0), the ground of `dx` and `dz` against its central
// differences, at `count` points from `start` in steps of `step`. Returns how many points
// were smooth (x) and how many of those sloped more than 0.1 (y).
inline glm::ivec2 expect_gradient_ports(const Field& height, const Field& dx, const Field& dz, glm::dvec2 start, glm::dvec2 step,
                                        int count) {
    glm::ivec2 smooth_sloped{0, 0};
    for (int i = 0; i < count; ++i) {
        const double x = start.x + step.x * i, z = start.y + step.y * i;
        const auto diff = [&](double h, double ox, double oz) {
            return (height.ground_height(x + h * ox, z + h * oz) - height.ground_height(x - h * ox, z - h * oz)) / (2.0 * h);
        };
        const double gx = diff(0.01, 1, 0), gz = diff(0.01, 0, 1);
        if (std::fabs(gx - diff(0.005, 1, 0)) > 1e-6 || std::fabs(gz - diff(0.005, 0, 1)) > 1e-6) continue;  // a crease
        const double px = dx.ground_height(x, z), pz = dz.ground_height(x, z);
        if (px == 0.0 && pz == 0.0) continue;  // the envelope
        EXPECT_NEAR(px, gx, 1e-5) << x << ", " << z;
        EXPECT_NEAR(pz, gz, 1e-5) << x << ", " << z;
        ++smooth_sloped.x;
        smooth_sloped.y += std::hypot(px, pz) > 0.1;
    }
    return smooth_sloped;
}

}  // namespace isoterra
