// Internal helpers shared by the meshers (not installed).
#pragma once

#include <algorithm>
#include <cmath>

#include "isoterra/mesh.hpp"

namespace isoterra::detail {

/// The field's gradient at core-relative sample (i, j, k), by central differences.
glm::vec3 lattice_gradient(const ChunkSamples& s, int i, int j, int k);
/// `v` normalised, or straight up if it is zero.
glm::vec3 unit_or_up(const glm::vec3& v);
/// How far below the column's ground (x, z) the point is; 0 if the field has no ground.
double ground_depth(const ChunkSamples& s, double x, double y, double z);
/// Appends a vertex at `p` with the normal along `gradient` and its material.
void push_vertex(MeshBuffers& out, const ChunkSamples& s, const MaterialRules& rules, const glm::dvec3& p,
                 const glm::vec3& gradient);

/// World position of core-relative sample (i, j, k).
inline glm::dvec3 sample_position(const ChunkSamples& s, int i, int j, int k) {
    return s.lattice.position(i + s.pad.lo, j + s.pad.lo, k + s.pad.lo);
}

}  // namespace isoterra::detail
