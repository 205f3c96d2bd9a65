// Triangulation tables for marching a polyhedral cell (internal). Each face of the cell
// decides its own contour segments from the signs of its corners, with one rule for an
// ambiguous quad (two solid corners diagonal): its solid corners are kept apart. Two cells
// that share a face therefore cut it the same way, and the segments, chained into loops
// and fanned, give a surface with no hole. Marching cubes builds its cube's table with this,
// and the Transvoxel transition cell its own, so the two agree on every face they share.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace isoterra::detail {

/// A convex cell: corners, the edges that can hold a vertex, and the faces as corner loops.
struct ContourCell {
    std::vector<glm::dvec3> corners;
    std::vector<std::array<int, 2>> edges;  // corner pairs; a vertex's id is its edge's index
    struct Face {
        std::vector<int> loop;  // corners in order around the face
        glm::dvec3 outward;     // the face's outward normal
    };
    std::vector<Face> faces;
};

/// Returns the triangles (three edge ids each) of the cell's surface for the corners solid
/// in `solid` (bit c for corner c), wound counter-clockwise seen from the air. Two corners
/// joined by a face-loop step that is not in `edges` must have the same sign. `probe`, a
/// case whose only solid corners are corner 0 and those that must share its sign, settles
/// the winding.
std::vector<std::int8_t> contour_triangles(const ContourCell& cell, std::uint32_t solid, std::uint32_t probe = 1);

/// The unit cube as a contour cell: corners and edges numbered as kCubeEdges numbers them.
ContourCell cube_cell();

/// The separate pieces of marching cubes' surface in a cube, per piece code: the
/// solid-corner mask, plus kWholeCell for a cell kept whole (cell_pieces.cpp). Surface nets
/// give each piece its own vertex, so that two sheets passing through one cell do not meet
/// at one point; a cell kept whole has one piece, all its crossings.
inline constexpr int kWholeCell = 256;
struct CellPieces {
    std::array<std::uint8_t, 512> count{};                    // pieces in the cell (at most 4)
    std::array<std::array<std::int8_t, 12>, 512> piece_of{};  // the piece of each edge; -1: no crossing
    std::array<std::array<std::uint16_t, 4>, 512> edges{};    // each piece's edges, bit e for edge e
    // The faces (bit 2 * axis + side, side 1 the upper) that one piece crosses twice: an
    // ambiguous face whose two segments, one around each solid corner, join inside the cell.
    std::array<std::uint8_t, 512> twice{};
};
/// Builds the table (cell_pieces.cpp).
CellPieces build_cell_pieces();
/// Returns the table, built on the first call (inline: the meshers ask for it per cell).
inline const CellPieces& cell_pieces() {
    static const CellPieces t = build_cell_pieces();
    return t;
}

}  // namespace isoterra::detail
