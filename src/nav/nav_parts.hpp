// What the navigation stage's files share (src/nav/ only).
#pragma once

#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "isoterra/nav.hpp"

class dtNavMeshQuery;
class dtQueryFilter;

namespace isoterra::nav_detail {

/// Returns why `p` has no walkable ground near it, in one line: outside the region (`held`
/// false), how far inside rock or up in the air, or on ground no agent walks and where the
/// nearest walkable ground is (found with `q` and `filter`).
std::string off_ground_reason(const dtNavMeshQuery& q, const dtQueryFilter& filter, const Field& field, const ChunkDeltas* deltas,
                              bool held, const AgentSettings& agent, const glm::dvec3& p);

/// The triangles a tile's heightfield is rasterized from: world metres as floats, three
/// indices a triangle, facing the air (counter-clockwise seen from outside).
struct TileTriangles {
    std::vector<float> verts;
    std::vector<int> tris;
};

/// The cells a tile reaches beyond its own 32 m on each side (Recast's border: the agent's
/// radius and three cells), so that neighbouring tiles' edges meet.
int tile_border_cells(const AgentSettings& agent);

/// Returns the tile's Detour data built by Recast from `input` (empty: nothing walkable).
/// Throws NavError when the tile holds more than kMaxNavPolysPerTile polygons.
std::vector<unsigned char> build_tile_data(const TileTriangles& input, const AgentSettings& agent, int x, int z);

/// Returns the level-0 chunks of column (x, z) whose samples may hold a surface, bottom to
/// top: from the World's floor up to the first that is all air over ground (and any
/// edited layer above it).
std::vector<ChunkCoord> surface_chunks(const Field& field, const ChunkDeltas* deltas, int x, int z);

/// The drawn triangles of each column's level-0 chunks (bottom to top), by (z, x).
using ColumnSoups = std::map<std::pair<int, int>, TileTriangles>;

/// Returns the (z, x) of the columns the tiles of `columns` read: each and the ring around it.
std::vector<std::pair<int, int>> columns_read(const std::vector<glm::ivec2>& columns);

/// Returns the (z, x) of the columns whose chunks read a sample in `changed` (two samples of
/// padding): their meshes change with an edit there.
std::vector<std::pair<int, int>> columns_remeshed(const Box& changed);

/// Meshes the columns `keys` ((z, x)) of `field` with `deltas` on `threads` threads and puts
/// their soups in `into`, replacing what it held for them.
void mesh_columns(const Field& field, const ChunkDeltas* deltas, const std::vector<std::pair<int, int>>& keys, int threads,
                  ColumnSoups& into);

/// Returns the drawn triangles of column (x, z)'s level-0 chunks, bottom to top, meshed on
/// the calling thread: the soup mesh_columns makes for it.
TileTriangles mesh_column(const Field& field, const ChunkDeltas* deltas, int x, int z);

/// The soups of the columns around a tile, (z + k / 3 - 1, x + k % 3 - 1) for k in 0..8
/// (null: none).
using AroundTile = std::array<const TileTriangles*, 9>;

/// Returns tile (x, z)'s Detour data built from the triangles of `around` that reach it or
/// its border.
std::vector<unsigned char> build_tile_from(const AroundTile& around, const AgentSettings& agent, int x, int z);

/// Builds the tiles of `columns` from the soups of their columns and of those beside them.
std::vector<NavTile> tiles_from_soups(const ColumnSoups& soups, const AgentSettings& agent, const std::vector<glm::ivec2>& columns,
                                      int threads);

/// Merges waypoints closer than a metre (the ends kept) and moves each to the surface of
/// `field` with `deltas` (null: none) within a metre above or below it, if any.
void thin_and_ground(const Field& field, const ChunkDeltas* deltas, std::vector<glm::dvec3>& points);

}  // namespace isoterra::nav_detail
