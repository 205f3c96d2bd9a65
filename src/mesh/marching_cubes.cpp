// Marching cubes (Lorensen & Cline 1987) with tables built at start-up rather than typed in
// (contour_tables: each face of a cell decides its own segments, an ambiguous face keeps its
// solid corners apart, so two cells sharing a face cut it the same way and a closed surface
// stays closed). For levels of detail every vertex near a face of the chunk also gets its
// secondary position, and transvoxel.cpp adds the transition strips of all six faces.
#include <array>
#include <cstring>

#include "contour_tables.hpp"
#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

// Edge e of kCubeEdges runs along axis kEdgeAxis[e].
using detail::kCubeEdges;
constexpr int kEdgeAxis[12] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};

struct Tables {
    // Up to 5 triangles (15 edge numbers) per case; count[c] edge numbers are used.
    std::array<std::array<std::int8_t, 16>, 256> tris{};
    std::array<std::int8_t, 256> count{};
};

Tables build_tables() {
    const detail::ContourCell cube = detail::cube_cell();
    Tables t;
    for (int mask = 0; mask < 256; ++mask) {
        const std::vector<std::int8_t> tris = detail::contour_triangles(cube, static_cast<std::uint32_t>(mask));
        std::copy(tris.begin(), tris.end(), t.tris[mask].begin());
        t.count[mask] = static_cast<std::int8_t>(tris.size());
    }
    return t;
}

const Tables& tables() {
    static const Tables t = build_tables();
    return t;
}

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

void mesh_marching_cubes(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                         unsigned transition_sides) {
    detail::begin_chunk_mesh(s, out);
    const MaterialClassifier classify(rules);
    if (!s.has_surface()) return;
    const Tables& t = tables();
    // One vertex slot per lattice edge (sample, axis), for the two layers of samples the
    // cells of one layer k touch (k and k + 1), reused in turn: 26 KB that stay in cache.
    constexpr int n = kChunkSize + 1;
    constexpr std::size_t kLayer = static_cast<std::size_t>(n) * n * 3;
    scratch.slots.assign(2 * kLayer, -1);
    // The vertices on the chunk's faces, which the transition strips share.
    scratch.face_slots.assign(kSides * detail::kFaceSlots, -1);
    const double sp = s.lattice.spacing_m;

    detail::mixed_cell_rows(s, 0, kChunkSize, scratch.rows);
    for (int k = 0; k < kChunkSize; ++k) {
        // Layer k + 1 takes the place of layer k - 1, which no cell from here on touches.
        std::fill_n(scratch.slots.begin() + static_cast<std::ptrdiff_t>(((k + 1) & 1) * kLayer), kLayer, -1);
        for (int j = 0; j < kChunkSize; ++j)
            for (std::uint64_t bits = scratch.rows[static_cast<std::size_t>(k) * kChunkSize + j]; bits; bits &= bits - 1) {
                const int i = __builtin_ctzll(bits);
                float f[8];
                const int mask = detail::cell_corners(s, i, j, k, f);
                std::uint32_t vertex[12];
                for (int e = 0; e < 12; ++e) {
                    const int a = kCubeEdges[e][0];
                    if (!((mask >> a ^ mask >> kCubeEdges[e][1]) & 1)) continue;
                    const int lower[3] = {i + (a & 1), j + (a >> 1 & 1), k + (a >> 2 & 1)};
                    const int axis = kEdgeAxis[e];
                    std::int32_t& slot =
                        scratch.slots[(lower[2] & 1) * kLayer + (static_cast<std::size_t>(lower[1]) * n + lower[0]) * 3 + axis];
                    if (slot < 0) {
                        slot = static_cast<std::int32_t>(out.positions.size());
                        const int b = kCubeEdges[e][1];
                        glm::vec3 offset(0.0f);
                        std::uint16_t flags = 0;
                        detail::push_edge_vertex(out, s, classify, lower, axis, 1, f[a], f[b]);
                        glm::dvec3 cell(lower[0], lower[1], lower[2]);
                        cell[axis] += detail::edge_crossing(f[a], f[b]);
                        secondary_position(cell, axis, lower, sp, offset, flags);
                        out.secondary.push_back(offset);
                        out.side_flags.push_back(flags);
                        detail::record_face_vertex(scratch, lower, axis, slot);
                    }
                    vertex[e] = static_cast<std::uint32_t>(slot);
                }
                for (int v = 0; v < t.count[mask]; ++v) out.indices.push_back(vertex[t.tris[mask][v]]);
            }
    }
    out.ranges.push_back({0, static_cast<std::uint32_t>(out.indices.size()), DrawCondition::always()});
    detail::add_transition_strips(s, classify, scratch, out, transition_sides);
}

}  // namespace isoterra
