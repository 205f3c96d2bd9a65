// The streaming world: what it loads, what it drops, how it rebuilds, and that the thread
// count changes nothing but the speed.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <thread>

#include "isoterra/world.hpp"

using namespace isoterra;

namespace {

using Key = std::tuple<int, int, int>;
Key key(const ChunkCoord& c) { return {c.x, c.y, c.z}; }

std::shared_ptr<const TerrainField> tutorial() {
    static const std::shared_ptr<const TerrainField> t = make_terrain(builtin_preset("tutorial"), 20261114);
    return t;
}

// The owner's side: the meshes it holds, as a renderer would.
struct Owner {
    std::map<Key, MeshBuffers> meshes;
    std::map<Key, int> deliveries;
    void take(const ChunkUpdate& u) {
        if (u.dropped) {
            meshes.erase(key(u.coord));
            return;
        }
        meshes[key(u.coord)] = *u.mesh;
        ++deliveries[key(u.coord)];
    }
};

WorldSettings settings(int radius, int threads = 2) {
    WorldSettings s;
    s.view_radius = radius;
    s.threads = threads;
    return s;
}

// Runs frames until the world settles; fails the test after `seconds`.
void settle(World& w, Owner& owner, const glm::dvec3& focus, double seconds = 120) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        w.set_focus(focus);
        w.deliver(1e9, [&](const ChunkUpdate& u) { owner.take(u); });
        if (w.settled()) return;
        ASSERT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), seconds);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

}  // namespace

TEST(World, settles_on_exactly_the_chunks_the_radius_and_highest_ground_rule_give) {
    const WorldSettings s = settings(3);
    World w(tutorial(), s);
    Owner owner;
    const glm::dvec3 focus(40, 60, 40);
    settle(w, owner, focus);

    std::set<Key> expected;
    for (int dz = -3; dz <= 3; ++dz)
        for (int dx = -3; dx <= 3; ++dx) {
            if (dx * dx + dz * dz > 9) continue;
            const int x = 1 + dx, z = 1 + dz;
            const int top = static_cast<int>(std::floor(tutorial()->highest_ground(x * 32.0, z * 32.0, 32) / 32));
            for (int y = s.lowest_layer; y <= top; ++y) expected.insert({x, y, z});
            // Nothing above the top layer holds ground: the rule loses no surface.
            ChunkSamples above;
            sample_chunk(*tutorial(), {x, top + 1, z}, mesher_padding(Mesher::marching_cubes), above);
            EXPECT_FALSE(above.has_surface()) << x << "," << top + 1 << "," << z;
        }
    std::set<Key> loaded;
    for (const auto& c : w.loaded()) loaded.insert(key(c));
    EXPECT_EQ(loaded, expected);

    // Every loaded chunk with a surface has its mesh; skipped chunks had none to show.
    ChunkSamples samples;
    MeshScratch scratch;
    MeshBuffers mesh;
    int with_surface = 0;
    for (const auto& k : expected) {
        const ChunkCoord c{std::get<0>(k), std::get<1>(k), std::get<2>(k), 0};
        sample_chunk(*tutorial(), c, mesher_padding(Mesher::marching_cubes), samples);
        mesh_chunk(Mesher::marching_cubes, samples, tutorial()->material_rules(), scratch, mesh);
        if (mesh.triangle_count() == 0) continue;
        ++with_surface;
        ASSERT_TRUE(owner.meshes.count(k)) << "missing mesh";
        EXPECT_EQ(owner.meshes[k].indices, mesh.indices);
    }
    EXPECT_GT(with_surface, 20);
    const WorldCounts counts = w.counts();
    EXPECT_GT(counts.skipped, 0u);  // the bounds spared some chunks their sampling
    std::printf("loaded %zu, built %zu, skipped by bounds %zu, with a surface %d\n", counts.loaded, counts.built,
                counts.skipped, with_surface);
}

TEST(World, a_10_km_flight_drops_what_it_leaves_and_keeps_memory_bounded) {
    const WorldSettings s = settings(2);
    World w(tutorial(), s);
    Owner owner;
    std::size_t most = 0;
    for (int step = 0; step <= 160; ++step) {
        const glm::dvec3 focus(step * 62.5, 60, 0);  // 10 km along x
        w.set_focus(focus);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        w.deliver(1e9, [&](const ChunkUpdate& u) { owner.take(u); });
        most = std::max(most, w.counts().loaded);
        for (const auto& c : w.loaded()) ASSERT_LE(std::abs(c.x - static_cast<int>(std::floor(focus.x / 32))), 4);
    }
    settle(w, owner, glm::dvec3(10000, 60, 0));
    // Columns within radius + 1.5 of the focus, each from the lowest layer to its top.
    EXPECT_LE(most, 45u * 12u);
    for (const auto& [k, m] : owner.meshes) EXPECT_GT(std::get<0>(k), 300 - 4) << "a mesh from far behind was kept";
}

TEST(World, switching_the_mesher_rebuilds_every_chunk_once_and_keeps_old_meshes_meanwhile) {
    const WorldSettings s = settings(2);
    World w(tutorial(), s);
    Owner owner;
    const glm::dvec3 focus(500, 60, -300);
    settle(w, owner, focus);
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

TEST(World, meshes_are_identical_with_1_2_and_8_threads) {
    std::map<Key, MeshBuffers> reference;
    for (const int threads : {1, 2, 8}) {
        World w(tutorial(), settings(2, threads));
        Owner owner;
        settle(w, owner, glm::dvec3(-700, 40, 900));
        if (reference.empty()) {
            reference = owner.meshes;
            continue;
        }
        ASSERT_EQ(owner.meshes.size(), reference.size());
        for (const auto& [k, m] : reference) {
            ASSERT_EQ(owner.meshes[k].positions, m.positions) << threads;
            ASSERT_EQ(owner.meshes[k].indices, m.indices) << threads;
        }
    }
}

TEST(World, invalidating_a_box_rebuilds_exactly_the_chunks_whose_samples_it_touches) {
    const WorldSettings s = settings(2);
    World w(tutorial(), s);
    Owner owner;
    const glm::dvec3 focus(16, 40, 16);
    settle(w, owner, focus);
    owner.deliveries.clear();
    // A small box inside chunk (0, 0, 0), away from its faces: only that chunk reads it.
    w.invalidate({{10, 10, 10}, {12, 12, 12}});
    settle(w, owner, focus);
    ASSERT_EQ(owner.deliveries.size(), 1u);
    EXPECT_EQ(owner.deliveries.begin()->first, Key(0, 0, 0));
    // On a corner shared by eight chunks, all eight are rebuilt.
    owner.deliveries.clear();
    w.invalidate({{32, 32, 32}, {32, 32, 32}});
    settle(w, owner, focus);
    EXPECT_EQ(owner.deliveries.size(), 8u);
}

// An edit across a chunk corner: the world rebuilds exactly the chunks whose samples (with
// the meshers' reach) meet the edit, keeps their old meshes until then, and the new meshes
// are those of the edited samples. A rock added high in the air loads the layers above.
TEST(World, an_edit_rebuilds_the_chunks_it_touches_and_loads_the_layers_it_raises) {
    const auto t = tutorial();
    World w(t, settings(2));
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
        const glm::dvec3 lo = c.origin_m() - 2.0, hi = c.origin_m() + 34.0;
        const bool touched = lo.x <= box.hi.x && hi.x >= box.lo.x && lo.y <= box.hi.y && hi.y >= box.lo.y && lo.z <= box.hi.z && hi.z >= box.lo.z;
        const int extra = owner.deliveries[key(c)] - (before.count(key(c)) ? before.at(key(c)) : 0);
        EXPECT_EQ(extra, touched ? 1 : 0) << c.x << "," << c.y << "," << c.z;
        if (!touched) continue;
        ++rebuilt;
        sample_chunk(*t, c, mesher_padding(Mesher::marching_cubes), s);
        apply_deltas(history.deltas(), s);
        mesh_chunk(Mesher::marching_cubes, s, t->material_rules(), scratch, expect);
        EXPECT_EQ(owner.meshes[key(c)].positions, expect.positions);
    }
    EXPECT_GE(rebuilt, 4u);

    const int top = w.top_layer(0, 0);
    const EditOp rock{BrushKind::sphere, BrushMode::add, {10.0, (top + 2) * 32.0 + 10.0, 10.0}, 5.0};
    history.apply(rock);
    w.set_edits(std::make_shared<const ChunkDeltas>(history.deltas()), edit_box(rock));
    settle(w, owner, focus);
    EXPECT_EQ(w.top_layer(0, 0), top + 2);
    const Key raised{0, top + 2, 0};
    ASSERT_TRUE(owner.meshes.count(raised));
    EXPECT_GT(owner.meshes[raised].triangle_count(), 100u);
}
