// The mesher registry: one row per mesher, read by the program, the viewer, the page and the
// C API; its meshing function is the mesher's own.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "isoterra/mesh.hpp"

using namespace isoterra;

TEST(MesherRegistry, lists_each_mesher_once_with_its_name_padding_and_default_first) {
    const auto& all = meshers();
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all.front().id, Mesher::marching_cubes);  // the default of every front end
    std::set<std::string> names;
    std::set<Mesher> ids;
    for (const MesherInfo& info : all) {
        names.insert(info.name);
        ids.insert(info.id);
        EXPECT_FALSE(std::string(info.label).empty());
        Mesher parsed{};
        ASSERT_TRUE(parse_mesher(info.name, parsed));
        EXPECT_EQ(parsed, info.id);
        EXPECT_EQ(&mesher_info(info.id), &info);
    }
    EXPECT_EQ(names.size(), all.size());
    EXPECT_EQ(ids.size(), all.size());
    EXPECT_EQ(mesher_names(" | "), "marching-cubes | surface-nets | blocks");
    EXPECT_EQ(mesher_padding(Mesher::marching_cubes).lo, 2);
    EXPECT_EQ(mesher_padding(Mesher::surface_nets).hi, 2);
    EXPECT_EQ(mesher_padding(Mesher::blocks).lo, 1);
    EXPECT_EQ(mesher_padding(Mesher::blocks).hi, 0);
    EXPECT_TRUE(mesher_info(Mesher::marching_cubes).simplifiable);
    EXPECT_FALSE(mesher_info(Mesher::surface_nets).simplifiable);
    Mesher untouched = Mesher::blocks;
    EXPECT_FALSE(parse_mesher("Marching-Cubes", untouched));
    EXPECT_FALSE(parse_mesher("", untouched));
    EXPECT_EQ(untouched, Mesher::blocks);
}

TEST(MesherRegistry, meshing_through_a_row_gives_what_the_mesher_gives) {
    const auto sphere = make_sphere({16.3, 15.7, 16.1}, 10.0);
    for (const MesherInfo& info : meshers()) {
        ChunkSamples samples;
        sample_chunk(*sphere, ChunkCoord{}, info.padding, samples);
        MeshScratch scratch;
        MeshBuffers through_registry, direct;
        mesh_chunk(info.id, samples, sphere->material_rules(), scratch, through_registry);
        switch (info.id) {
            case Mesher::marching_cubes: mesh_marching_cubes(samples, sphere->material_rules(), scratch, direct); break;
            case Mesher::surface_nets: mesh_surface_nets(samples, sphere->material_rules(), scratch, direct); break;
            case Mesher::blocks: mesh_blocks(samples, sphere->material_rules(), scratch, direct); break;
        }
        EXPECT_GT(direct.triangle_count(), 100u) << info.name;
        EXPECT_EQ(through_registry.indices, direct.indices) << info.name;
        EXPECT_EQ(through_registry.positions, direct.positions) << info.name;
    }
}
