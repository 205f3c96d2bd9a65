// The pieces of marching cubes' surface in one cube: edges whose crossings share a triangle
// belong to one piece (a loop of contour_triangles, fanned), found by joining them.
#include <algorithm>
#include <numeric>

#include "contour_tables.hpp"
#include "vertex_attributes.hpp"

namespace isoterra::detail {

CellPieces build_cell_pieces() {
    const ContourCell cube = cube_cell();
    CellPieces t;
    for (int mask = 0; mask < 512; ++mask) {
        const std::vector<std::int8_t> tris = contour_triangles(cube, static_cast<std::uint32_t>(mask & 255));
        int root[12];
        std::iota(root, root + 12, 0);
        const auto find = [&](int e) {
            while (root[e] != e) e = root[e] = root[root[e]];
            return e;
        };
        for (std::size_t n = 0; n < tris.size(); n += 3) {
            root[find(tris[n + 1])] = find(tris[n]);
            root[find(tris[n + 2])] = find(tris[n]);
        }
        bool crossed[12] = {};
        for (const std::int8_t e : tris) crossed[e] = true;
        // Kept whole: every crossing in one piece.
        if (mask & kWholeCell)
            for (const std::int8_t e : tris) root[find(e)] = find(tris[0]);
        t.piece_of[mask].fill(-1);
        // Pieces numbered in the order of their lowest edge, so the order never depends on the fan.
        int number[12];
        std::fill_n(number, 12, -1);
        for (int e = 0; e < 12; ++e) {
            if (!crossed[e]) continue;
            int& piece = number[find(e)];
            if (piece < 0) piece = t.count[mask]++;
            t.piece_of[mask][e] = static_cast<std::int8_t>(piece);
            t.edges[mask][piece] |= static_cast<std::uint16_t>(1u << e);
        }
        for (int axis = 0; axis < 3; ++axis)
            for (int side = 0; side < 2; ++side) {
                // The face's four edges (along the two other axes, from its corners) all crossed
                // and in one piece.
                int pieces[4];
                for (int n = 0; n < 4; ++n) {
                    const int along = (axis + 1 + n / 2) % 3, across = (axis + 2 - n / 2) % 3;
                    pieces[n] = t.piece_of[mask][cube_edge(side << axis | (n & 1) << across, along)];
                }
                if (pieces[0] >= 0 && std::count(pieces, pieces + 4, pieces[0]) == 4)
                    t.twice[mask] |= static_cast<std::uint8_t>(1u << (2 * axis + side));
            }
    }
    return t;
}

}  // namespace isoterra::detail
