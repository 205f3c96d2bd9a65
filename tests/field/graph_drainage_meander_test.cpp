// The drainage node's plan shape (issue 53): channels that bend across their lines with
// `meander` (traced through the distance port, their sinuosity that of the sine they follow),
// beds that grow from nothing at a spring with `spring`, and graphs without either keeping
// their values.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "drainage_coast.hpp"
#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

// The sinuosity of a sine of slope a (the tangent of its sharpest turn): its length over a
// wavelength, by Simpson's rule on 2000 intervals.
double sine_sinuosity(double a) {
    const int n = 2000;
    double sum = 0.0;
    for (int i = 0; i <= n; ++i) {
        const double w = i == 0 || i == n ? 1.0 : i % 2 ? 4.0 : 2.0;
        const double c = std::cos(2.0 * std::numbers::pi * i / n);
        sum += w * std::sqrt(1.0 + a * a * c * c);
    }
    return sum / (3.0 * n);
}

// The channel traced across its chord: at each of `stations` points along it, the offset
// across where the distance port is least (scanned every 2 m out to `span`, then placed
// exactly: across a straight chord the port falls and rises at slope 1 each side of the
// line); the length of that line over the chord's. NaN where the line jumps (another
// channel nearer).
double traced_sinuosity(const GraphField& distance, const GraphChannel& c, double span, int stations) {
    const glm::dvec2 along = c.to - c.from;
    const glm::dvec2 across = glm::dvec2(-along.y, along.x) / glm::length(along);
    glm::dvec2 last{0.0};
    double length = 0.0, last_offset = 0.0;
    for (int i = 0; i <= stations; ++i) {
        const glm::dvec2 on = c.from + (static_cast<double>(i) / stations) * along;
        const auto at = [&](double o) { return distance.ground_height(on.x + o * across.x, on.y + o * across.y); };
        double best = INFINITY, offset = 0.0;
        for (double o = -span; o <= span; o += 2.0)
            if (const double d = at(o); d < best) best = d, offset = o;
        offset += at(offset + 1.0) < best ? best : -best;
        if (i > 0 && std::fabs(offset - last_offset) > 10.0) return NAN;
        const glm::dvec2 point = on + offset * across;
        if (i > 0) length += glm::length(point - last);
        last = point, last_offset = offset;
    }
    return length / glm::length(along);
}

const char* kTrunks =
    "cell_m = 2000.0, levels = 1, slope = 0.3, floor_m = 40.0, bed_width_m = 10.0, bed_depth_m = 2.0, "
    "water_levels = 1, sea_level = 0.0";

}  // namespace

// A trunk of length L bends as (meander L / (pi n)) sin(pi n t) with n = round(L / 250 m)
// half-waves of a quarter of its 2 km cell, eased over an eighth of a wave at each end. Over
// its whole half-waves but the first and last, traced every 5 m or so, its sinuosity is the
// sine's of slope 1 (1.216; the trace's straight steps read it a little short, and the
// distance's lift where a long trunk nears its window's edge a little long).
TEST(DrainageMeander, a_bent_trunk_has_the_sinuosity_of_its_sine) {
    const double a = 1.0, sine = sine_sinuosity(a);
    EXPECT_NEAR(sine, 1.2160, 1e-3);
    const std::string settings = std::string(kTrunks) + ", meander = 1.0, meander_cells = 0.25";
    const auto distance = parse_graph(coast_graph(settings, "drain.distance"), "bent.toml");
    int measured = 0;
    for (const GraphChannel& c : distance->channels("drain", {0.0, -3000.0}, {6000.0, 3000.0})) {
        const double length = glm::length(c.to - c.from);
        if (length < 1500.0 || measured == 3) continue;
        const double n = std::round(length / 250.0);
        const glm::dvec2 along = c.to - c.from;
        const GraphChannel inner{c.from + along / n, c.to - along / n, 0.0, 0.0, 0, 0};
        const double s = traced_sinuosity(*distance, inner, length / (std::numbers::pi * n) + 5.0, static_cast<int>(length / 5.0));
        if (std::isnan(s)) continue;  // another channel passes by
        EXPECT_LT(s, sine + 0.005) << c.from.x << ", " << c.from.y;
        EXPECT_GT(s, sine - 0.01) << c.from.x << ", " << c.from.y;
        ++measured;
    }
    EXPECT_EQ(measured, 3);
    // Without `meander` the same trunks are straight: the trace is the chord.
    const auto straight = parse_graph(coast_graph(kTrunks, "drain.distance"), "straight.toml");
    const GraphChannel c = straight->channels("drain", {0.0, -3000.0}, {6000.0, 3000.0}).front();
    EXPECT_NEAR(traced_sinuosity(*straight, c, 20.0, 100), 1.0, 1e-9);
}

// With `spring = 0.5` a head's bed is 0 wide at its source and grows (smoothstep) to its full
// 10 m half-width halfway down: the water (read as the ground) is wet out to that half-width, none at 1 %
// (0.003 x 10 m, under the 0.25 m scan's step) and all of it at 60 %. Without, the water runs
// the full width from the source.
TEST(DrainageMeander, a_spring_starts_with_no_width_and_grows_to_the_full_bed) {
    const auto wet_half_width = [](const GraphField& g, const GraphChannel& c, double t) {
        const glm::dvec2 along = c.to - c.from;
        const glm::dvec2 across = glm::dvec2(-along.y, along.x) / glm::length(along);
        const glm::dvec2 on = c.from + t * along;
        double wet = 0.0;
        for (double o = 0.25; o < 20.0; o += 0.25) {
            const glm::dvec2 p = on + o * across;
            if (g.ground_height(p.x, p.y) > -1e4) wet = o;
        }
        return wet;
    };
    const auto spring = parse_graph(coast_graph(std::string(kTrunks) + ", spring = 0.5", "drain.water"), "spring.toml");
    const auto today = parse_graph(coast_graph(kTrunks, "drain.water"), "today.toml");
    int heads = 0;
    for (const GraphChannel& c : spring->channels("drain", {0.0, -4000.0}, {8000.0, 4000.0})) {
        if (glm::length(c.to - c.from) < 1000.0 || c.water_to <= 0.0) continue;
        // A head: no channel ends at its source.
        bool head = true;
        for (const GraphChannel& up : spring->channels("drain", c.from - 6000.0, c.from + 6000.0))
            head &= !(up.to.x == c.from.x && up.to.y == c.from.y);
        if (!head) continue;
        EXPECT_EQ(wet_half_width(*spring, c, 0.01), 0.0);
        EXPECT_NEAR(wet_half_width(*spring, c, 0.6), 10.0, 0.25);
        EXPECT_NEAR(wet_half_width(*today, c, 0.01), 10.0, 0.25);
        ++heads;
    }
    EXPECT_GT(heads, 2);
}
