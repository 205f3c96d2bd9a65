// The streaming world: what it loads, what it drops, how it rebuilds, and that the thread
// count changes nothing but the speed. (Levels of detail: lod_test.cpp; cracks and holes:
// watertight_test.cpp.)
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "isoterra/world.hpp"
#include "test_pace.hpp"
#include "world_checks.hpp"

using namespace isoterra;
using namespace isoterra::test;

TEST(World, a_single_level_world_settles_on_the_columns_in_view_and_their_layers_up_to_the_highest_solid_sample) {
    const WorldSettings s = settings(8, 100.0, 1);
    World w(tutorial(), s);
    Owner owner;
    const glm::dvec3 focus(40, 60, 40);
    settle(w, owner, focus);

    // Every column within the view distance is shown (and a margin of half a column).
    const LodColumnSet shown = w.shown_columns();
    for (int z = -6; z <= 6; ++z)
        for (int x = -6; x <= 6; ++x) {
            const double dx = std::max({x * 32.0 - focus.x, focus.x - (x + 1) * 32.0, 0.0});
            const double dz = std::max({z * 32.0 - focus.z, focus.z - (z + 1) * 32.0, 0.0});
            const double d = std::hypot(dx, dz);
            if (d < 100.0) EXPECT_TRUE(shown.count({0, x, z})) << x << "," << z;
            if (d > 116.0) EXPECT_FALSE(shown.count({0, x, z})) << x << "," << z;
        }
    // Each from the floor to its top, and nothing above the top holds a solid sample.
    std::set<Key> loaded;
    for (const auto& c : w.loaded()) loaded.insert(key(c));
    ChunkSamples samples;
    MeshScratch scratch;
    MeshBuffers mesh;
    int with_surface = 0;
    for (const LodColumn& c : shown) {
        const int top = w.top_layer(c);
        ASSERT_NE(top, INT_MIN);
        for (int y = s.lowest_layer; y <= top; ++y) EXPECT_TRUE(loaded.count(Key(0, c.x, y, c.z)));
        EXPECT_FALSE(loaded.count(Key(0, c.x, top + 1, c.z)));
        sample_chunk(*tutorial(), {c.x, top + 1, c.z}, mesher_padding(Mesher::marching_cubes), samples);
        for (int k = 0; k <= kChunkSize; ++k)
            for (int j = 0; j <= kChunkSize; ++j)
                for (int i = 0; i <= kChunkSize; ++i) ASSERT_GT(samples.at(i, j, k), 0.0f) << c.x << "," << top + 1 << "," << c.z;
        // The meshes the owner got are those of the chunks.
        for (int y = s.lowest_layer; y <= top; ++y) {
            sample_world_chunk(*tutorial(), nullptr, {c.x, y, c.z}, Mesher::marching_cubes, -64.0, samples, false);
            mesh_chunk(Mesher::marching_cubes, samples, tutorial()->material_rules(), scratch, mesh, kWorldTransitionSides);
            if (mesh.triangle_count() == 0) continue;
            ++with_surface;
            ASSERT_TRUE(owner.meshes.count(Key(0, c.x, y, c.z))) << "missing mesh";
            EXPECT_EQ(owner.meshes[Key(0, c.x, y, c.z)].indices, mesh.indices);
        }
    }
    EXPECT_GT(with_surface, 20);
    const WorldCounts counts = w.counts();
    std::printf("loaded %zu, built %zu, skipped by bounds %zu, with a surface %d\n", counts.loaded, counts.built, counts.skipped,
                with_surface);
}

TEST(World, a_10_km_flight_drops_what_it_leaves_and_keeps_memory_bounded) {
    World w(tutorial(), settings(8, 64.0, 1));
    Owner owner;
    std::size_t most = 0;
    for (int step = 0; step <= 160; ++step) {
        const glm::dvec3 focus(step * 62.5, 60, 0);  // 10 km along x
        w.set_focus(focus);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        w.deliver(1e9, [&](const ChunkUpdate& u) { owner.take(u); });
        most = std::max(most, w.counts().loaded);
        // (Coarse first, the level above stands in: its columns are counted in its own.)
        for (const auto& c : w.loaded()) ASSERT_LE(std::abs(c.x - static_cast<int>(std::floor(focus.x / (kChunkSize * c.spacing_m())))), 4);
    }
    settle(w, owner, glm::dvec3(10000, 60, 0));
    EXPECT_LE(most, 45u * 12u);
    for (const auto& [k, m] : owner.meshes) EXPECT_GT(std::get<1>(k), 300 - 4) << "a mesh from far behind was kept";
}

TEST(World, switching_the_mesher_rebuilds_every_chunk_once_and_keeps_old_meshes_meanwhile) {
    World w(tutorial(), settings(4, 400.0));
    Owner owner;
    const glm::dvec3 focus(500, 60, -300);
    settle(w, owner, focus);
    ASSERT_GE(w.levels(), 2);
    const std::size_t shown = owner.meshes.size();
    const std::size_t built = w.counts().built + w.counts().skipped;
    owner.deliveries.clear();
    w.set_mesher(Mesher::surface_nets);
    const auto start = std::chrono::steady_clock::now();
    while (!w.settled()) {
        w.set_focus(focus);
        w.deliver(1e9, [&](const ChunkUpdate& u) { owner.take(u); });
        ASSERT_EQ(owner.meshes.size(), shown);  // no chunk lost its mesh while waiting
        ASSERT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 120.0);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    for (const auto& [k, n] : owner.deliveries) EXPECT_EQ(n, 1);
    EXPECT_EQ(owner.deliveries.size(), w.counts().loaded);
    EXPECT_EQ(w.counts().built + w.counts().skipped - built, w.counts().loaded);
}

TEST(World, meshes_and_levels_are_identical_with_1_2_and_8_threads_and_the_owners_workers) {
    std::map<Key, MeshBuffers> reference;
    LodColumnSet reference_columns;
    // Under the sanitizers, which look for races rather than answers, one thread is left out
    // (the Release tree runs this test whole).
    const std::vector<int> counts = test::slow_build() ? std::vector<int>{2, 8, -1} : std::vector<int>{1, 2, 8, -1};
    for (const int threads : counts) {
        World w(tutorial(), settings(4, 600.0, 0, threads));
        Owner owner;
        settle(w, owner, glm::dvec3(-700, 40, 900));
        if (reference.empty()) {
            reference = owner.meshes;
            reference_columns = w.shown_columns();
            ASSERT_GE(w.levels(), 3);
            continue;
        }
        EXPECT_EQ(w.shown_columns(), reference_columns);
        ASSERT_EQ(owner.meshes.size(), reference.size());
        for (const auto& [k, m] : reference) {
            ASSERT_EQ(owner.meshes[k].positions, m.positions) << threads;
            ASSERT_EQ(owner.meshes[k].indices, m.indices) << threads;
        }
    }
}

TEST(World, invalidating_a_box_rebuilds_exactly_the_chunks_whose_samples_it_touches) {
    World w(tutorial(), settings(8, 64.0, 1));
    Owner owner;
    const glm::dvec3 focus(16, 40, 16);
    settle(w, owner, focus);
    owner.deliveries.clear();
    // A small box inside chunk (0, 0, 0), away from its faces: only that chunk reads it.
    w.invalidate({{10, -22, 10}, {12, -20, 12}});
    settle(w, owner, focus);
    ASSERT_EQ(owner.deliveries.size(), 1u);
    EXPECT_EQ(owner.deliveries.begin()->first, Key(0, 0, -1, 0));
    // On a corner shared by eight chunks, all eight are rebuilt.
    owner.deliveries.clear();
    w.invalidate({{32, 0, 32}, {32, 0, 32}});
    settle(w, owner, focus);
    EXPECT_EQ(owner.deliveries.size(), 8u);
}

// An edit across a chunk corner: the world rebuilds exactly the chunks whose samples (with
// the meshers' reach) meet the edit, keeps their old meshes until then, and the new meshes
// are those of the edited samples. A rock added high in the air loads the layers above.
TEST(World, an_edit_rebuilds_the_chunks_it_touches_and_loads_the_layers_it_raises) {
    const auto t = tutorial();
    World w(t, settings(8, 64.0, 1));
    Owner owner;
    const glm::dvec3 focus(16.0, 30.0, 16.0);
    settle(w, owner, focus);
    const auto before = owner.deliveries;
    const auto meshes_before = owner.meshes;

    EditHistory history(t);
    const EditOp carve{BrushKind::sphere, BrushMode::carve, {32.0, t->surface_height(32.0, 32.0), 32.0}, 6.0};
    history.apply(carve);
    w.set_edits(std::make_shared<const ChunkDeltas>(history.deltas()), edit_box(carve));
    EXPECT_GT(w.counts().waiting, 0u);
    EXPECT_EQ(owner.meshes.size(), meshes_before.size());  // nothing taken away meanwhile
    settle(w, owner, focus);

    const Box box = edit_box(carve);
    std::size_t rebuilt = 0;
    ChunkSamples s;
    MeshScratch scratch;
    MeshBuffers expect;
    for (const ChunkCoord& c : w.loaded()) {
        const Box r = c.read_box();
        const bool touched = r.lo.x <= box.hi.x && r.hi.x >= box.lo.x && r.lo.y <= box.hi.y && r.hi.y >= box.lo.y && r.lo.z <= box.hi.z &&
                             r.hi.z >= box.lo.z;
        const int extra = owner.deliveries[key(c)] - (before.count(key(c)) ? before.at(key(c)) : 0);
        EXPECT_EQ(extra, touched ? 1 : 0) << c.x << "," << c.y << "," << c.z;
        if (!touched) continue;
        ++rebuilt;
        sample_world_chunk(*t, &history.deltas(), c, Mesher::marching_cubes, -64.0, s, false);
        mesh_chunk(Mesher::marching_cubes, s, t->material_rules(), scratch, expect, kWorldTransitionSides);
        EXPECT_EQ(owner.meshes[key(c)].positions, expect.positions);
    }
    EXPECT_GE(rebuilt, 4u);

    const int top = w.top_layer({0, 0, 0});
    const EditOp rock{BrushKind::sphere, BrushMode::add, {10.0, (top + 2) * 32.0 + 10.0, 10.0}, 5.0};
    history.apply(rock);
    w.set_edits(std::make_shared<const ChunkDeltas>(history.deltas()), edit_box(rock));
    settle(w, owner, focus);
    EXPECT_EQ(w.top_layer({0, 0, 0}), top + 2);
    const Key raised{0, 0, top + 2, 0};
    ASSERT_TRUE(owner.meshes.count(raised));
    EXPECT_GT(owner.meshes[raised].triangle_count(), 100u);
}
