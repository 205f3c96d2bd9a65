// The last pass of marching cubes: each crossed lattice edge's vertex, once, with only what
// exists computed (position, normal from the gradients at the edge's ends, material, and
// for levels of detail the secondary position near the chunk's faces). The arithmetic is
// push_edge_vertex's, step for step, so the vertices are the same to the bit.
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

// unit_or_up with the three lanes' squares, sum, root and quotients as one vector each: the
// same operations in the same order, so the same bits.
glm::vec3 unit_normal(const glm::vec3& g) {
    const Lanes v = {g.x, g.y, g.z, 0.0f};
    const Lanes sq = v * v;
    const float len = std::sqrt(sq[0] + sq[1] + sq[2]);
    if (!(len > 0.0f && std::isfinite(len))) return unit_or_up(g);
    const Lanes n = v / (Lanes{} + len);
    return {n[0], n[1], n[2]};
}

}  // namespace

void mc_edge_vertices(const ChunkSamples& s, const MaterialClassifier& classify, const std::uint32_t* edges, std::size_t count,
                      MeshScratch& scratch, MeshBuffers& out) {
    out.positions.resize(count);
    out.normals.resize(count);
    out.materials.resize(count);
    out.secondary.assign(count, glm::vec3(0.0f));
    out.side_flags.resize(count);
    const double sp = s.lattice.spacing_m;
    const std::size_t step[3] = {1, static_cast<std::size_t>(s.lattice.size.x),
                                 static_cast<std::size_t>(s.lattice.size.x) * static_cast<std::size_t>(s.lattice.size.y)};
    const float* values = s.values.data();
    const auto gradient = [&](std::size_t at) {
        return glm::vec3(values[at + step[0]] - values[at - step[0]], values[at + step[1]] - values[at - step[1]],
                         values[at + step[2]] - values[at - step[2]]);
    };
    for (std::size_t v = 0; v < count; ++v) {
        const std::uint32_t e = edges[v];
        const int lower[3] = {static_cast<int>(e & 255), static_cast<int>(e >> 8 & 255), static_cast<int>(e >> 16 & 255)};
        const int axis = static_cast<int>(e >> 24);
        const std::size_t at = s.lattice.index(lower[0] + s.pad.lo, lower[1] + s.pad.lo, lower[2] + s.pad.lo);
        const double t = edge_crossing(values[at], values[at + step[axis]]);
        glm::dvec3 p = sample_position(s, lower[0], lower[1], lower[2]);
        p[axis] += t * sp;
        const glm::vec3 ga = gradient(at), gb = gradient(at + step[axis]);
        const glm::vec3 n = unit_normal(ga + (gb - ga) * static_cast<float>(t));
        out.positions[v] = glm::vec3(p - out.origin);
        out.normals[v] = n;
        out.materials[v] = classify(p.y, glm::dvec3(n), ground_depth(s, p.x, p.y, p.z), point_looks(s, p.x, p.z));
        glm::dvec3 cell(lower[0], lower[1], lower[2]);
        cell[axis] += t;
        secondary_position(cell, axis, lower, sp, out.secondary[v], out.side_flags[v]);
        record_face_vertex(scratch, lower, axis, static_cast<std::int32_t>(v));
    }
}

}  // namespace isoterra::detail
