// Marching cubes (Lorensen & Cline 1987) with tables built at start-up rather than typed in
// (contour_tables: each face of a cell decides its own segments, an ambiguous face keeps its
// solid corners apart, so two cells sharing a face cut it the same way and a closed surface
// stays closed), in the passes of Flying Edges (Schroeder, Maynard & Geveci 2015): the signs
// of each sample row once, as bits, and from them the cells of each row that the surface
// crosses (no other cell is visited); a count of each row's vertices and triangles; then
// each row's triangles written at its own offset, every crossed lattice edge given its
// vertex number by the one cell that meets it first; last, each vertex's position, normal and
// material, once (mc_edge_vertices.cpp). Vertices are numbered in the order of the cells
// (k, j, i) that first meet their edges, and within a cell by edge number, as the one-pass
// version numbered them: the same mesh to the bit. For levels of detail every vertex near a
// face of the chunk also gets its secondary position, and transvoxel.cpp adds the transition
// strips of all six faces.
#include <array>
#include <bitset>

#include "marching_passes.hpp"

namespace isoterra {
namespace {

using detail::kCubeEdges;
constexpr int kN = kChunkSize + 1;  // samples a side
constexpr std::size_t kLayer = static_cast<std::size_t>(kN) * kN * 3;

struct Tables {
    // Up to 5 triangles (15 edge numbers) per case; count[c] edge numbers are used.
    std::array<std::array<std::int8_t, 16>, 256> tris{};
    std::array<std::int8_t, 256> count{};
    std::array<std::uint16_t, 256> crossed{};  // bit e: edge e joins a solid and an air corner
    // The edges a cell is the first (in the order k, j, i) to meet, by the sides of the chunk
    // it lies at: bit 0 at i = 0, bit 1 at j = 0, bit 2 at k = 0.
    std::array<std::uint16_t, 8> first{};
    // How many of case c's crossed edges are first met by a cell at those sides: fresh[sides][c]
    // (the popcount of crossed & first, looked up: baseline x86-64 has no popcount instruction).
    std::array<std::array<std::uint8_t, 256>, 8> fresh{};
    // Where edge e's vertex number is kept: the slot layer (0: the cell's lower z, 1: its
    // upper) and the offset in it from the cell's lower corner's slots.
    std::array<std::int8_t, 12> layer{};
    std::array<std::int16_t, 12> offset{};
};

Tables build_tables() {
    const detail::ContourCell cube = detail::cube_cell();
    Tables t;
    for (int mask = 0; mask < 256; ++mask) {
        const std::vector<std::int8_t> tris = detail::contour_triangles(cube, static_cast<std::uint32_t>(mask));
        std::copy(tris.begin(), tris.end(), t.tris[mask].begin());
        t.count[mask] = static_cast<std::int8_t>(tris.size());
        for (int e = 0; e < 12; ++e)
            if ((mask >> kCubeEdges[e][0] ^ mask >> kCubeEdges[e][1]) & 1) t.crossed[mask] |= static_cast<std::uint16_t>(1u << e);
    }
    for (int e = 0; e < 12; ++e) {
        const int a = kCubeEdges[e][0], axis = detail::kCubeEdgeAxis[e];
        const int d[3] = {a & 1, a >> 1 & 1, a >> 2 & 1};
        t.layer[e] = static_cast<std::int8_t>(d[2]);
        t.offset[e] = static_cast<std::int16_t>((d[1] * kN + d[0]) * 3 + axis);
        // The cells around the edge lie one lower along each other axis where the edge sits
        // on the cell's lower side (offset 0); this cell is the first only where none exists.
        for (int sides = 0; sides < 8; ++sides) {
            bool first = true;
            for (int u = 0; u < 3; ++u)
                if (u != axis && d[u] == 0 && !(sides >> u & 1)) first = false;
            if (first) t.first[sides] |= static_cast<std::uint16_t>(1u << e);
        }
    }
    for (int sides = 0; sides < 8; ++sides)
        for (int mask = 0; mask < 256; ++mask)
            t.fresh[sides][mask] = static_cast<std::uint8_t>(std::bitset<16>(t.crossed[mask] & t.first[sides]).count());
    return t;
}

const Tables& tables() {
    static const Tables t = build_tables();
    return t;
}

// The corner signs of the cells of row (j, k): the sign bits of the four sample rows around it.
struct CellRow {
    std::uint64_t r00, r10, r01, r11;  // sample rows (j, k), (j + 1, k), (j, k + 1), (j + 1, k + 1)
    CellRow(const std::uint64_t* signs, int j, int k) {
        const std::uint64_t* r = signs + static_cast<std::size_t>(k) * kN + j;
        r00 = r[0], r10 = r[1], r01 = r[kN], r11 = r[kN + 1];
    }
    // Cell i's solid corners, corner c at offset (c & 1, c >> 1 & 1, c >> 2 & 1).
    int cell_case(int i) const {
        return static_cast<int>((r00 >> i & 3) | (r10 >> i & 3) << 2 | (r01 >> i & 3) << 4 | (r11 >> i & 3) << 6);
    }
};

// Pass 2: each cell row's first vertex and first index (prefix sums of their counts; the
// last entry the totals).
void count_rows(const Tables& t, const std::uint64_t* signs, const std::uint64_t* mixed, std::uint32_t* vertex_start,
                std::uint32_t* index_start) {
    std::uint32_t vertices = 0, indices = 0;
    for (int k = 0; k < kChunkSize; ++k)
        for (int j = 0; j < kChunkSize; ++j) {
            const std::size_t row = static_cast<std::size_t>(k) * kChunkSize + j;
            vertex_start[row] = vertices, index_start[row] = indices;
            const CellRow cells(signs, j, k);
            const int row_sides = (j == 0) << 1 | (k == 0) << 2;
            for (std::uint64_t bits = mixed[row]; bits; bits &= bits - 1) {
                const int i = __builtin_ctzll(bits), c = cells.cell_case(i);
                vertices += t.fresh[row_sides | (i == 0)][c];
                indices += static_cast<std::uint32_t>(t.count[c]);
            }
        }
    vertex_start[kChunkSize * kChunkSize] = vertices, index_start[kChunkSize * kChunkSize] = indices;
}

// Pass 3: the triangles of layer k's rows, numbering the vertices of the edges its cells meet
// first. `slots` holds the vertex numbers of the lattice edges of two sample layers (by the
// parity of z); every edge a cell reads was numbered by an earlier cell of this chunk.
void write_layer(const Tables& t, const std::uint64_t* signs, const std::uint64_t* mixed, const std::uint32_t* vertex_start,
                 const std::uint32_t* index_start, int k, std::int32_t* slots, std::uint32_t* edges, std::uint32_t* indices) {
    std::int32_t* layer[2] = {slots + (k & 1) * kLayer, slots + ((k + 1) & 1) * kLayer};
    for (int j = 0; j < kChunkSize; ++j) {
        const std::size_t row = static_cast<std::size_t>(k) * kChunkSize + j;
        const CellRow cells(signs, j, k);
        const int row_sides = (j == 0) << 1 | (k == 0) << 2;
        std::uint32_t v = vertex_start[row];
        std::uint32_t* out = indices + index_start[row];
        for (std::uint64_t bits = mixed[row]; bits; bits &= bits - 1) {
            const int i = __builtin_ctzll(bits), c = cells.cell_case(i);
            const std::size_t at = (static_cast<std::size_t>(j) * kN + i) * 3;
            std::int32_t* base[2] = {layer[0] + at, layer[1] + at};
            for (unsigned fresh = t.crossed[c] & t.first[row_sides | (i == 0)]; fresh; fresh &= fresh - 1) {
                const int e = __builtin_ctz(fresh), a = kCubeEdges[e][0];
                base[t.layer[e]][t.offset[e]] = static_cast<std::int32_t>(v);
                edges[v++] = detail::pack_edge(i + (a & 1), j + (a >> 1 & 1), k + (a >> 2 & 1), detail::kCubeEdgeAxis[e]);
            }
            for (int n = 0; n < t.count[c]; ++n) {
                const int e = t.tris[c][n];
                *out++ = static_cast<std::uint32_t>(base[t.layer[e]][t.offset[e]]);
            }
        }
    }
}

}  // namespace

void mesh_marching_cubes(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                         unsigned transition_sides) {
    detail::begin_chunk_mesh(s, out);
    const MaterialClassifier classify(rules);
    if (!s.has_surface()) return;
    const Tables& t = tables();
    // Pass 1: the signs of the 33 x 33 sample rows, and the cells each cell row holds that
    // the surface crosses.
    constexpr std::size_t kRows = static_cast<std::size_t>(kChunkSize) * kChunkSize;
    scratch.signs.resize(static_cast<std::size_t>(kN) * kN);
    scratch.rows.resize(kRows);
    detail::sign_rows(s, 0, kN, scratch.signs.data());
    detail::mixed_rows_from_signs(scratch.signs.data(), kChunkSize, scratch.rows.data());
    // Pass 2: where each row's vertices and triangles go.
    scratch.row_starts.resize(2 * (kRows + 1));
    std::uint32_t* vertex_start = scratch.row_starts.data();
    std::uint32_t* index_start = vertex_start + kRows + 1;
    count_rows(t, scratch.signs.data(), scratch.rows.data(), vertex_start, index_start);
    // Pass 3: the triangles, and each vertex's lattice edge.
    scratch.slots.resize(2 * kLayer);
    scratch.edges.resize(vertex_start[kRows]);
    out.indices.resize(index_start[kRows]);
    for (int k = 0; k < kChunkSize; ++k)
        write_layer(t, scratch.signs.data(), scratch.rows.data(), vertex_start, index_start, k, scratch.slots.data(), scratch.edges.data(),
                    out.indices.data());
    // Pass 4: the vertices themselves, and the chunk faces' vertices that the transition
    // strips share.
    scratch.face_slots.assign(kSides * detail::kFaceSlots, -1);
    detail::mc_edge_vertices(s, classify, scratch.edges.data(), scratch.edges.size(), scratch, out);
    out.ranges.push_back({0, static_cast<std::uint32_t>(out.indices.size()), DrawCondition::always()});
    detail::add_transition_strips(s, classify, scratch, out, transition_sides);
}

}  // namespace isoterra
