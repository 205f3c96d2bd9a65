// Surface nets (Gibson 1998), with manifold dual contouring's split of a cell: one vertex per
// piece of marching cubes' surface in a cell with a sign change (cell_pieces), at the mean of
// the piece's edge crossings, and one quad per lattice edge with a sign change, joining the
// pieces that hold its crossing in the four cells around that edge, split along its shorter
// diagonal (a face vertex between two of them where needed: emit_net_polygon). Cells on a
// side of the column stay whole, as the seams towards coarser columns need them. A chunk owns
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

// One chunk's net as it is built: per cell its first vertex and its piece code (which says
// which piece of the cell, and so which of its vertices, each edge's crossing belongs to),
// and the quads by where their edge lies.
class NetBuilder {
public:
    NetBuilder(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out)
        : s_(s), classify_(rules), scratch_(scratch), out_(out), pieces_(detail::cell_pieces()) {
        scratch.slots.assign(static_cast<std::size_t>(kCells) * kCells * kCells, -1);
        scratch.cell_codes.resize(scratch.slots.size());
    }

    // One pass over the cells in (z, y, x) order. A cell with a sign change gets its vertex:
    // the mean crossing, with the trilinear blend of the corner gradients. Then the edges
    // leaving its lowest corner (0) get their quads; the other three cells around each of
    // those edges lie before it in this order, so their vertices exist already.
    void cells() {
        detail::mixed_cell_rows(s_, -1, kCells, scratch_.rows);
        for (int k = -1; k < kChunkSize; ++k)
            for (int j = -1; j < kChunkSize; ++j)
                for (std::uint64_t bits = scratch_.rows[static_cast<std::size_t>(k + 1) * kCells + (j + 1)]; bits; bits &= bits - 1)
                    cell(__builtin_ctzll(bits) - 1, j, k);
    }

    // The quads' index ranges (those across the -x and -z faces drawn when the neighbours
    // there are of the chunk's own level), then what is drawn next to coarser ones.
    void finish() {
        const DrawCondition when[3] = {DrawCondition::side_is(side_neg_x, 0), DrawCondition::side_is(side_neg_z, 0),
                                       DrawCondition::side_is(side_neg_x, 0) & DrawCondition::side_is(side_neg_z, 0) &
                                           DrawCondition::diagonal_is(corner_neg_x_neg_z, 0)};
        // The body's quads went straight into the indices (begin_chunk_mesh left them empty).
        out_.ranges.push_back({0, static_cast<std::uint32_t>(out_.indices.size()), DrawCondition::always()});
        for (int p = west; p <= corner; ++p) {
            out_.ranges.push_back({static_cast<std::uint32_t>(out_.indices.size()), static_cast<std::uint32_t>(parts_[p].size()), when[p]});
            out_.indices.insert(out_.indices.end(), parts_[p].begin(), parts_[p].end());
        }
        detail::add_surface_net_seams(s_, classify_, scratch_.slots, scratch_.cell_codes, out_);
    }

private:
    // The quads whose edge lies on the -x face, on the -z face, or on the vertical edge where
    // those faces meet (parts_); those inside go straight into the indices.
    enum Part { west, south, corner };

    static std::size_t cell_of(int i, int j, int k) { return ((static_cast<std::size_t>(k + 1) * kCells) + (j + 1)) * kCells + (i + 1); }

    void cell(int i, int j, int k) {
        float t[12];
        const int mask = detail::cell_crossings(s_, i, j, k, t);
        scratch_.slots[cell_of(i, j, k)] = static_cast<std::int32_t>(out_.positions.size());
        const int code = detail::net_cell_code(mask, i, k);
        scratch_.cell_codes[cell_of(i, j, k)] = static_cast<std::uint16_t>(code);
        detail::push_surface_net_cell(out_, s_, classify_, i, j, k, 1, t, code, detail::CentralDifferences{});
        // The chunk owns the edges whose lower sample (corner 0) lies in its core.
        if (i < 0 || j < 0 || k < 0) return;
        const int p[3] = {i, j, k};
        edge_polygon<0>(p, mask);
        edge_polygon<1>(p, mask);
        edge_polygon<2>(p, mask);
    }

    // The polygon of the edge from core sample p (a cell's corner 0, solid where `mask` has
    // bit 0) along `axis`, if it changes sign, into its part.
    template <int axis>
    void edge_polygon(const int p[3], int mask) {
        const bool here = mask & 1;
        if (here == static_cast<bool>(mask >> (1 << axis) & 1)) return;  // corner 1, 2 or 4
        const bool on_west = p[0] == 0 && axis != 0, on_south = p[2] == 0 && axis != 2;
        polygon<axis>(p, here, on_west && on_south ? parts_[corner] : on_west ? parts_[west] : on_south ? parts_[south] : out_.indices);
    }

    // The vertices of face segments (emit_net_polygon), made once each: rare, a thin tube
    // through a face.
    std::uint32_t face_vertex(const detail::NetCell& lo, int w, const int solid[3]) {
        const std::size_t key = (cell_of(lo.lo[0], lo.lo[1], lo.lo[2]) * 3 + static_cast<std::size_t>(w)) * 8 +
                                static_cast<std::size_t>((solid[0] - lo.lo[0]) | (solid[1] - lo.lo[1]) << 1 | (solid[2] - lo.lo[2]) << 2);
        for (const auto& [at, id] : face_vertices_)
            if (at == key) return id;
        const glm::dvec3 local = detail::face_segment_fraction(s_, lo.lo, w, solid, 1);
        const auto id = static_cast<std::uint32_t>(out_.positions.size());
        detail::push_surface_net_cell(out_, s_, classify_, lo.lo[0], lo.lo[1], lo.lo[2], 1, nullptr, lo.code, detail::CentralDifferences{},
                                      &local);
        face_vertices_.emplace_back(key, id);
        return id;
    }

    // The polygon of the edge from core sample p along `axis` through the pieces that hold
    // its crossing in the four cells around it.
    // The two other axes in right-handed order: (y, z) for x, (z, x) for y, (x, y) for z.
    template <int axis>
    void polygon(const int p[3], bool here, std::vector<std::uint32_t>& into) {
        constexpr int u = (axis + 1) % 3, v = (axis + 2) % 3;
        constexpr int uv[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
        // The edge leaves each cell's corner on its far side along u and v.
        const auto cell_at = [&](int n) {
            int c[3] = {p[0], p[1], p[2]};
            c[u] += uv[n][0];
            c[v] += uv[n][1];
            return cell_of(c[0], c[1], c[2]);
        };
        std::uint32_t q[4];
        unsigned twice = 0;
        for (int n = 0; n < 4; ++n) {
            const std::size_t cell = cell_at(n);
            const int code = scratch_.cell_codes[cell];
            twice |= pieces_.twice[code];
            q[n] = static_cast<std::uint32_t>(scratch_.slots[cell] +
                                              pieces_.piece_of[code][detail::cube_edge((-uv[n][0]) << u | (-uv[n][1]) << v, axis)]);
        }
        if (!twice) {  // most quads: no face vertex to put in
            if (!here) std::swap(q[0], q[3]), std::swap(q[1], q[2]);
            detail::emit_polygon(out_.positions, q, 4, into);
            return;
        }
        detail::NetCell cells[4];
        for (int n = 0; n < 4; ++n) {
            detail::NetCell& c = cells[n];
            c.lo[0] = p[0], c.lo[1] = p[1], c.lo[2] = p[2];
            c.lo[u] += uv[n][0];
            c.lo[v] += uv[n][1];
            c.stride = 1;
            c.code = scratch_.cell_codes[cell_at(n)];
            c.vertex = q[n];
        }
        detail::emit_net_polygon(
            s_, out_.positions, cells, p, axis,
            [this](const detail::NetCell& lo, int w, const int solid[3], int) { return face_vertex(lo, w, solid); }, into);
    }

    const ChunkSamples& s_;
    const MaterialClassifier classify_;
    MeshScratch& scratch_;
    MeshBuffers& out_;
    const detail::CellPieces& pieces_;
    std::vector<std::uint32_t> parts_[3];
    std::vector<std::pair<std::size_t, std::uint32_t>> face_vertices_;
};

}  // namespace

void mesh_surface_nets(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out) {
    detail::begin_chunk_mesh(s, out);
    if (!s.has_surface()) return;
    NetBuilder net(s, rules, scratch, out);
    net.cells();
    net.finish();
}

}  // namespace isoterra
