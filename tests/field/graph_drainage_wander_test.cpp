// drainage's meander_vary (issue 53): bends whose wavelength and amplitude wander along a
// channel (a channel's line from GraphChannel::point, its own coin), heads whose bends grow
// from a straight source (no zigzag where the finest valleys start), and tributaries that
// meet the bent line at the network's angle to the water there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "drainage_coast.hpp"
#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

// The offset across the chord at share t (the chord from (0, 0) along +x).
double across(const GraphChannel& c, double t) { return c.point(t).y; }

// The lengths along the chord between the line's crossings of it, and the largest offset
// between each two, scanning 200,000 steps.
void half_waves(const GraphChannel& c, std::vector<double>& lengths, std::vector<double>& heights) {
    const int n = 200000;
    double last_cross = 0.0, high = 0.0, before = across(c, 1e-9);
    for (int i = 1; i <= n; ++i) {
        const double t = static_cast<double>(i) / n, o = i == n ? -before : across(c, t);
        high = std::max(high, std::fabs(o));
        if (o * before < 0.0) {
            const double at = c.point(t).x;
            lengths.push_back(at - last_cross), heights.push_back(high);
            last_cross = at, high = 0.0;
        }
        if (o != 0.0) before = o;
    }
}

// The tangent of the angle the line turns from its chord at share t (the slope across).
double turn(const GraphChannel& c, double t) {
    const double h = 1e-6;
    const glm::dvec2 d = c.point(std::min(1.0, t + h)) - c.point(std::max(0.0, t - h));
    const glm::dvec2 along = glm::normalize(c.to - c.from);
    return std::fabs(d.x * -along.y + d.y * along.x) / std::fabs(glm::dot(d, along));
}

const char* kNetwork =
    "cell_m = 2000.0, levels = 3, slope = 0.3, floor_m = 40.0, bed_width_m = 10.0, bed_depth_m = 2.0, "
    "water_levels = 2, sea_level = 0.0, meander = 1.5, meander_cells = 0.1";

}  // namespace

// A 3 km line of 24 half-waves, its bend 1.5 x 125 m / pi. As a plain sine (vary 0) every
// half-wave is 125 m long and, away from the eased ends, 59.7 m high. With vary 1 its phase
// and amplitude wander: still 24 half-waves, starting and ending on the chord, but the
// longest at least 1.6 times the shortest and the highest at least 1.6 times the lowest;
// the same coin gives the same line, another coin another.
TEST(DrainageWander, bends_vary_in_length_and_height_along_a_line_that_keeps_its_ends_and_its_count) {
    const double b = 1.5 * 125.0 / std::numbers::pi;
    GraphChannel sine{{0.0, 0.0}, {3000.0, 0.0}, 10.0, 0.0, 0, 1, b, 24.0};
    std::vector<double> lengths, heights;
    half_waves(sine, lengths, heights);
    ASSERT_EQ(lengths.size(), 24u);
    for (std::size_t i = 1; i + 1 < lengths.size(); ++i) {
        EXPECT_NEAR(lengths[i], 125.0, 0.05);
        EXPECT_NEAR(heights[i], b, 0.01);
    }
    GraphChannel wander = sine;
    wander.vary = 1.0, wander.coin = 0x9e3779b97f4a7c15u;
    EXPECT_EQ(wander.point(0.0), wander.from);
    EXPECT_NEAR(glm::length(wander.point(1.0) - wander.to), 0.0, 1e-9);
    std::vector<double> vl, vh;
    half_waves(wander, vl, vh);
    ASSERT_EQ(vl.size(), 24u);
    EXPECT_GT(*std::max_element(vl.begin(), vl.end()) / *std::min_element(vl.begin(), vl.end()), 1.6);
    EXPECT_GT(*std::max_element(vh.begin() + 1, vh.end() - 1) / *std::min_element(vh.begin() + 1, vh.end() - 1), 1.6);
    GraphChannel again = wander, other = wander;
    other.coin = 0x5bd1e9955bd1e995u;
    double apart = 0.0;
    for (double t = 0.0; t <= 1.0; t += 0.01) {
        EXPECT_EQ(again.point(t), wander.point(t));
        apart = std::max(apart, glm::length(other.point(t) - wander.point(t)));
    }
    EXPECT_GT(apart, 0.5 * b);
}

// The finest level is dry (water_levels 2 of 3): with vary its heads start straight (over
// their first tenth the line turns less than 0.15 from its chord, 8.5 degrees) and bend
// gently (a mean turn under 0.3, 17 degrees); as a plain sine of slope 1.5 they turn at 1.5
// (56 degrees) within their first tenth and by 0.9 on average: a zigzag down the hillside.
TEST(DrainageWander, the_finest_heads_start_straight_and_bend_gently_without_zigzag) {
    struct Turns {
        double head = 0.0, mean = 0.0;
    };
    const auto turns = [](const std::string& settings) {
        const auto g = parse_graph(coast_graph(settings), "heads.toml");
        Turns out;
        int heads = 0, steps = 0;
        for (const GraphChannel& c : g->channels("drain", {0.0, -3000.0}, {6000.0, 3000.0})) {
            if (c.level != 2 || c.bend == 0.0 || c.waves < 4.0) continue;
            for (double t = 0.0; t <= 1.0; t += 0.002, ++steps) {
                if (t <= 0.1) out.head = std::max(out.head, turn(c, t));
                out.mean += turn(c, t);
            }
            ++heads;
        }
        EXPECT_GT(heads, 50);
        out.mean /= steps;
        return out;
    };
    const Turns vary = turns(std::string(kNetwork) + ", meander_vary = 1.0"), sine = turns(kNetwork);
    EXPECT_LT(vary.head, 0.15);
    EXPECT_LT(vary.mean, 0.3);
    EXPECT_GT(sine.head, 1.45);
    EXPECT_GT(sine.mean, 0.9);
}

// Every tributary (levels 1 and 2) ends on the bent line of a coarser channel. With vary it
// arrives at atan(1 / junction) = 63.4 degrees to that channel's own direction there, within
// 15 degrees, for at least 90 % (a few find no such place within two waves); a plain sine's
// junctions, placed off its straight line, spread far wider.
TEST(DrainageWander, tributaries_meet_the_bent_channel_near_the_networks_angle) {
    const auto within = [](const std::string& settings) {
        const auto g = parse_graph(coast_graph(settings), "junctions.toml");
        const std::vector<GraphChannel> all = g->channels("drain", {-2000.0, -5000.0}, {8000.0, 5000.0});
        int met = 0, near = 0;
        for (const GraphChannel& trib : all) {
            if (trib.level == 0 || trib.from.x < 0.0 || trib.from.x > 6000.0 || std::fabs(trib.from.y) > 3000.0) continue;
            for (const GraphChannel& c : all) {
                if (c.level >= trib.level) continue;
                const glm::dvec2 line = c.to - c.from;
                const double t = glm::dot(trib.to - c.from, line) / glm::dot(line, line);
                if (t < 0.0 || t > 1.0 || glm::length(c.point(t) - trib.to) > 1e-6 * glm::length(line)) continue;
                const glm::dvec2 flow = glm::normalize(c.point(std::min(1.0, t + 1e-7)) - c.point(std::max(0.0, t - 1e-7)));
                const glm::dvec2 arrive = glm::normalize(trib.point(1.0) - trib.point(1.0 - 1e-6));
                const double angle = std::acos(std::clamp(glm::dot(flow, arrive), -1.0, 1.0)) * 180.0 / std::numbers::pi;
                ++met;
                near += std::fabs(angle - 63.43) <= 15.0;
                break;
            }
        }
        EXPECT_GT(met, 150);
        return static_cast<double>(near) / met;
    };
    EXPECT_GT(within(std::string(kNetwork) + ", meander_vary = 1.0"), 0.9);
    EXPECT_LT(within(kNetwork), 0.6);
}

// The dx and dz ports against central differences of the height with wandering bends (the
// phase's and amplitude's derivatives in the valley's slope), where the height is smooth.
TEST(DrainageWander, the_gradient_ports_are_the_derivatives_of_the_height_with_wandering_bends) {
    const auto at = [](const std::string& port) {
        return parse_graph(coast_graph(std::string(kNetwork) + ", meander_vary = 1.0", port), "w.toml");
    };
    const auto height = at("drain"), dx = at("drain.dx"), dz = at("drain.dz");
    const glm::ivec2 smooth_sloped = expect_gradient_ports(*height, *dx, *dz, {200.0, 1500.0}, {9.7, -5.3}, 600);
    EXPECT_GT(smooth_sloped.x, 300);
    EXPECT_GT(smooth_sloped.y, 150);
}
