// The drainage node's vertical profile (issue 53): with carve_m a river's water lies below the
// ground the coarser levels make along and beside it, and a valley floor rises from its channel
// at the channel's own fall (a V for a torrent); with blend_m the height is a soft minimum of the
// valleys, no crease where two meet. Each against its formula, written out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "drainage_coast.hpp"
#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

double profile_segment(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b, double* t_out) {
    const glm::dvec2 ab = b - a;
    const double t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
    *t_out = t;
    return glm::length(p - (a + t * ab));
}

// One level of 1 km cells, slope 0.6, no beds: every trunk's valley at p, as the guide writes
// it (its window's lift included), with a floor of half width f rising at the trunk's fall
// when `carved`.
std::vector<double> profile_trunk_valleys(const std::vector<GraphChannel>& channels, const glm::dvec2& p, double f, bool carved) {
    std::vector<double> out;
    for (const GraphChannel& c : channels) {
        const double x0 = (std::floor(c.from.x / 1000.0) - 2.0) * 1000.0, z0 = (std::floor(c.from.y / 1000.0) - 2.0) * 1000.0;
        const auto eased = [](double e) { return e >= 1.0 ? 1.0 : e <= 0.0 ? 0.0 : e * e * (3.0 - 2.0 * e); };
        const double fx = eased(std::min(p.x - x0, x0 + 5000.0 - p.x) / 1000.0), fz = eased(std::min(p.y - z0, z0 + 5000.0 - p.y) / 1000.0);
        if (fx == 0.0 || fz == 0.0) continue;
        const double lift = 1.5 * 0.6 * 1000.0 * (1.0 - fx * fz) * (1.0 - fx * fz) / (fx * fz);
        double t = 0.0;
        const double d = profile_segment(p, c.from, c.to, &t);
        const double rise = d <= f ? 0.0 : d < 2.0 * f ? (d - f) * (d - f) / (2.0 * f) : d - 1.5 * f;
        const double fall = carved ? 2.0 * (c.water_from - c.water_to) / glm::length(c.to - c.from) : 0.0;
        out.push_back(c.water_from + (c.water_to - c.water_from) * t + 0.6 * rise + fall * (d - rise) + lift);
    }
    return out;
}

const char* kProfileOneLevel =
    "cell_m = 1000.0, levels = 1, slope = 0.6, bed_depth_m = 0.0, water_levels = 0, jitter = 0.8, sea_level = -1000.0";

}  // namespace

// With carve_m a floor rises from its trunk at twice the trunk's fall per metre (flattening
// where the sides rise): ground = min(envelope, water + 0.6 rise(d) + 2 fall (d - rise(d)) + lift).
TEST(DrainageProfile, with_carve_m_a_valley_floor_rises_from_its_channel_at_twice_the_channels_fall) {
    const std::string settings = std::string(kProfileOneLevel) + ", floor_m = 200.0, carve_m = 100.0";
    const auto g = parse_graph(coast_graph(settings), "carved.toml");
    const auto envelope = parse_graph(coast_graph(settings, "envelope"), "envelope.toml");
    const auto channels = g->channels("drain", {-6000.0, -6000.0}, {6000.0, 6000.0});
    ASSERT_GT(channels.size(), 50u);
    int on_a_rising_floor = 0;
    for (double x = -2000.0; x <= 3000.0; x += 97.0)
        for (double z = -3000.0; z <= 3000.0; z += 131.0) {
            const glm::dvec2 p(x, z);
            const std::vector<double> carved = profile_trunk_valleys(channels, p, 200.0, true),
                                      flat = profile_trunk_valleys(channels, p, 200.0, false);
            const double best = *std::min_element(carved.begin(), carved.end());
            EXPECT_NEAR(g->ground_height(x, z), std::min(envelope->ground_height(x, z), best), 1e-9) << x << ", " << z;
            on_a_rising_floor += best < *std::min_element(flat.begin(), flat.end()) + 1.0 ? 0 : 1;
        }
    EXPECT_GT(on_a_rising_floor, 200);  // of 2,438 samples: the floors are higher than flat ones
}

// With blend_m = w the height is the level s where the envelope and the valleys v within w above
// it weigh 1 together, sum of (1 - (v - s) / w)^2 = 1 (found here by bisection): less than w
// below the lowest m, equal to it where one valley is the lowest by w or more (a river's bed),
// and smooth across the ridges where the exact minimum turns at once.
TEST(DrainageProfile, with_blend_m_the_height_is_a_soft_minimum_of_the_valleys_without_creases) {
    const std::string sharp_settings = std::string(kProfileOneLevel) + ", floor_m = 100.0";
    const auto sharp = parse_graph(coast_graph(sharp_settings), "sharp.toml");
    const auto blended = parse_graph(coast_graph(sharp_settings + ", blend_m = 20.0"), "blended.toml");
    const auto envelope = parse_graph(coast_graph(sharp_settings, "envelope"), "envelope.toml");
    const auto channels = sharp->channels("drain", {-6000.0, -6000.0}, {6000.0, 6000.0});
    const auto weight = [](const std::vector<double>& v, double s) {
        double sum = 0.0;
        for (const double value : v) sum += value - s < 20.0 ? (1.0 - (value - s) / 20.0) * (1.0 - (value - s) / 20.0) : 0.0;
        return sum;
    };
    int softened = 0;
    for (double x = -2000.0; x <= 3000.0; x += 113.0)
        for (double z = -3000.0; z <= 3000.0; z += 127.0) {
            std::vector<double> v = profile_trunk_valleys(channels, {x, z}, 100.0, false);
            v.push_back(envelope->ground_height(x, z));
            const double m = *std::min_element(v.begin(), v.end());
            double lo = m - 20.0, hi = m;  // weight(lo) <= 1 <= weight(hi)
            for (int i = 0; i < 100; ++i) (weight(v, 0.5 * (lo + hi)) < 1.0 ? lo : hi) = 0.5 * (lo + hi);
            const double expected = 0.5 * (lo + hi), got = blended->ground_height(x, z);
            EXPECT_NEAR(got, expected, 1e-6) << x << ", " << z;
            EXPECT_NEAR(sharp->ground_height(x, z), m, 1e-9);
            EXPECT_LE(got, m + 1e-9);
            EXPECT_GE(got, m - 20.0);
            softened += got < m - 1.0;
        }
    EXPECT_GT(softened, 50);
    // Across the valleys on three lines every metre: the sharp ground's slope jumps by up to
    // 1.2 at a ridge within one step; the blended one turns by under a tenth a step (its slope
    // turning over about w / slope metres).
    double sharp_turn = 0.0, blended_turn = 0.0;
    const auto turn = [](const GraphField& g, double x, double z) {
        return std::fabs(g.ground_height(x + 1.0, z) - 2.0 * g.ground_height(x, z) + g.ground_height(x - 1.0, z));
    };
    for (const double z : {-1300.0, 300.0, 1700.0})
        for (double x = -2000.0; x <= 3000.0; x += 1.0) {
            sharp_turn = std::max(sharp_turn, turn(*sharp, x, z));
            blended_turn = std::max(blended_turn, turn(*blended, x, z));
        }
    EXPECT_GT(sharp_turn, 0.5);
    EXPECT_LT(blended_turn, 0.15);
}

// With carve_m the water of every river of a finer level lies at or below the ground the
// coarser levels make (trunks and envelope: the same graph with one level) along its line and
// out to carve_m on both sides, at the points where the node samples it, or at its junction's
// level where that ground is lower; without, the tributaries that start high stand metres
// above that ground.
TEST(DrainageProfile, with_carve_m_a_rivers_water_lies_below_the_coarser_ground_beside_it) {
    const std::string base =
        "cell_m = 2000.0, slope = 0.3, floor_m = 40.0, bed_width_m = 10.0, bed_depth_m = 2.0, water_levels = 2, concavity = 3.0, "
        "junction = 0.5, sea_level = 0.0";
    const auto perched_water = [&](const std::string& extra, int* samples) {
        const auto two = parse_graph(coast_graph(base + ", levels = 2" + extra), "two.toml");
        const auto one = parse_graph(coast_graph(base + ", levels = 1" + extra), "one.toml");
        double worst = -INFINITY;
        *samples = 0;
        for (const GraphChannel& c : two->channels("drain", {-2000.0, -4000.0}, {6000.0, 4000.0})) {
            if (c.level != 1 || c.water_to <= 0.0) continue;
            const glm::dvec2 along = c.to - c.from, across = glm::dvec2(-along.y, along.x) / glm::length(along);
            for (int i = 0; i < 8; ++i)
                for (int j = -3; j <= 3; ++j) {
                    const glm::dvec2 p = c.from + (i / 8.0) * along + (100.0 * j) * across;
                    const double water = c.water_to + (c.water_from - c.water_to) * std::pow(1.0 - i / 8.0, 3.0);
                    // Never below its junction's level, though (the coarser river's water there).
                    worst = std::max(worst, water - std::max(c.water_to, one->ground_height(p.x, p.y)));
                    ++*samples;
                }
        }
        return worst;
    };
    int carved_samples = 0, plain_samples = 0;
    EXPECT_LE(perched_water(", carve_m = 300.0", &carved_samples), 1e-6);
    EXPECT_GT(perched_water("", &plain_samples), 10.0);
    EXPECT_GT(carved_samples, 1000);
    EXPECT_EQ(carved_samples, plain_samples);
}

// With spring_slope = s a river head whose water falls more steeply than s is a dry gully down
// to the share t_s where its profile's fall, (zq - zr) gamma u^(gamma - 1) / length, eases to s:
// on its line the water lies below the ground there (at t_s / 2), and from four own bed widths
// past t_s on it is the water of the graph without spring_slope, bit for bit (at points no
// other river's water reaches). The ground is the same bits everywhere.
TEST(DrainageProfile, with_spring_slope_a_steep_head_is_dry_until_its_fall_eases_to_the_slope) {
    const std::string base =
        "cell_m = 2000.0, levels = 2, slope = 0.3, floor_m = 40.0, bed_width_m = 10.0, bed_depth_m = 2.0, water_levels = 2, "
        "concavity = 3.0, junction = 0.5, sea_level = 0.0, water_reach_m = 30.0";
    const auto water = parse_graph(coast_graph(base + ", spring_slope = 0.15", "drain.water"), "spring.toml");
    const auto today_water = parse_graph(coast_graph(base, "drain.water"), "today.toml");
    const auto ground = parse_graph(coast_graph(base + ", spring_slope = 0.15"), "ground.toml");
    const auto today_ground = parse_graph(coast_graph(base), "today_ground.toml");
    const auto channels = ground->channels("drain", {-4000.0, -6000.0}, {8000.0, 6000.0});
    // Whether another channel passes within reach of p (its water then may be the highest).
    const auto alone = [&](const GraphChannel& own, const glm::dvec2& p) {
        for (const GraphChannel& c : channels) {
            double t = 0.0;
            if (&c != &own && profile_segment(p, c.from, c.to, &t) < 100.0) return false;
        }
        return true;
    };
    int dry = 0, wet = 0;
    for (const GraphChannel& c : channels) {
        if (c.level != 1 || c.water_to <= 0.0 || c.from.x > 6000.0 || std::fabs(c.from.y) > 4000.0) continue;
        const double length = glm::length(c.to - c.from);
        const double steepest = (c.water_from - c.water_to) * 3.0 / length;
        const double start = steepest > 0.15 ? 1.0 - std::sqrt(0.15 / steepest) : 0.0;
        if (start < 0.1 || start > 0.75) continue;
        const glm::dvec2 up = c.point(0.5 * start);
        if (alone(c, up)) {
            EXPECT_LT(water->ground_height(up.x, up.y), ground->ground_height(up.x, up.y)) << up.x << ", " << up.y;
            EXPECT_GT(today_water->ground_height(up.x, up.y), today_ground->ground_height(up.x, up.y)) << up.x << ", " << up.y;
            ++dry;
        }
        for (double t = start + 4.0 * 5.0 / length + 0.01; t < 0.95; t += 0.05) {
            const glm::dvec2 p = c.point(t);
            if (!alone(c, p)) continue;
            EXPECT_EQ(water->ground_height(p.x, p.y), today_water->ground_height(p.x, p.y)) << p.x << ", " << p.y;
            ++wet;
        }
    }
    EXPECT_GT(dry, 5);
    EXPECT_GT(wet, 20);
    for (double x = -2000.0; x <= 6000.0; x += 173.0)
        for (double z = -4000.0; z <= 4000.0; z += 211.0) EXPECT_EQ(ground->ground_height(x, z), today_ground->ground_height(x, z));
}

// With trunk_carve_m = c a trunk (level 0) keeps its ends' levels (its neighbours' too) and its
// profile bows to the least whole gamma in 1..4 whose water, zr + (zq - zr) (1 - t)^gamma, lies at
// or below control + relief (or the sea's level, where that is higher) at t = 1/8 .. 7/8 on its
// line and out to c beside it. On a coast with no relief, whose control wobbles, straight
// trunks stand metres above the land at some of those points; bowed ones at none.
TEST(DrainageProfile, with_trunk_carve_m_a_trunk_bows_to_the_least_whole_gamma_that_keeps_its_water_below_the_land) {
    const std::string base =
        "cell_m = 2000.0, levels = 1, slope = 0.3, floor_m = 40.0, bed_width_m = 10.0, bed_depth_m = 2.0, "
        "water_levels = 1, jitter = 0.8, sea_level = 0.0";
    const auto flat_land = [](std::string graph) { return graph.replace(graph.find("value = 300.0"), 13, "value = 0.0"); };
    const auto bowed = parse_graph(flat_land(coast_graph(base + ", trunk_carve_m = 90.0")), "bowed.toml");
    const auto straight = parse_graph(flat_land(coast_graph(base)), "straight.toml");
    const auto land = parse_graph(flat_land(coast_graph(base, "envelope")), "land.toml");
    const auto trunks = bowed->channels("drain", {-5000.0, -6000.0}, {7000.0, 6000.0});
    const auto straight_trunks = straight->channels("drain", {-5000.0, -6000.0}, {7000.0, 6000.0});
    ASSERT_EQ(trunks.size(), straight_trunks.size());
    ASSERT_GT(trunks.size(), 20u);
    // The highest the water of a profile of exponent g stands above the land at the samples.
    const auto most_above = [&](const GraphChannel& c, double g) {
        const double zr = land->ground_height(c.to.x, c.to.y);  // the end's own control (to's water is held at the sea)
        const glm::dvec2 along = c.to - c.from, across = glm::dvec2(-along.y, along.x) / glm::length(along);
        double most = -INFINITY;
        for (int i = 1; i < 8; ++i)
            for (int j = -3; j <= 3; ++j) {
                const glm::dvec2 p = c.from + (i / 8.0) * along + (90.0 * j / 3.0) * across;
                const double water = zr + (c.water_from - zr) * std::pow(1.0 - i / 8.0, g);
                most = std::max(most, water - std::max(land->ground_height(p.x, p.y), 0.0));
            }
        return most;
    };
    int bowed_count = 0, fitted = 0, straight_above = 0;
    for (std::size_t n = 0; n < trunks.size(); ++n) {
        const GraphChannel &c = trunks[n], &s = straight_trunks[n];
        EXPECT_EQ(c.water_from, s.water_from);
        EXPECT_EQ(c.water_to, s.water_to);
        EXPECT_EQ(s.gamma, 1.0);
        ASSERT_TRUE(c.gamma == 1.0 || c.gamma == 2.0 || c.gamma == 3.0 || c.gamma == 4.0) << c.gamma;
        if (c.gamma < 4.0) EXPECT_LE(most_above(c, c.gamma), 1e-9) << c.from.x << ", " << c.from.y;
        if (c.gamma > 1.0) EXPECT_GT(most_above(c, c.gamma - 1.0), 0.0) << c.from.x << ", " << c.from.y;
        bowed_count += c.gamma > 1.0;
        fitted += c.gamma > 1.0 && c.gamma < 4.0;
        straight_above += most_above(s, 1.0) > 2.0;
    }
    EXPECT_GT(bowed_count, 15);  // of 32 (26 bowed, 19 to a gamma under 4, 23 straight ones over 2 m above)
    EXPECT_GT(fitted, 10);
    EXPECT_GT(straight_above, 15);
}
