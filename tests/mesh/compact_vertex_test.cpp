// The renderer's 16-byte vertex (CompactVertex): what the vertex shader decodes from real
// chunks of tutorial and alpine at levels 0 to 6 (marching cubes with its transitions, surface
// nets, blocks, water) is where the mesh has it within 2^-11 of a cell, with its normal
// within a thousandth of a degree, the six material weights the 48-byte vertex carried, the
// same side flags, and the secondary offset within half of its step; a transition's
// half-resolution vertex lands where the coarser neighbour draws its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <tuple>
#include <vector>

#include <glm/geometric.hpp>

#include "isoterra/graph.hpp"
#include "isoterra/mesh.hpp"
#include "mesh_checks.hpp"

using namespace isoterra;

namespace {

static_assert(sizeof(CompactVertex) <= 16, "the compact vertex is at most 16 bytes");

// The material bytes the 48-byte vertex carried (terrain_buffers.cpp before the compact
// vertex): each of the two materials' share, rounded to 1/255, summed when they are one.
std::array<std::uint8_t, kMaterialCount> old_weight_bytes(const MaterialSample& m) {
    float w[kMaterialCount] = {};
    w[static_cast<int>(m.primary)] += 1.0f - m.blend;
    w[static_cast<int>(m.secondary)] += m.blend;
    std::array<std::uint8_t, kMaterialCount> out{};
    for (int c = 0; c < kMaterialCount; ++c) out[c] = static_cast<std::uint8_t>(std::lround(std::clamp(w[c], 0.0f, 1.0f) * 255.0f));
    return out;
}

// The worst of each error over a mesh's vertices, in cells of its spacing and degrees.
struct Errors {
    double position = 0.0, position_on_face = 0.0, normal_deg = 0.0, secondary = 0.0, weight = 0.0;
    std::size_t vertices = 0, weights_not_exact = 0, flags_differing = 0;
    void add(const MeshBuffers& m, double spacing) {
        std::vector<CompactVertex> c;
        const CompactScale scale = compact_vertices(m, spacing, c);
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            const CompactDecoded d = decode_compact(c[v], scale);
            const unsigned flags = m.side_flags.empty() ? 0u : m.side_flags[v];
            const bool on_face_only = (flags & 63u) == 0 && (flags >> 8) != 0;
            double e = 0.0;  // per axis: the grid is per axis
            for (int a = 0; a < 3; ++a) e = std::max(e, std::fabs(static_cast<double>(d.position[a]) - m.positions[v][a]) / spacing);
            (on_face_only ? position_on_face : position) = std::max(on_face_only ? position_on_face : position, e);
            normal_deg = std::max(normal_deg, test::degrees_between(d.normal, m.normals[v]));
            flags_differing += d.side_flags != flags;
            for (int a = 0; a < 3 && !m.secondary.empty(); ++a)
                if (flags >> (2 * a) & 3u) secondary = std::max(secondary, std::fabs(d.secondary[a] - m.secondary[v][a]) / spacing);
            const auto old = old_weight_bytes(m.materials[v]);
            bool exact = true;
            for (int k = 0; k < kMaterialCount; ++k) {
                const double diff = std::fabs(d.weights[k] - old[k] / 255.0);
                weight = std::max(weight, diff);
                exact &= diff < 1e-6;
            }
            weights_not_exact += !exact;
            ++vertices;
        }
    }
};

}  // namespace

// Directions over the whole sphere (a Fibonacci spiral, the axes and the diagonals): the
// octahedral snorm16 normal comes back within 0.006 degrees (measured: 0.0037; snorm8 would give 0.94).
TEST(CompactVertex, octahedral_normals_come_back_within_six_thousandths_of_a_degree) {
    std::vector<glm::vec3> directions;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        const double y = 1.0 - 2.0 * (i + 0.5) / n, r = std::sqrt(1.0 - y * y), phi = i * M_PI * (3.0 - std::sqrt(5.0));
        directions.emplace_back(r * std::cos(phi), y, r * std::sin(phi));
    }
    for (int a = 0; a < 3; ++a)
        for (float s : {-1.0f, 1.0f}) {
            glm::vec3 d(0.0f);
            d[a] = s;
            directions.push_back(d);
        }
    for (int i = 0; i < 8; ++i) directions.emplace_back(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
    double worst = 0.0;
    for (const glm::vec3& d : directions) {
        const auto e = octahedral_encode(glm::normalize(d));
        worst = std::max(worst, test::degrees_between(octahedral_decode(e[0], e[1]), d));
    }
    EXPECT_LT(worst, 0.006);
    EXPECT_GT(worst, 0.0);  // snorm16 does round
    RecordProperty("worst_degrees", std::to_string(worst));
}

// Every pair of materials and 2,001 blends: the shader's weights are the bytes the 48-byte
// vertex carried, except where the blend falls on a half of 1/255 (the two sides' rounding
// then differs by one step).
TEST(CompactVertex, material_weights_are_the_old_vertex_bytes) {
    MeshBuffers m;
    for (int p = 0; p < kMaterialCount; ++p)
        for (int s = 0; s < kMaterialCount; ++s)
            for (int b = 0; b <= 2000; ++b) {
                m.positions.emplace_back(0.0f);
                m.normals.emplace_back(0.0f, 1.0f, 0.0f);
                m.materials.push_back({static_cast<Material>(p), static_cast<Material>(s), static_cast<float>(b) / 2000.0f});
            }
    std::vector<CompactVertex> c;
    const CompactScale scale = compact_vertices(m, 1.0, c);
    std::size_t ties = 0;
    for (std::size_t v = 0; v < c.size(); ++v) {
        const CompactDecoded d = decode_compact(c[v], scale);
        const auto old = old_weight_bytes(m.materials[v]);
        const double x = m.materials[v].blend * 255.0;
        const bool tie = std::fabs(x - std::floor(x) - 0.5) < 1e-3;
        ties += tie;
        for (int k = 0; k < kMaterialCount; ++k) {
            if (tie) EXPECT_NEAR(d.weights[k], old[k] / 255.0, 1.0 / 255.0 + 1e-6) << v;
            else EXPECT_NEAR(d.weights[k], old[k] / 255.0, 1e-6) << "vertex " << v << " material " << k;
        }
    }
    EXPECT_LT(ties, c.size() / 100);
}

// All 4,096 combinations of the twelve flag bits come back as they were.
TEST(CompactVertex, side_flags_round_trip) {
    MeshBuffers m;
    for (unsigned f = 0; f < 4096; ++f) {
        m.positions.emplace_back(static_cast<float>(f % 32), 3.0f, 1.0f);
        m.normals.emplace_back(1.0f, 0.0f, 0.0f);
        m.materials.push_back({Material::rock, Material::snow, 0.25f});
        m.side_flags.push_back(static_cast<std::uint16_t>((f & 63u) | (f >> 6) << 8));
        m.secondary.emplace_back(0.25f, -0.25f, 0.5f);
    }
    std::vector<CompactVertex> c;
    const CompactScale scale = compact_vertices(m, 1.0, c);
    for (std::size_t v = 0; v < c.size(); ++v) ASSERT_EQ(decode_compact(c[v], scale).side_flags, m.side_flags[v]) << v;
}

// Chunks around the ground of tutorial and alpine at levels 0 to 6, by every mesher, and
// their water: each error is measured against the mesh's own floats.
TEST(CompactVertex, real_chunks_decode_within_the_bounds) {
    Errors all;
    std::size_t water_vertices = 0;
    for (const char* name : {"tutorial", "alpine"}) {
        const std::shared_ptr<const Field> f = builtin_terrain(name).make_field();
        for (int lod = 0; lod <= 6; ++lod) {
            const double sp = std::ldexp(1.0, lod), e = kChunkSize * sp;
            for (const Mesher mesher : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
                const int cx = 1 + lod % 3, cz = -2 + lod % 2;
                const double h = f->ground_height((cx + 0.5) * e, (cz + 0.5) * e);
                for (int cy = static_cast<int>(std::floor(h / e)) - 1; cy <= static_cast<int>(std::floor(h / e)) + 1; ++cy) {
                    const ChunkCoord c{cx, cy, cz, lod};
                    all.add(test::chunk_mesh(*f, mesher, c), sp);
                    if (mesher != Mesher::marching_cubes) continue;
                    ChunkSamples s;
                    sample_chunk(*f, c, mesher_padding(mesher), s, LatticeUse::values);
                    MeshBuffers water;
                    mesh_water(s, water);
                    water_vertices += water.vertex_count();
                    all.add(water, sp);
                }
            }
        }
    }
    ASSERT_GT(all.vertices, 100000u);
    // Within 2^-11 of a cell on the grid of 2^-10; a half-resolution vertex on the coarser
    // chunk's grid, within 2^-11 of its own (coarser) cell. Both under 1e-3 of a cell.
    EXPECT_LE(all.position, std::ldexp(1.0, -11) * 1.001);
    EXPECT_LE(all.position_on_face, std::ldexp(1.0, -10) * 1.001);
    EXPECT_LT(std::max(all.position, all.position_on_face), 1e-3);
    EXPECT_LT(all.normal_deg, 0.006);
    EXPECT_EQ(all.flags_differing, 0u);
    // The secondary offset (up to half a cell) in 127 steps: within half a step.
    EXPECT_LE(all.secondary, 0.5 / 127.0 / 2.0 * 1.001);
    EXPECT_LE(all.weight, 1.0 / 255.0 + 1e-6);
    EXPECT_LT(all.weights_not_exact, all.vertices / 1000);
    std::printf(
        "compact vertex: %zu vertices (%zu of water): position %.3g cells (%.3g on faces), normal %.3g deg, secondary %.3g cells, "
        "weights %zu not exact (%.3g)\n",
        all.vertices, water_vertices, all.position, all.position_on_face, all.normal_deg, all.secondary, all.weights_not_exact, all.weight);
}

// Where a renderer draws each vertex next to coarser neighbours (transition_position, here
// with the decoded values, as the shader does) stays within 2^-11 of a cell plus the
// secondary offset's half step of where the floats put it.
TEST(CompactVertex, transition_positions_stay_within_a_step_of_the_floats) {
    const std::shared_ptr<const Field> f = builtin_terrain("alpine").make_field();
    for (int lod = 0; lod <= 4; ++lod) {
        const double sp = std::ldexp(1.0, lod), e = kChunkSize * sp;
        const double h = f->ground_height(1.5 * e, 1.5 * e);
        const MeshBuffers m = test::chunk_mesh(*f, Mesher::marching_cubes, {1, static_cast<int>(std::floor(h / e)), 1, lod});
        ASSERT_FALSE(m.side_flags.empty());
        std::vector<CompactVertex> c;
        const CompactScale scale = compact_vertices(m, sp, c);
        MeshBuffers decoded = m;
        for (std::size_t v = 0; v < c.size(); ++v) {
            const CompactDecoded d = decode_compact(c[v], scale);
            decoded.positions[v] = d.position, decoded.normals[v] = d.normal, decoded.secondary[v] = d.secondary;
            decoded.side_flags[v] = d.side_flags;
        }
        double worst = 0.0;
        for (unsigned mask = 1; mask < 64; ++mask)
            for (std::size_t v = 0; v < c.size(); ++v)
                worst = std::max(
                    worst,
                    glm::length(glm::dvec3(transition_position(decoded, v, mask)) - glm::dvec3(transition_position(m, v, mask))) / sp);
        // Position, offset (two axes at most... three at a corner) and the normal's tilt of it.
        EXPECT_LT(worst, std::ldexp(1.0, -11) + std::sqrt(3.0) * 0.5 / 127.0 / 2.0 + 1e-4) << "lod " << lod;
    }
}

// A fine chunk's strip towards its coarser neighbour puts the neighbour's own vertices on the
// face (Transvoxel, to the bit): decoded, each is at the point where the coarser chunk's
// compact vertex is drawn, to the bit, in world metres; so the renderer leaves no crack.
TEST(CompactVertex, half_resolution_vertices_land_on_the_coarser_neighbours_points) {
    const std::shared_ptr<const Field> f = builtin_terrain("tutorial").make_field();
    std::size_t matched = 0;
    for (int lod = 0; lod <= 5; ++lod) {
        const double sp = std::ldexp(1.0, lod), e = kChunkSize * sp;
        const double h = f->ground_height(2 * e, 1.5 * e);
        const int fy = static_cast<int>(std::floor(h / e));
        const MeshBuffers fine = test::chunk_mesh(*f, Mesher::marching_cubes, {1, fy, 1, lod});
        const MeshBuffers coarse = test::chunk_mesh(*f, Mesher::marching_cubes, {1, static_cast<int>(std::floor(fy / 2.0)), 0, lod + 1});
        std::vector<CompactVertex> cf, cc;
        const CompactScale sf = compact_vertices(fine, sp, cf), sc = compact_vertices(coarse, 2 * sp, cc);
        // The coarser chunk's vertices by their exact world position: where it draws them.
        std::map<std::tuple<double, double, double>, glm::dvec3> drawn;
        for (std::size_t v = 0; v < coarse.vertex_count(); ++v) {
            const glm::dvec3 p = coarse.world_position(v);
            drawn[{p.x, p.y, p.z}] = coarse.origin + glm::dvec3(decode_compact(cc[v], sc).position);
        }
        for (std::size_t v = 0; v < fine.vertex_count(); ++v) {
            const unsigned flags = fine.side_flags[v];
            if ((flags & 63u) != 0 || (flags >> 8 & (1u << side_pos_x)) == 0) continue;
            const glm::dvec3 p = fine.world_position(v);
            const auto it = drawn.find({p.x, p.y, p.z});
            if (it == drawn.end()) continue;
            const glm::dvec3 here = fine.origin + glm::dvec3(decode_compact(cf[v], sf).position);
            EXPECT_EQ(here, it->second) << "lod " << lod << " vertex " << v;
            ++matched;
        }
    }
    EXPECT_GT(matched, 50u);
}
