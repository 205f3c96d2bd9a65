// The page's 12-byte vertex (web/core/mesh_bytes.hpp, DrawnArrays): real chunks of tutorial
// and alpine, drawn next to neighbours of every kind, decode (as the page's vertex shader
// does) to the vertices select_for_neighbours gives, within 2^-11 of a cell (2^-10 of the
// coarser cell for a coarser neighbour's own vertices), with their normals and materials,
// and the same triangles; the vertices two chunks share decode to one point, to the bit, at
// one level and across levels, so the page leaves no crack.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include <glm/geometric.hpp>

#include "isoterra/graph.hpp"
#include "isoterra/mesh.hpp"
#include "mesh_bytes.hpp"
#include "mesh_checks.hpp"

using namespace isoterra;

namespace {

// Vertex v of drawn arrays where the page draws it, in world metres.
glm::dvec3 page_position(const web::DrawnArrays& d, std::size_t v) {
    return d.origin + glm::dvec3(d.vertices[4 * v], d.vertices[4 * v + 1], d.vertices[4 * v + 2]) * glm::dvec3(d.step);
}

// The indices of drawn arrays, whichever width they have.
std::vector<std::uint32_t> page_indices(const web::DrawnArrays& d) {
    if (!d.long_indices.empty()) return d.long_indices;
    return {d.short_indices.begin(), d.short_indices.end()};
}

// A neighbourhood from the bits of `code`: each side and diagonal the same, coarser or finer.
Neighbourhood page_neighbourhood(unsigned code) {
    Neighbourhood n;
    for (int s = 0; s < kSides; ++s) n.side[s] = static_cast<std::int8_t>(static_cast<int>(code >> (2 * s) & 3u) % 3 - 1);
    for (int d = 0; d < 4; ++d) n.diagonal[d] = static_cast<std::int8_t>(static_cast<int>(code >> (12 + 2 * d) & 3u) % 3 - 1);
    return n;
}

}  // namespace

TEST(PageDrawnArrays, real_chunks_decode_to_the_drawn_vertices_within_the_bounds) {
    std::size_t vertices = 0, short_meshes = 0, meshes = 0;
    double position = 0.0, position_on_face = 0.0, normal = 0.0;
    for (const char* name : {"tutorial", "alpine"}) {
        const std::shared_ptr<const Field> f = builtin_terrain(name).make_field();
        for (int lod = 0; lod <= 5; ++lod) {
            const double sp = std::ldexp(1.0, lod), e = kChunkSize * sp;
            for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
                const int cx = 1 + lod % 3, cz = -2 + lod % 2;
                const int cy = static_cast<int>(std::floor(f->ground_height((cx + 0.5) * e, (cz + 0.5) * e) / e));
                const MeshBuffers m = test::chunk_mesh(*f, mesher, {cx, cy, cz, lod});
                ASSERT_GT(m.vertex_count(), 0u) << name << " lod " << lod;
                for (unsigned k = 0; k < 12; ++k) {
                    const Neighbourhood n = page_neighbourhood(k == 0 ? 0u : 0x9e3779b9u * k >> 8);
                    std::vector<std::uint32_t> sources;
                    const MeshBuffers drawn = select_for_neighbours(m, n, &sources);
                    web::DrawnArrays d;
                    web::drawn_arrays(m, n, sp, d);
                    ASSERT_EQ(d.vertices.size(), 4 * drawn.vertex_count());
                    ASSERT_EQ(d.normals.size(), 2 * drawn.vertex_count());
                    ASSERT_EQ(page_indices(d), drawn.indices);
                    ASSERT_EQ(d.long_indices.empty(), drawn.vertex_count() <= 65536);
                    short_meshes += d.long_indices.empty(), ++meshes;
                    for (std::size_t v = 0; v < drawn.vertex_count(); ++v) {
                        const unsigned flags = m.side_flags.empty() ? 0u : m.side_flags[sources[v]];
                        const bool on_face_only = (flags & 63u) == 0 && (flags >> 8) != 0;
                        const glm::dvec3 error = glm::abs(page_position(d, v) - drawn.world_position(v)) / sp;
                        double& worst = on_face_only ? position_on_face : position;
                        worst = std::max({worst, error.x, error.y, error.z});
                        normal = std::max(
                            normal, test::degrees_between(octahedral_decode(d.normals[2 * v], d.normals[2 * v + 1]), drawn.normals[v]));
                        const unsigned word = d.vertices[4 * v + 3];
                        const MaterialSample& mat = drawn.materials[v];
                        ASSERT_EQ(word & 255u, blend_byte(mat.blend));
                        ASSERT_EQ(word >> 8 & 7u, static_cast<unsigned>(mat.primary));
                        ASSERT_EQ(word >> 11, static_cast<unsigned>(mat.secondary));
                        ++vertices;
                    }
                }
            }
        }
    }
    ASSERT_GT(vertices, 200000u);
    EXPECT_EQ(short_meshes, meshes);  // a chunk's vertices fit 16-bit indices
    EXPECT_LE(position, std::ldexp(1.0, -11) * 1.001);
    EXPECT_LE(position_on_face, std::ldexp(1.0, -10) * 1.001);
    EXPECT_LT(normal, 0.006);
    std::printf("page vertex: %zu vertices: position %.3g cells (%.3g on faces), normal %.3g deg\n", vertices, position, position_on_face,
                normal);
}

// Two chunks side by side, of one level and of two (the finer one drawn with its strip
// towards the coarser, the coarser with its finer neighbour): every vertex the finer one
// draws on their face at a point the other draws too lands, decoded, where the other's does.
TEST(PageDrawnArrays, shared_vertices_decode_to_one_point_at_one_level_and_across_levels) {
    const std::shared_ptr<const Field> f = builtin_terrain("tutorial").make_field();
    std::size_t same_level = 0, across = 0;
    for (int lod = 0; lod <= 4; ++lod) {
        const double sp = std::ldexp(1.0, lod), e = kChunkSize * sp;
        const int fy = static_cast<int>(std::floor(f->ground_height(2 * e, 1.5 * e) / e));
        for (const bool coarser : {false, true}) {
            // The finer chunk is (1, fy, 1); its +x neighbour the same level or the next.
            const MeshBuffers fine = test::chunk_mesh(*f, Mesher::marching_cubes, {1, fy, 1, lod});
            const ChunkCoord other_at =
                coarser ? ChunkCoord{1, static_cast<int>(std::floor(fy / 2.0)), 0, lod + 1} : ChunkCoord{2, fy, 1, lod};
            const MeshBuffers other = test::chunk_mesh(*f, Mesher::marching_cubes, other_at);
            Neighbourhood fine_n, other_n;
            fine_n.side[side_pos_x] = coarser ? 1 : 0;
            other_n.side[side_neg_x] = coarser ? -1 : 0;
            web::DrawnArrays df, dother;
            web::drawn_arrays(fine, fine_n, sp, df);
            web::drawn_arrays(other, other_n, other_at.spacing_m(), dother);
            const MeshBuffers drawn_fine = select_for_neighbours(fine, fine_n), drawn_other = select_for_neighbours(other, other_n);
            std::map<std::tuple<double, double, double>, glm::dvec3> theirs;
            for (std::size_t v = 0; v < drawn_other.vertex_count(); ++v) {
                const glm::dvec3 p = drawn_other.world_position(v);
                theirs[{p.x, p.y, p.z}] = page_position(dother, v);
            }
            const double face = 2 * e;  // the finer chunk's +x face
            for (std::size_t v = 0; v < drawn_fine.vertex_count(); ++v) {
                const glm::dvec3 p = drawn_fine.world_position(v);
                if (p.x != face) continue;
                const auto it = theirs.find({p.x, p.y, p.z});
                if (it == theirs.end()) continue;
                EXPECT_EQ(page_position(df, v), it->second)
                    << "lod " << lod << (coarser ? " across levels" : " one level") << " vertex " << v;
                ++(coarser ? across : same_level);
            }
        }
    }
    EXPECT_GT(same_level, 100u);
    EXPECT_GT(across, 50u);
}
