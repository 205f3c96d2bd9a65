// Surface nets (Gibson 1998, in its naive form): one vertex per cell with a sign change, at
// the mean of the cell's edge crossings, and one quad per lattice edge with a sign change,
// joining the four cells around that edge, split along its shorter diagonal. A chunk owns
// the edges whose lower sample lies in its core [0, 32)^3, so it needs the cells at -1.
// The quads of edges on the chunk's -x and -z faces, and on the vertical edge between them,
// join cells of the neighbouring columns: they are kept in index ranges of their own, drawn
// when those neighbours are of the chunk's own level; surface_net_seams.cpp adds what is
// drawn next to coarser ones.
#include <algorithm>

#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

using detail::kCubeEdges;
constexpr int kCells = kChunkSize + 1;  // cells -1..31 per axis

}  // namespace

void mesh_surface_nets(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out) {
    detail::begin_chunk_mesh(s, out);
    const MaterialClassifier classify(rules);
    if (!s.has_surface()) return;
    scratch.slots.assign(static_cast<std::size_t>(kCells) * kCells * kCells, -1);
    const auto slot_of = [&](int i, int j, int k) -> std::int32_t& {
        return scratch.slots[((static_cast<std::size_t>(k + 1) * kCells) + (j + 1)) * kCells + (i + 1)];
    };
    // A corner's gradient (lattice_gradient, inline): six loads near the corners just read
    // cost less than a per-sample cache of them (measured: 1.58 -> 1.39 times marching cubes).
    const std::size_t dy = static_cast<std::size_t>(s.lattice.size.x), dz = dy * static_cast<std::size_t>(s.lattice.size.y);
    const float* values = s.values.data();
    const auto gradient_at = [&](int i, int j, int k) -> glm::vec3 {
        const float* v = values + s.lattice.index(i + s.pad.lo, j + s.pad.lo, k + s.pad.lo);
        return {v[1] - v[-1], v[dy] - v[-static_cast<std::ptrdiff_t>(dy)], v[dz] - v[-static_cast<std::ptrdiff_t>(dz)]};
    };

    // The quads, by where their edge lies: inside, on the -x face, on the -z face, or on the
    // vertical edge where those faces meet.
    enum Part { body, west, south, corner };
    std::vector<std::uint32_t> parts[4];

    // One pass over the cells in (z, y, x) order. A cell with a sign change gets its vertex:
    // the mean crossing, with the trilinear blend of the corner gradients. Then the edges
    // leaving its lowest corner (0) get their quads; the other three cells around each of
    // those edges lie before it in this order, so their vertices exist already.
    detail::mixed_cell_rows(s, -1, kCells, scratch.rows);
    for (int k = -1; k < kChunkSize; ++k)
        for (int j = -1; j < kChunkSize; ++j)
            for (std::uint64_t bits = scratch.rows[static_cast<std::size_t>(k + 1) * kCells + (j + 1)]; bits; bits &= bits - 1) {
                const int i = __builtin_ctzll(bits) - 1;
                float f[8];
                const int mask = detail::cell_corners(s, i, j, k, f);
                slot_of(i, j, k) = static_cast<std::int32_t>(out.positions.size());
                detail::push_surface_net_cell(out, s, classify, i, j, k, 1, f, mask, gradient_at);

                // The chunk owns the edges whose lower sample (corner 0) lies in its core.
                if (i < 0 || j < 0 || k < 0) continue;
                const bool here = mask & 1;
                for (int axis = 0; axis < 3; ++axis) {
                    if (here == static_cast<bool>(mask >> (1 << axis) & 1)) continue;  // corner 1, 2 or 4
                    // The two other axes in right-handed order: (y, z) for x, (z, x) for y, (x, y) for z.
                    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
                    std::uint32_t q[4];
                    const int uv[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
                    for (int n = 0; n < 4; ++n) {
                        int c[3] = {i, j, k};
                        c[u] += uv[n][0];
                        c[v] += uv[n][1];
                        q[n] = static_cast<std::uint32_t>(slot_of(c[0], c[1], c[2]));
                    }
                    const bool on_west = i == 0 && axis != 0, on_south = k == 0 && axis != 2;
                    std::vector<std::uint32_t>& into = parts[on_west && on_south ? corner : on_west ? west : on_south ? south : body];
                    // Solid below, air above along the axis: the surface faces +axis.
                    if (here) detail::emit_polygon(out.positions, q, 4, into);
                    else {
                        const std::uint32_t r[4] = {q[3], q[2], q[1], q[0]};
                        detail::emit_polygon(out.positions, r, 4, into);
                    }
                }
            }
    const DrawCondition when[4] = {
        DrawCondition::always(), DrawCondition::side_is(side_neg_x, 0), DrawCondition::side_is(side_neg_z, 0),
        DrawCondition::side_is(side_neg_x, 0) & DrawCondition::side_is(side_neg_z, 0) & DrawCondition::diagonal_is(corner_neg_x_neg_z, 0)};
    for (int p = 0; p < 4; ++p) {
        out.ranges.push_back({static_cast<std::uint32_t>(out.indices.size()), static_cast<std::uint32_t>(parts[p].size()), when[p]});
        out.indices.insert(out.indices.end(), parts[p].begin(), parts[p].end());
    }
    detail::add_surface_net_seams(s, classify, scratch.slots, out);
}

}  // namespace isoterra
