// The drainage node: its river network (water falling downstream, every channel draining
// to the sea or out of the region, junctions on coarser channels), its ground against the
// formula worked out from the network, the same values whatever the batch, the path or the
// thread, and its proven ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "drainage_coast.hpp"
#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

const char* kSettings =
    "cell_m = 2000.0, levels = 4, slope = 0.3, floor_m = 40.0, bed_width_m = 10.0, bed_depth_m = 2.0, "
    "water_levels = 2, concavity = 3.0, junction = 0.5, sea_level = 0.0";

double ground_at(const GraphField& g, double x, double z) { return g.ground_height(x, z); }

bool same_point(const glm::dvec2& a, const glm::dvec2& b) { return a.x == b.x && a.y == b.y; }

// The distance from p to segment ab and the share t of the way from a.
double to_segment(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b, double* t_out = nullptr) {
    const glm::dvec2 ab = b - a;
    const double t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
    if (t_out) *t_out = t;
    return glm::length(p - (a + t * ab));
}

}  // namespace

TEST(Drainage, water_falls_downstream_and_every_river_reaches_the_sea_or_leaves_the_region) {
    const auto g = parse_graph(coast_graph(kSettings), "coast.toml");
    const glm::dvec2 lo(-12000.0, -12000.0), hi(12000.0, 12000.0);
    const auto channels = g->channels("drain", lo - 20000.0, hi + 20000.0);
    ASSERT_GT(channels.size(), 500u);
    std::map<int, int> per_level;
    for (const GraphChannel& c : channels) {
        ++per_level[c.level];
        EXPECT_GE(c.water_from, c.water_to) << "level " << c.level;
        EXPECT_EQ(c.order, 4 - c.level);
    }
    EXPECT_EQ(per_level.size(), 4u);
    // Each channel's end lies on a coarser channel (a junction), on the next trunk (level 0,
    // a chain), or in the sea; following the ends from any channel of order 2 or more inside
    // the region reaches the sea or leaves the region, never coming back to a channel.
    const auto next_of = [&](const GraphChannel& c) -> const GraphChannel* {
        const GraphChannel* best = nullptr;
        double nearest = 1e-6;
        for (const GraphChannel& d : channels) {
            if (&d == &c || d.level > c.level) continue;
            if (c.level == 0 && d.level == 0) {
                if (same_point(d.from, c.to)) return &d;
                continue;
            }
            if (d.level >= c.level) continue;
            const double dist = to_segment(c.to, d.from, d.to);
            if (dist < nearest) nearest = dist, best = &d;
        }
        return best;
    };
    int followed = 0;
    for (const GraphChannel& c : channels) {
        if (c.order < 2 || c.from.x < lo.x || c.from.x > hi.x || c.from.y < lo.y || c.from.y > hi.y) continue;
        std::set<const GraphChannel*> seen;
        const GraphChannel* at = &c;
        double water = at->water_from;
        for (;;) {
            ASSERT_TRUE(seen.insert(at).second) << "a cycle";
            EXPECT_LE(at->water_to, water + 1e-9);
            water = at->water_to;
            const bool out = at->to.x < lo.x || at->to.x > hi.x || at->to.y < lo.y || at->to.y > hi.y;
            if (out || at->water_to <= 0.0) break;  // left the region, or reached the sea
            const GraphChannel* next = next_of(*at);
            ASSERT_NE(next, nullptr) << fmt::format("channel of level {} ends at ({}, {}) at {} m, on no other channel", at->level,
                                                    at->to.x, at->to.y, at->water_to);
            // A junction's water level is the coarser channel's there: it continues downstream.
            double t = 0.0;
            to_segment(at->to, next->from, next->to, &t);
            EXPECT_LE(next->water_to, at->water_to + 1e-6);
            at = next;
        }
        ++followed;
    }
    EXPECT_GT(followed, 50);
}

TEST(Drainage, the_ground_is_the_lowest_of_the_envelope_and_the_valleys_it_sees) {
    // One level, no floor and no beds: ground = min(control + relief, min over the channels
    // whose source cells lie within two cells of the point's of water + slope * distance),
    // the water falling linearly along a trunk.
    const std::string settings =
        "cell_m = 1000.0, levels = 1, slope = 0.6, floor_m = 0.0, bed_depth_m = 0.0, "
        "water_levels = 0, jitter = 0.8, sea_level = -1000.0";
    const auto g = parse_graph(coast_graph(settings), "one_level.toml");
    const auto envelope = parse_graph(coast_graph(settings, "envelope"), "envelope.toml");
    const auto channels = g->channels("drain", {-6000.0, -6000.0}, {6000.0, 6000.0});
    ASSERT_GT(channels.size(), 50u);
    int in_valley = 0, envelope_wins = 0;
    for (double x = -3000.0; x <= 3000.0; x += 277.0)
        for (double z = -3000.0; z <= 3000.0; z += 311.0) {
            const glm::dvec2 p(x, z);
            double best = INFINITY;
            for (const GraphChannel& c : channels) {
                // Its window: the 5 x 5 cells around its source's; over the outer cell the valley
                // is lifted by 1.5 slope cell (1 - fx fz)^2 / (fx fz) on its way out, fx and fz eased from
                // 0 at the window's edge to 1 a cell inside.
                const double x0 = (std::floor(c.from.x / 1000.0) - 2.0) * 1000.0, z0 = (std::floor(c.from.y / 1000.0) - 2.0) * 1000.0;
                const auto eased = [](double e) { return e >= 1.0 ? 1.0 : e <= 0.0 ? 0.0 : e * e * (3.0 - 2.0 * e); };
                const double fx = eased(std::min(x - x0, x0 + 5000.0 - x) / 1000.0), fz = eased(std::min(z - z0, z0 + 5000.0 - z) / 1000.0);
                if (fx == 0.0 || fz == 0.0) continue;
                const double lift = 1.5 * 0.6 * 1000.0 * (1.0 - fx * fz) * (1.0 - fx * fz) / (fx * fz);
                double t = 0.0;
                const double d = to_segment(p, c.from, c.to, &t);
                best = std::min(best, c.water_from + (c.water_to - c.water_from) * t + 0.6 * d + lift);
            }
            const double e = envelope->ground_height(x, z);
            EXPECT_NEAR(ground_at(*g, x, z), std::min(e, best), 1e-9) << x << ", " << z;
            in_valley += best < e;
            envelope_wins += e < best;
        }
    EXPECT_GT(in_valley, 100);
    EXPECT_GT(envelope_wins, 5);
}

TEST(Drainage, values_do_not_depend_on_the_batch_the_path_or_the_thread) {
    const std::string text = coast_graph(kSettings);
    const auto g = parse_graph(text, "coast.toml");
    // A lattice (a chunk's column part runs as one batch) against points one at a time.
    Lattice lat;
    lat.origin = {-40, 0, 17};
    lat.size = {21, 1, 19};
    lat.spacing_m = 16.0;
    std::vector<float> ground(static_cast<std::size_t>(lat.size.x * lat.size.z));
    ASSERT_TRUE(g->ground_heights(lat, ground.data()));
    for (int k = 0; k < lat.size.z; ++k)
        for (int i = 0; i < lat.size.x; ++i) {
            const glm::dvec3 p = lat.position(i, 0, k);
            EXPECT_EQ(ground[static_cast<std::size_t>(k * lat.size.x + i)], static_cast<float>(g->ground_height(p.x, p.z)));
        }
    // Points in one batch and one at a time, on a fresh graph (an empty cache) and threads.
    std::vector<glm::dvec3> pts;
    for (int i = 0; i < 300; ++i) pts.push_back({-9000.0 + 61.3 * i, 0.0, 4000.0 - 37.1 * i});
    std::vector<double> batch(pts.size());
    g->sample_points(pts.data(), pts.size(), batch.data());
    const auto fresh = parse_graph(text, "coast.toml");
    std::vector<double> threaded(pts.size());
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (std::size_t i = static_cast<std::size_t>(t); i < pts.size(); i += 4) fresh->sample_points(&pts[i], 1, &threaded[i]);
        });
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < pts.size(); ++i) EXPECT_EQ(batch[i], threaded[i]) << i;
}

// A batch of points thousands of kilometres apart (as `isoterra sample` reads them) runs
// level-0 cell by level-0 cell rather than over every channel of the rectangle between them
// (which took minutes and gigabytes: found by GraphCli's exported-preset test), and gives
// what each point gives alone. The built-in alpine: its drainage on a grid, every port read.
TEST(Drainage, points_far_apart_in_one_batch_give_their_values_alone) {
    const auto alpine = isoterra::builtin_terrain("alpine").make_field();
    const std::vector<glm::dvec3> pts = {{0, 0, 0},        {3.5, 12.25, -8}, {-1234.5, 40, 987.25}, {250000, -30, -125000.5},
                                         {1e7, 300, -2e7}, {-5e7, 900, 3e7}, {12.0, 700.0, 5e6},    {2.5, 0.0, 2.5}};
    std::vector<double> batch(pts.size());
    alpine->sample_points(pts.data(), pts.size(), batch.data());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        double alone = 0.0;
        alpine->sample_points(&pts[i], 1, &alone);
        EXPECT_EQ(batch[i], alone) << i;
        EXPECT_TRUE(std::isfinite(batch[i])) << i;
    }
}

TEST(Drainage, the_gradient_ports_are_the_derivatives_of_the_height_in_the_valleys) {
    // dx and dz against central differences, where the height is smooth.
    std::string text = coast_graph(kSettings);
    const auto at = [&](const std::string& port) {
        std::string t = text;
        t.replace(t.find("ground = \"drain\""), 16, "ground = \"" + port + "\"");
        return parse_graph(t, "coast.toml");
    };
    const auto height = at("drain"), dx = at("drain.dx"), dz = at("drain.dz");
    const glm::ivec2 smooth_sloped = expect_gradient_ports(*height, *dx, *dz, {-6000.0, 3000.0}, {29.7, -17.3}, 400);
    EXPECT_GT(smooth_sloped.x, 200);
    EXPECT_GT(smooth_sloped.y, 100);
}

TEST(Drainage, rivers_carry_water_in_their_beds_and_the_sea_is_below_its_level) {
    const auto g = parse_graph(coast_graph(kSettings), "coast.toml");
    const auto channels = g->channels("drain", {-8000.0, -8000.0}, {8000.0, 8000.0});
    int wet = 0, dry_sources = 0;
    for (const GraphChannel& c : channels) {
        if (c.level >= 2) continue;
        // Halfway along a river its bed lies below the water, whose level is the channel's.
        const glm::dvec2 mid = 0.5 * (c.from + c.to);
        const double ground = g->ground_height(mid.x, mid.y);
        if (c.water_to <= 0.0) continue;  // reaching the sea
        if (ground < 0.5 * (c.water_from + c.water_to) + 1e-6) ++wet;
        // At a tributary's very source the bed has not begun: no pit there.
        if (c.level == 1 && std::fabs(g->ground_height(c.from.x, c.from.y) - c.water_from) < 1e-6) ++dry_sources;
    }
    EXPECT_GT(wet, 20);
    EXPECT_GT(dry_sources, 5);
}

TEST(Drainage, bad_settings_are_refused_in_one_line) {
    for (const std::string& bad : {std::string("cell_m = 1.0"), std::string("levels = 9"), std::string("slope = 0.0"),
                                   std::string("concavity = 0.5"), std::string("jitter = 2.0")}) {
        try {
            parse_graph(coast_graph(bad), "bad.toml");
            ADD_FAILURE() << bad << " was accepted";
        } catch (const GraphError& e) {
            EXPECT_NE(std::string(e.what()).find("node 'drain'"), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        }
    }
    try {
        parse_graph(coast_graph(kSettings), "coast.toml")->channels("nothing", {0.0, 0.0}, {1.0, 1.0});
        ADD_FAILURE() << "an unknown drainage node was accepted";
    } catch (const GraphError& e) {
        EXPECT_NE(std::string(e.what()).find("no drainage node 'nothing'"), std::string::npos) << e.what();
    }
}

// Issue 53: with `floodplain` a valley's floor rises from its river at that slope (the water
// below its banks, the floor falling towards the river); without, the floor is level with the
// water. Across the middle of each trunk of a one-level network with wide floors and no beds
// (most samples: where another trunk's valley is lower, that one shows).
TEST(Drainage, a_floodplain_floor_rises_from_the_river_at_its_slope) {
    const std::string flat =
        "cell_m = 1000.0, levels = 1, slope = 0.6, floor_m = 200.0, bed_depth_m = 0.0, water_levels = 1, "
        "sea_level = -1000.0";
    const auto level = parse_graph(coast_graph(flat), "flat.toml");
    const auto rising = parse_graph(coast_graph(flat + ", floodplain = 0.05"), "rising.toml");
    int samples = 0, level_floor = 0, rising_floor = 0;
    for (const GraphChannel& c : level->channels("drain", {-3000.0, -3000.0}, {3000.0, 3000.0})) {
        const glm::dvec2 along = c.to - c.from;
        if (glm::length(along) < 400.0) continue;
        const glm::dvec2 mid = 0.5 * (c.from + c.to), across = glm::dvec2(-along.y, along.x) / glm::length(along);
        const double water = 0.5 * (c.water_from + c.water_to);
        for (const double d : {-150.0, -80.0, -30.0, 30.0, 80.0, 150.0}) {
            const glm::dvec2 p = mid + d * across;
            ++samples;
            level_floor += std::fabs(level->ground_height(p.x, p.y) - water) < 1e-6;
            rising_floor += std::fabs(rising->ground_height(p.x, p.y) - (water + 0.05 * std::fabs(d))) < 1e-6;
        }
    }
    ASSERT_GT(samples, 100);
    EXPECT_GT(level_floor, samples * 7 / 10);
    EXPECT_GT(rising_floor, samples * 7 / 10);
}

// Issue 53: the water on a 4 m grid. Without `water_reach_m` it is a river's level in its bed
// and -10,000 beside it, so the grid's bilinear blend drops from one to the other inside a grid
// cell: the wet edge (and the sand by it) runs along the grid's lines, a staircase. With it the
// water sinks smoothly away from the bank and is continuous: where it lies near the ground (the
// shore, the sand), it moves by less than a metre over a quarter of a metre.
TEST(Drainage, with_water_reach_the_water_by_a_river_is_continuous_between_grid_nodes) {
    const auto largest_step_at_the_shore = [](const std::string& settings) {
        const auto ground = parse_graph(coast_graph(settings), "ground.toml");
        const auto water = parse_graph(coast_graph(settings, "drain.water"), "water.toml");
        double largest = 0.0;
        int wet = 0;
        for (const GraphChannel& c : ground->channels("drain", {-4000.0, -4000.0}, {4000.0, 4000.0})) {
            if (c.level >= 2 || c.water_to <= 0.0 || glm::length(c.to - c.from) < 200.0) continue;
            const glm::dvec2 along = c.to - c.from, mid = 0.5 * (c.from + c.to);
            const glm::dvec2 across = glm::dvec2(-along.y, along.x) / glm::length(along);
            double before = NAN;
            for (double d = -40.0; d <= 40.0; d += 0.25) {
                const glm::dvec2 p = mid + d * across;
                const double w = water->ground_height(p.x, p.y), g = ground->ground_height(p.x, p.y);
                wet += w > g;
                if (std::isfinite(before) && (w > g - 2.0 || before > g - 2.0)) largest = std::max(largest, std::fabs(w - before));
                before = w;
            }
        }
        EXPECT_GT(wet, 200) << settings;
        return largest;
    };
    const std::string grid = std::string(kSettings) + ", grid_m = 4.0";
    EXPECT_GT(largest_step_at_the_shore(grid), 100.0);
    EXPECT_LT(largest_step_at_the_shore(grid + ", floodplain = 0.03, water_reach_m = 30.0"), 1.0);
}
