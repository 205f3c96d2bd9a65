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

}  // namespace isoterra::detail
