// Meshers fed any float at all: NaN, infinities, the largest finite values, denormals and
// signed zeros, scattered through a chunk's samples and ground heights. They must neither
// crash nor write a vertex that is not finite or outside the chunk's box, and every index
// must name a vertex. (Presets keep fields finite; this is the second line of defence.)
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

#include "isoterra/mesh.hpp"

using namespace isoterra;

namespace {

// clang-format off
const float kHostile[] = {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(),  -std::numeric_limits<float>::infinity(),
                          FLT_MAX,  -FLT_MAX, FLT_MIN, -FLT_MIN, 1e-45f, -1e-45f, 0.0f, -0.0f, 1e30f, -1e30f};
// clang-format on

// Every vertex finite and within the chunk (plus a cell, for skirts and strips), every index
// in range, every range inside the index list.
void expect_sane(const MeshBuffers& m, const ChunkCoord& c, const char* what) {
    const float reach = 33.0f * static_cast<float>(c.spacing_m());
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        for (int a = 0; a < 3; ++a) {
            ASSERT_TRUE(std::isfinite(m.positions[v][a])) << what << " vertex " << v;
            ASSERT_GE(m.positions[v][a], -reach) << what << " vertex " << v;
            ASSERT_LE(m.positions[v][a], 2.0f * reach) << what << " vertex " << v;
            ASSERT_TRUE(std::isfinite(m.normals[v][a])) << what << " normal " << v;
        }
        if (!m.secondary.empty())
            for (int a = 0; a < 3; ++a) ASSERT_TRUE(std::isfinite(m.secondary[v][a])) << what << " secondary " << v;
    }
    for (const std::uint32_t i : m.indices) ASSERT_LT(i, m.vertex_count()) << what;
    for (const IndexRange& r : m.ranges) ASSERT_LE(std::size_t{r.first} + r.count, m.indices.size()) << what;
    Neighbourhood all_coarser;
    all_coarser.side.fill(1);
    all_coarser.diagonal.fill(1);
    for (const Neighbourhood& n : {Neighbourhood{}, all_coarser}) {
        const MeshBuffers drawn = select_for_neighbours(m, n);
        for (std::size_t v = 0; v < drawn.vertex_count(); ++v)
            for (int a = 0; a < 3; ++a) ASSERT_TRUE(std::isfinite(drawn.positions[v][a])) << what << " drawn " << v;
    }
}

}  // namespace

TEST(HostileValues, every_mesher_survives_any_float_in_its_samples) {
    const auto sphere = make_sphere(glm::dvec3(16.0, 16.0, 16.0), 12.0);
    std::mt19937 rng(20261130);
    for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
        for (const int lod : {0, 3}) {
            for (const double fraction : {0.01, 0.2, 1.0}) {
                const ChunkCoord c{0, 0, 0, lod};
                ChunkSamples s;
                sample_chunk(*sphere, c, mesher_padding(mesher), s);
                std::bernoulli_distribution hit(fraction);
                std::uniform_int_distribution<std::size_t> pick(0, std::size(kHostile) - 1);
                for (float& v : s.values)
                    if (hit(rng)) v = kHostile[pick(rng)];
                // A ground too, equally hostile, so the material depths meet it.
                s.has_ground = true;
                s.ground.assign(static_cast<std::size_t>(s.lattice.size.x) * s.lattice.size.z, 5.0f);
                for (float& g : s.ground)
                    if (hit(rng)) g = kHostile[pick(rng)];
                update_core_range(s);
                MeshScratch scratch;
                MeshBuffers out;
                mesh_chunk(mesher, s, sphere->material_rules(), scratch, out);
                const std::string what =
                    std::string(mesher_name(mesher)) + " lod " + std::to_string(lod) + " fraction " + std::to_string(fraction);
                expect_sane(out, c, what.c_str());
                if (fraction < 1.0) EXPECT_GT(out.triangle_count(), 0u) << what;
            }
        }
    }
}

TEST(HostileValues, a_chunk_of_only_one_hostile_value_meshes_to_something_sane) {
    for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
        for (const float value : kHostile) {
            const auto sphere = make_sphere(glm::dvec3(16.0, 16.0, 16.0), 12.0);
            ChunkSamples s;
            sample_chunk(*sphere, ChunkCoord{}, mesher_padding(mesher), s);
            // Half the chunk the value, half the sphere: every crossing meets it.
            for (std::size_t i = 0; i < s.values.size(); i += 2) s.values[i] = value;
            update_core_range(s);
            MeshScratch scratch;
            MeshBuffers out;
            mesh_chunk(mesher, s, sphere->material_rules(), scratch, out);
            expect_sane(out, ChunkCoord{}, mesher_name(mesher));
        }
    }
}
