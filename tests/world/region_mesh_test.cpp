// A region meshed at once: the chunks that cover a box at each level, the refusals, and
// meshes equal to a chunk sampled and meshed by hand, on one thread or many, with edits.
#include <gtest/gtest.h>

#include "isoterra/world.hpp"

namespace isoterra {
namespace {

TEST(RegionMesh, the_chunks_covering_a_box_are_those_its_cells_touch_at_each_level) {
    const auto chunks = chunks_covering({-1.0, 0.0, 31.5}, {32.0, 1.0, 64.5});
    ASSERT_EQ(chunks.size(), 2u * 1u * 3u);
    EXPECT_EQ(chunks.front(), (ChunkCoord{-1, 0, 0, 0}));
    EXPECT_EQ(chunks.back(), (ChunkCoord{0, 0, 2, 0}));
    EXPECT_EQ(chunks[1], (ChunkCoord{0, 0, 0, 0}));                                           // x fastest
    const auto coarse = chunks_covering({0.0, -200.0, 0.0}, {300.0, 100.0, 127.0}, 4096, 2);  // 128 m chunks
    ASSERT_EQ(coarse.size(), 3u * 3u * 1u);
    EXPECT_EQ(coarse.front(), (ChunkCoord{0, -2, 0, 2}));
    EXPECT_EQ(coarse.back(), (ChunkCoord{2, 0, 0, 2}));
}

TEST(RegionMesh, refuses_empty_boxes_far_boxes_bad_levels_and_too_many_chunks) {
    const auto message = [](auto&& call) {
        try {
            call();
        } catch (const RegionError& e) {
            return std::string(e.what());
        }
        return std::string("(nothing thrown)");
    };
    EXPECT_EQ(message([] { chunks_covering({0, 0, 0}, {32, 0, 32}); }), "Y must grow from the first corner to the second, got 0 to 0");
    EXPECT_NE(message([] { chunks_covering({0, 0, 0}, {2e8, 1, 1}); }).find("+-1e8 m"), std::string::npos);
    EXPECT_NE(message([] { chunks_covering({0, 0, 0}, {0.0 / 0.0, 1, 1}); }).find("must grow"), std::string::npos);
    EXPECT_EQ(message([] { chunks_covering({0, 0, 0}, {32 * 17, 32, 32 * 16}, 256); }), "the region spans 272 chunks, more than 256");
    EXPECT_EQ(message([] { chunks_covering({0, 0, 0}, {1, 1, 1}, 4096, 11); }), "level of detail 11 is not in [0, 10]");
    EXPECT_EQ(message([] { chunks_covering({0, 0, 0}, {1, 1, 1}, 4096, -1); }), "level of detail -1 is not in [0, 10]");
}

TEST(RegionMesh, meshes_each_chunk_as_sampled_and_meshed_by_hand_with_edits_on_any_thread_count) {
    const auto field = make_plane({0.0, 1.0, 0.0}, 3.25);
    ChunkDeltas deltas;
    EditOp carve;
    carve.centre = {20.0, 3.0, 20.0};
    carve.radius_m = 6.0;
    apply_edit(*field, carve, deltas);
    const auto chunks = chunks_covering({0.0, 0.0, 0.0}, {64.0, 16.0, 64.0});
    ASSERT_EQ(chunks.size(), 2u * 1u * 2u);
    for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
        const auto one = mesh_chunks(*field, &deltas, chunks, mesher, 1);
        const auto many = mesh_chunks(*field, &deltas, chunks, mesher, 3);
        ASSERT_EQ(one.size(), chunks.size());
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            ChunkSamples samples;
            MeshScratch scratch;
            MeshBuffers expected;
            sample_chunk(*field, chunks[i], mesher_padding(mesher), samples);
            apply_deltas(deltas, samples);
            mesh_chunk(mesher, samples, field->material_rules(), scratch, expected);
            EXPECT_EQ(one[i].positions, expected.positions) << mesher_name(mesher) << " chunk " << i;
            EXPECT_EQ(one[i].indices, expected.indices);
            EXPECT_EQ(many[i].positions, expected.positions);
            EXPECT_EQ(many[i].indices, expected.indices);
            EXPECT_GT(expected.triangle_count(), 0u);
        }
        // Merged: every triangle drawn among neighbours of the chunk's own level, once;
        // positions in world metres.
        const MeshBuffers all = merge_meshes(one);
        std::size_t triangles = 0;
        for (const auto& m : one) triangles += triangles_drawn(m, Neighbourhood{});
        EXPECT_EQ(all.triangle_count(), triangles) << mesher_name(mesher);
        EXPECT_EQ(all.origin, glm::dvec3(0.0));
        for (const glm::vec3& p : all.positions) ASSERT_TRUE(p.x >= -1.0f && p.x <= 65.0f && p.z >= -1.0f && p.z <= 65.0f);
    }
    // The carve shows: the plane alone has fewer triangles.
    const auto plain = merge_meshes(mesh_chunks(*field, nullptr, chunks, Mesher::marching_cubes, 2));
    EXPECT_LT(plain.triangle_count(), merge_meshes(mesh_chunks(*field, &deltas, chunks, Mesher::marching_cubes, 2)).triangle_count());
}

}  // namespace
}  // namespace isoterra
