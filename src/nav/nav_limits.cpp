// What navigation accepts: agent settings within Recast's useful ranges, and regions of
// columns Detour's references and the memory budget can hold.
#include <cmath>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "nav/nav_parts.hpp"

namespace isoterra {
namespace {

std::string out_of_range(const char* name, double v, double lo, double hi, const char* unit) {
    if (std::isfinite(v) && v >= lo && v <= hi) return {};
    return fmt::format("{} {:g}{} must be in [{:g}, {:g}]", name, v, unit, lo, hi);
}

}  // namespace

std::string validate_agent(const AgentSettings& a) {
    for (const std::string& problem :
         {out_of_range("height", a.height_m, 0.5, 10.0, " m"), out_of_range("radius", a.radius_m, 0.0, 5.0, " m"),
          out_of_range("max climb", a.max_climb_m, 0.0, 5.0, " m"), out_of_range("max slope", a.max_slope_deg, 0.0, 85.0, " degrees"),
          out_of_range("cell size", a.cell_size_m, 0.125, 1.0, " m"), out_of_range("cell height", a.cell_height_m, 0.05, 1.0, " m")})
        if (!problem.empty()) return problem;
    // A tile is one chunk column, a whole number of cells.
    const double cells = kChunkSize / a.cell_size_m;
    if (std::fabs(cells - std::round(cells)) > 1e-9)
        return fmt::format("cell size {:g} m must divide {} m (0.125, 0.25, 0.5, 1, or 32 / n)", a.cell_size_m, kChunkSize);
    if (a.max_climb_m > a.height_m) return fmt::format("max climb {:g} m must not exceed height {:g} m", a.max_climb_m, a.height_m);
    return {};
}

TileRange nav_tiles_covering(const glm::dvec2& from, const glm::dvec2& to) {
    static const char* kAxes[2] = {"X", "Z"};
    TileRange r;
    for (int a = 0; a < 2; ++a) {
        if (!(std::isfinite(from[a]) && std::isfinite(to[a]) && from[a] < to[a]))
            throw NavError(fmt::format("{} must grow from the first corner to the second, got {:g} to {:g}", kAxes[a], from[a], to[a]));
        if (std::fabs(from[a]) > kNavCoordinateLimit_m || std::fabs(to[a]) > kNavCoordinateLimit_m)
            throw NavError(
                fmt::format("navigation reaches {:g} m from the origin at most (Detour works in floats)", kNavCoordinateLimit_m));
        r.lo[a] = static_cast<int>(std::floor(from[a] / kChunkSize));
        r.hi[a] = static_cast<int>(std::ceil(to[a] / kChunkSize)) - 1;
    }
    if (r.count() > kMaxNavTiles)
        throw NavError(fmt::format("the region spans {} tiles of {} m, more than {}", r.count(), kChunkSize, kMaxNavTiles));
    // Held at once: every tile, the meshes of the columns around them, a tile's build per thread.
    const double columns = double(r.hi.x - r.lo.x + 3) * double(r.hi.y - r.lo.y + 3);
    check_memory_budget(r.count() * kNavTileBytes + columns * kSurfaceBytesPerColumn + default_threads() * kNavTileBuildBytes,
                        fmt::format("a navigation mesh of {} tiles", r.count()));
    return r;
}

std::vector<glm::ivec2> nav_tiles_touching(const Box& box, const AgentSettings& agent) {
    // A mesh vertex moves when a sample within one cell of it does (two for the gradients'
    // normals, which Recast does not read), and a tile reads its border.
    const double reach = 2.0 + nav_detail::tile_border_cells(agent) * agent.cell_size_m;
    const int x0 = static_cast<int>(std::floor((box.lo.x - reach) / kChunkSize)),
              x1 = static_cast<int>(std::floor((box.hi.x + reach) / kChunkSize));
    const int z0 = static_cast<int>(std::floor((box.lo.z - reach) / kChunkSize)),
              z1 = static_cast<int>(std::floor((box.hi.z + reach) / kChunkSize));
    std::vector<glm::ivec2> out;
    for (int z = z0; z <= z1; ++z)
        for (int x = x0; x <= x1; ++x) out.emplace_back(x, z);
    return out;
}

}  // namespace isoterra
