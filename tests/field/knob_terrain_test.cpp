// Knob terrain files: every built-in loads, round-trips, and each kind of mistake has its message.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "classic_presets.hpp"
#include "isoterra/field.hpp"
#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

std::string preset_error_of(const std::string& text) {
    try {
        parse_knob_terrain(text, "my.toml");
    } catch (const KnobTerrainError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(Presets, every_builtin_loads_and_the_five_differ) {
    // Five built-in terrains: the tutorial is a knob terrain (the terrain function's), the other four
    // are field graphs (issue 24), which builtin_knob_terrain() refuses.
    ASSERT_EQ(builtin_knob_terrain_names(), (std::vector<std::string>{"tutorial"}));
    const auto names = builtin_terrain_names();
    ASSERT_EQ(names, (std::vector<std::string>{"alpine", "canyons", "islands", "rivers", "tutorial"}));
    std::vector<std::shared_ptr<const Field>> fields;
    for (const auto& n : names) {
        const TerrainSource t = builtin_terrain(n);
        EXPECT_EQ(t.name, n);
        EXPECT_EQ(t.is_graph(), n != "tutorial") << n;
        EXPECT_EQ(is_graph_text(builtin_preset_text(n)), n != "tutorial") << n;
        EXPECT_FALSE((t.is_graph() ? parse_graph(t.graph, n)->description() : t.knobs.description).empty()) << n;
        if (n != "tutorial") {
            try {
                builtin_knob_terrain(n);
                ADD_FAILURE() << n << " read as a preset";
            } catch (const KnobTerrainError& e) {
                EXPECT_EQ(std::string(e.what()),
                          "presets/" + n + ".toml is a field graph, not a knob terrain (builtin_terrain reads both)");
            }
        }
        fields.push_back(t.make_field());
    }
    EXPECT_EQ(builtin_knob_terrain("tutorial").name, "tutorial");
    // Each one's ground differs from every other's over a 10 km line.
    for (std::size_t a = 0; a < fields.size(); ++a)
        for (std::size_t b = a + 1; b < fields.size(); ++b) {
            int differ = 0;
            for (int i = 0; i < 50; ++i) {
                const glm::dvec3 p(i * 200.0 - 5000.0, 0.0, i * -130.0 + 1000.0);
                differ += std::abs(fields[a]->value(p) - fields[b]->value(p)) > 1.0;
            }
            EXPECT_GT(differ, 40) << names[a] << " " << names[b];
        }
    // The terrain function's old presets (tests/reference/presets) still load and differ.
    EXPECT_GT(test::classic_preset("alpine").terrain.warp_distance_m, 0.0);
    EXPECT_TRUE(test::classic_preset("islands").terrain.reshape);
}

TEST(KnobTerrains, tutorial_file_holds_exactly_the_default_knobs) {
    const KnobTerrain p = builtin_knob_terrain("tutorial");
    EXPECT_EQ(knob_terrain_to_toml(p), knob_terrain_to_toml(KnobTerrain{"tutorial", p.description, 20261114, TerrainParams{}}));
}

TEST(KnobTerrains, to_toml_reads_back_to_the_same_values) {
    for (const auto& n : test::classic_preset_names()) {
        const KnobTerrain p = test::classic_preset(n);
        const KnobTerrain back = parse_knob_terrain(knob_terrain_to_toml(p), "roundtrip.toml");
        EXPECT_EQ(knob_terrain_to_toml(back), knob_terrain_to_toml(p)) << n;
    }
}

TEST(Presets, unknown_names_are_refused) {
    EXPECT_THROW(builtin_knob_terrain("nope"), KnobTerrainError);
    EXPECT_THROW(builtin_terrain("nope"), KnobTerrainError);
}

TEST(KnobTerrainErrors, each_kind_of_bad_value_names_file_line_and_key) {
    EXPECT_EQ(preset_error_of("name = \"x\"\n\n\n\n\n\nhill_scale_m = -3\n"),
              "my.toml:7: key 'hill_scale_m': expected a number in [0.1, 10000000], got -3");
    EXPECT_EQ(preset_error_of("hill_scael_m = 3\n"), "my.toml:1: unknown key 'hill_scael_m'");
    EXPECT_EQ(preset_error_of("hill_scale_m = \"big\"\n"),
              "my.toml:1: key 'hill_scale_m': expected a number in [0.1, 10000000], got \"big\"");
    EXPECT_EQ(preset_error_of("hill_scale_m = nan\n"), "my.toml:1: key 'hill_scale_m': expected a number in [0.1, 10000000], got nan");
    EXPECT_EQ(preset_error_of("base_height_m = inf\n"), "my.toml:1: key 'base_height_m': expected a number in [-10000, 10000], got inf");
    EXPECT_EQ(preset_error_of("hill_octaves = 2.5\n"), "my.toml:1: key 'hill_octaves': expected an integer in [1, 12], got 2.5");
    EXPECT_EQ(preset_error_of("hill_octaves = 40\n"), "my.toml:1: key 'hill_octaves': expected an integer in [1, 12], got 40");
    EXPECT_EQ(preset_error_of("caves = 1\n"), "my.toml:1: key 'caves': expected true or false, got 1");
    EXPECT_EQ(preset_error_of("seed = -5000000000\n"),
              "my.toml:1: key 'seed': expected an integer in [-2147483648, 4294967295], got -5000000000");
    EXPECT_EQ(preset_error_of("mountain_from = 0.5\nmountain_to = 0.2\n"),
              "my.toml:2: key 'mountain_to': expected a number > mountain_from (0.5), got 0.2");
    EXPECT_EQ(preset_error_of("[hills]\nscale = 3\n"), "my.toml:1: unknown key 'hills'");
    const std::string syntax = preset_error_of("hill_scale_m = = 3\n");
    EXPECT_EQ(syntax.rfind("my.toml:1: ", 0), 0u) << syntax;
}

TEST(KnobTerrainErrors, a_missing_file_is_named) {
    try {
        load_knob_terrain_file("/nonexistent/dir/p.toml");
        FAIL();
    } catch (const KnobTerrainError& e) {
        EXPECT_EQ(std::string(e.what()), "/nonexistent/dir/p.toml: cannot open the preset file (No such file or directory)");
    }
}

TEST(KnobTerrainErrors, a_folder_is_not_a_preset) {
    try {
        load_knob_terrain_file(ISOTERRA_SOURCE_DIR);
        FAIL();
    } catch (const KnobTerrainError& e) {
        EXPECT_EQ(std::string(e.what()), std::string(ISOTERRA_SOURCE_DIR) + ": not a preset file (not a regular file)");
    }
}

// Deep nesting of every kind TOML has is refused before the parser (which recurses) sees it;
// so is a text of more than a megabyte. Eight levels are fine (and then the keys are wrong).
TEST(KnobTerrainErrors, nesting_and_size_are_bounded_before_parsing) {
    const auto repeat = [](const std::string& s, int n) {
        std::string out;
        for (int i = 0; i < n; ++i) out += s;
        return out;
    };
    const auto dotted = [](int n) {
        std::string out = "a";
        for (int i = 1; i < n; ++i) out += ".a";
        return out;
    };
    for (const int n : {9, 100, 100000}) {
        const std::string arrays = "x = " + repeat("[", n) + repeat("]", n) + "\n";
        const std::string tables = "x = " + repeat("{a=", n) + "1" + repeat("}", n) + "\n";
        const std::string mixed = "x = " + repeat("[{a=", n) + "1" + repeat("}]", n) + "\n";
        const std::string lines = "x = [\n" + repeat("[\n", n) + repeat("]\n", n) + "]\n";
        for (const std::string& t : {arrays, tables, mixed})
            EXPECT_EQ(preset_error_of(t), "my.toml:1: arrays and inline tables nest more than 8 levels deep") << n;
        EXPECT_EQ(preset_error_of(lines), "my.toml:9: arrays and inline tables nest more than 8 levels deep") << n;
        for (const std::string& t :
             {"[" + dotted(n) + "]\n", "[[" + dotted(n) + "]]\n", dotted(n) + " = 1\n", "x = {" + dotted(n) + " = 1}\n"})
            EXPECT_EQ(preset_error_of(t), "my.toml:1: dotted keys nest more than 8 levels deep") << n;
    }
    // Brackets inside strings and comments do not count.
    EXPECT_EQ(preset_error_of("name = \"" + repeat("[{", 100) + "\" # " + repeat("[", 100) + "\nhill_scale_m = 5\n"), "(no error)");
    EXPECT_EQ(preset_error_of("description = '''\n" + repeat("[[[\n", 100) + "'''\n"), "(no error)");
    EXPECT_EQ(preset_error_of("x = " + repeat("[", 8) + repeat("]", 8) + "\n"), "my.toml:1: unknown key 'x'");
    EXPECT_EQ(preset_error_of("[" + dotted(8) + "]\n"), "my.toml:1: unknown key 'a'");
    const std::string big = "# " + std::string(std::size_t{1} << 20, 'x') + "\n";
    EXPECT_EQ(preset_error_of(big), "my.toml: 1048579 bytes, more than the 1048576 a preset or graph may have");
}
