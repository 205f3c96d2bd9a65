// The terrain function's presets (the tutorial and the classic alpine and islands, which
// were built-in presets until issue 24) written as graphs (knob_terrain_to_graph, `isoterra graph
// export`) are the same terrain bit for bit: points (the double path), lattices (the float path, at every
// level's spacing, far from the origin too), ground heights, materials and chunk meshes.
#include <gtest/gtest.h>

#include <cstring>

#include <glm/geometric.hpp>

#include "classic_presets.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/grid.hpp"
#include "isoterra/mesh.hpp"
#include "same_bits.hpp"

using namespace isoterra;

namespace {

using test::same_bits;
template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

class ExportedPreset : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        preset_ = test::classic_preset(GetParam());
        builtin_ = make_terrain(preset_, preset_.seed);
        graph_ = parse_graph(knob_terrain_to_graph(preset_), "exported.toml");
    }
    KnobTerrain preset_;
    std::unique_ptr<Field> builtin_;
    std::unique_ptr<GraphField> graph_;
};

}  // namespace

TEST_P(ExportedPreset, samples_the_same_bits_at_points) {
    Mulberry32 r(9);
    std::vector<glm::dvec3> points;
    for (const double reach : {300.0, 5e3, 1e6, 5e7})
        for (int i = 0; i < 400; ++i)
            points.emplace_back((r.next() * 2 - 1) * reach, -120.0 + 420.0 * r.next(), (r.next() * 2 - 1) * reach);
    std::vector<double> want(points.size()), got(points.size());
    builtin_->sample_points(points.data(), points.size(), want.data());
    graph_->sample_points(points.data(), points.size(), got.data());
    for (std::size_t i = 0; i < points.size(); ++i)
        ASSERT_TRUE(same_bits(got[i], want[i]))
            << GetParam() << " at (" << points[i].x << ", " << points[i].y << ", " << points[i].z << "): " << got[i] << " vs " << want[i];
    for (std::size_t i = 0; i < points.size(); i += 37) {
        ASSERT_TRUE(same_bits(graph_->ground_height(points[i].x, points[i].z), builtin_->surface_height(points[i].x, points[i].z)));
        const glm::dvec3 normal = glm::normalize(glm::dvec3(r.next() - 0.5, r.next(), r.next() - 0.5));
        const MaterialSample a = graph_->material(points[i], normal), b = builtin_->material(points[i], normal);
        ASSERT_EQ(a.primary, b.primary);
        ASSERT_EQ(a.secondary, b.secondary);
        ASSERT_TRUE(same_bits(a.blend, b.blend));
    }
}

TEST_P(ExportedPreset, samples_the_same_bits_on_lattices_at_every_spacing) {
    const glm::i64vec3 origins[] = {{-2, -3, -2}, {-40, -6, 17}, {123456, 0, -98765}, {-3000000, 2, 2500000}};
    for (const double spacing : {1.0, 2.0, 4.0, 16.0, 64.0})
        for (const glm::i64vec3& origin : origins) {
            const Lattice lattice{origin, {35, 35, 35}, spacing};
            std::vector<float> want(lattice.count()), got(lattice.count());
            std::vector<float> want_ground(35 * 35), got_ground(35 * 35);
            builtin_->sample_lattice_and_ground(lattice, want.data(), want_ground.data());
            ASSERT_TRUE(graph_->sample_lattice_and_ground(lattice, got.data(), got_ground.data()));
            for (std::size_t i = 0; i < want.size(); ++i)
                ASSERT_TRUE(same_bits(got[i], want[i])) << GetParam() << " spacing " << spacing << " origin " << origin.x << "," << origin.y
                                                        << "," << origin.z << " sample " << i << ": " << got[i] << " vs " << want[i];
            for (std::size_t c = 0; c < want_ground.size(); ++c) ASSERT_TRUE(same_bits(got_ground[c], want_ground[c]));
        }
}

TEST_P(ExportedPreset, meshes_the_same_chunks) {
    MeshScratch scratch;
    int with_surface = 0;
    for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets})
        for (const ChunkCoord c : {ChunkCoord{0, 0, 0, 0}, ChunkCoord{-1, 0, 2, 0}, ChunkCoord{3, 1, -2, 1}, ChunkCoord{0, 0, 0, 3}}) {
            ChunkSamples a, b;
            sample_chunk(*builtin_, c, mesher_padding(mesher), a);
            sample_chunk(*graph_, c, mesher_padding(mesher), b);
            MeshBuffers ma, mb;
            mesh_chunk(mesher, a, builtin_->material_rules(), scratch, ma);
            mesh_chunk(mesher, b, graph_->material_rules(), scratch, mb);
            with_surface += ma.indices.empty() ? 0 : 1;
            ASSERT_EQ(ma.indices, mb.indices);
            ASSERT_TRUE(same_bytes(ma.positions, mb.positions));
            ASSERT_TRUE(same_bytes(ma.normals, mb.normals));
            ASSERT_EQ(ma.materials.size(), mb.materials.size());
            for (std::size_t v = 0; v < ma.materials.size(); ++v) {  // field by field: the struct has padding
                ASSERT_EQ(ma.materials[v].primary, mb.materials[v].primary);
                ASSERT_EQ(ma.materials[v].secondary, mb.materials[v].secondary);
                ASSERT_TRUE(same_bits(ma.materials[v].blend, mb.materials[v].blend));
            }
        }
    EXPECT_GE(with_surface, 2) << "the chunks should hold some ground";
}

INSTANTIATE_TEST_SUITE_P(Builtins, ExportedPreset, ::testing::Values("tutorial", "alpine", "islands"));
