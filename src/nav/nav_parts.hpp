// What the navigation stage's files share (src/nav/ only).
#pragma once

#include <vector>

#include "isoterra/nav.hpp"

namespace isoterra::nav_detail {

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

/// Merges waypoints closer than a metre (the ends kept) and moves each to the surface of
/// `field` with `deltas` (null: none) within a metre above or below it, if any.
void thin_and_ground(const Field& field, const ChunkDeltas* deltas, std::vector<glm::dvec3>& points);

}  // namespace isoterra::nav_detail
