// A tiled Detour navigation mesh over a rectangle of chunk columns: its tiles built on
// threads, rebuilt where an edit reaches, handed to Detour in one order (z, then x) so that
// its references do not depend on which thread finished first; written out and drawn.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <recastnavigation/DetourAlloc.h>
#include <recastnavigation/DetourNavMesh.h>
#include <recastnavigation/DetourNavMeshQuery.h>

#include "nav/nav_detour.hpp"

namespace isoterra {
namespace {

bool tile_before(const NavTile& a, const NavTile& b) { return a.z != b.z ? a.z < b.z : a.x < b.x; }

// Hands Detour its own copy: it writes the links between tiles into the data it holds.
void add_tile(dtNavMesh& mesh, const NavTile& tile) {
    if (tile.data.empty()) return;
    auto* copy = static_cast<unsigned char*>(dtAlloc(tile.data.size(), DT_ALLOC_PERM));
    if (!copy) throw NavError("navigation: out of memory for a tile");
    std::memcpy(copy, tile.data.data(), tile.data.size());
    if (dtStatusFailed(mesh.addTile(copy, static_cast<int>(tile.data.size()), DT_TILE_FREE_DATA, 0, nullptr))) {
        dtFree(copy);
        throw NavError(fmt::format("navigation: Detour refused tile {},{}", tile.x, tile.z));
    }
}

}  // namespace

NavMesh::Detour::Detour() : mesh(dtAllocNavMesh()), query(dtAllocNavMeshQuery()) {
    dtNavMeshParams params;
    std::memset(&params, 0, sizeof(params));
    params.tileWidth = params.tileHeight = static_cast<float>(kChunkSize);
    params.maxTiles = kMaxNavTiles;
    params.maxPolys = kMaxNavPolysPerTile;
    if (!mesh || !query || dtStatusFailed(mesh->init(&params)) || dtStatusFailed(query->init(mesh, kQueryNodes)))
        throw NavError("navigation: out of memory for Detour's mesh and query");
}

NavMesh::Detour::~Detour() {
    dtFreeNavMeshQuery(query);
    dtFreeNavMesh(mesh);
}

NavMesh::NavMesh(std::shared_ptr<const Field> field, std::shared_ptr<const ChunkDeltas> deltas, const AgentSettings& agent,
                 const TileRange& range, int threads)
    : field_(std::move(field)), deltas_(std::move(deltas)), agent_(agent), range_(range) {
    if (range.count() <= 0 || range.count() > kMaxNavTiles)
        throw NavError(fmt::format("a navigation mesh holds 1 to {} tiles, not {}", kMaxNavTiles, range.count()));
    std::vector<glm::ivec2> columns;
    for (int z = range.lo.y; z <= range.hi.y; ++z)
        for (int x = range.lo.x; x <= range.hi.x; ++x) columns.emplace_back(x, z);
    if (const std::string problem = validate_agent(agent_); !problem.empty()) throw NavError("agent: " + problem);
    detour_ = std::make_unique<Detour>();
    nav_detail::mesh_columns(*field_, deltas_.get(), nav_detail::columns_read(columns), threads, detour_->soups);
    install(nav_detail::tiles_from_soups(detour_->soups, agent_, columns, threads));
}

NavMesh::NavMesh(std::shared_ptr<const Field> field, std::shared_ptr<const ChunkDeltas> deltas, const AgentSettings& agent)
    : field_(std::move(field)), deltas_(std::move(deltas)), agent_(agent), detour_(std::make_unique<Detour>()) {}

NavMesh::~NavMesh() = default;

bool NavMesh::holds(const glm::dvec3& p) const {
    const NavTile key{static_cast<int>(std::floor(p.x / kChunkSize)), static_cast<int>(std::floor(p.z / kChunkSize)), {}};
    return std::binary_search(tiles_.begin(), tiles_.end(), key, tile_before);
}

void NavMesh::remove(int x, int z) {
    const NavTile key{x, z, {}};
    const auto at = std::lower_bound(tiles_.begin(), tiles_.end(), key, tile_before);
    if (at == tiles_.end() || at->x != x || at->z != z) return;
    if (const dtTileRef ref = detour_->mesh->getTileRefAt(x, z, 0)) detour_->mesh->removeTile(ref, nullptr, nullptr);
    tiles_.erase(at);
}

void NavMesh::install(std::vector<NavTile> built) {
    std::sort(built.begin(), built.end(), tile_before);
    for (NavTile& t : built) {
        const auto at = std::lower_bound(tiles_.begin(), tiles_.end(), t, tile_before);
        if (at != tiles_.end() && at->x == t.x && at->z == t.z) {
            if (const dtTileRef ref = detour_->mesh->getTileRefAt(t.x, t.z, 0)) detour_->mesh->removeTile(ref, nullptr, nullptr);
            add_tile(*detour_->mesh, t);
            *at = std::move(t);
        } else {
            add_tile(*detour_->mesh, t);
            tiles_.insert(at, std::move(t));
        }
    }
}

std::size_t NavMesh::update(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed, int threads) {
    deltas_ = std::move(deltas);
    std::vector<std::pair<int, int>> remesh;
    for (const auto& key : nav_detail::columns_remeshed(changed))
        if (detour_->soups.contains(key)) remesh.push_back(key);
    nav_detail::mesh_columns(*field_, deltas_.get(), remesh, threads, detour_->soups);
    std::vector<glm::ivec2> columns;
    for (const glm::ivec2& c : nav_tiles_touching(changed, agent_))
        if (range_.contains(c.x, c.y)) columns.push_back(c);
    install(nav_detail::tiles_from_soups(detour_->soups, agent_, columns, threads));
    return columns.size();
}

MeshBuffers NavMesh::triangles() const {
    MeshBuffers out;
    for (const NavTile& t : tiles_) {
        const dtMeshTile* tile = detour_->mesh->getTileAt(t.x, t.z, 0);
        if (!tile || !tile->header) continue;
        for (int i = 0; i < tile->header->polyCount; ++i) {
            const dtPoly& poly = tile->polys[i];
            const dtPolyDetail& pd = tile->detailMeshes[i];
            for (int j = 0; j < pd.triCount; ++j) {
                const unsigned char* tri = &tile->detailTris[(pd.triBase + j) * 4];
                glm::vec3 p[3];
                for (int k = 0; k < 3; ++k) {
                    const float* v = tri[k] < poly.vertCount ? &tile->verts[poly.verts[tri[k]] * 3]
                                                             : &tile->detailVerts[(pd.vertBase + tri[k] - poly.vertCount) * 3];
                    p[k] = glm::vec3(v[0], v[1], v[2]);
                }
                const glm::vec3 n = glm::normalize(glm::cross(p[1] - p[0], p[2] - p[0]));
                for (int k = 0; k < 3; ++k) {
                    out.indices.push_back(static_cast<std::uint32_t>(out.positions.size()));
                    out.positions.push_back(p[k]);
                    out.normals.push_back(n);
                    out.materials.push_back(MaterialSample{});
                }
            }
        }
    }
    return out;
}

std::vector<unsigned char> NavMesh::serialize() const {
    std::vector<unsigned char> out;
    const auto put = [&out](const auto& value) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
        out.insert(out.end(), bytes, bytes + sizeof(value));
    };
    out.insert(out.end(), kNavFileMagic, kNavFileMagic + 8);
    put(std::uint32_t{kNavFileVersion});
    for (const double v :
         {agent_.height_m, agent_.radius_m, agent_.max_climb_m, agent_.max_slope_deg, agent_.cell_size_m, agent_.cell_height_m})
        put(v);
    for (const int v : {range_.lo.x, range_.lo.y, range_.hi.x, range_.hi.y}) put(std::int32_t{v});
    std::uint32_t count = 0;
    for (const NavTile& t : tiles_) count += t.data.empty() ? 0 : 1;
    put(count);
    for (const NavTile& t : tiles_) {
        if (t.data.empty()) continue;
        put(std::int32_t{t.x});
        put(std::int32_t{t.z});
        put(static_cast<std::uint32_t>(t.data.size()));
        out.insert(out.end(), t.data.begin(), t.data.end());
    }
    return out;
}

}  // namespace isoterra
