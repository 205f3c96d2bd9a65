// What an export writes of a mesh (internal to io/).
#pragma once

#include "isoterra/io.hpp"

namespace isoterra::detail {

/// Returns `m` as an export writes it: a chunk's mesh with index ranges (levels of detail) as
/// drawn among neighbours of its own level, built in `scratch`; any other mesh as it is.
inline const MeshBuffers& drawn_alone(const MeshBuffers& m, MeshBuffers& scratch) {
    if (m.ranges.empty()) return m;
    scratch = select_for_neighbours(m, Neighbourhood{});
    return scratch;
}

/// Returns the colour a file gives vertex `v` of `m` (NamedMesh `nm`'s mesh as drawn): its
/// material's, or the water's for a water mesh.
inline glm::vec3 vertex_colour(const NamedMesh& nm, const MeshBuffers& m, std::size_t v) {
    return nm.water ? glm::vec3(kWaterColour[0], kWaterColour[1], kWaterColour[2]) : material_colour(m.materials[v]);
}

}  // namespace isoterra::detail
