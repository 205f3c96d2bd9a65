// Water surfaces (mesh_water) and the looks chunks carry into their materials: a graph with
// flat ground and water over half of it gets water over exactly that half, each column cell
// once across a block of chunks, and sand by the shore.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

#include "isoterra/graph.hpp"
#include "isoterra/mesh.hpp"

namespace isoterra {
namespace {

// Flat ground at `ground` m; water `depth` m above it where x < 0 (at x = 0 it meets the
// ground, beyond it falls far below: dry).
std::unique_ptr<GraphField> half_flooded(double ground, double depth, const std::string& material = "") {
    // clang-format off
    const std::string text = "format = 1\n[node]\n"
                             "ground = { type = \"const\", value = " + std::to_string(ground) + " }\n"
                             "out = { type = \"plane\", height = \"ground\" }\n"
                             "east = { type = \"x\" }\n"
                             "fall = { type = \"mul\", a = \"east\", b = -1000.0 }\n"
                             "rise = { type = \"add\", a = \"fall\", b = \"ground\" }\n"
                             "water = { type = \"min\", a = " + std::to_string(ground + depth) + ", b = \"rise\" }\n"
                             "[output]\nsdf = \"out\"\nground = \"ground\"\nwater = \"water\"\n" + material;
    // clang-format on
    return parse_graph(text, "half_flooded.toml");
}

struct WaterCells {
    std::map<std::pair<long, long>, double> area;  // per column cell (lower corner, in cells): the water's area
    double lowest = 1e9, highest = -1e9, east_most = -1e9;
    std::size_t chunks_with_water = 0;
};

// Meshes the water of every chunk in the block and adds up its area per column cell.
WaterCells water_over(const Field& field, int lod, int x0, int x1, int y0, int y1, int z0, int z1) {
    WaterCells out;
    ChunkSamples s;
    MeshBuffers water;
    const double cell = std::ldexp(1.0, lod);
    for (int cz = z0; cz <= z1; ++cz)
        for (int cy = y0; cy <= y1; ++cy)
            for (int cx = x0; cx <= x1; ++cx) {
                sample_chunk(field, {cx, cy, cz, lod}, mesher_padding(Mesher::marching_cubes), s);
                mesh_water(s, water);
                out.chunks_with_water += water.triangle_count() > 0;
                EXPECT_EQ(water.normals.size(), water.positions.size());
                EXPECT_EQ(water.materials.size(), water.positions.size());
                for (std::size_t t = 0; t < water.indices.size(); t += 3) {
                    const glm::dvec3 a = water.world_position(water.indices[t]), b = water.world_position(water.indices[t + 1]),
                                     c = water.world_position(water.indices[t + 2]);
                    // Counter-clockwise from above: the area's sign is the normal's y.
                    const double twice = (b.z - a.z) * (c.x - a.x) - (b.x - a.x) * (c.z - a.z);
                    EXPECT_GT(twice, 0.0);
                    const glm::dvec3 centre = (a + b + c) / 3.0;
                    out.area[{static_cast<long>(std::floor(centre.x / cell)), static_cast<long>(std::floor(centre.z / cell))}] +=
                        0.5 * twice;
                    for (const glm::dvec3& p : {a, b, c}) {
                        out.lowest = std::min(out.lowest, p.y), out.highest = std::max(out.highest, p.y);
                        out.east_most = std::max(out.east_most, p.x);
                    }
                }
            }
    return out;
}

TEST(WaterSurface, covers_exactly_the_wet_half_at_the_waters_height_each_cell_once) {
    const auto field = half_flooded(0.0, 1.0);
    for (const int lod : {0, 1}) {
        const double cell = std::ldexp(1.0, lod), size = kChunkSize * cell;
        // Chunks x -2..1 (x from -2 to 2 chunk sizes), z -1..0, and the layers below and above the ground's.
        const WaterCells w = water_over(*field, lod, -2, 1, -1, 1, -1, 0);
        EXPECT_DOUBLE_EQ(w.lowest, 1.0) << lod;
        EXPECT_DOUBLE_EQ(w.highest, 1.0) << lod;
        EXPECT_LE(w.east_most, 0.0) << lod;  // nothing over the dry half
        // Every cell west of x = 0 is covered once, with its whole area; none east of it.
        const long cells = static_cast<long>(2 * size / cell);
        EXPECT_EQ(w.area.size(), static_cast<std::size_t>(cells * cells)) << lod;
        for (long k = -cells / 2; k < cells / 2; ++k)
            for (long i = -cells; i < 0; ++i) {
                const auto it = w.area.find({i, k});
                ASSERT_NE(it, w.area.end()) << lod << " cell " << i << "," << k;
                EXPECT_NEAR(it->second, cell * cell, 1e-9) << lod << " cell " << i << "," << k;
            }
        // Only the chunks of the ground's layer (y = 0) make it: four of them, two columns each side.
        EXPECT_EQ(w.chunks_with_water, 4u) << lod;
    }
}

TEST(WaterSurface, stops_at_the_shore_where_the_ground_rises_out_of_it) {
    // Ground sloping up eastwards, 1 m per metre from -5 m at x = 0; water at 0 m everywhere:
    // the shore is at x = 5, and the water reaches no further.
    const auto field = parse_graph(
        "format = 1\n[node]\n"
        "east = { type = \"x\" }\n"
        "ground = { type = \"add\", a = \"east\", b = -5.0 }\n"
        "out = { type = \"plane\", height = \"ground\" }\n"
        "water = { type = \"const\", value = 0.0 }\n"
        "[output]\nsdf = \"out\"\nground = \"ground\"\nwater = \"water\"\n",
        "shore.toml");
    const WaterCells w = water_over(*field, 0, -1, 0, -2, 1, 0, 0);
    EXPECT_DOUBLE_EQ(w.lowest, 0.0);
    EXPECT_DOUBLE_EQ(w.highest, 0.0);
    EXPECT_NEAR(w.east_most, 5.0, 1e-6);
    double total = 0.0;
    for (const auto& [c, a] : w.area) total += a;
    EXPECT_NEAR(total, (32.0 + 5.0) * 32.0, 1e-6);  // x from -32 to 5, z from 0 to 32
}

TEST(WaterSurface, fields_without_water_make_none) {
    const auto plane = make_plane({0, 1, 0}, 0.5);
    ChunkSamples s;
    MeshBuffers water;
    sample_chunk(*plane, {0, 0, 0, 0}, mesher_padding(Mesher::surface_nets), s);
    EXPECT_TRUE(s.looks.empty());
    mesh_water(s, water);
    EXPECT_EQ(water.triangle_count(), 0u);
    EXPECT_EQ(water.vertex_count(), 0u);
}

// The chunks carry the looks into the meshers: with a sand height, the ground under the
// water and just above it is sand, farther east grass; without one, all grass, as before.
TEST(WaterSurface, chunks_carry_the_looks_into_every_meshers_materials) {
    const auto sandy = half_flooded(0.5, 1.0, "[material]\nsand_height_m = 2.0\n");
    const auto plain = half_flooded(0.5, 1.0);
    for (const Mesher m : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
        ChunkSamples s;
        MeshScratch scratch;
        MeshBuffers mesh;
        for (const int cx : {-1, 0}) {
            sample_chunk(*sandy, {cx, 0, 0, 0}, mesher_padding(m), s);
            ASSERT_FALSE(s.looks.water.empty());
            mesh_chunk(m, s, sandy->material_rules(), scratch, mesh);
            ASSERT_GT(mesh.triangle_count(), 0u);
            std::size_t sand = 0, grass = 0;
            for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
                const glm::dvec3 p = mesh.world_position(v);
                if (mesh.normals[v].y < 0.9f) continue;  // the tops only (blocks have sides)
                const Material got = mesh.materials[v].primary;
                // Under water (x < 0) and up to about the sand height east of the shore: sand.
                if (p.x < -0.5) EXPECT_EQ(got, Material::sand) << mesher_name(m) << " at " << p.x;
                if (p.x > 3.0) EXPECT_EQ(got, Material::grass) << mesher_name(m) << " at " << p.x;
                sand += got == Material::sand, grass += got == Material::grass;
            }
            EXPECT_GT(cx < 0 ? sand : grass, 0u) << mesher_name(m);
            sample_chunk(*plain, {cx, 0, 0, 0}, mesher_padding(m), s);
            mesh_chunk(m, s, plain->material_rules(), scratch, mesh);
            for (const MaterialSample& ms : mesh.materials) EXPECT_NE(ms.primary, Material::sand) << mesher_name(m);
        }
    }
}

}  // namespace
}  // namespace isoterra
