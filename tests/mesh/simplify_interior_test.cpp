// Simplifying a chunk's inside: fewer triangles within the error, and everything within a
// cell of a face (the faces' triangles, the transition strips, the rim) exactly as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <glm/geometric.hpp>

#include "isoterra/mesh.hpp"

using namespace isoterra;

namespace {

using Point = std::array<float, 3>;
using Triangle = std::array<Point, 3>;

Point point(const MeshBuffers& m, std::uint32_t v) { return {m.positions[v].x, m.positions[v].y, m.positions[v].z}; }

// The triangles of indices [first, first + count) by their corners' positions, each rotated
// to start at its least corner (the same triangle, however it is stored).
std::multiset<Triangle> triangles(const MeshBuffers& m, std::uint32_t first, std::uint32_t count) {
    std::multiset<Triangle> out;
    for (std::uint32_t t = first; t < first + count; t += 3) {
        Triangle tri{point(m, m.indices[t]), point(m, m.indices[t + 1]), point(m, m.indices[t + 2])};
        std::rotate(tri.begin(), std::min_element(tri.begin(), tri.end()), tri.end());
        out.insert(tri);
    }
    return out;
}

bool near_a_face(const Point& p, double spacing) {
    for (const float c : p)
        if (c / spacing <= 1.0 + 1e-6 || c / spacing >= kChunkSize - 1.0 - 1e-6) return true;
    return false;
}

// The edges of the first range used by one triangle only (the rim and the holes), by position.
std::set<std::pair<Point, Point>> open_edges(const MeshBuffers& m) {
    std::map<std::pair<Point, Point>, int> count;
    for (std::uint32_t t = 0; t < m.ranges[0].count; t += 3)
        for (int e = 0; e < 3; ++e) {
            Point a = point(m, m.indices[t + e]), b = point(m, m.indices[t + (e + 1) % 3]);
            if (b < a) std::swap(a, b);
            ++count[{a, b}];
        }
    std::set<std::pair<Point, Point>> out;
    for (const auto& [edge, n] : count)
        if (n == 1) out.insert(edge);
    return out;
}

MeshBuffers tutorial_chunk(const ChunkCoord& c) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    ChunkSamples s;
    sample_chunk(*terrain, c, mesher_padding(Mesher::marching_cubes), s);
    MeshScratch scratch;
    MeshBuffers m;
    mesh_chunk(Mesher::marching_cubes, s, terrain->material_rules(), scratch, m);
    return m;
}

}  // namespace

TEST(SimplifyInterior, a_ball_inside_a_chunk_keeps_within_the_error_of_its_surface) {
    // A ball of 12 m in the middle of a chunk of 1 m samples: nothing near a face.
    const auto ball = make_sphere({16.0, 16.0, 16.0}, 12.0);
    ChunkSamples s;
    sample_chunk(*ball, {0, 0, 0}, mesher_padding(Mesher::marching_cubes), s);
    MeshScratch scratch;
    MeshBuffers m;
    mesh_chunk(Mesher::marching_cubes, s, MaterialRules{}, scratch, m);
    const std::size_t before = m.triangle_count();
    const double error = 0.5;
    const std::size_t removed = simplify_interior(m, 1.0, error);
    std::printf("%zu of %zu triangles removed\n", removed, before);
    EXPECT_EQ(m.triangle_count(), before - removed);
    EXPECT_GT(removed, before / 2) << before << " triangles";
    // Every point of every triangle (corners, edge midpoints, centroid) within the error of
    // the sphere, plus marching cubes' own chord error on a 12 m ball (under 0.05 m).
    double worst = 0.0;
    for (std::size_t t = 0; t < m.indices.size(); t += 3) {
        const glm::dvec3 a = m.world_position(m.indices[t]), b = m.world_position(m.indices[t + 1]), c = m.world_position(m.indices[t + 2]);
        for (const glm::dvec3& p : {a, b, c, (a + b) / 2.0, (b + c) / 2.0, (a + c) / 2.0, (a + b + c) / 3.0})
            worst = std::max(worst, std::fabs(glm::length(p - glm::dvec3(16.0)) - 12.0));
    }
    EXPECT_LT(worst, error + 0.05);
    std::printf("farthest from the sphere: %.3f m\n", worst);
    // Closed before, closed after; every vertex used, every index valid.
    EXPECT_TRUE(open_edges(m).empty());
    std::vector<bool> used(m.vertex_count());
    for (const std::uint32_t i : m.indices) {
        ASSERT_LT(i, m.vertex_count());
        used[i] = true;
    }
    EXPECT_EQ(std::count(used.begin(), used.end(), false), 0);
    EXPECT_EQ(m.normals.size(), m.vertex_count());
    EXPECT_EQ(m.materials.size(), m.vertex_count());
    EXPECT_EQ(m.secondary.size(), m.vertex_count());
    EXPECT_EQ(m.side_flags.size(), m.vertex_count());
}

TEST(SimplifyInterior, what_lies_within_a_cell_of_a_face_and_the_transition_strips_stay_exactly) {
    const MeshBuffers original = tutorial_chunk({0, 0, 0, 2});
    ASSERT_GT(original.ranges.size(), 1u);
    MeshBuffers m = original;
    const std::size_t removed = simplify_interior(m, 4.0, 2.0);
    EXPECT_GT(removed, original.ranges[0].count / 3 / 3) << "a third of the triangles drawn always";
    // The triangles touching a vertex within a cell of a face: the same, corner for corner.
    const auto touching = [](const MeshBuffers& mesh) {
        std::multiset<Triangle> out;
        for (const Triangle& t : triangles(mesh, 0, mesh.ranges[0].count))
            if (near_a_face(t[0], 4.0) || near_a_face(t[1], 4.0) || near_a_face(t[2], 4.0)) out.insert(t);
        return out;
    };
    EXPECT_EQ(touching(m), touching(original));
    // The transition strips: the same triangles under the same conditions.
    ASSERT_EQ(m.ranges.size(), original.ranges.size());
    EXPECT_EQ(m.ranges[0].count, original.ranges[0].count - 3 * removed);
    for (std::size_t r = 1; r < m.ranges.size(); ++r) {
        EXPECT_EQ(m.ranges[r].when, original.ranges[r].when);
        EXPECT_EQ(triangles(m, m.ranges[r].first, m.ranges[r].count),
                  triangles(original, original.ranges[r].first, original.ranges[r].count));
    }
    // The rim (and any hole) the same: the inside closes up to exactly what it met.
    EXPECT_EQ(open_edges(m), open_edges(original));
    // Every vertex is one of the original's, with its secondary position and flags.
    using Vertex = std::tuple<Point, Point, std::uint16_t>;
    const auto vertex = [](const MeshBuffers& mesh, std::size_t v) {
        const glm::vec3 s = mesh.secondary[v];
        return Vertex{point(mesh, static_cast<std::uint32_t>(v)), Point{s.x, s.y, s.z}, mesh.side_flags[v]};
    };
    std::set<Vertex> before;
    for (std::size_t v = 0; v < original.vertex_count(); ++v) before.insert(vertex(original, v));
    for (std::size_t v = 0; v < m.vertex_count(); ++v) EXPECT_TRUE(before.count(vertex(m, v))) << "vertex " << v;
}

TEST(SimplifyInterior, a_mesh_within_its_target_or_without_an_inside_is_left_as_it_was) {
    const MeshBuffers original = tutorial_chunk({1, 0, 0, 2});
    MeshBuffers m = original;
    EXPECT_EQ(simplify_interior(m, 4.0, 2.0, original.triangle_count()), 0u);
    EXPECT_EQ(m.indices, original.indices);
    EXPECT_EQ(m.positions, original.positions);
    // A mesh whose first range is not drawn always (or is shared) is not touched.
    m.ranges[0].when = DrawCondition::side_is(side_pos_x, 0);
    EXPECT_EQ(simplify_interior(m, 4.0, 2.0), 0u);
    EXPECT_EQ(m.indices, original.indices);
    MeshBuffers empty;
    EXPECT_EQ(simplify_interior(empty, 1.0, 0.5), 0u);
}

// Directed edges of the first range that more than one triangle uses (folds and pinches).
std::size_t pinches(const MeshBuffers& m) {
    std::map<std::pair<Point, Point>, int> count;
    for (std::uint32_t t = 0; t < m.ranges[0].count; t += 3)
        for (int e = 0; e < 3; ++e) ++count[{point(m, m.indices[t + e]), point(m, m.indices[t + (e + 1) % 3])}];
    std::size_t n = 0;
    for (const auto& [edge, uses] : count) n += uses > 1;
    return n;
}

// Over the tutorial's chunks of levels 1 to 3, simplified hard (300 triangles): no chunk gets
// a fold or a pinch it did not have (the simplifier does not check; the mesh is tried again
// with less error, or left as it was), and most are simplified.
TEST(SimplifyInterior, no_chunk_gains_a_fold_or_a_pinch) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    int simplified = 0, tried = 0;
    for (int lod = 1; lod <= 3; ++lod)
        for (int x = -2; x <= 2; ++x)
            for (int z = -2; z <= 2; ++z)
                for (int y = 0; y <= 6; ++y) {
                    ChunkSamples s;
                    sample_chunk(*terrain, {x, y, z, lod}, mesher_padding(Mesher::marching_cubes), s);
                    MeshScratch scratch;
                    MeshBuffers m;
                    mesh_chunk(Mesher::marching_cubes, s, terrain->material_rules(), scratch, m);
                    if (m.triangle_count() < 600) continue;
                    const std::size_t before = pinches(m);
                    const double spacing = std::ldexp(1.0, lod);
                    simplified += simplify_interior(m, spacing, 0.5 * spacing, 300) > 0;
                    ++tried;
                    EXPECT_LE(pinches(m), before) << "chunk " << x << " " << y << " " << z << " of level " << lod;
                }
    std::printf("%d of %d chunks simplified\n", simplified, tried);
    EXPECT_GT(tried, 40);
    EXPECT_GT(simplified * 3, tried * 2);
}
