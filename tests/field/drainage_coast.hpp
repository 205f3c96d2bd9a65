// The graph the drainage tests share: a coast with a drainage node whose settings the test
// gives.
#pragma once

#include <string>

#include <fmt/format.h>

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

}  // namespace isoterra
