// Transvoxel transition strips (Lengyel 2010), owned by the finer chunk. A transition cell
// spans 2 x 2 cells of a chunk face: its full-resolution side holds the face's 3 x 3 samples
// and meets the chunk's own boundary cells (moved inwards to their secondary positions),
// its half-resolution side holds the four corner samples and lies on the face itself, where
// it meets the coarser neighbour's cells. Those corners are the neighbour's own samples, so
// its vertices there are the neighbour's to the bit. The cell's triangulation comes from the
// same per-face rules as marching cubes (contour_tables), so both sides agree on every face.
#include <array>

#include "contour_tables.hpp"
#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

// A transition cell in its own frame (du, dv, t): full-resolution samples 0..8 at
// (du, dv, 1), sample = 3 dv + du; half-resolution corners 9..12 at t = 0 carry the values
// of samples 0, 2, 6, 8. Edges 0..5 run along du (id = 2 dv + du), 6..11 along dv
// (id = 6 + 2 du + dv), 12..15 are the half-resolution edges 9-10, 11-12, 9-11, 10-12.

detail::ContourCell transition_cell() {
    detail::ContourCell cell;
    for (int s = 0; s < 9; ++s) cell.corners.emplace_back(s % 3, s / 3, 1.0);
    for (const auto& c : {glm::dvec3(0, 0, 0), glm::dvec3(2, 0, 0), glm::dvec3(0, 2, 0), glm::dvec3(2, 2, 0)}) cell.corners.push_back(c);
    for (int dv = 0; dv < 3; ++dv)
        for (int du = 0; du < 2; ++du) cell.edges.push_back({3 * dv + du, 3 * dv + du + 1});
    for (int du = 0; du < 3; ++du)
        for (int dv = 0; dv < 2; ++dv) cell.edges.push_back({3 * dv + du, 3 * (dv + 1) + du});
    cell.edges.push_back({9, 10});
    cell.edges.push_back({11, 12});
    cell.edges.push_back({9, 11});
    cell.edges.push_back({10, 12});
    for (int cv = 0; cv < 2; ++cv)
        for (int cu = 0; cu < 2; ++cu)
            cell.faces.push_back({{3 * cv + cu, 3 * cv + cu + 1, 3 * (cv + 1) + cu + 1, 3 * (cv + 1) + cu}, {0, 0, 1}});
    cell.faces.push_back({{9, 10, 12, 11}, {0, 0, -1}});
    cell.faces.push_back({{0, 3, 6, 11, 9}, {-1, 0, 0}});
    cell.faces.push_back({{2, 5, 8, 12, 10}, {1, 0, 0}});
    cell.faces.push_back({{0, 1, 2, 10, 9}, {0, -1, 0}});
    cell.faces.push_back({{6, 7, 8, 12, 11}, {0, 1, 0}});
    return cell;
}

struct TransitionTables {
    std::array<std::vector<std::int8_t>, 512> tris;  // edge ids, three per triangle
};

const TransitionTables& transition_tables() {
    static const TransitionTables tables = [] {
        const detail::ContourCell cell = transition_cell();
        TransitionTables t;
        for (std::uint32_t c = 0; c < 512; ++c) {
            const std::uint32_t solid = c | (c & 1) << 9 | (c >> 2 & 1) << 10 | (c >> 6 & 1) << 11 | (c >> 8 & 1) << 12;
            t.tris[c] = detail::contour_triangles(cell, solid, 1u | 1u << 9);
        }
        return t;
    }();
    return tables;
}

// The signs of a chunk face's samples from the sign rows of the regular pass (bit x of row
// (y, z) for sample (x, y, z)): row cv of `rows` holds bit cu for the face sample at cu
// along the face's first axis and cv along its second.
void face_sign_rows(const std::uint64_t* signs, int a, int face, std::uint64_t rows[kChunkSize + 1]) {
    constexpr int n = kChunkSize + 1;
    for (int cv = 0; cv < n; ++cv) {
        std::uint64_t bits = 0;
        if (a == 2) bits = signs[static_cast<std::size_t>(face) * n + cv];  // u = x, v = y
        else if (a == 1)                                                    // u = z, v = x
            for (int cu = 0; cu < n; ++cu) bits |= (signs[static_cast<std::size_t>(cu) * n + face] >> cv & 1) << cu;
        else  // u = y, v = z
            for (int cu = 0; cu < n; ++cu) bits |= (signs[static_cast<std::size_t>(cv) * n + cu] >> face & 1) << cu;
        rows[cv] = bits;
    }
}

// The transition cells tu (bit tu) of a strip row whose three sample rows r0..r2 are not all
// of one sign over samples 2 tu .. 2 tu + 2.
std::uint64_t mixed_transition_cells(std::uint64_t r0, std::uint64_t r1, std::uint64_t r2) {
    const std::uint64_t all = r0 & r1 & r2, any = r0 | r1 | r2;
    std::uint64_t cells = 0;
    for (int tu = 0; tu < kChunkSize / 2; ++tu) {
        const std::uint64_t span = std::uint64_t{7} << 2 * tu;
        if ((all & span) != span && (any & span) != 0) cells |= std::uint64_t{1} << tu;
    }
    return cells;
}

}  // namespace

namespace detail {

void add_transition_strips(const ChunkSamples& s, const MaterialClassifier& classify, MeshScratch& scratch, MeshBuffers& out,
                           unsigned sides) {
    const TransitionTables& tables = transition_tables();
    constexpr int kCoarse = kChunkSize / 2 + 1;  // half-resolution samples per face row
    scratch.slots.resize(static_cast<std::size_t>(kCoarse) * kCoarse * 2);
    std::vector<std::int32_t>& coarse_slots = scratch.slots;
    for (int side = 0; side < kSides; ++side) {
        if (!(sides >> side & 1)) continue;
        const int a = side / 2, u = (a + 1) % 3, w = (a + 2) % 3;
        const int face = side % 2 ? kChunkSize : 0;
        // The strip's frame (du, dv, into the chunk) is right-handed on the low faces only.
        const bool mirrored = side % 2 == 1;
        const auto lower_of = [&](int cu, int cv, int out3[3]) {
            out3[a] = face;
            out3[u] = cu;
            out3[w] = cv;
        };
        const auto value = [&](int cu, int cv) {
            int c[3];
            lower_of(cu, cv, c);
            return s.at(c[0], c[1], c[2]);
        };
        std::uint64_t rows[kChunkSize + 1];
        face_sign_rows(scratch.signs.data(), a, face, rows);
        std::fill(coarse_slots.begin(), coarse_slots.end(), -1);
        const auto first = static_cast<std::uint32_t>(out.indices.size());
        for (int tv = 0; tv < kChunkSize / 2; ++tv) {
            const std::uint64_t r0 = rows[2 * tv], r1 = rows[2 * tv + 1], r2 = rows[2 * tv + 2];
            for (std::uint64_t cells = mixed_transition_cells(r0, r1, r2); cells; cells &= cells - 1) {
                const int tu = __builtin_ctzll(cells);
                // Samples 3 dv + du of the cell, as the 9 bits of its case.
                const unsigned c = static_cast<unsigned>((r0 >> 2 * tu & 7) | (r1 >> 2 * tu & 7) << 3 | (r2 >> 2 * tu & 7) << 6);
                const auto vertex_of = [&](int id) -> std::uint32_t {
                    if (id < 12) {  // a full-resolution edge: the regular pass made its vertex
                        const bool along_v = id >= 6;
                        const int du = along_v ? (id - 6) / 2 : id % 2, dv = along_v ? (id - 6) % 2 : id / 2;
                        return static_cast<std::uint32_t>(scratch.face_slots[face_slot(side, 2 * tu + du, 2 * tv + dv, along_v)]);
                    }
                    // A half-resolution edge: the coarser neighbour's edge, from its samples.
                    const bool along_v = id >= 14;
                    const int cu = tu + (id == 15), cv = tv + (id == 13);
                    std::int32_t& slot = coarse_slots[(static_cast<std::size_t>(cv) * kCoarse + cu) * 2 + along_v];
                    if (slot < 0) {
                        int lower[3];
                        lower_of(2 * cu, 2 * cv, lower);
                        const float fa = value(2 * cu, 2 * cv), fb = along_v ? value(2 * cu, 2 * cv + 2) : value(2 * cu + 2, 2 * cv);
                        slot = static_cast<std::int32_t>(out.positions.size());
                        push_edge_vertex(out, s, classify, lower, along_v ? w : u, 2, fa, fb);
                        out.secondary.emplace_back(0.0f);
                        out.side_flags.push_back(static_cast<std::uint16_t>(1u << side << 8));  // on the face, never moved
                    }
                    return static_cast<std::uint32_t>(slot);
                };
                const std::vector<std::int8_t>& tris = tables.tris[c];
                for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
                    const std::uint32_t v0 = vertex_of(tris[t]), v1 = vertex_of(tris[t + 1]), v2 = vertex_of(tris[t + 2]);
                    if (mirrored) out.indices.insert(out.indices.end(), {v0, v2, v1});
                    else out.indices.insert(out.indices.end(), {v0, v1, v2});
                }
            }
        }
        out.ranges.push_back({first, static_cast<std::uint32_t>(out.indices.size()) - first, DrawCondition::side_is(side, 1)});
    }
    add_snapped_copies(s, classify, scratch, out, sides);
}

}  // namespace detail
}  // namespace isoterra
