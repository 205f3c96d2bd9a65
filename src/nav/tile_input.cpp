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

}  // namespace nav_detail

namespace {

using ColumnMeshes = std::map<std::pair<int, int>, std::vector<const MeshBuffers*>>;  // (z, x)

// Appends the triangles of `mesh` whose box meets [lo, hi] in x and z.
void add_triangles(const MeshBuffers& mesh, const glm::dvec2& lo, const glm::dvec2& hi, nav_detail::TileTriangles& out) {
    const MeshBuffers drawn = select_for_neighbours(mesh, Neighbourhood{});
    std::vector<int> index(drawn.positions.size(), -1);
    for (std::size_t t = 0; t + 2 < drawn.indices.size(); t += 3) {
        glm::dvec3 p[3];
        for (int k = 0; k < 3; ++k) p[k] = drawn.world_position(drawn.indices[t + k]);
        const double xl = std::min({p[0].x, p[1].x, p[2].x}), xh = std::max({p[0].x, p[1].x, p[2].x});
        const double zl = std::min({p[0].z, p[1].z, p[2].z}), zh = std::max({p[0].z, p[1].z, p[2].z});
        if (xh < lo.x || xl > hi.x || zh < lo.y || zl > hi.y) continue;
        for (int k = 0; k < 3; ++k) {
            int& v = index[drawn.indices[t + k]];
            if (v < 0) {
                v = static_cast<int>(out.verts.size() / 3);
                out.verts.insert(out.verts.end(), {float(p[k].x), float(p[k].y), float(p[k].z)});
            }
            out.tris.push_back(v);
        }
    }
}

// The meshes of every column the tiles of `columns` read (each with a ring around it).
std::vector<ChunkCoord> chunks_read(const Field& field, const ChunkDeltas* deltas, const std::vector<glm::ivec2>& columns, int threads) {
    std::map<std::pair<int, int>, bool> around;
    for (const glm::ivec2& c : columns)
        for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx) around[{c.y + dz, c.x + dx}] = true;
    std::vector<std::pair<int, int>> keys;
    for (const auto& [k, _] : around) keys.push_back(k);
    std::vector<std::vector<ChunkCoord>> per(keys.size());
    parallel_for(keys.size(), threads,
                 [&](std::size_t i) { per[i] = nav_detail::surface_chunks(field, deltas, keys[i].second, keys[i].first); });
    std::vector<ChunkCoord> chunks;
    for (const auto& p : per) chunks.insert(chunks.end(), p.begin(), p.end());
    return chunks;
}

}  // namespace

std::vector<NavTile> build_nav_tiles(const Field& field, const ChunkDeltas* deltas, const AgentSettings& agent,
                                     const std::vector<glm::ivec2>& columns, int threads) {
    if (const std::string problem = validate_agent(agent); !problem.empty()) throw NavError("agent: " + problem);
    const std::vector<ChunkCoord> chunks = chunks_read(field, deltas, columns, threads);
    const std::vector<MeshBuffers> meshes = mesh_chunks(field, deltas, chunks, Mesher::marching_cubes, threads);
    ColumnMeshes by_column;
    for (std::size_t i = 0; i < chunks.size(); ++i) by_column[{chunks[i].z, chunks[i].x}].push_back(&meshes[i]);
    const double pad = nav_detail::tile_border_cells(agent) * agent.cell_size_m + agent.cell_size_m;
    std::vector<NavTile> tiles(columns.size());
    parallel_for(columns.size(), threads, [&](std::size_t i) {
        const int x = columns[i].x, z = columns[i].y;
        const glm::dvec2 lo(x * double(kChunkSize) - pad, z * double(kChunkSize) - pad);
        const glm::dvec2 hi((x + 1) * double(kChunkSize) + pad, (z + 1) * double(kChunkSize) + pad);
        nav_detail::TileTriangles input;
        // Columns in one order (z, then x; chunks bottom to top): the same triangles, the same bytes.
        for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx)
                if (const auto it = by_column.find({z + dz, x + dx}); it != by_column.end())
                    for (const MeshBuffers* m : it->second) add_triangles(*m, lo, hi, input);
        tiles[i] = {x, z, nav_detail::build_tile_data(input, agent, x, z)};
    });
    return tiles;
}

}  // namespace isoterra
