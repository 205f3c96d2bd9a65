// Presets at the far ends of what parse_knob_terrain accepts: every value of the field stays finite,
// and the world meshes them with each mesher into finite vertices where the ground is.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "test_pace.hpp"
#include "world_checks.hpp"

using namespace isoterra;

namespace {

struct End {
    const char* key;
    double lo, hi;  // the ends parse_knob_terrain accepts (open ends: a hair inside)
};

// The documented ranges of docs/design/reliability.md.
// clang-format off
const std::vector<End> kEnds = {
    {"iso_level", -1e4, 1e4},           {"base_height_m", -1e4, 1e4},
    {"hill_scale_m", 0.1, 1e7},         {"hill_height_m", -1e4, 1e4},
    {"hill_lacunarity", 1.0001, 4},     {"hill_gain", 1e-6, 0.999999},
    {"reshape_exponent", 1, 8},         {"reshape_fudge", 1e-6, 4},
    {"reshape_multiplier_m", -1e4, 1e4}, {"mountain_scale_m", 0.1, 1e7},
    {"ridge_scale_m", 0.1, 1e7},        {"ridge_lacunarity", 1.0001, 4},
    {"ridge_gain", 1e-6, 0.999999},     {"ridge_sharpness", 1e-6, 100},
    {"ridge_crest", 0, 100},            {"ridge_exponent", 1, 8},
    {"ridge_height_m", -1e4, 1e4},      {"warp_scale_m", 0.1, 1e7},
    {"warp_distance_m", 0, 1e4},        {"overhang_scale_m", 0.1, 1e7},
    {"overhang_vertical_scale_m", 0.1, 1e7}, {"overhang_plains_m", 0, 1e3},
    {"overhang_mountains_m", 0, 1e3},   {"cave_scale_m", 0.1, 1e7},
    {"cave_vertical_scale_m", 0.1, 1e7}, {"cave_width", 0, 1},
    {"cave_metres_per_unit", 1e-6, 1e4}, {"cave_entrance_depth_m", 0, 1e3},
    {"cave_entrance_narrowing", 0, 100}, {"cave_blend_m", 0, 1e3},
    {"sea_level_m", -1e9, 1e4},         {"snow_line_m", -1e6, 1e6},
    {"snow_blend_m", 1e-6, 1e6},        {"soil_depth_m", 1e-6, 1e6},
    {"sand_height_m", 0, 1e4},
};
// clang-format on

// Every mesher, on the chunks of a column through the ground at (x, z), at levels 0 and 4:
// finite vertices and normals.
void expect_finite_meshes(const Field& field, double x, double z, const std::string& what) {
    double ground = 0.0;
    {
        Lattice one;
        one.origin = glm::i64vec3(static_cast<std::int64_t>(x), 0, static_cast<std::int64_t>(z));
        one.size = glm::ivec3(1, 1, 1);
        float h = 0.0f;
        if (field.ground_heights(one, &h)) ground = h;
    }
    ASSERT_TRUE(std::isfinite(ground)) << what;
    for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
        for (const int lod : {0, 4}) {
            const double size = 32.0 * (1 << lod);
            const int cy = static_cast<int>(std::floor(std::clamp(ground, -4096.0, 4096.0) / size));
            for (int dy = -1; dy <= 1; ++dy) {
                const ChunkCoord c{static_cast<int>(std::floor(x / size)), cy + dy, static_cast<int>(std::floor(z / size)), lod};
                ChunkSamples s;
                sample_world_chunk(field, nullptr, c, mesher, -64.0 * (1 << lod), s);
                MeshScratch scratch;
                MeshBuffers m;
                mesh_chunk(mesher, s, field.material_rules(), scratch, m);
                for (std::size_t v = 0; v < m.vertex_count(); ++v)
                    for (int a = 0; a < 3; ++a) {
                        ASSERT_TRUE(std::isfinite(m.positions[v][a])) << what << " " << mesher_name(mesher);
                        ASSERT_TRUE(std::isfinite(m.normals[v][a])) << what << " " << mesher_name(mesher);
                    }
            }
        }
    }
}

KnobTerrain with(const std::string& lines) {
    return parse_knob_terrain("name = \"extreme\"\ncaves = true\nreshape = true\n" + lines, "extreme.toml");
}

}  // namespace

TEST(ExtremePresets, each_key_at_each_end_of_its_range_meshes_finitely) {
    for (std::size_t key = 0; key < kEnds.size(); ++key) {
        const End& e = kEnds[key];
        for (const double v : {e.lo, e.hi}) {
            // A slow (sanitizer) build: one end of each key, the low and the high in turn.
            if (test::slow_build() && (v == e.hi) != (key % 2 == 1)) continue;
            const std::string line = fmt::format("{} = {:.17g}\n", e.key, v);
            KnobTerrain p;
            ASSERT_NO_THROW(p = with(line)) << line;
            const auto field = make_terrain(p, 7);
            expect_finite_meshes(*field, 1234.5, -5678.25, line);
            if (!test::slow_build()) expect_finite_meshes(*field, 0.0, 0.0, line);
        }
    }
}

TEST(ExtremePresets, just_past_each_end_is_refused) {
    for (const End& e : kEnds) {
        const double below = e.lo - std::max(1.0, std::fabs(e.lo)) * 1e-3, above = e.hi + std::max(1.0, std::fabs(e.hi)) * 1e-3;
        EXPECT_THROW(with(fmt::format("{} = {:.17g}\n", e.key, below)), KnobTerrainError) << e.key << " " << below;
        EXPECT_THROW(with(fmt::format("{} = {:.17g}\n", e.key, above)), KnobTerrainError) << e.key << " " << above;
    }
}

TEST(ExtremePresets, everything_at_once_streams_into_a_world_of_finite_meshes) {
    // Heights all at their top, feature scales at their smallest or largest: the wildest
    // fields the ranges allow, shown by a world as render and fly show them.
    const std::string tall =
        "hill_height_m = 1e4\nridge_height_m = 1e4\nreshape_multiplier_m = 1e4\n"
        "warp_distance_m = 1e4\noverhang_plains_m = 1e3\noverhang_mountains_m = 1e3\ncave_blend_m = 1e3\n"
        "ridge_sharpness = 100\nridge_crest = 100\nridge_exponent = 8\nreshape_exponent = 8\nhill_octaves = 12\n"
        "ridge_octaves = 12\nhill_lacunarity = 4\nhill_gain = 0.999999\ncave_metres_per_unit = 1e4\n";
    int fields = 0;
    for (const std::string& scales : {std::string("hill_scale_m = 0.1\nmountain_scale_m = 0.1\nridge_scale_m = 0.1\n"
                                                  "warp_scale_m = 0.1\noverhang_scale_m = 0.1\n"
                                                  "overhang_vertical_scale_m = 0.1\ncave_scale_m = 0.1\n"
                                                  "cave_vertical_scale_m = 0.1\n"),
                                      std::string("hill_scale_m = 1e7\nmountain_scale_m = 1e7\nridge_scale_m = 1e7\n"
                                                  "warp_scale_m = 1e7\noverhang_scale_m = 1e7\n"
                                                  "overhang_vertical_scale_m = 1e7\ncave_scale_m = 1e7\n"
                                                  "cave_vertical_scale_m = 1e7\n")}) {
        for (const std::string& sign : {std::string("base_height_m = 1e4\n"), std::string("iso_level = -1e4\nbase_height_m = -1e4\n")}) {
            const auto field = std::shared_ptr<const Field>(make_terrain(with(tall + scales + sign), 1));
            expect_finite_meshes(*field, 10.0, 10.0, scales + sign);
            ++fields;
            for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets}) {
                // A slow (sanitizer) build streams two of the fields, one with each mesher (the
                // smallest scales with heights up, the largest with heights down).
                if (test::slow_build() && ((fields + static_cast<int>(mesher)) % 2 || fields == 2 || fields == 3)) continue;
                WorldSettings s = test::settings(2, 400.0);
                s.mesher = mesher;
                World w(field, s);
                test::Owner owner;
                test::settle(w, owner, glm::dvec3(0.0, 20000.0, 0.0), 300);
                std::size_t triangles = 0;
                for (const auto& [k, m] : owner.meshes) triangles += m.triangle_count();
                std::printf("%s scales, %s: %s: %zu chunks, %zu triangles\n", scales[15] == '0' ? "smallest" : "largest",
                            sign.size() < 25 ? "heights up" : "heights down", mesher_name(mesher), owner.meshes.size(), triangles);
                for (const auto& [k, m] : owner.meshes)
                    for (std::size_t v = 0; v < m.vertex_count(); ++v)
                        ASSERT_TRUE(std::isfinite(m.positions[v].x) && std::isfinite(m.positions[v].y) && std::isfinite(m.positions[v].z) &&
                                    std::isfinite(m.normals[v].x));
            }
        }
    }
}
