// A user's weld (Blender's "merge by distance", 0.1 mm by default) leaves what the World
// shows manifold, at every level and across the levels' seams, for marching cubes and surface
// nets, around a focus no other test uses: no edge comes to be shared by more than two
// triangles. Surface nets have no two distinct points within 0.1 mm, so nothing merges; for
// marching cubes the one pair that may (a transition's vertex beside a held one on a chunk's
// edge) collapses a triangle harmlessly. Issue 56 (crossings 2^-16 of a cell off the
// samples then): 8 edges shared by more than two triangles and 10 collapsed triangles for
// marching cubes, 2 and 2 for surface nets, in 1.6 M triangles.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "classic_presets.hpp"
#include "isoterra/graph.hpp"
#include "weld_checks.hpp"
#include "test_pace.hpp"
#include "world_checks.hpp"

using namespace isoterra;
using namespace isoterra::test;

namespace {

// A level plane through the samples at y = 0 (on every level's lattice), each column's sample
// there nudged 1e-6 up or down at random: every crossing near those samples lies a hair off
// them, on both sides, at every level and in every seam.
struct HairPlane final : Field {
    static double nudge(double x, double z) {
        const double h = std::sin(x * 12.9898 + z * 78.233) * 43758.5453;
        return h - std::floor(h) < 0.5 ? 1e-6 : -1e-6;
    }
    void sample_points(const glm::dvec3* p, std::size_t n, double* out) const override {
        for (std::size_t i = 0; i < n; ++i) out[i] = p[i].y + nudge(p[i].x, p[i].z);
    }
    ValueRange bounds(const Box& b) const override { return {b.lo.y - 1e-6, b.hi.y + 1e-6}; }
};

struct WeldCase {
    const char* name;
    std::shared_ptr<const Field> field;
    bool above_ground;  // the focus's height above the field's ground rather than above 0
};

std::vector<WeldCase> weld_cases() {
    const std::string corpus = std::string(ISOTERRA_SOURCE_DIR) + "/tests/fuzz/corpus/graph/";
    return {
        {"hair plane", std::make_shared<const HairPlane>(), false},
        {"tutorial", tutorial(), false},
        {"canyons graph", builtin_terrain("canyons").make_field(), true},
        // Terraces: flats of samples at or next to 0, whose crossings crowd the samples.
        {"terraced plateau graph", load_terrain_file(corpus + "terraced_plateau.toml").make_field(), false},
    };
}

}  // namespace

// Whether two points lie on one line of the chunk grid (two coordinates the same multiple of
// 32 m), as the one pair that may lie closer than a weld's distance: where a chunk's face
// borders a coarser column and the next face a chunk of its own level, the full-resolution
// vertex on the chunk's edge between them stays there (shared with that neighbour) and a
// triangle of the transition strip joins it to the half-resolution vertex on the same line,
// which the field's near linearity puts close.
bool on_one_grid_line(const std::pair<glm::dvec3, glm::dvec3>& pair) {
    const auto& [p, q] = pair;
    int shared = 0;
    for (int a = 0; a < 3; ++a) shared += p[a] == q[a] && std::fmod(p[a], 32.0) == 0.0;
    return shared == 2;
}

class WatertightAfterAWeld : public ::testing::TestWithParam<Mesher> {};

TEST_P(WatertightAfterAWeld, a_weld_at_0_1_mm_leaves_the_shown_levels_manifold) {
    std::size_t triangles = 0;
    for (const WeldCase& c : weld_cases()) {
        // A slow (sanitizer) build takes the plane alone; the Release tree every field.
        if (test::slow_build() && std::string(c.name) != "hair plane") continue;
        glm::dvec3 focus(-613.7, 25.0, 877.3);
        if (c.above_ground) focus.y += c.field->ground_height(focus.x, focus.z);
        WorldSettings s = settings(2, 256.0);
        s.mesher = GetParam();
        World w(c.field, s);
        Owner owner;
        settle(w, owner, focus);
        ASSERT_EQ(w.settings().levels, 3) << c.name;
        const auto drawn = owner.shown.drawn();
        std::vector<const MeshBuffers*> meshes;
        std::size_t shown = 0;
        for (const auto& [coord, m] : drawn) meshes.push_back(&m), shown += m.triangle_count();
        ASSERT_GT(shown, 100000u) << c.name;
        triangles += shown;
        const WeldFaults f = weld_within(meshes, 1e-4);
        // No edge shared by more than two triangles, whatever merged.
        EXPECT_EQ(f.crowded, 0u) << c.name;
        std::size_t off_line = 0;
        for (const auto& pair : f.close) {
            if (on_one_grid_line(pair)) continue;
            if (off_line++ < 3)
                std::printf("  %s: (%.9f %.9f %.9f) and (%.9f %.9f %.9f)\n", c.name, pair.first.x, pair.first.y, pair.first.z,
                            pair.second.x, pair.second.y, pair.second.z);
        }
        if (GetParam() == Mesher::surface_nets) {
            // Surface nets: no two points within 0.1 mm, so nothing merges and nothing collapses.
            EXPECT_EQ(f.close.size(), 0u) << c.name;
            EXPECT_EQ(f.collapsed, 0u) << c.name;
        } else {
            // Marching cubes: no two points within 0.1 mm but the pairs on the grid's lines
            // above, whose triangle between them collapses (in each of the at most four chunks
            // around the line; its neighbours then share its edge, as when the two meet
            // exactly and drawing leaves it out).
            EXPECT_EQ(off_line, 0u) << c.name;
            EXPECT_LE(f.collapsed, 4 * f.close.size()) << c.name;
        }
        std::printf(
            "%s, %s: %zu triangles; welded at 0.1 mm: %zu pairs of points merged (%zu off the grid's lines), %zu "
            "triangles collapsed, %zu edges shared by more than two\n",
            c.name, mesher_name(GetParam()), shown, f.close.size(), off_line, f.collapsed, f.crowded);
    }
    std::printf("%zu triangles in all\n", triangles);
}

INSTANTIATE_TEST_SUITE_P(Meshers, WatertightAfterAWeld, ::testing::Values(Mesher::marching_cubes, Mesher::surface_nets),
                         [](const auto& info) {
                             return std::string(info.param == Mesher::marching_cubes ? "marching_cubes" : "surface_nets");
                         });
