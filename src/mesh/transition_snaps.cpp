// Held vertices put onto the coarser level's crossing (issue 56, item 10). Where a chunk's
// face borders a coarser column and the next face one that is not coarser, the vertex on
// the chunk's edge between them stays there (the neighbour shares it), and the transition
// strip joins it to its half-resolution vertex on the same line, the coarser chunk's own.
// Where the field is nearly linear the two lie closer than a user's weld (0.1 mm), which
// then collapses the triangle between them. So where they lie within kCrossingMargin of a
// cell, the chunk also keeps a copy of the held vertex on the half-resolution one, and every
// triangle that uses the vertex comes twice: with the copy, drawn when the vertex is held
// and some column around its line is coarser; with the vertex, drawn otherwise. The columns
// around a line differ by at most one level (lod_selection's balance) and each chunk around
// it sees the others (sides and the diagonal), so every chunk that has the vertex draws it
// at the same point, the coarser chunk's; the finer chunks' do the same with this chunk's
// crossing, which stays. The triangle between the two then has no area and is left out.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "vertex_attributes.hpp"

namespace isoterra::detail {
namespace {

// A chunk's edge: the line along `axis` where the faces `sides[0]` and `sides[1]` meet,
// with the vertical edges' corner (Corner) or -1.
struct EdgeLine {
    int axis;
    int sides[2];
    int corner;
};

std::vector<EdgeLine> edge_lines() {
    std::vector<EdgeLine> lines;
    for (int axis = 0; axis < 3; ++axis) {
        const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
        for (int far = 0; far < 4; ++far) {
            const int s1 = 2 * a1 + (far & 1), s2 = 2 * a2 + (far >> 1);
            const int sx = a1 == 0 ? s1 : s2, sz = a1 == 2 ? s1 : s2;  // for the vertical edges (axis y)
            lines.push_back({axis, {s1, s2}, axis == 1 ? (sx & 1) | (sz & 1) << 1 : -1});
        }
    }
    return lines;
}

constexpr std::uint32_t side_bit(int side) { return 1u << (2 * side); }  // the "coarser" bit of a side's code

// When the copy is drawn and when the vertex, each as disjoint conditions. The vertex is held
// unless both its faces' neighbours are coarser (then it moves with both strips); the copy
// is drawn where it is held and a column around the line (either side, or across the
// vertical edge) is coarser.
struct LineConditions {
    std::vector<DrawCondition> copy, vertex;
};

LineConditions line_conditions(const EdgeLine& line) {
    const std::uint32_t a = side_bit(line.sides[0]), b = side_bit(line.sides[1]);
    LineConditions c;
    c.copy = {{a | b, a}, {a | b, b}};
    c.vertex = {{a | b, a | b}};
    if (line.corner >= 0) {
        const std::uint32_t d = 1u << (12 + 2 * line.corner);
        c.copy.push_back({a | b | d, d});
        c.vertex.push_back({a | b | d, 0});
    } else {
        c.vertex.push_back({a | b, 0});
    }
    return c;
}

// Both conditions at once, or false where they contradict each other.
bool both(const DrawCondition& x, const DrawCondition& y, DrawCondition& out) {
    if ((x.value ^ y.value) & x.care & y.care) return false;
    out = {x.care | y.care, x.value | y.value};
    return true;
}

struct Copies {
    std::vector<std::int32_t> line_of;  // per vertex: the line whose copy it has, or -1
    std::vector<std::uint32_t> copy;    // per vertex: its copy
    std::vector<LineConditions> when;   // per line
};

// The held vertices within kCrossingMargin of a cell of the half-resolution crossing on
// their line, each given its copy there (as the strip makes that crossing's vertex: the
// same bits).
bool make_copies(const ChunkSamples& s, const MaterialClassifier& classify, const MeshScratch& scratch, MeshBuffers& out, unsigned sides,
                 Copies& copies) {
    const std::vector<EdgeLine> lines = edge_lines();
    bool any = false;
    copies.when.resize(lines.size());
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const EdgeLine& line = lines[l];
        if (!((sides >> line.sides[0] | sides >> line.sides[1]) & 1)) continue;
        copies.when[l] = line_conditions(line);
        const int a = line.sides[0] / 2, u = (a + 1) % 3, w = (a + 2) % 3;
        int at[3];
        at[line.sides[0] / 2] = line.sides[0] % 2 ? kChunkSize : 0;
        at[line.sides[1] / 2] = line.sides[1] % 2 ? kChunkSize : 0;
        const auto value = [&](int i) {
            at[line.axis] = i;
            return s.at(at[0], at[1], at[2]);
        };
        for (int i = 0; i < kChunkSize; ++i) {
            at[line.axis] = i;
            const std::int32_t v = scratch.face_slots[face_slot(line.sides[0], at[u], at[w], line.axis == u ? 0 : 1)];
            const int even = i & ~1;
            const float f0 = value(even), f2 = value(even + 2);
            if (v < 0 || (f0 < 0.0f) == (f2 < 0.0f)) continue;
            // Both in cells along the line, exact (multiples of 2^-16).
            const double fine = i + edge_crossing(value(i), value(i + 1)), coarse = even + 2 * edge_crossing(f0, f2);
            if (fine == coarse || std::fabs(fine - coarse) >= kCrossingMargin) continue;
            if (copies.line_of.empty()) copies.line_of.assign(out.positions.size(), -1), copies.copy.assign(out.positions.size(), 0);
            int lower[3] = {at[0], at[1], at[2]};
            lower[line.axis] = even;
            copies.line_of[static_cast<std::size_t>(v)] = static_cast<std::int32_t>(l);
            copies.copy[static_cast<std::size_t>(v)] = static_cast<std::uint32_t>(out.positions.size());
            push_edge_vertex(out, s, classify, lower, line.axis, 2, f0, f2);
            out.secondary.emplace_back(0.0f);
            // On both faces and near none: never moved, and on the coarser chunk's grid.
            out.side_flags.push_back(static_cast<std::uint16_t>((1u << line.sides[0] | 1u << line.sides[1]) << 8));
            any = true;
        }
    }
    return any;
}

using Triangle = std::array<std::uint32_t, 3>;

// Triangle `t` of a range drawn `when`, its corners on the `n` lines given having copies:
// one variant for each way the lines' conditions combine with `when`, the corners on a
// line whose copy is drawn replaced by their copies.
std::vector<std::pair<DrawCondition, Triangle>> variants_of(const std::uint32_t* t, const std::int32_t* lines, int n,
                                                            const DrawCondition& when, const Copies& copies) {
    std::vector<std::pair<DrawCondition, Triangle>> ways = {{when, {t[0], t[1], t[2]}}}, split;
    for (int k = 0; k < n; ++k) {
        const LineConditions& line = copies.when[static_cast<std::size_t>(lines[k])];
        split.clear();
        for (const auto& [cond, tri] : ways) {
            DrawCondition c;
            for (const DrawCondition& term : line.vertex)
                if (both(cond, term, c)) split.push_back({c, tri});
            Triangle moved = tri;
            for (std::uint32_t& v : moved)
                if (v < copies.line_of.size() && copies.line_of[v] == lines[k]) v = copies.copy[v];
            for (const DrawCondition& term : line.copy)
                if (both(cond, term, c)) split.push_back({c, moved});
        }
        ways.swap(split);
    }
    return ways;
}

}  // namespace

void add_snapped_copies(const ChunkSamples& s, const MaterialClassifier& classify, const MeshScratch& scratch, MeshBuffers& out,
                        unsigned sides) {
    Copies copies;
    if (!make_copies(s, classify, scratch, out, sides, copies)) return;
    // Each range's triangles that use no such vertex stay in it; the others go, in every
    // variant, to a range of their condition (after the others, in the conditions' order).
    std::vector<std::uint32_t> indices;
    std::vector<IndexRange> ranges;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> variants;
    // Two corners that never move (near no face: the copy, a strip's half-resolution vertex)
    // on one point: the triangle between a copy and the vertex it lies on, without area.
    const auto without_area = [&](const Triangle& t) {
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t p = t[k], q = t[(k + 1) % 3];
            if (out.positions[p] == out.positions[q] && (out.side_flags[p] & 63u) == 0 && (out.side_flags[q] & 63u) == 0) return true;
        }
        return false;
    };
    for (const IndexRange& r : out.ranges) {
        const auto first = static_cast<std::uint32_t>(indices.size());
        for (std::uint32_t i = r.first; i + 2 < r.first + r.count; i += 3) {
            const std::uint32_t* t = &out.indices[i];
            // The lines of its corners that have copies, each once.
            std::int32_t lines[3];
            int n = 0;
            for (int k = 0; k < 3; ++k) {
                const std::int32_t line = t[k] < copies.line_of.size() ? copies.line_of[t[k]] : -1;
                if (line >= 0 && std::find(lines, lines + n, line) == lines + n) lines[n++] = line;
            }
            if (n == 0) {
                indices.insert(indices.end(), t, t + 3);
                continue;
            }
            for (const auto& [cond, tri] : variants_of(t, lines, n, r.when, copies))
                if (!without_area(tri)) {
                    auto& into = variants[{cond.care, cond.value}];
                    into.insert(into.end(), tri.begin(), tri.end());
                }
        }
        ranges.push_back({first, static_cast<std::uint32_t>(indices.size()) - first, r.when});
    }
    for (const auto& [cond, tris] : variants) {
        ranges.push_back({static_cast<std::uint32_t>(indices.size()), static_cast<std::uint32_t>(tris.size()), {cond.first, cond.second}});
        indices.insert(indices.end(), tris.begin(), tris.end());
    }
    out.indices.swap(indices);
    out.ranges.swap(ranges);
}

}  // namespace isoterra::detail
