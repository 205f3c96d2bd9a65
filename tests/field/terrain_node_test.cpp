// The seed's terrain function as a graph node (issue 54): a classic preset opens as a graph of
// a `terrain` node and its `terrain_ground` and gives the terrain function's bits (points,
// lattices of either use, ground heights, columns, bounds); a terrain node inside a larger
// graph samples the same function; bad knobs are refused with the node and input named.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "classic_presets.hpp"
#include "isoterra/graph.hpp"
#include "same_bits.hpp"

using namespace isoterra;

namespace {

class ClassicAsNode : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        preset_ = test::classic_preset(GetParam());
        builtin_ = make_terrain(preset_, preset_.seed);
        node_ = terrain_of(preset_).make_field();
    }
    Preset preset_;
    std::unique_ptr<TerrainField> builtin_;
    std::shared_ptr<const Field> node_;
};

Lattice chunk(glm::i64vec3 origin, double spacing) {
    Lattice l;
    l.origin = origin;
    l.size = {33, 33, 33};
    l.spacing_m = spacing;
    return l;
}

}  // namespace

TEST_P(ClassicAsNode, is_a_graph_of_the_terrain_node) {
    const auto* graph = dynamic_cast<const GraphField*>(node_.get());
    ASSERT_NE(graph, nullptr);
    EXPECT_EQ(graph->node_count(), 2u);  // terrain and terrain_ground
    EXPECT_EQ(node_->sea_level_m(), builtin_->sea_level_m());
    EXPECT_EQ(node_->ground_bend(), builtin_->most_bend());
    EXPECT_EQ(node_->material_rules().surface_reach_m, builtin_->material_rules().surface_reach_m);
}

TEST_P(ClassicAsNode, samples_the_terrain_functions_bits) {
    Mulberry32 r(5);
    std::vector<glm::dvec3> points;
    for (int i = 0; i < 600; ++i) points.emplace_back((r.next() * 2 - 1) * 4e3, -100.0 + 400.0 * r.next(), (r.next() * 2 - 1) * 4e3);
    std::vector<double> want(points.size()), got(points.size());
    builtin_->sample_points(points.data(), points.size(), want.data());
    node_->sample_points(points.data(), points.size(), got.data());
    for (std::size_t i = 0; i < points.size(); ++i) ASSERT_TRUE(test::same_bits(got[i], want[i])) << i;
    for (std::size_t i = 0; i < points.size(); i += 17)
        ASSERT_TRUE(test::same_bits(node_->ground_height(points[i].x, points[i].z), builtin_->surface_height(points[i].x, points[i].z)));
    for (const double spacing : {1.0, 4.0}) {
        const double h = builtin_->surface_height(40.0 * spacing, 40.0 * spacing);
        const Lattice l = chunk({24, static_cast<std::int64_t>(std::floor(h / spacing)) - 16, 24}, spacing);
        for (const LatticeUse use : {LatticeUse::values, LatticeUse::surface}) {
            std::vector<float> a(l.count()), b(l.count()), ga(33 * 33), gb(33 * 33);
            ASSERT_TRUE(builtin_->sample_lattice_and_ground(l, a.data(), ga.data(), use));
            ASSERT_TRUE(node_->sample_lattice_and_ground(l, b.data(), gb.data(), use, node_->columns_of(l).get()));
            ASSERT_TRUE(test::same_bits(a, b)) << spacing;
            ASSERT_TRUE(test::same_bits(ga, gb)) << spacing;
        }
        const Box box = l.bounds();
        const ValueRange want_range = builtin_->bounds(box), got_range = node_->bounds(box);
        EXPECT_EQ(got_range.lo, want_range.lo);
        EXPECT_EQ(got_range.hi, want_range.hi);
    }
}

INSTANTIATE_TEST_SUITE_P(Presets, ClassicAsNode, ::testing::ValuesIn(test::classic_preset_names()));

TEST(TerrainNode, inside_a_graph_samples_the_terrain_function) {
    // The tutorial's terrain with a ball carved out: far from the ball, the graph's value is
    // the terrain function's (the point path's double values, and on a lattice within a float).
    const std::string text =
        "format = 1\n[node]\nterrain = { type = \"terrain\" }\nball = { type = \"sphere\", center = [0.0, 30.0, 0.0], radius = 5.0 }\n"
        "cut = { type = \"subtract\", a = \"terrain\", b = \"ball\" }\n[output]\nsdf = \"cut\"\n";
    const auto graph = parse_graph(text, "cut.toml");
    const auto tutorial = make_terrain(builtin_preset("tutorial"), graph->seed());
    const glm::dvec3 far(300.0, tutorial->surface_height(300.0, 200.0) - 2.0, 200.0);
    EXPECT_TRUE(test::same_bits(graph->value(far), tutorial->value(far)));
    const glm::dvec3 inside(0.0, 30.0, 0.0);
    EXPECT_GT(graph->value(inside), 0.0);  // the ball is air
    const Lattice l = chunk({280, static_cast<std::int64_t>(std::floor(far.y)) - 16, 180}, 1.0);
    std::vector<float> values(l.count());
    graph->sample_lattice(l, values.data());
    std::vector<float> want(l.count());
    tutorial->sample_lattice(l, want.data());
    for (std::size_t i = 0; i < values.size(); ++i) ASSERT_NEAR(values[i], want[i], 1e-3 + 1e-5 * std::fabs(want[i])) << i;
    const ValueRange range = graph->bounds(l.bounds());
    for (const float v : values) ASSERT_TRUE(v >= range.lo && v <= range.hi);
}

TEST(TerrainNode, refuses_a_boolean_or_integer_knob_given_another_number) {
    const auto compile = [](const std::string& knob) {
        try {
            parse_graph("format = 1\n[node]\nt = { type = \"terrain\", " + knob + " }\n[output]\nsdf = \"t\"\n", "bad.toml");
        } catch (const GraphError& e) {
            return std::string(e.what());
        }
        return std::string("compiled");
    };
    EXPECT_NE(compile("caves = 0.5").find("node 't': input 'caves': expected 0 (false) or 1 (true), got 0.5"), std::string::npos);
    EXPECT_NE(compile("hill_octaves = 2.5").find("input 'hill_octaves': expected an integer"), std::string::npos);
    EXPECT_NE(compile("mountain_from = 0.5, mountain_to = 0.2").find("input 'mountain_to'"), std::string::npos);
    EXPECT_NE(compile("cave_width = 2.0").find("input 'cave_width'"), std::string::npos);  // the presets' range
    EXPECT_EQ(compile("caves = 0, hill_octaves = 3"), "compiled");
}
