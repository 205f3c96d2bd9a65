// The Detour objects a NavMesh holds, and the triangles of its columns (src/nav/ only).
#pragma once

#include "isoterra/nav.hpp"
#include "nav/nav_parts.hpp"

class dtNavMesh;
class dtNavMeshQuery;

namespace isoterra {

/// The first bytes of a navigation file (`isoterra navmesh -o nav.bin`) and its version.
inline constexpr char kNavFileMagic[9] = "ISONAVMS";
inline constexpr std::uint32_t kNavFileVersion = 1;
/// Search nodes of a query: a 500 m path over rough ground visits a few thousand polygons.
inline constexpr int kQueryNodes = 65535;

struct NavMesh::Detour {
    Detour();
    ~Detour();
    Detour(const Detour&) = delete;
    Detour& operator=(const Detour&) = delete;
    dtNavMesh* mesh;
    dtNavMeshQuery* query;
    // The columns' triangles, kept so that an edit remeshes only the columns it changed.
    nav_detail::ColumnSoups soups;
};

}  // namespace isoterra
