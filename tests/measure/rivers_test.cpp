// River networks from ground whose rivers are known: a graph with one straight valley (its
// river follows the valley line, order 1, at the graph's water level), a grid of three
// valleys meeting in a Y (two reaches of order 1 joining one of order 2), and the wander
// measure on lines whose sinuosity and straight pieces are known.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "isoterra/graph.hpp"
#include "isoterra/measure.hpp"
#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra;
using isoterra::test::run_cli;

namespace {

double to_segment(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b) {
    const glm::dvec2 d = b - a;
    const double t = std::clamp(glm::dot(p - a, d) / glm::dot(d, d), 0.0, 1.0);
    return glm::length(p - a - t * d);
}

glm::dvec2 xz(const glm::dvec3& p) { return {p.x, p.y}; }

// A valley along the unit direction (cos a, sin a) through the origin, falling 2 % along
// it, its sides rising 20 %; the water 1 m above the ground.
std::string valley_graph(double degrees) {
    const double c = std::cos(degrees * std::numbers::pi / 180.0), s = std::sin(degrees * std::numbers::pi / 180.0);
    return fmt::format(R"(format = 1
name = "valley"
[node]
px = {{ type = "x" }}
pz = {{ type = "z" }}
nz = {{ type = "mul", a = "pz", b = {0:.17g} }}
nx = {{ type = "mul", a = "px", b = {1:.17g} }}
n = {{ type = "add", a = "nz", b = "nx" }}
side = {{ type = "abs", in = "n" }}
az = {{ type = "mul", a = "pz", b = {2:.17g} }}
ax = {{ type = "mul", a = "px", b = {0:.17g} }}
along = {{ type = "add", a = "ax", b = "az" }}
fall = {{ type = "mul", a = "along", b = 0.02 }}
sides = {{ type = "mul", a = "side", b = 0.2 }}
rise = {{ type = "add", a = "fall", b = "sides" }}
ground = {{ type = "add", a = "rise", b = 100.0 }}
water = {{ type = "add", a = "ground", b = 1.0 }}
land = {{ type = "plane", height = "ground" }}
[output]
sdf = "land"
ground = "ground"
water = "water"
)",
                       c, -s, s);
}

const std::string kValley = valley_graph(20.0);

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST(Rivers, a_straight_valley_gives_one_reach_of_order_1_on_its_line_at_the_graphs_water_level) {
    const auto field = parse_terrain_source(kValley, "valley.toml").make_field();
    RiverOptions options;
    options.min_area_m2 = 1.0e5;
    const auto reaches = field_rivers(*field, {-1000.0, -1000.0}, {1000.0, 1000.0}, 5.0, options, 2);
    ASSERT_EQ(reaches.size(), 1u);
    const RiverReach& r = reaches[0];
    EXPECT_EQ(r.order, 1);
    const glm::dvec2 d(std::cos(20.0 * std::numbers::pi / 180.0), std::sin(20.0 * std::numbers::pi / 180.0));
    // Upstream first: it runs against d (the valley falls towards -d), out of the square's edge.
    EXPECT_GT(glm::dot(xz(r.points.front()), d), 600.0);
    EXPECT_LT(glm::dot(xz(r.points.back()), d), -1000.0);
    EXPECT_NEAR(std::max(std::fabs(r.points.back().x), std::fabs(r.points.back().y)), 1000.0, 1e-9);
    double previous = INFINITY;
    for (const glm::dvec3& p : r.points) {
        // On the valley line (D8's stairs smoothed out), the water 1 m over its floor.
        EXPECT_LT(std::fabs(glm::dot(xz(p), glm::dvec2(-d.y, d.x))), 2.0) << p.x << " " << p.y;
        EXPECT_NEAR(p.z, 101.0 + 0.02 * glm::dot(xz(p), d), 0.5) << p.x << " " << p.y;
        EXPECT_LE(p.z, previous);  // never rising downstream
        previous = p.z;
    }
    EXPECT_NEAR(r.width_m, river_width_m(r.area_m2), 1e-12);
    const RiverWander w = measure_wander(reaches, RiverWander{.min_order = 1});
    EXPECT_EQ(w.reaches, 1u);
    EXPECT_NEAR(w.median_sinuosity, 1.0, 0.01);
    EXPECT_GT(w.straight_share, 0.95);
}

TEST(Rivers, straight_valleys_at_any_angle_read_straight_at_10_m_the_grids_stairs_smoothed_out) {
    for (const double degrees : {8.0, 33.0}) {
        const auto field = parse_terrain_source(valley_graph(degrees), "valley.toml").make_field();
        RiverOptions options;
        options.min_area_m2 = 1.0e5;
        const auto reaches = field_rivers(*field, {-2000.0, -2000.0}, {2000.0, 2000.0}, 10.0, options, 2);
        ASSERT_EQ(reaches.size(), 1u) << degrees;
        const RiverWander w = measure_wander(reaches, RiverWander{.min_order = 1});
        EXPECT_LT(w.median_sinuosity, 1.002) << degrees;
        EXPECT_GT(w.straight_share, 0.99) << degrees;
    }
}

// Three valleys: tributaries from (-600, 1400) and (600, 1400) to (0, 800), the trunk from
// there to (0, 0) at the grid's edge; heights fall 1 % along them, sides rise 10 %.
TEST(Rivers, two_tributaries_of_order_1_join_a_trunk_of_order_2_at_the_junction) {
    HeightGrid g;
    g.width = 161, g.height = 161;
    g.dx_m = g.dz_m = 10.0;
    g.origin = {-800.0, 0.0};
    g.heights.assign(g.count(), 0.0);
    const glm::dvec2 junction(0.0, 800.0), left(-600.0, 1400.0), right(600.0, 1400.0);
    for (int r = 0; r < g.height; ++r)
        for (int c = 0; c < g.width; ++c) {
            const glm::dvec2 p = g.origin + glm::dvec2(c * g.dx_m, r * g.dz_m);
            double h = 0.1 * to_segment(p, {0.0, 0.0}, junction) + std::min(p.y, junction.y) / 100.0;  // the trunk's valley
            for (const glm::dvec2 head : {left, right}) {
                const glm::dvec2 d = glm::normalize(head - junction);
                const double along = std::max(glm::dot(p - junction, d), 0.0);
                const double side = glm::length(p - junction - along * d);
                h = std::min(h, 8.0 + along / 100.0 + 0.1 * side);
            }
            g.heights[g.index(c, r)] = h;
        }
    RiverOptions options;
    options.min_area_m2 = 2.0e5;
    const auto reaches = river_network(g, options);
    ASSERT_EQ(reaches.size(), 3u);
    std::vector<const RiverReach*> firsts;
    const RiverReach* trunk = nullptr;
    for (const RiverReach& r : reaches) {
        if (r.order == 1) firsts.push_back(&r);
        if (r.order == 2) trunk = &r;
    }
    ASSERT_NE(trunk, nullptr);
    ASSERT_EQ(firsts.size(), 2u);
    EXPECT_LT(glm::length(xz(trunk->points.front()) - junction), 30.0);
    EXPECT_NEAR(trunk->points.back().y, 0.0, 1e-9);
    for (const glm::dvec3& p : trunk->points) EXPECT_LT(std::fabs(p.x), 2.0);
    for (const RiverReach* f : firsts) {
        // Each ends where the trunk starts, and follows its own valley.
        EXPECT_EQ(f->points.back(), trunk->points.front());
        const glm::dvec2 head = f->points.front().x < 0.0 ? left : right;
        for (std::size_t i = 0; i + 1 < f->points.size(); ++i) EXPECT_LT(to_segment(xz(f->points[i]), junction, head), 10.0);
        EXPECT_LT(f->area_m2, trunk->area_m2);
    }
}

TEST(Rivers, the_wander_measure_gives_a_half_circles_sinuosity_and_the_straight_share_of_a_bent_line) {
    // A half circle of radius 1000 m: length / chord = pi / 2; no 200 m of it is within 2 m
    // of its chord (the sagitta is 5 m).
    RiverReach arc;
    arc.order = 2;
    for (int i = 0; i <= 1000; ++i) {
        const double a = std::numbers::pi * i / 1000.0;
        arc.points.emplace_back(1000.0 * std::cos(a), 1000.0 * std::sin(a), 0.0);
    }
    RiverWander w = measure_wander({arc});
    EXPECT_EQ(w.reaches, 1u);
    EXPECT_NEAR(w.median_sinuosity, std::numbers::pi / 2.0, 1e-5);
    EXPECT_EQ(w.straight_share, 0.0);
    // 1,500 m straight, then a quarter circle of radius 1000 m: the straight pieces cover the
    // straight part and reach into the arc until the chord's gap passes 2 m (about 60 m).
    RiverReach bent;
    bent.order = 3;
    for (int i = 0; i <= 150; ++i) bent.points.emplace_back(-1500.0 + 10.0 * i, 1000.0, 0.0);
    for (int i = 1; i <= 500; ++i) {
        const double a = std::numbers::pi / 2.0 * (1.0 - i / 500.0);
        bent.points.emplace_back(1000.0 * std::cos(a), 1000.0 * std::sin(a), 0.0);
    }
    w = measure_wander({bent, arc});
    const double bent_length = 1500.0 + std::numbers::pi * 500.0;
    EXPECT_EQ(w.reaches, 2u);
    EXPECT_NEAR(w.length_m, bent_length + std::numbers::pi * 1000.0, 0.1);
    EXPECT_GT(w.straight_share * w.length_m, 1500.0);
    EXPECT_LT(w.straight_share * w.length_m, 1600.0);
    // Reaches of order 1, or whose ends are under min_chord_m apart, are left out.
    arc.order = 1;
    EXPECT_EQ(measure_wander({arc}).reaches, 0u);
    EXPECT_TRUE(std::isnan(measure_wander({arc}).median_sinuosity));
    EXPECT_EQ(measure_wander({bent}, RiverWander{.min_chord_m = 3000.0}).reaches, 0u);
}

TEST(Rivers, bad_grids_water_widths_and_thresholds_are_refused_in_one_line) {
    HeightGrid g;
    g.width = g.height = 4;
    g.heights.assign(16, 1.0);
    const std::vector<double> short_water(15, 0.0);
    const auto message = [](const auto& f) {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(message([&] { river_network(g, {}, &short_water); }), "rivers: the water levels do not match the grid's size");
    EXPECT_EQ(message([&] { river_network(g, {}, nullptr, &short_water); }), "rivers: the river widths do not match the grid's size");
    EXPECT_EQ(message([&] { river_network(g, RiverOptions{.min_area_m2 = 0.0}); }),
              "rivers: the channel threshold (drainage area) must be positive and finite");
    g.width = 2;
    EXPECT_EQ(message([&] { river_network(g); }), "landform: the grid has 2x4 cells; at least 3x3 are needed");
    const auto field = parse_terrain_source(kValley, "valley.toml").make_field();
    EXPECT_EQ(message([&] {
                  field_rivers(*field, {0.0, 0.0}, {9.0, 100.0}, 5.0, {}, 1);
              }),
              "rivers: the region holds fewer than 3 samples a side at this step");
    EXPECT_EQ(message([&] {
                  field_rivers(*field, {0.0, 0.0}, {100.0, 100.0}, 0.0, {}, 1);
              }),
              "rivers: the step must be positive and finite");
}

TEST(RiversCli, the_valley_graphs_river_is_one_geojson_linestring_and_the_same_bytes_on_every_run) {
    const std::string graph = test::fresh_path("valley.toml"), out = test::fresh_path("valley.geojson");
    std::ofstream(graph) << kValley;
    const std::string args = "landform --config " + graph + " --from -500,-500 --to 500,500 --step 5 --river-area 0.1 --quiet --rivers ";
    const auto r = run_cli(args + out + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string bytes = file_text(out);
    const nlohmann::json j = nlohmann::json::parse(bytes);
    EXPECT_EQ(j["type"], "FeatureCollection");
    ASSERT_EQ(j["features"].size(), 1u);
    const auto& f = j["features"][0];
    EXPECT_EQ(f["type"], "Feature");
    EXPECT_EQ(f["geometry"]["type"], "LineString");
    EXPECT_EQ(f["properties"]["order"], 1);
    EXPECT_GT(f["properties"]["width_m"].get<double>(), 0.0);
    const auto& line = f["geometry"]["coordinates"];
    ASSERT_GT(line.size(), 100u);
    for (const auto& p : line) {
        ASSERT_EQ(p.size(), 3u);
        // On the valley's line, at its water level (1 m over the floor).
        EXPECT_LT(std::fabs(-0.3420201433256687 * p[0].get<double>() + 0.9396926207859084 * p[1].get<double>()), 2.0);
        const double along = 0.9396926207859084 * p[0].get<double>() + 0.3420201433256687 * p[1].get<double>();
        EXPECT_NEAR(p[2].get<double>(), 101.0 + 0.02 * along, 0.5);
    }
    const nlohmann::json report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report["rivers"]["reaches"], 1);
    EXPECT_EQ(report["rivers"]["measured_reaches"], 0);  // order 1 only
    // The same bytes again.
    ASSERT_EQ(run_cli(args + out).code, 0);
    EXPECT_EQ(file_text(out), bytes);
}

TEST(RiversCli, bad_rivers_flags_and_a_missing_folder_get_one_line_and_exit_2_with_nothing_written) {
    auto r = run_cli("landform --preset rivers --from 0,0 --to 1000,1000 --step 50 --rivers rivers.json --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "isoterra: --rivers: 'rivers.json' does not end in .geojson\n");
    r = run_cli("landform --preset rivers --from 0,0 --to 1000,1000 --step 50 --rivers r.geojson --river-area 0 --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("--river-area"), std::string::npos) << r.err;
    // Three samples a side, but two whole multiples of the step.
    r = run_cli("landform --preset rivers --from 10,10 --to 110,110 --step 50 --rivers r.geojson --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "isoterra: --from/--to/--step: rivers: the region holds fewer than 3 samples a side at this step\n");
    // A network over the memory budget is refused before it is sampled.
    r = run_cli("landform --preset rivers --from 0,0 --to 4000,4000 --step 5 --rivers r.geojson --quiet", "", "ISOTERRA_MEMORY_BUDGET=16M");
    EXPECT_EQ(r.code, 2);
    // The landform's own plan (the grid it samples) is checked first, then the network's.
    EXPECT_EQ(r.err.rfind("isoterra: landform of 801x801 cells needs about ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    const std::string dir = test::fresh_path("no_such_dir");
    r = run_cli("landform --preset rivers --from 0,0 --to 1000,1000 --step 50 --rivers " + dir + "/r.geojson --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "isoterra: " + dir + "/r.geojson: cannot create a file there (No such file or directory)\n");
    EXPECT_FALSE(std::ifstream(dir + "/r.geojson").good());
}
