// The triangles navigation tiles are built from: the level-0 marching-cubes meshes of the
// columns each tile and its border cover, meshed once per column and shared between the
// tiles beside it, then one Recast build per tile on the threads asked for.
#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

#include "isoterra/base.hpp"
#include "nav/nav_parts.hpp"

namespace isoterra {
namespace nav_detail {

std::vector<ChunkCoord> surface_chunks(const Field& field, const ChunkDeltas* deltas, int x, int z) {
    // The World's floor (WorldSettings::lowest_layer) and ceiling: what it shows is walked on.
    constexpr int kFloorLayer = WorldSettings{}.lowest_layer;
    constexpr int kCeilingLayer = 4096 / kChunkSize;
    const int edited_top = deltas ? deltas->highest_layer(x, z) : INT_MIN;
    std::vector<ChunkCoord> out;
    for (int y = kFloorLayer; y < kCeilingLayer; ++y) {
        const ChunkCoord c{x, y, z, 0};
        const Box box = c.read_box();
        ValueRange r = field.bounds(box);
        if (deltas) {
            const ValueRange d = deltas->range(box);
            r = {r.lo + d.lo, r.hi + d.hi};
        }
        if (r.lo <= 0.0 && r.hi > 0.0) out.push_back(c);
        // Over ground the field only grows upwards: the first chunk all air ends the column.
        if (r.lo > 0.0 && field.has_ground() && y > edited_top) break;
    }
    return out;
}

namespace {

// Appends the drawn triangles of `mesh` to `soup` in world metres.
void add_mesh(const MeshBuffers& mesh, TileTriangles& soup) {
    const MeshBuffers drawn = select_for_neighbours(mesh, Neighbourhood{});
    const int base = static_cast<int>(soup.verts.size() / 3);
    for (std::size_t v = 0; v < drawn.positions.size(); ++v) {
        const glm::dvec3 p = drawn.world_position(v);
        soup.verts.insert(soup.verts.end(), {float(p.x), float(p.y), float(p.z)});
    }
    for (const std::uint32_t i : drawn.indices) soup.tris.push_back(base + static_cast<int>(i));
}

// Appends the triangles of `soup` whose box meets [lo, hi] in x and z, each vertex once.
void add_triangles(const TileTriangles& soup, const glm::dvec2& lo, const glm::dvec2& hi, TileTriangles& out) {
    std::vector<int> index(soup.verts.size() / 3, -1);
    for (std::size_t t = 0; t + 2 < soup.tris.size(); t += 3) {
        const float* p[3];
        for (int k = 0; k < 3; ++k) p[k] = &soup.verts[3 * static_cast<std::size_t>(soup.tris[t + k])];
        const double xl = std::min({p[0][0], p[1][0], p[2][0]}), xh = std::max({p[0][0], p[1][0], p[2][0]});
        const double zl = std::min({p[0][2], p[1][2], p[2][2]}), zh = std::max({p[0][2], p[1][2], p[2][2]});
        if (xh < lo.x || xl > hi.x || zh < lo.y || zl > hi.y) continue;
        for (int k = 0; k < 3; ++k) {
            int& v = index[static_cast<std::size_t>(soup.tris[t + k])];
            if (v < 0) {
                v = static_cast<int>(out.verts.size() / 3);
                out.verts.insert(out.verts.end(), {p[k][0], p[k][1], p[k][2]});
            }
            out.tris.push_back(v);
        }
    }
}

}  // namespace

std::vector<std::pair<int, int>> columns_read(const std::vector<glm::ivec2>& columns) {
    std::map<std::pair<int, int>, bool> around;
    for (const glm::ivec2& c : columns)
        for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx) around[{c.y + dz, c.x + dx}] = true;
    std::vector<std::pair<int, int>> keys;
    for (const auto& [k, _] : around) keys.push_back(k);
    return keys;
}

std::vector<std::pair<int, int>> columns_remeshed(const Box& changed) {
    const int x0 = static_cast<int>(std::floor((changed.lo.x - 2.0) / kChunkSize)),
              x1 = static_cast<int>(std::floor((changed.hi.x + 2.0) / kChunkSize));
    const int z0 = static_cast<int>(std::floor((changed.lo.z - 2.0) / kChunkSize)),
              z1 = static_cast<int>(std::floor((changed.hi.z + 2.0) / kChunkSize));
    std::vector<std::pair<int, int>> out;
    for (int z = z0; z <= z1; ++z)
        for (int x = x0; x <= x1; ++x) out.emplace_back(z, x);
    return out;
}

TileTriangles mesh_column(const Field& field, const ChunkDeltas* deltas, int x, int z) {
    const std::vector<ChunkCoord> chunks = surface_chunks(field, deltas, x, z);
    const std::vector<MeshBuffers> meshes = mesh_chunks(field, deltas, chunks, Mesher::marching_cubes, 1);
    TileTriangles soup;
    for (const MeshBuffers& m : meshes) add_mesh(m, soup);
    return soup;
}

void mesh_columns(const Field& field, const ChunkDeltas* deltas, const std::vector<std::pair<int, int>>& keys, int threads,
                  ColumnSoups& into) {
    std::vector<std::vector<ChunkCoord>> per(keys.size());
    parallel_for(keys.size(), threads, [&](std::size_t i) { per[i] = surface_chunks(field, deltas, keys[i].second, keys[i].first); });
    std::vector<ChunkCoord> chunks;
    for (const auto& p : per) chunks.insert(chunks.end(), p.begin(), p.end());
    const std::vector<MeshBuffers> meshes = mesh_chunks(field, deltas, chunks, Mesher::marching_cubes, threads);
    for (const auto& key : keys) into[key] = {};
    // Chunks bottom to top within a column: the same soup, the same tile bytes.
    for (std::size_t i = 0; i < chunks.size(); ++i) add_mesh(meshes[i], into[{chunks[i].z, chunks[i].x}]);
}

std::vector<unsigned char> build_tile_from(const AroundTile& around, const AgentSettings& agent, int x, int z) {
    const double pad = tile_border_cells(agent) * agent.cell_size_m + agent.cell_size_m;
    const glm::dvec2 lo(x * double(kChunkSize) - pad, z * double(kChunkSize) - pad);
    const glm::dvec2 hi((x + 1) * double(kChunkSize) + pad, (z + 1) * double(kChunkSize) + pad);
    TileTriangles input;
    // Columns in one order (z, then x): the same triangles, the same bytes.
    for (const TileTriangles* soup : around)
        if (soup) add_triangles(*soup, lo, hi, input);
    return build_tile_data(input, agent, x, z);
}

std::vector<NavTile> tiles_from_soups(const ColumnSoups& soups, const AgentSettings& agent, const std::vector<glm::ivec2>& columns,
                                      int threads) {
    std::vector<NavTile> tiles(columns.size());
    parallel_for(columns.size(), threads, [&](std::size_t i) {
        const int x = columns[i].x, z = columns[i].y;
        AroundTile around{};
        for (int k = 0; k < 9; ++k)
            if (const auto it = soups.find({z + k / 3 - 1, x + k % 3 - 1}); it != soups.end()) around[k] = &it->second;
        tiles[i] = {x, z, build_tile_from(around, agent, x, z)};
    });
    return tiles;
}

}  // namespace nav_detail

std::vector<NavTile> build_nav_tiles(const Field& field, const ChunkDeltas* deltas, const AgentSettings& agent,
                                     const std::vector<glm::ivec2>& columns, int threads) {
    if (const std::string problem = validate_agent(agent); !problem.empty()) throw NavError("agent: " + problem);
    nav_detail::ColumnSoups soups;
    nav_detail::mesh_columns(field, deltas, nav_detail::columns_read(columns), threads, soups);
    return nav_detail::tiles_from_soups(soups, agent, columns, threads);
}

}  // namespace isoterra
