// One navigation tile through Recast's pipeline: the triangles of its column and border
// rasterized into a heightfield, filtered for the agent, eroded by its radius, cut into
// layer regions (no distance field: a third of watershed's time, and regions made for
// tiles), traced into contours and polygons with height detail, and packed as Detour tile
// data. Recast has no threads or randomness: the same triangles give the same bytes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <recastnavigation/DetourAlloc.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshBuilder.h>
#include <recastnavigation/Recast.h>

#include "nav/nav_parts.hpp"

namespace isoterra::nav_detail {
namespace {

struct Free {
    void operator()(rcHeightfield* p) const { rcFreeHeightField(p); }
    void operator()(rcCompactHeightfield* p) const { rcFreeCompactHeightfield(p); }
    void operator()(rcContourSet* p) const { rcFreeContourSet(p); }
    void operator()(rcPolyMesh* p) const { rcFreePolyMesh(p); }
    void operator()(rcPolyMeshDetail* p) const { rcFreePolyMeshDetail(p); }
};
template <class T>
using Owned = std::unique_ptr<T, Free>;

// The tile's Recast configuration: the agent in cells, the tile's own 32 m and its border.
rcConfig tile_config(const TileTriangles& input, const AgentSettings& agent, int x, int z) {
    rcConfig cfg;
    std::memset(&cfg, 0, sizeof(cfg));
    cfg.cs = static_cast<float>(agent.cell_size_m);
    cfg.ch = static_cast<float>(agent.cell_height_m);
    cfg.walkableSlopeAngle = static_cast<float>(agent.max_slope_deg);
    cfg.walkableHeight = static_cast<int>(std::ceil(agent.height_m / agent.cell_height_m));
    cfg.walkableClimb = static_cast<int>(std::floor(agent.max_climb_m / agent.cell_height_m));
    cfg.walkableRadius = static_cast<int>(std::ceil(agent.radius_m / agent.cell_size_m));
    cfg.maxEdgeLen = static_cast<int>(12.0 / agent.cell_size_m);
    cfg.maxSimplificationError = 1.3f;
    cfg.minRegionArea = 8 * 8;
    cfg.mergeRegionArea = 20 * 20;
    cfg.maxVertsPerPoly = DT_VERTS_PER_POLYGON;
    cfg.tileSize = static_cast<int>(std::lround(kChunkSize / agent.cell_size_m));
    cfg.borderSize = tile_border_cells(agent);
    cfg.width = cfg.height = cfg.tileSize + 2 * cfg.borderSize;
    // Height detail sampled every 6 cells and refined to 0.3 m (or a cell height): at
    // one cell height (0.1 m) it took half of a navmesh build; paths' waypoints are put on the
    // ground itself anyway (path_ground.cpp, within a metre).
    cfg.detailSampleDist = static_cast<float>(6.0 * agent.cell_size_m);
    cfg.detailSampleMaxError = static_cast<float>(std::max(agent.cell_height_m, 0.3));
    // Whole cells from the world's origin, so that every tile quantizes heights alike.
    const double pad = cfg.borderSize * agent.cell_size_m;
    float ylo = 0.0f, yhi = 0.0f;
    for (std::size_t i = 1; i < input.verts.size(); i += 3) {
        ylo = i == 1 ? input.verts[i] : std::min(ylo, input.verts[i]);
        yhi = i == 1 ? input.verts[i] : std::max(yhi, input.verts[i]);
    }
    const double ch = agent.cell_height_m;
    cfg.bmin[0] = static_cast<float>(x * double(kChunkSize) - pad);
    cfg.bmin[1] = static_cast<float>(std::floor(ylo / ch) * ch - ch);
    cfg.bmin[2] = static_cast<float>(z * double(kChunkSize) - pad);
    cfg.bmax[0] = static_cast<float>((x + 1) * double(kChunkSize) + pad);
    cfg.bmax[1] = static_cast<float>(std::ceil(yhi / ch) * ch + agent.height_m + ch);
    cfg.bmax[2] = static_cast<float>((z + 1) * double(kChunkSize) + pad);
    return cfg;
}

// The walkable spans of the tile: rasterized, filtered, compacted and eroded.
Owned<rcCompactHeightfield> walkable_spans(rcContext& ctx, const rcConfig& cfg, const TileTriangles& input) {
    Owned<rcHeightfield> hf(rcAllocHeightfield());
    if (!hf || !rcCreateHeightfield(&ctx, *hf, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
        throw NavError("navigation: out of memory for a tile's heightfield");
    const int nv = static_cast<int>(input.verts.size() / 3), nt = static_cast<int>(input.tris.size() / 3);
    std::vector<unsigned char> areas(static_cast<std::size_t>(nt), 0);
    rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, input.verts.data(), nv, input.tris.data(), nt, areas.data());
    if (!rcRasterizeTriangles(&ctx, input.verts.data(), nv, input.tris.data(), areas.data(), nt, *hf, cfg.walkableClimb))
        throw NavError("navigation: a tile's triangles could not be rasterized");
    rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *hf);
    rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf);
    rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *hf);
    Owned<rcCompactHeightfield> chf(rcAllocCompactHeightfield());
    if (!chf || !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf))
        throw NavError("navigation: out of memory for a tile's compact heightfield");
    if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf)) throw NavError("navigation: a tile could not be eroded");
    return chf;
}

// Detour's tile data from Recast's polygons and their height detail.
std::vector<unsigned char> pack_tile(const rcConfig& cfg, const AgentSettings& agent, const rcPolyMesh& pm, const rcPolyMeshDetail& dm,
                                     int x, int z) {
    std::vector<unsigned short> flags(static_cast<std::size_t>(pm.npolys), 1);
    for (int i = 0; i < pm.npolys; ++i)
        if (pm.areas[i] == RC_WALKABLE_AREA) pm.areas[i] = 0;
    dtNavMeshCreateParams p;
    std::memset(&p, 0, sizeof(p));
    p.verts = pm.verts;
    p.vertCount = pm.nverts;
    p.polys = pm.polys;
    p.polyAreas = pm.areas;
    p.polyFlags = flags.data();
    p.polyCount = pm.npolys;
    p.nvp = pm.nvp;
    p.detailMeshes = dm.meshes;
    p.detailVerts = dm.verts;
    p.detailVertsCount = dm.nverts;
    p.detailTris = dm.tris;
    p.detailTriCount = dm.ntris;
    p.walkableHeight = static_cast<float>(agent.height_m);
    p.walkableRadius = static_cast<float>(agent.radius_m);
    p.walkableClimb = static_cast<float>(agent.max_climb_m);
    p.tileX = x;
    p.tileY = z;
    std::memcpy(p.bmin, pm.bmin, sizeof(p.bmin));
    std::memcpy(p.bmax, pm.bmax, sizeof(p.bmax));
    p.cs = cfg.cs;
    p.ch = cfg.ch;
    p.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&p, &data, &size)) throw NavError(fmt::format("navigation: tile {},{} could not be packed for Detour", x, z));
    std::vector<unsigned char> out(data, data + size);
    dtFree(data);
    return out;
}

}  // namespace

int tile_border_cells(const AgentSettings& agent) { return static_cast<int>(std::ceil(agent.radius_m / agent.cell_size_m)) + 3; }

std::vector<unsigned char> build_tile_data(const TileTriangles& input, const AgentSettings& agent, int x, int z) {
    if (input.tris.empty()) return {};
    rcContext ctx(false);
    const rcConfig cfg = tile_config(input, agent, x, z);
    Owned<rcCompactHeightfield> chf = walkable_spans(ctx, cfg, input);
    if (!rcBuildLayerRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea))
        throw NavError("navigation: a tile's regions could not be built");
    Owned<rcContourSet> contours(rcAllocContourSet());
    if (!contours || !rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *contours))
        throw NavError("navigation: a tile's contours could not be built");
    if (contours->nconts == 0) return {};
    Owned<rcPolyMesh> pm(rcAllocPolyMesh());
    if (!pm || !rcBuildPolyMesh(&ctx, *contours, cfg.maxVertsPerPoly, *pm))
        throw NavError("navigation: a tile's polygons could not be built");
    if (pm->npolys == 0) return {};
    if (pm->npolys > kMaxNavPolysPerTile)
        throw NavError(fmt::format("navigation: tile {},{} holds {} polygons, more than {}", x, z, pm->npolys, kMaxNavPolysPerTile));
    Owned<rcPolyMeshDetail> dm(rcAllocPolyMeshDetail());
    if (!dm || !rcBuildPolyMeshDetail(&ctx, *pm, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dm))
        throw NavError("navigation: a tile's height detail could not be built");
    return pack_tile(cfg, agent, *pm, *dm, x, z);
}

}  // namespace isoterra::nav_detail
