// Golden digests of meshes: every built-in terrain, every mesher, chunks of three levels near
// the origin and far out, meshed as the World meshes them. A change that moves one bit of a
// position, normal, material, index, range or transition datum changes a digest; speed work
// on the meshers must keep them (issue 16), and a change that means to alter meshes updates
// them here, saying why. Print the current ones with ISOTERRA_PRINT_DIGESTS=1. Besides the
// built-ins, the terrains they replaced in issue 24 ("alpine_classic", "islands_classic":
// the terrain function's old presets; "canyons_classic": the first graph preset), from
// tests/reference/presets, with the digests they had.
#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "classic_presets.hpp"
#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/mesh.hpp"
#include "isoterra/world.hpp"

namespace isoterra {
namespace {

template <typename T>
void add(Sha256& h, const std::vector<T>& v) {
    h.update(std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)));
}

// A built-in terrain by name, or an old one as "NAME_classic".
TerrainSource terrain_named(const std::string& name) {
    const std::string classic = "_classic";
    if (name.size() > classic.size() && name.ends_with(classic)) return test::classic_terrain(name.substr(0, name.size() - classic.size()));
    return builtin_terrain(name);
}

std::string mesh_digest(const std::string& terrain_name, Mesher mesher, std::size_t& vertices) {
    const auto field = terrain_named(terrain_name).make_field();
    Sha256 h;
    // Chunks at the ground near the origin at levels 0, 1, 2, and one 1,000 km out.
    for (const ChunkCoord c : {ChunkCoord{0, 0, 0, 0}, ChunkCoord{1, -1, 2, 0}, ChunkCoord{-3, 0, 1, 0}, ChunkCoord{0, 0, 0, 1},
                               ChunkCoord{-1, -1, 0, 1}, ChunkCoord{2, 0, -1, 2}, ChunkCoord{31250, 0, -31250, 0}}) {
        // Where the ground is: the column's survey, then its chunks as a World builds them.
        WorldJob survey;
        survey.survey = true;
        survey.coord = {c.x, 0, c.z, c.lod};
        survey.mesher = mesher;
        WorldJobResult column;
        run_world_job(*field, nullptr, survey, column);
        WorldJob job = survey;
        job.survey = false;
        job.ground = column.ground;
        for (int y = column.bottom + c.y + 1; y <= std::min(column.top, column.bottom + c.y + 3); ++y) {
            job.coord.y = y;
            WorldJobResult r;
            run_world_job(*field, nullptr, job, r, column.lattice_columns.get());
            const MeshBuffers& m = r.mesh;
            vertices += m.vertex_count();
            h.update(fmt::format("{} {} {} {} {} {}\n", c.x, y, c.z, c.lod, r.built, m.vertex_count()));
            add(h, m.positions);
            add(h, m.normals);
            // Field by field: a MaterialSample has padding bytes.
            for (const MaterialSample& ms : m.materials) {
                const unsigned char kinds[2] = {static_cast<unsigned char>(ms.primary), static_cast<unsigned char>(ms.secondary)};
                h.update(std::string_view(reinterpret_cast<const char*>(kinds), 2));
                h.update(std::string_view(reinterpret_cast<const char*>(&ms.blend), sizeof(float)));
            }
            add(h, m.indices);
            add(h, m.ranges);
            add(h, m.secondary);
            add(h, m.side_flags);
        }
    }
    return h.hex();
}

struct Golden {
    const char* terrain;
    Mesher mesher;
    const char* digest;
};

TEST(MeshDigest, every_terrain_and_mesher_meshes_to_the_recorded_bits) {
    const Golden golden[] = {
#include "mesh_digests.inc"
    };
    // Every built-in terrain has a digest for every mesher.
    std::set<std::pair<std::string, Mesher>> recorded;
    for (const Golden& g : golden) recorded.insert({g.terrain, g.mesher});
    for (const std::string& name : builtin_terrain_names())
        for (const Mesher m : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks})
            EXPECT_TRUE(recorded.count({name, m})) << name << " " << mesher_name(m) << " has no recorded digest";
    const bool print = std::getenv("ISOTERRA_PRINT_DIGESTS") != nullptr;
    for (const Golden& g : golden) {
        std::size_t vertices = 0;
        const std::string d = mesh_digest(g.terrain, g.mesher, vertices);
        // Smooth ground (the issue 24 graphs: a sea floor, plateaus) crosses these chunks with
        // a few thousand vertices; the noisy classic terrains with tens of thousands.
        EXPECT_GT(vertices, 2000u) << g.terrain << " " << mesher_name(g.mesher) << ": too little surface to tell";
        if (print)
            std::printf("    {\"%s\", Mesher::%s, \"%s\"},  // %zu vertices\n", g.terrain,
                        g.mesher == Mesher::marching_cubes ? "marching_cubes"
                        : g.mesher == Mesher::surface_nets ? "surface_nets"
                                                           : "blocks",
                        d.c_str(), vertices);
        EXPECT_EQ(d, g.digest) << g.terrain << " " << mesher_name(g.mesher);
    }
}

}  // namespace
}  // namespace isoterra
