// The last pass of marching cubes: each crossed lattice edge's vertex, once, with only what
// exists computed (position, normal from the gradients at the edge's ends, material, and
// for levels of detail the secondary position near the chunk's faces). The arithmetic is
// push_edge_vertex's, step for step, so the vertices are the same to the bit. As Flying
// Edges does, it runs in three loops over all the vertices rather than one a vertex: the
// crossings and blended gradients, then the normals (a root and three divides each, whose
// latency the independent vertices of one short loop hide, and which the compiler may do
// four at once), then positions and materials.
#include <vector>

#include "marching_passes.hpp"

namespace isoterra::detail {
namespace {

typedef float Lanes __attribute__((vector_size(16)));

// Lengyel's secondary position of a vertex at `cell` (core cell units, 0..32 per axis): in
// the first or last cell layer along an axis it moves inwards by up to half a cell, so the
// transition strip fits between it and the face. Also the sides it is near and lies on.
void secondary_position(const glm::dvec3& cell, int edge_axis, const int lower[3], double spacing, glm::vec3& offset,
                        std::uint16_t& flags) {
    constexpr double kStripWidth = 0.5;  // of a cell
    unsigned near = 0, on = 0;
    for (int a = 0; a < 3; ++a) {
        if (cell[a] < 1.0) {
            near |= 1u << (2 * a);
            offset[a] = static_cast<float>((1.0 - cell[a]) * kStripWidth * spacing);
        } else if (cell[a] > kChunkSize - 1) {
            near |= 2u << (2 * a);
            offset[a] = static_cast<float>((kChunkSize - 1 - cell[a]) * kStripWidth * spacing);
        }
        if (a != edge_axis && lower[a] == 0) on |= 1u << (2 * a);
        if (a != edge_axis && lower[a] == kChunkSize) on |= 2u << (2 * a);
    }
    flags = static_cast<std::uint16_t>(near | on << 8);
}

}  // namespace

void mc_edge_vertices(const ChunkSamples& s, const MaterialClassifier& classify, const std::uint32_t* edges, std::size_t count,
                      MeshScratch& scratch, MeshBuffers& out) {
    out.positions.resize(count);
    out.normals.resize(count);
    out.materials.resize(count);
    out.secondary.assign(count, glm::vec3(0.0f));
    out.side_flags.resize(count);
    // Each vertex's crossing along its edge: a multiple of 2^-16 in [0, 1], exact in float.
    thread_local std::vector<float> crossing;
    crossing.resize(count);
    const double sp = s.lattice.spacing_m;
    const std::size_t step[3] = {1, static_cast<std::size_t>(s.lattice.size.x),
                                 static_cast<std::size_t>(s.lattice.size.x) * static_cast<std::size_t>(s.lattice.size.y)};
    const float* values = s.values.data();
    const auto gradient = [&](std::size_t at) {
        return glm::vec3(values[at + step[0]] - values[at - step[0]], values[at + step[1]] - values[at - step[1]],
                         values[at + step[2]] - values[at - step[2]]);
    };
    const auto sample_at = [&](std::uint32_t e) {
        return s.lattice.index(static_cast<int>(e & 255) + s.pad.lo, static_cast<int>(e >> 8 & 255) + s.pad.lo,
                               static_cast<int>(e >> 16 & 255) + s.pad.lo);
    };
    // The crossings, and the gradient blended at each into out.normals.
    for (std::size_t v = 0; v < count; ++v) {
        const std::size_t at = sample_at(edges[v]), next = at + step[edges[v] >> 24];
        const float t = static_cast<float>(edge_crossing(values[at], values[next]));
        crossing[v] = t;
        const glm::vec3 ga = gradient(at), gb = gradient(next);
        out.normals[v] = ga + (gb - ga) * t;
    }
    // The normals: unit_or_up's root of ((x^2 + y^2) + z^2) and quotients, so the same bits.
    for (glm::vec3& n : out.normals) {
        const glm::vec3 g = n;
        const float len = std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
        n = len > 0.0f && std::isfinite(len) ? glm::vec3(g.x / len, g.y / len, g.z / len) : unit_or_up(g);
    }
    // Positions, and what the materials need of each vertex: classified together at the end.
    thread_local std::vector<double> heights, normal_y, depth;
    thread_local std::vector<PointLooks> looks;
    heights.resize(count), normal_y.resize(count), depth.resize(count), looks.resize(count);
    for (std::size_t v = 0; v < count; ++v) {
        const std::uint32_t e = edges[v];
        const int lower[3] = {static_cast<int>(e & 255), static_cast<int>(e >> 8 & 255), static_cast<int>(e >> 16 & 255)};
        const int axis = static_cast<int>(e >> 24);
        const double t = crossing[v];
        glm::dvec3 p = sample_position(s, lower[0], lower[1], lower[2]);
        p[axis] += t * sp;
        out.positions[v] = glm::vec3(p - out.origin);
        heights[v] = p.y, normal_y[v] = out.normals[v].y;
        depth[v] = column_depth_and_looks(s, p.x, p.y, p.z, looks[v]);
        glm::dvec3 cell(lower[0], lower[1], lower[2]);
        cell[axis] += t;
        secondary_position(cell, axis, lower, sp, out.secondary[v], out.side_flags[v]);
        record_face_vertex(scratch, lower, axis, static_cast<std::int32_t>(v));
    }
    classify.classify(MaterialPoints{heights.data(), normal_y.data(), depth.data(), looks.data()}, count, out.materials.data());
}

}  // namespace isoterra::detail
