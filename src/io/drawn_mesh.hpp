// What an export writes of a mesh (internal to io/).
#pragma once

#include "isoterra/mesh.hpp"

namespace isoterra::detail {

/// Returns `m` as an export writes it: a chunk's mesh with index ranges (levels of detail) as
/// drawn among neighbours of its own level, built in `scratch`; any other mesh as it is.
inline const MeshBuffers& drawn_alone(const MeshBuffers& m, MeshBuffers& scratch) {
    if (m.ranges.empty()) return m;
    scratch = select_for_neighbours(m, Neighbourhood{});
    return scratch;
}

}  // namespace isoterra::detail
