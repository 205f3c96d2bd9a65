// Samples at or a hair off 0 put crossings next to them on several edges at once. Every
// crossing is kept 2^-11 of a cell off the samples (edge_crossing), so no two distinct
// vertices of a chunk lie within 0.1 mm of each other at 1 m cells: a user's weld at that
// distance (Blender's default merge by distance) merges nothing, and the mesh stays manifold
// with no collapsed triangle. (At 2^-16, blocks like these gave pairs 0.02 mm apart, which
// the weld merged into collapsed triangles and edges shared by four: issue 56.)
#include <gtest/gtest.h>

#include <cmath>

#include "isoterra/mesh.hpp"
#include "isoterra/noise.hpp"
#include "test_pace.hpp"
#include "weld_checks.hpp"

using namespace isoterra;

class NearSamples : public ::testing::TestWithParam<Mesher> {};

TEST_P(NearSamples, random_blocks_of_samples_a_hair_off_zero_keep_their_points_0_1_mm_apart) {
    Mulberry32 r(56);
    // Exact zeros, values a float's rounding off 0, and values whose crossings fall within
    // 2^-11 of a cell of the sample (3e-4 against 1: 3e-4 of the way), among plain ones.
    const float kinds[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-7f, -1e-7f, 3e-4f, -3e-4f, 5e-5f, -5e-5f, -0.5f, 0.5f, -1.0f, 1.0f};
    constexpr int kKinds = sizeof kinds / sizeof kinds[0];
    const int blocks = 2000 / test::sweep_step(1, 4);  // a quarter under the sanitizers
    std::size_t meshed = 0, near = 0;
    for (int trial = 0; trial < blocks; ++trial) {
        ChunkSamples s;
        s.pad = mesher_padding(GetParam());
        s.lattice = chunk_lattice(s.coord, s.pad);
        s.values.assign(s.lattice.count(), 1.0f);
        s.core_range = {-1.0, 1.0};
        const int n = 3 + trial % 2;
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const float v = kinds[static_cast<int>(r.next() * kKinds) % kKinds];
                    near += std::fabs(v) < 1e-3f;
                    s.values[s.lattice.index(11 + i, 11 + j, 11 + k)] = v;
                }
        MeshScratch scratch;
        MeshBuffers m;
        mesh_chunk(GetParam(), s, MaterialRules{}, scratch, m);
        meshed += m.triangle_count() > 0;
        const test::WeldFaults f = test::weld_within({&m}, 1e-4);
        ASSERT_EQ(f.close.size(), 0u) << "trial " << trial << " near (" << f.close[0].first.x << ", " << f.close[0].first.y << ", "
                                      << f.close[0].first.z << ")";
        ASSERT_EQ(f.collapsed, 0u) << "trial " << trial;
        ASSERT_EQ(f.crowded, 0u) << "trial " << trial;
    }
    EXPECT_GT(meshed, static_cast<std::size_t>(blocks) * 9 / 10);
    EXPECT_GT(near, static_cast<std::size_t>(blocks) * 10);  // the premise: many samples near 0
}

INSTANTIATE_TEST_SUITE_P(Meshers, NearSamples, ::testing::Values(Mesher::marching_cubes, Mesher::surface_nets), [](const auto& info) {
    return std::string(info.param == Mesher::marching_cubes ? "marching_cubes" : "surface_nets");
});
