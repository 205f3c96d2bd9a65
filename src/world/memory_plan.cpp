// What plans reckon meshes will hold before they are made (the memory budget's estimates):
// one surface per column of chunks, at kSurfaceBytesPerColumn.
#include <cmath>
#include <unordered_set>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/world.hpp"

namespace isoterra {

double expected_view_bytes(const WorldSettings& settings) {
    return settings.levels_used() * std::pow(2.0 * settings.ring() + 2.0, 2.0) * kSurfaceBytesPerColumn;
}

void check_view_plan(const WorldSettings& settings, double copies, const std::string& what) {
    check_memory_budget(copies * expected_view_bytes(settings),
                        fmt::format("{} with {} levels of {} chunks per ring", what, settings.levels_used(), settings.ring()));
}

double expected_mesh_bytes(const std::vector<ChunkCoord>& chunks) {
    std::unordered_set<LodColumn, LodColumnHash> columns;
    for (const ChunkCoord& c : chunks) columns.insert({c.lod, c.x, c.z});
    return static_cast<double>(chunks.size()) * sizeof(MeshBuffers) + static_cast<double>(columns.size()) * kSurfaceBytesPerColumn;
}

}  // namespace isoterra
