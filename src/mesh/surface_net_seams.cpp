// Seams between surface-net chunks of neighbouring levels, made by the finer chunk: dual
// contouring on the mixed grid of the two levels (Ju et al. 2002, as octree dual contouring
// closes across cell sizes), for the columns of a world, whose neighbours differ by one
// level at most, by side or corner. Every edge with a sign change on a face or vertical edge
// of the chunk is owned by the finest column that touches it (ties: the column at +x +z of
// it first, then -x +z, +x -z, -x -z); its polygon joins the cells around it, each at its own
// column's level. A coarser neighbour's cells are rebuilt from the chunk's even samples,
// which are that neighbour's samples, so the seam meets its vertices to the bit. A coarser
// cell whose own corners do not change sign, though finer edges on its face do, gets a vertex
// of its own in the seam (the coarser chunk has no surface there): the seam closes the finer
// surface on it. Each variant (a face next to a coarser column, a vertical edge with each
// set of levels around it that the chunk owns) is an index range drawn for its neighbourhood.
#include <array>
#include <cmath>
#include <tuple>
#include <utility>

#include "vertex_attributes.hpp"

namespace isoterra::detail {
namespace {

constexpr int kCells = kChunkSize + 1;  // own cells -1..31 per axis
constexpr int kCoarse = 18;             // coarser cells by lower corner -2, 0, ..., 32 per axis

// The levels, relative to the chunk, of the nine columns around and including its own:
// index (dz + 1) * 3 + (dx + 1).
using Levels = std::array<int, 9>;

class SeamBuilder {
public:
    SeamBuilder(const ChunkSamples& s, const MaterialClassifier& classify, const std::vector<std::int32_t>& cells,
                const std::vector<std::uint16_t>& cell_codes, MeshBuffers& out)
        : s_(s), classify_(classify), cells_(cells), cell_codes_(cell_codes), out_(out),
          coarse_(static_cast<std::size_t>(kCoarse) * kCoarse * kCoarse, -1), coarse_codes_(coarse_.size(), 0) {}

    // Appends to `into` the polygon of the edge from core sample p along `axis`, with the
    // columns around at `levels`, if the edge changes sign.
    void edge(const int p[3], int axis, const Levels& levels, std::vector<std::uint32_t>& into) {
        int q[3] = {p[0], p[1], p[2]};
        ++q[axis];
        const float fa = s_.at(p[0], p[1], p[2]), fb = s_.at(q[0], q[1], q[2]);
        if ((fa < 0.0f) == (fb < 0.0f)) return;
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        const int uv[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
        NetCell cells[4];
        for (int n = 0; n < 4; ++n) {
            // The cell of the chunk's level in this quadrant around the edge.
            int c[3] = {p[0], p[1], p[2]};
            c[u] += uv[n][0];
            c[v] += uv[n][1];
            if (!cell_at(c, levels, p, axis, cells[n])) return;
        }
        emit_net_polygon(
            s_, out_.positions, cells, p, axis,
            [&](const NetCell& lo, int w, const int corner[3], int bump_axis) { return face_vertex(lo, w, corner, bump_axis); }, into);
    }

private:
    // The cell that holds the chunk-level cell with lower corner `c` (core samples) at its
    // column's level, with the vertex of its piece that holds the crossing of the edge from
    // core sample p along `axis`; false where the chunk cannot make it.
    bool cell_at(const int c[3], const Levels& levels, const int p[3], int axis, NetCell& cell) {
        const int cx = c[0] < 0 ? 0 : c[0] >= kChunkSize ? 2 : 1, cz = c[2] < 0 ? 0 : c[2] >= kChunkSize ? 2 : 1;
        const int i = c[0], j = c[1], k = c[2];
        if (levels[static_cast<std::size_t>(cz * 3 + cx)] == 0) {
            if (i < -1 || j < -1 || j >= kChunkSize || k < -1 || i > kChunkSize || k > kChunkSize) return false;
            cell = {0, {i, j, k}, 1, 0};
            const int edge = cube_edge((p[0] - i) | (p[1] - j) << 1 | (p[2] - k) << 2, axis);
            std::int32_t first = -1;
            if (i < kChunkSize && k < kChunkSize) {
                const std::size_t index = ((static_cast<std::size_t>(k + 1) * kCells) + (j + 1)) * kCells + (i + 1);
                first = cells_[index];
                cell.code = cell_codes_[index];
            } else {
                first = beyond_cell(i, j, k, cell.code);
            }
            if (first < 0) return false;
            cell.vertex = static_cast<std::uint32_t>(first + cell_pieces().piece_of[cell.code][edge]);
            return true;
        }
        cell = {0, {i & -2, j & -2, k & -2}, 2, 0};  // rounded down to even, below 0 too
        const std::int32_t first = coarse_cell(cell.lo[0], cell.lo[1], cell.lo[2]);
        cell.code = coarse_codes_[coarse_index(cell.lo[0], cell.lo[1], cell.lo[2])];
        cell.vertex = static_cast<std::uint32_t>(first);  // kept whole: one piece
        return true;
    }

    // The vertex of a face segment (emit_net_polygon) of a cell of the chunk's level or of a
    // coarser one, as the chunk of that cell makes it; or, with `bump_axis`, the seam's vertex
    // for the two finer crossings of the coarser edge from `corner` along it: their mean.
    std::uint32_t face_vertex(const NetCell& lo, int w, const int corner[3], int bump_axis) {
        const auto key = std::make_tuple(lo.stride, lo.lo[0], lo.lo[1], lo.lo[2], w, corner[0], corner[1], corner[2], bump_axis);
        for (const auto& [at, id] : face_vertices_)
            if (at == key) return id;
        glm::dvec3 local;
        if (bump_axis < 0) {
            local = face_segment_fraction(s_, lo.lo, w, corner, lo.stride);
        } else {
            int c[3] = {corner[0], corner[1], corner[2]};
            const float f0 = s_.at(c[0], c[1], c[2]);
            ++c[bump_axis];
            const float f1 = s_.at(c[0], c[1], c[2]);
            ++c[bump_axis];
            const float f2 = s_.at(c[0], c[1], c[2]);
            for (int a = 0; a < 3; ++a) local[a] = (corner[a] - lo.lo[a]) / 2;
            local[bump_axis] += snap_fraction((edge_crossing(f0, f1) + 1.0 + edge_crossing(f1, f2)) / 4.0);
        }
        const auto id = static_cast<std::uint32_t>(out_.positions.size());
        if (lo.stride == 1)
            push_surface_net_cell(out_, s_, classify_, lo.lo[0], lo.lo[1], lo.lo[2], 1, nullptr, lo.code, CentralDifferences{}, &local);
        else
            push_surface_net_cell(
                out_, s_, classify_, lo.lo[0], lo.lo[1], lo.lo[2], 2, nullptr, lo.code,
                [&](int a, int b, int c) { return coarse_gradient(a, b, c); }, &local);
        face_vertices_.emplace_back(key, id);
        return id;
    }

    static std::size_t coarse_index(int ci, int cj, int ck) {
        return ((static_cast<std::size_t>(ck / 2 + 1) * kCoarse) + (cj / 2 + 1)) * kCoarse + (ci / 2 + 1);
    }

    // The vertex of a cell of the chunk's level beyond its +x or +z face (a neighbour's, at a
    // vertical edge the chunk owns), as that neighbour makes it.
    // Its first vertex and its piece code; -1 where it has no surface.
    std::int32_t beyond_cell(int i, int j, int k, std::uint16_t& code) {
        const auto key = std::make_tuple(i, j, k);
        float t[12];
        const int mask = cell_crossings(s_, i, j, k, t);
        code = static_cast<std::uint16_t>(net_cell_code(mask, i, k));
        if (mask == 0 || mask == 255) return -1;
        for (const auto& [at, id] : beyond_)
            if (at == key) return id;
        const std::int32_t id = static_cast<std::int32_t>(out_.positions.size());
        push_surface_net_cell(out_, s_, classify_, i, j, k, 1, t, code, CentralDifferences{});
        beyond_.emplace_back(key, id);
        return id;
    }

    // The vertex of the coarser cell with lower corner (ci, cj, ck) in core samples (even).
    std::int32_t coarse_cell(int ci, int cj, int ck) {
        std::int32_t& slot = coarse_[coarse_index(ci, cj, ck)];
        if (slot >= 0) return slot;
        float f[8];
        int mask = 0;
        for (int c = 0; c < 8; ++c) {
            f[c] = s_.at(ci + 2 * (c & 1), cj + 2 * (c >> 1 & 1), ck + 2 * (c >> 2 & 1));
            mask |= (f[c] < 0.0f) << c;
        }
        // Kept whole, as the coarser chunk keeps its cells on its column's sides.
        coarse_codes_[coarse_index(ci, cj, ck)] = static_cast<std::uint16_t>(mask | kWholeCell);
        // The coarser chunk's own vertices, to the bit; or, where its corners agree, one at
        // the mean crossing of the finer edges on the cell's surface.
        const glm::dvec3 local = mask != 0 && mask != 255 ? glm::dvec3(0.0) : finer_crossings(ci, cj, ck);
        float t[12];
        cell_crossings(f, t);
        slot = static_cast<std::int32_t>(out_.positions.size());
        push_surface_net_cell(
            out_, s_, classify_, ci, cj, ck, 2, t, mask | kWholeCell, [&](int a, int b, int c) { return coarse_gradient(a, b, c); },
            mask != 0 && mask != 255 ? nullptr : &local);
        return slot;
    }

    // The mean crossing of the finer lattice edges on the surface of the coarser cell, as a
    // snapped fraction of it.
    glm::dvec3 finer_crossings(int ci, int cj, int ck) const {
        glm::dvec3 sum(0.0);
        int n = 0;
        for (int a = 0; a < 3; ++a)
            for (int z = 0; z <= 2; ++z)
                for (int y = 0; y <= 2; ++y)
                    for (int x = 0; x <= 2; ++x) {
                        int p[3] = {x, y, z};
                        if (p[a] == 2) continue;
                        bool surface = false;
                        for (int b = 0; b < 3; ++b) surface |= b != a && (p[b] == 0 || p[b] == 2);
                        if (!surface) continue;
                        const float fa = s_.at(ci + p[0], cj + p[1], ck + p[2]);
                        int q[3] = {p[0], p[1], p[2]};
                        ++q[a];
                        const float fb = s_.at(ci + q[0], cj + q[1], ck + q[2]);
                        if ((fa < 0.0f) == (fb < 0.0f)) continue;
                        glm::dvec3 c(p[0], p[1], p[2]);
                        c[a] += edge_crossing(fa, fb);
                        sum += c;
                        ++n;
                    }
        const glm::dvec3 mean = n > 0 ? sum / (2.0 * n) : glm::dvec3(0.5);
        return {snap_fraction(mean.x), snap_fraction(mean.y), snap_fraction(mean.z)};
    }

    // The gradient at a coarser corner over the coarser spacing, one-sided where the chunk's
    // samples end.
    glm::vec3 coarse_gradient(int i, int j, int k) const {
        const int lo = -s_.pad.lo, hi = kChunkSize + s_.pad.hi;
        const int c[3] = {i, j, k};
        glm::vec3 g(0.0f);
        for (int a = 0; a < 3; ++a) {
            int m[3] = {i, j, k}, p[3] = {i, j, k};
            m[a] = std::max(lo, c[a] - 2);
            p[a] = std::min(hi, c[a] + 2);
            g[a] = (s_.at(p[0], p[1], p[2]) - s_.at(m[0], m[1], m[2])) * (4.0f / static_cast<float>(p[a] - m[a]));
        }
        return g;
    }

    const ChunkSamples& s_;
    const MaterialClassifier& classify_;
    const std::vector<std::int32_t>& cells_;
    const std::vector<std::uint16_t>& cell_codes_;
    MeshBuffers& out_;
    std::vector<std::int32_t> coarse_;
    std::vector<std::uint16_t> coarse_codes_;
    std::vector<std::pair<std::tuple<int, int, int>, std::int32_t>> beyond_;  // a few per vertical edge
    std::vector<std::pair<std::tuple<int, int, int, int, int, int, int, int, int>, std::uint32_t>> face_vertices_;  // rare
};

// A vertical edge of the chunk: where it lies, and the columns at its four quadrants in the
// order of ownership (+x +z, -x +z, +x -z, -x -z) as (dx, dz), with the side or corner of the
// chunk each lies across (-1: the chunk itself).
struct VerticalEdge {
    int i, k;
    int quadrant[4][2];
    int across[4];
    bool diagonal[4];
};
// clang-format off
constexpr VerticalEdge kVerticalEdges[4] = {
    {0, 0, {{0, 0}, {-1, 0}, {0, -1}, {-1, -1}}, {-1, side_neg_x, side_neg_z, corner_neg_x_neg_z}, {false, false, false, true}},
    {kChunkSize, 0, {{1, 0}, {0, 0}, {1, -1}, {0, -1}}, {side_pos_x, -1, corner_pos_x_neg_z, side_neg_z}, {false, false, true, false}},
    {0, kChunkSize, {{0, 1}, {-1, 1}, {0, 0}, {-1, 0}}, {side_pos_z, corner_neg_x_pos_z, -1, side_neg_x}, {false, true, false, false}},
    {kChunkSize, kChunkSize, {{1, 1}, {0, 1}, {1, 0}, {0, 0}}, {corner_pos_x_pos_z, side_pos_z, side_pos_x, -1}, {true, false, false, false}},
};
// clang-format on

// The core samples (i, 0..32, k) below 0, as bits by j.
std::uint64_t solid_along_y(const ChunkSamples& s, int i, int k) {
    std::uint64_t bits = 0;
    for (int j = 0; j <= kChunkSize; ++j) bits |= static_cast<std::uint64_t>(s.at(i, j, k) < 0.0f) << j;
    return bits;
}
// The lattice edges along an axis whose lower sample's index is 0..31.
constexpr std::uint64_t kEdgeRows = (std::uint64_t{1} << kChunkSize) - 1;

}  // namespace

void add_surface_net_seams(const ChunkSamples& s, const MaterialClassifier& classify, const std::vector<std::int32_t>& cell_slots,
                           const std::vector<std::uint16_t>& cell_codes, MeshBuffers& out) {
    SeamBuilder seams(s, classify, cell_slots, cell_codes, out);
    std::vector<std::uint32_t> part;
    const auto close = [&](const DrawCondition& when) {
        out.ranges.push_back({static_cast<std::uint32_t>(out.indices.size()), static_cast<std::uint32_t>(part.size()), when});
        out.indices.insert(out.indices.end(), part.begin(), part.end());
        part.clear();
    };
    // The four faces across x and z, each next to a coarser column: the edges in the face but
    // not on its vertical edges.
    struct Face {
        int side, axis, at, dx, dz;
    };
    for (const Face f : {Face{side_neg_x, 0, 0, -1, 0}, Face{side_pos_x, 0, kChunkSize, 1, 0}, Face{side_neg_z, 2, 0, 0, -1},
                         Face{side_pos_z, 2, kChunkSize, 0, 1}}) {
        Levels levels{};
        levels[static_cast<std::size_t>((f.dz + 1) * 3 + f.dx + 1)] = 1;
        const int w = 2 - f.axis;  // the face's other horizontal axis
        std::uint64_t column[kChunkSize + 1];
        for (int b = 0; b <= kChunkSize; ++b) column[b] = f.axis == 0 ? solid_along_y(s, f.at, b) : solid_along_y(s, b, f.at);
        for (int b = 0; b < kChunkSize; ++b) {
            // The edges with a sign change, by their lower sample's j: along y (none on the
            // vertical edge at b = 0) and along w; visited in the order j, then y before w.
            const std::uint64_t along_y = b == 0 ? 0 : (column[b] ^ column[b] >> 1) & kEdgeRows;
            const std::uint64_t along_w = (column[b] ^ column[b + 1]) & kEdgeRows;
            for (std::uint64_t bits = along_y | along_w; bits; bits &= bits - 1) {
                const int j = __builtin_ctzll(bits);
                int p[3];
                p[f.axis] = f.at;
                p[w] = b;
                p[1] = j;
                if (along_y >> j & 1) seams.edge(p, 1, levels, part);
                if (along_w >> j & 1) seams.edge(p, w, levels, part);
            }
        }
        close(DrawCondition::side_is(f.side, 1));
    }
    // The vertical edges, for each set of levels around them (same or coarser) under which
    // the chunk owns them: it must come first, in the order of ownership, among the finest.
    for (int e = 0; e < 4; ++e) {
        const VerticalEdge& v = kVerticalEdges[e];
        const std::uint64_t solid = solid_along_y(s, v.i, v.k), crossed = (solid ^ solid >> 1) & kEdgeRows;
        for (int combo = 0; combo < 8; ++combo) {
            Levels levels{};
            int level[4], bit = 0;
            DrawCondition when;
            for (int q = 0; q < 4; ++q) {
                level[q] = v.across[q] < 0 ? 0 : (combo >> bit++ & 1);
                levels[static_cast<std::size_t>((v.quadrant[q][1] + 1) * 3 + v.quadrant[q][0] + 1)] = level[q];
                if (v.across[q] >= 0)
                    when = when & (v.diagonal[q] ? DrawCondition::diagonal_is(v.across[q], level[q])
                                                 : DrawCondition::side_is(v.across[q], level[q]));
            }
            int owner = 0;
            for (int q = 1; q < 4; ++q)
                if (level[q] < level[owner]) owner = q;
            if (v.across[owner] >= 0) continue;  // a neighbour of the same level owns it
            if (e == 0 && combo == 0) continue;  // all alike: mesh_surface_nets' own quads
            for (std::uint64_t bits = crossed; bits; bits &= bits - 1) {
                const int p[3] = {v.i, __builtin_ctzll(bits), v.k};
                seams.edge(p, 1, levels, part);
            }
            close(when);
        }
    }
}

}  // namespace isoterra::detail
