// The seed's terrain function as a graph node (issue 54): a classic preset opens as a graph of
// a `terrain` node and its `terrain_ground` with the preset's materials and sea (its bits, the
// same as the node expanded into primitive nodes: graph_presets_test.cpp); a terrain node
// inside a larger graph samples the same function; bad knobs are refused, node and input named.
#include <gtest/gtest.h>

#include <algorithm>
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
        field_ = terrain_of(preset_).make_field();
    }
    KnobTerrain preset_;
    std::shared_ptr<const Field> field_;
};

Lattice chunk(glm::i64vec3 origin, double spacing) {
    Lattice l;
    l.origin = origin;
    l.size = {33, 33, 33};
    l.spacing_m = spacing;
    return l;
}

}  // namespace

TEST_P(ClassicAsNode, is_a_graph_of_the_terrain_node_and_its_ground_with_the_presets_materials_and_sea) {
    const auto* graph = dynamic_cast<const GraphField*>(field_.get());
    ASSERT_NE(graph, nullptr);
    EXPECT_EQ(graph->node_count(), 2u);  // terrain and terrain_ground
    EXPECT_TRUE(graph->has_ground());
    const double bend = std::max(preset_.terrain.overhang_plains_m, preset_.terrain.overhang_mountains_m);
    EXPECT_EQ(field_->ground_bend(), bend);
    EXPECT_EQ(field_->material_rules().surface_reach_m, bend);
    EXPECT_EQ(field_->material_rules().snow_line_m, preset_.terrain.materials.snow_line_m);
    EXPECT_EQ(field_->sea_level_m(), preset_.terrain.sea_level_m);
}

TEST_P(ClassicAsNode, lattices_of_both_uses_and_shared_columns_give_the_same_surface_within_the_bounds) {
    // The fused loop: `surface` may leave air it proves unread at any positive value, the
    // columns given or worked out give the same bits, and the bounds hold every value.
    for (const double spacing : {1.0, 4.0}) {
        const double h = field_->ground_height(40.0 * spacing, 40.0 * spacing);
        const Lattice l = chunk({24, static_cast<std::int64_t>(std::floor(h / spacing)) - 16, 24}, spacing);
        std::vector<float> values(l.count()), surface(l.count()), shared(l.count()), ground(33 * 33), heights(33 * 33);
        ASSERT_TRUE(field_->sample_lattice_and_ground(l, values.data(), ground.data()));
        ASSERT_TRUE(field_->sample_lattice_and_ground(l, surface.data(), nullptr, LatticeUse::surface));
        ASSERT_TRUE(field_->sample_lattice_and_ground(l, shared.data(), nullptr, LatticeUse::values, field_->columns_of(l).get()));
        ASSERT_TRUE(test::same_bits(values, shared));
        ASSERT_TRUE(field_->ground_heights(l, heights.data()));
        ASSERT_TRUE(test::same_bits(ground, heights));
        const ValueRange range = field_->bounds(l.bounds());
        for (std::size_t i = 0; i < values.size(); ++i) {
            ASSERT_TRUE(values[i] >= range.lo && values[i] <= range.hi) << i;
            if (!(values[i] > 0.0f)) ASSERT_TRUE(test::same_bits(surface[i], values[i])) << i;
        }
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
    const auto tutorial = make_terrain(builtin_knob_terrain("tutorial"), graph->seed());  // the node alone: its fused loop
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
