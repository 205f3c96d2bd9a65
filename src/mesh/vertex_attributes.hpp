// Internal helpers shared by the meshers (not installed).
#pragma once

#include <algorithm>
#include <cmath>

#include "isoterra/mesh.hpp"

namespace isoterra::detail {

/// The field's gradient at core-relative sample (i, j, k) times twice the spacing (central
/// differences, undivided: only its direction is used).
glm::vec3 lattice_gradient(const ChunkSamples& s, int i, int j, int k);
/// `v` normalised, or straight up if it is zero.
glm::vec3 unit_or_up(const glm::vec3& v);
/// How far below the column's ground (x, z) the point is; 0 if the field has no ground.
double ground_depth(const ChunkSamples& s, double x, double y, double z);
/// Appends a vertex at `p` with the normal along `gradient` and its material.
void push_vertex(MeshBuffers& out, const ChunkSamples& s, const MaterialClassifier& classify, const glm::dvec3& p,
                 const glm::vec3& gradient);

/// The 12 edges of a cell: corner c sits at offset (c & 1, c >> 1 & 1, c >> 2 & 1), and
/// edge e joins kCubeEdges[e][0] (the lower corner) to kCubeEdges[e][1].
inline constexpr int kCubeEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                          {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

/// Reads the 8 corner values of cell (i, j, k) into `f`; returns the mask of solid corners.
inline int cell_corners(const ChunkSamples& s, int i, int j, int k, float f[8]) {
    int mask = 0;
    for (int c = 0; c < 8; ++c) {
        f[c] = s.at(i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1));
        mask |= (f[c] < 0.0f) << c;
    }
    return mask;
}

/// For cells lo..lo+count-1 (per axis, count <= 62), writes one bit mask per cell row
/// (j, k), row-major over k then j: bit c is set where cell (lo + c, j, k) has corners on
/// both sides of 0. Cells all solid or all air, most of a chunk, are skipped by the caller
/// without reading their eight corners.
void mixed_cell_rows(const ChunkSamples& s, int lo, int count, std::vector<std::uint64_t>& rows);

/// World position of core-relative sample (i, j, k).
inline glm::dvec3 sample_position(const ChunkSamples& s, int i, int j, int k) {
    return s.lattice.position(i + s.pad.lo, j + s.pad.lo, k + s.pad.lo);
}

}  // namespace isoterra::detail
