// The World carries each chunk's water surface to its owner with the chunk's mesh, and the
// owner lets it go with the chunk.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "isoterra/graph.hpp"
#include "isoterra/world.hpp"
#include "world_checks.hpp"

using namespace isoterra;
using namespace isoterra::test;

namespace {

// Flat ground at 0.5 m (off the sample rows: a plane on a row has f = 0 there, which meshers
// count as air), water 1 m above it where x < 0.
std::shared_ptr<const Field> half_flooded() {
    return parse_graph(
        "format = 1\n[node]\n"
        "ground = { type = \"const\", value = 0.5 }\n"
        "out = { type = \"plane\", height = \"ground\" }\n"
        "east = { type = \"x\" }\n"
        "fall = { type = \"mul\", a = \"east\", b = -1000.0 }\n"
        "water = { type = \"min\", a = 1.5, b = \"fall\" }\n"
        "[output]\nsdf = \"out\"\nground = \"ground\"\nwater = \"water\"\n",
        "half_flooded.toml");
}

struct WaterOwner {
    std::map<Key, MeshBuffers> water;  // the water surfaces held, per chunk
    std::set<Key> dropped_with_water;  // chunks whose water went with them
    ShownChunks shown{true};
    void take(const ChunkUpdate& u) {
        shown.apply(u);
        if (u.dropped) {
            if (water.erase(key(u.coord))) dropped_with_water.insert(key(u.coord));
            return;
        }
        if (!u.mesh) return;
        EXPECT_NE(u.water, nullptr);  // a new mesh comes with its water (empty when none)
        if (u.water && u.water->triangle_count() > 0) water[key(u.coord)] = *u.water;
        else water.erase(key(u.coord));
    }
};

void settle(World& w, WaterOwner& owner, const glm::dvec3& focus) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        w.set_focus(focus);
        w.deliver(1e9, [&](const ChunkUpdate& u) { owner.take(u); });
        if (w.settled()) return;
        ASSERT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 120.0);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

}  // namespace

TEST(WorldWater, hands_water_surfaces_to_the_owner_and_drops_them_with_their_chunks) {
    World w(half_flooded(), settings(3, 80.0, 2, 2));
    WaterOwner owner;
    settle(w, owner, {0, 10, 0});
    ASSERT_FALSE(owner.water.empty());
    for (const auto& [k, m] : owner.water) {
        const auto [lod, x, y, z] = k;
        EXPECT_EQ(y, 0) << "only the ground's layer makes water";
        EXPECT_LT(x, 0) << "water only west of x = 0";
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            EXPECT_DOUBLE_EQ(m.world_position(v).y, 1.5);
            EXPECT_LE(m.world_position(v).x, 0.0);
        }
    }
    // What the owner shows: water over the chunks it shows, as the meshes hold it.
    std::size_t triangles = 0;
    for (const auto& [c, m] : owner.shown.drawn_water()) {
        EXPECT_TRUE(owner.water.count(key(c)));
        triangles += m.triangle_count();
    }
    EXPECT_GT(triangles, 0u);
    EXPECT_EQ(owner.shown.water_triangles_drawn(), triangles);

    // Far away east: every chunk with water is dropped, its water with it.
    const std::size_t had = owner.water.size();
    owner.dropped_with_water.clear();
    settle(w, owner, {5000, 10, 0});
    EXPECT_TRUE(owner.water.empty());
    EXPECT_EQ(owner.dropped_with_water.size(), had);
    EXPECT_TRUE(owner.shown.drawn_water().empty());
    EXPECT_EQ(owner.shown.water_triangles_drawn(), 0u);
}

TEST(WorldWater, run_world_job_gives_a_chunks_water_and_none_for_a_field_without) {
    const auto field = half_flooded();
    for (const auto& [f, wet] : {std::pair{field, true}, std::pair<std::shared_ptr<const Field>, bool>{tutorial(), false}}) {
        WorldJob survey;
        survey.survey = true;
        survey.coord = {-1, 0, 0, 0};
        WorldJobResult column;
        run_world_job(*f, nullptr, survey, column);
        std::size_t triangles = 0;
        for (int y = column.bottom; y <= column.top; ++y) {
            WorldJob job = survey;
            job.survey = false;
            job.coord.y = y;
            job.ground = column.ground;
            WorldJobResult r;
            run_world_job(*f, nullptr, job, r, column.lattice_columns.get());
            triangles += r.water.triangle_count();
        }
        // The whole column is under water: 32 x 32 cells, two triangles each.
        EXPECT_EQ(triangles, wet ? 2u * kChunkSize * kChunkSize : 0u);
    }
}
