// Meshers on analytic shapes with known answers, and on tutorial chunks side by side.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include <glm/geometric.hpp>

#include "classic_presets.hpp"
#include "isoterra/mesh.hpp"
#include "test_pace.hpp"
#include "mesh_checks.hpp"

using namespace isoterra;

namespace {

// One chunk as drawn among neighbours of its own level, in world coordinates.
MeshBuffers mesh_one(Mesher m, const Field& f, const ChunkCoord& c = {}) {
    ChunkSamples s;
    sample_chunk(f, c, mesher_padding(m), s);
    MeshScratch scratch;
    MeshBuffers out, world;
    mesh_chunk(m, s, f.material_rules(), scratch, out);
    world.append(out);
    return world;
}

// A chunk of air (1) for mesher m with an n^3 block of samples from (11, 11, 11): solid where
// cell case `trial` has its corners (n = 2), or at random; values at least 0.2 from 0.
ChunkSamples small_block(Mesher m, int trial, int n, Mulberry32& r) {
    ChunkSamples s;
    s.pad = mesher_padding(m);
    s.lattice = chunk_lattice(s.coord, s.pad);
    s.values.assign(s.lattice.count(), 1.0f);
    s.core_range = {-1.0, 1.0};
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const bool solid = trial < 255 ? ((trial + 1) >> (i + 2 * j + 4 * k) & 1) : r.next() < 0.5;
                s.values[s.lattice.index(11 + i, 11 + j, 11 + k)] =
                    solid ? -0.2f - static_cast<float>(r.next()) : 0.2f + static_cast<float>(r.next());
            }
    return s;
}

const glm::dvec3 kCentre(16.3, 15.7, 16.1);
constexpr double kRadius = 10.0;

}  // namespace

class SmoothMesher : public ::testing::TestWithParam<Mesher> {};

TEST_P(SmoothMesher, sphere_is_closed_accurate_and_faces_out) {
    const auto sphere = make_sphere(kCentre, kRadius);
    const MeshBuffers m = mesh_one(GetParam(), *sphere);
    ASSERT_GT(m.triangle_count(), 500u);
    EXPECT_TRUE(test::open_edges(m).empty()) << test::open_edges(m).size() << " open edges";
    double worst_pos = 0.0, worst_deg = 0.0;
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        const glm::dvec3 p = m.positions[v];
        worst_pos = std::max(worst_pos, std::fabs(glm::length(p - kCentre) - kRadius));
        const glm::dvec3 truth = glm::normalize(p - kCentre);
        worst_deg = std::max(worst_deg, std::acos(std::min(1.0, glm::dot(truth, glm::dvec3(m.normals[v])))) * 180.0 / M_PI);
    }
    EXPECT_LT(worst_pos, 0.05);
    EXPECT_LT(worst_deg, 2.0);
    const double exact = 4.0 / 3.0 * M_PI * kRadius * kRadius * kRadius;
    EXPECT_NEAR(test::enclosed_volume(m), exact, 0.02 * exact);
    std::printf("%s sphere: %zu triangles, |p|-r <= %.4f m, normals within %.3f deg, volume %.1f of %.1f\n", mesher_name(GetParam()),
                m.triangle_count(), worst_pos, worst_deg, test::enclosed_volume(m), exact);
}

TEST_P(SmoothMesher, plane_vertices_lie_on_the_plane) {
    const auto plane = make_plane(glm::dvec3(0.2, 1.0, -0.3), 14.5);
    const MeshBuffers m = mesh_one(GetParam(), *plane);
    ASSERT_GT(m.triangle_count(), 100u);
    for (const glm::vec3& p : m.positions) ASSERT_NEAR(plane->value(glm::dvec3(p)), 0.0, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Meshers, SmoothMesher, ::testing::Values(Mesher::marching_cubes, Mesher::surface_nets), [](const auto& info) {
    return std::string(info.param == Mesher::marching_cubes ? "marching_cubes" : "surface_nets");
});

class AnyMesher : public ::testing::TestWithParam<Mesher> {};

TEST_P(AnyMesher, triangles_face_the_air) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const MeshBuffers m = mesh_one(GetParam(), *t, {9, 0, -2});
    ASSERT_GT(m.triangle_count(), 100u);
    std::size_t agree = 0;
    for (std::size_t i = 0; i < m.indices.size(); i += 3) {
        const glm::vec3 a = m.positions[m.indices[i]], b = m.positions[m.indices[i + 1]], c = m.positions[m.indices[i + 2]];
        const glm::vec3 n = glm::cross(b - a, c - a);
        const glm::dvec3 g = t->gradient(glm::dvec3((a + b + c) / 3.0f));
        agree += glm::dot(glm::dvec3(n), g) > 0.0;
    }
    // Blocks' faces are axis-aligned, so a few disagree with the smooth gradient at corners.
    const double share = static_cast<double>(agree) / m.triangle_count();
    EXPECT_GT(share, GetParam() == Mesher::blocks ? 0.9 : 0.995) << mesher_name(GetParam());
}

TEST_P(AnyMesher, chunks_meshed_one_at_a_time_close_up_in_a_3x3x3_block) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    // A block straddling the ground near the start, with caves and overhangs.
    const int cy = static_cast<int>(std::floor(t->surface_height(48, 48) / kChunkSize)) - 1;
    MeshBuffers all, one;
    ChunkSamples s;
    MeshScratch scratch;
    for (int z = 0; z < 3; ++z)
        for (int y = cy; y < cy + 3; ++y)
            for (int x = 0; x < 3; ++x) {
                sample_chunk(*t, {x, y, z}, mesher_padding(GetParam()), s);
                // Greedy blocks leave T-junctions, which a weld cannot close; their cover is
                // checked against these unit faces below.
                if (GetParam() == Mesher::blocks) mesh_blocks(s, t->material_rules(), scratch, one, false);
                else mesh_chunk(GetParam(), s, t->material_rules(), scratch, one);
                all.append(one);
            }
    ASSERT_GT(all.triangle_count(), 1000u);
    // Every open edge lies on the block's outside: surface nets' outer cells reach one sample
    // out, blocks' faces half a sample. Marching cubes is also manifold; one surface-nets
    // vertex can serve two sheets in a cell, and blocks can touch along an edge, so for those
    // an edge only has to be used as often in each direction.
    const glm::dvec3 lo(0, cy * kChunkSize, 0), hi(96, (cy + 3) * kChunkSize, 96);
    const auto on_outside = [&](const glm::vec3& p) {
        for (int a = 0; a < 3; ++a)
            if (std::fabs(p[a] - lo[a]) <= 1.0 || std::fabs(p[a] - hi[a]) <= 1.0) return true;
        return false;
    };
    const auto id = test::weld(all.positions);
    std::vector<glm::vec3> by_id(all.positions.size());
    for (std::size_t v = 0; v < id.size(); ++v) by_id[id[v]] = all.positions[v];
    int inner = 0;
    for (const auto& [a, b] : test::open_edges(all, GetParam() == Mesher::marching_cubes))
        inner += !(on_outside(by_id[a]) && on_outside(by_id[b]));
    EXPECT_EQ(inner, 0) << mesher_name(GetParam());
}

TEST_P(AnyMesher, empty_and_full_chunks_give_no_triangles) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    EXPECT_EQ(mesh_one(GetParam(), *t, {0, 20, 0}).triangle_count(), 0u);  // 640 m up: sky
    const auto rock = make_plane({0, 1, 0}, 1000.0);
    EXPECT_EQ(mesh_one(GetParam(), *rock).triangle_count(), 0u);
}

TEST_P(AnyMesher, vertices_within_a_chunk_are_not_duplicated) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const MeshBuffers m = mesh_one(GetParam(), *t, {9, 0, -2});
    if (GetParam() == Mesher::blocks) GTEST_SKIP() << "blocks keep one vertex per face corner for flat normals";
    const auto id = test::weld(m.positions);
    std::size_t distinct = 0;
    for (const auto v : id) distinct = std::max<std::size_t>(distinct, v + 1);
    EXPECT_EQ(distinct, m.vertex_count());
}

INSTANTIATE_TEST_SUITE_P(Meshers, AnyMesher, ::testing::Values(Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks),
                         [](const auto& info) {
                             std::string n = mesher_name(info.param);
                             for (auto& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });

TEST(HeightGrid, indexed_grid_with_upward_normals_and_ccw_triangles) {
    // h = 0.5 x: a slope whose normal is (-0.5, 1, 0) normalised.
    const int nx = 5, nz = 4;
    std::vector<float> h((nx + 2) * (nz + 2));
    for (int k = -1; k <= nz; ++k)
        for (int i = -1; i <= nx; ++i) h[(k + 1) * (nx + 2) + (i + 1)] = 0.5f * i * 2.0f;
    MeshBuffers m;
    mesh_height_grid(h.data(), nx, nz, 10.0, 20.0, 2.0, MaterialRules{}, m);
    EXPECT_EQ(m.vertex_count(), 20u);
    EXPECT_EQ(m.triangle_count(), 2u * 4 * 3);
    const glm::vec3 expect = glm::normalize(glm::vec3(-0.5f, 1.0f, 0.0f));
    for (const auto& n : m.normals) EXPECT_NEAR(glm::dot(n, expect), 1.0f, 1e-6f);
    for (std::size_t i = 0; i < m.indices.size(); i += 3) {
        const glm::vec3 a = m.positions[m.indices[i]], b = m.positions[m.indices[i + 1]], c = m.positions[m.indices[i + 2]];
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), expect), 0.0f);
    }
    EXPECT_FLOAT_EQ(m.positions[7].x, 14.0f);
    EXPECT_FLOAT_EQ(m.positions[7].z, 22.0f);
}

// Greedy rectangles cover exactly the unit faces: rasterised back, they give the same set
// of (face centre, normal), each once.
TEST(Blocks, greedy_rectangles_cover_exactly_the_unit_faces_with_fewer_triangles) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    ChunkSamples s;
    MeshScratch scratch;
    MeshBuffers unit, greedy;
    std::size_t merged_chunks = 0, with_faces = 0;
    for (const ChunkCoord c : {ChunkCoord{0, 0, 0}, ChunkCoord{9, 0, -2}, ChunkCoord{-3, 1, 4}}) {
        sample_chunk(*t, c, mesher_padding(Mesher::blocks), s);
        mesh_blocks(s, t->material_rules(), scratch, unit, false);
        mesh_blocks(s, t->material_rules(), scratch, greedy, true);
        const auto faces = [](const MeshBuffers& m) {
            std::multiset<std::tuple<float, float, float, float, float, float>> set;
            for (std::size_t q = 0; q < m.vertex_count(); q += 4) {
                const glm::vec3 n = m.normals[q];
                const glm::vec3 lo =
                    glm::min(glm::min(m.positions[q], m.positions[q + 1]), glm::min(m.positions[q + 2], m.positions[q + 3]));
                const glm::vec3 hi =
                    glm::max(glm::max(m.positions[q], m.positions[q + 1]), glm::max(m.positions[q + 2], m.positions[q + 3]));
                for (float x = lo.x; x < std::max(hi.x, lo.x + 0.5f); x += 1.0f)
                    for (float y = lo.y; y < std::max(hi.y, lo.y + 0.5f); y += 1.0f)
                        for (float z = lo.z; z < std::max(hi.z, lo.z + 0.5f); z += 1.0f) set.insert({x, y, z, n.x, n.y, n.z});
            }
            return set;
        };
        EXPECT_EQ(faces(greedy), faces(unit));
        EXPECT_LE(greedy.triangle_count(), unit.triangle_count());
        with_faces += unit.triangle_count() > 0;
        merged_chunks += greedy.triangle_count() < unit.triangle_count();
    }
    EXPECT_GE(with_faces, 2u);
    EXPECT_EQ(merged_chunks, with_faces);
}

// A chunk at LOD 1 has the same 33 samples a side, 2 m apart, so it covers 64 m; its samples
// are the field at those points, and LOD-1 chunks meshed one at a time meet without a gap.
TEST(Lod, level_1_chunks_sample_every_2_m_and_meet_without_gaps) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    ChunkSamples s;
    sample_chunk(*t, {1, 0, -1, 1}, mesher_padding(Mesher::marching_cubes), s);
    EXPECT_DOUBLE_EQ(s.lattice.spacing_m, 2.0);
    const glm::dvec3 p = s.lattice.position(s.pad.lo + 32, s.pad.lo + 5, s.pad.lo);
    EXPECT_EQ(p, glm::dvec3(128.0, 10.0, -64.0));
    EXPECT_NEAR(s.at(32, 5, 0), t->value(p), 1e-4);
    MeshBuffers all, one;
    MeshScratch scratch;
    const int cy = static_cast<int>(std::floor(t->surface_height(64, 64) / 64));
    for (int z = 0; z < 2; ++z)
        for (int x = 0; x < 2; ++x) {
            sample_chunk(*t, {x, cy, z, 1}, mesher_padding(Mesher::marching_cubes), s);
            mesh_chunk(Mesher::marching_cubes, s, t->material_rules(), scratch, one);
            all.append(one);
        }
    ASSERT_GT(all.triangle_count(), 500u);
    const auto id = test::weld(all.positions);
    std::vector<glm::vec3> by_id(all.positions.size());
    for (std::size_t v = 0; v < id.size(); ++v) by_id[id[v]] = all.positions[v];
    const double y0 = cy * 64.0, y1 = y0 + 64.0;
    int inner = 0;
    for (const auto& [a, b] : test::open_edges(all)) {
        const auto outside = [&](const glm::vec3& q) {
            return q.x <= 0.01f || q.x >= 127.99f || q.z <= 0.01f || q.z >= 127.99f || q.y <= y0 + 0.01 || q.y >= y1 - 0.01;
        };
        inner += !(outside(by_id[a]) && outside(by_id[b]));
    }
    EXPECT_EQ(inner, 0);
}

// Marching cubes' generated tables on configurations the terrain rarely makes: every single
// cell case, and thousands of random 2x2x2 and 3x3x3 sign patterns, all closed and manifold.
TEST(MarchingCubesTables, closed_for_every_cell_case_and_random_small_blocks) {
    Mulberry32 r(9);
    // A quarter of the random blocks under the sanitizers (the Release tree meshes them all).
    const int blocks = 3000 / test::sweep_step(1, 4);
    for (int trial = 0; trial < 255 + blocks; ++trial) {
        const ChunkSamples s = small_block(Mesher::marching_cubes, trial, trial < 255 ? 2 : 2 + trial % 2, r);
        MeshScratch scratch;
        MeshBuffers m;
        mesh_marching_cubes(s, MaterialRules{}, scratch, m);
        ASSERT_TRUE(test::open_edges(m).empty()) << "trial " << trial;
        if (m.triangle_count() > 0) ASSERT_GT(test::enclosed_volume(m), 0.0) << "trial " << trial;
    }
}

// Surface nets give each piece of a cell's surface its own vertex, and a face that one piece
// of each of its two cells crosses twice (a thin tube through it) a vertex per segment: every
// cell case and random 3x3x3 blocks inside a chunk mesh closed and manifold, with no two
// vertices on one point.
TEST(SurfaceNetPieces, every_cell_case_and_random_small_blocks_mesh_closed_and_manifold) {
    Mulberry32 r(15);
    const int blocks = 3000 / test::sweep_step(1, 4);  // a quarter under the sanitizers
    int split = 0;
    for (int trial = 0; trial < 255 + blocks; ++trial) {
        const ChunkSamples s = small_block(Mesher::surface_nets, trial, trial < 255 ? 2 : 3, r);
        MeshScratch scratch;
        MeshBuffers m;
        mesh_surface_nets(s, MaterialRules{}, scratch, m);
        const auto id = test::weld(m.positions);
        ASSERT_EQ(*std::max_element(id.begin(), id.end()) + 1, m.vertex_count()) << "two vertices on one point, trial " << trial;
        ASSERT_TRUE(test::open_edges(m).empty()) << test::open_edges(m).size() << " open or pinched edges, trial " << trial;
        ASSERT_GT(test::enclosed_volume(m), 0.0) << "trial " << trial;
        std::size_t cells = 0;
        for (const std::int32_t slot : scratch.slots) cells += slot >= 0;
        split += m.vertex_count() > cells;
    }
    // Blocks whose cells have more than one piece, or whose faces got vertices of their own.
    EXPECT_GT(split, 100);
    std::printf("%d of %d blocks split a cell or a face\n", split, 255 + blocks);
}

// Samples of exactly zero (a field's plateau, CSG against a clamped 0) or within a float's
// rounding of it: every crossing still gets its own point, at least 2^-16 of a cell off the
// samples, so random 3x3x3 blocks of such values mesh closed and manifold, with no triangle
// without area and no two vertices on one point (before, all crossings at a zero sample met
// there).
TEST(MarchingCubesTables, samples_on_the_surface_keep_every_crossing_apart) {
    Mulberry32 r(27);
    const float kinds[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-7f, -0.5f, 0.5f, -1.0f};
    int zero_blocks = 0;
    const int blocks = 3000 / test::sweep_step(1, 4);  // a quarter under the sanitizers
    for (int trial = 0; trial < blocks; ++trial) {
        ChunkSamples s;
        s.pad = mesher_padding(Mesher::marching_cubes);
        s.lattice = chunk_lattice(s.coord, s.pad);
        s.values.assign(s.lattice.count(), 1.0f);
        s.core_range = {-1.0, 1.0};
        bool zero = false;
        for (int k = 0; k < 3; ++k)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 3; ++i) {
                    const float v = kinds[static_cast<int>(r.next() * 8) % 8];
                    zero |= v == 0.0f;
                    s.values[s.lattice.index(11 + i, 11 + j, 11 + k)] = v;
                }
        zero_blocks += zero;
        MeshScratch scratch;
        MeshBuffers m;
        mesh_marching_cubes(s, MaterialRules{}, scratch, m);
        ASSERT_TRUE(test::open_edges(m).empty()) << "trial " << trial;
        const auto id = test::weld(m.positions);
        ASSERT_EQ(*std::max_element(id.begin(), id.end()) + 1, m.vertex_count()) << "two vertices on one point, trial " << trial;
        for (const glm::vec3& p : m.positions)
            for (int a = 0; a < 3; ++a) {
                const double off = std::fabs(p[a] - std::round(p[a]));
                ASSERT_TRUE(off == 0.0 || off >= 1.0 / 65536.0) << "trial " << trial;
            }
        // Each vertex lies on a lattice edge: two of its coordinates are whole, the third not.
        for (const glm::vec3& p : m.positions) {
            int whole = 0;
            for (int a = 0; a < 3; ++a) whole += p[a] == std::round(p[a]);
            ASSERT_EQ(whole, 2) << "a vertex on a sample, trial " << trial;
        }
    }
    EXPECT_GT(zero_blocks, blocks * 5 / 6);
}

// Sampling for the surface only skips the overhang noise of samples no mesher reads; every
// mesher then gives the same bits as from the full values, on chunks of every preset of the
// terrain function (the tutorial and the classic alpine and islands), while a good share of
// the samples above the ground was skipped.
TEST(SurfaceSampling, meshes_equal_those_of_full_values_bit_for_bit) {
    std::size_t differing = 0, chunks_with_surface = 0;
    for (const std::string& name : test::classic_preset_names()) {
        const KnobTerrain preset = test::classic_preset(name);
        const auto t = make_terrain(preset, preset.seed);
        for (const glm::ivec2 xz : {glm::ivec2(0, 0), glm::ivec2(-7, 3), glm::ivec2(12, -20), glm::ivec2(30, 31)}) {
            const int ground = static_cast<int>(std::floor(t->surface_height(xz.x * 32.0 + 16, xz.y * 32.0 + 16) / 32));
            for (int y = ground - 1; y <= ground + 1; ++y)
                for (const Mesher m : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
                    ChunkSamples full, surface;
                    const ChunkCoord c{xz.x, y, xz.y, 0};
                    sample_chunk(*t, c, mesher_padding(m), full);
                    sample_chunk(*t, c, mesher_padding(m), surface, LatticeUse::surface);
                    for (std::size_t i = 0; i < full.values.size(); ++i)
                        ASSERT_EQ(full.values[i] > 0.0f, surface.values[i] > 0.0f) << name << " sign at " << i;
                    differing += full.values != surface.values;
                    MeshScratch scratch;
                    MeshBuffers a, b;
                    mesh_chunk(m, full, t->material_rules(), scratch, a);
                    mesh_chunk(m, surface, t->material_rules(), scratch, b);
                    chunks_with_surface += a.triangle_count() > 0;
                    EXPECT_EQ(a.positions, b.positions) << name << " " << mesher_name(m);
                    EXPECT_EQ(a.normals, b.normals) << name << " " << mesher_name(m);
                    EXPECT_EQ(a.indices, b.indices) << name << " " << mesher_name(m);
                    ASSERT_EQ(a.materials.size(), b.materials.size());
                    for (std::size_t v = 0; v < a.materials.size(); ++v)
                        ASSERT_TRUE(a.materials[v].primary == b.materials[v].primary && a.materials[v].blend == b.materials[v].blend);
                }
        }
    }
    EXPECT_GT(chunks_with_surface, 60u);
    EXPECT_GT(differing, 30u);  // the skipping did happen
    std::printf("%zu chunk samplings had skipped samples, %zu meshes with a surface compared\n", differing, chunks_with_surface);
}
