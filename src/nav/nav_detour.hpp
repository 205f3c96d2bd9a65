// The Detour objects a NavMesh holds (src/nav/ only).
#pragma once

#include "isoterra/nav.hpp"

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
};

}  // namespace isoterra
