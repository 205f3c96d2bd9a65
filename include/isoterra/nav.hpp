// Navigation (after world): where an agent can walk over the terrain, caves and edits
// included, as a tiled Detour navigation mesh built by Recast, and paths across it.
//
// A tile is one level-0 chunk column (32 x 32 m), built from the level-0 marching-cubes
// meshes of its column and of the columns beside it (its border), so the triangles Recast
// walks on are the ones the World draws under the camera, caves and overhangs included. A
// tile depends only on the field, the edits and the agent: the same bytes whatever thread
// builds it and in whatever order.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "isoterra/edit.hpp"
#include "isoterra/world.hpp"

namespace isoterra {

/// Navigation input a caller chose badly: agent settings out of range, a region of no tiles
/// or too many, a point off the walkable ground. what() is one line.
class NavError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// No path joins two points that are each on walkable ground. what() is one line.
class NoPathError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The walking agent, metres and degrees (the Recast demo's defaults, with a cell that
/// divides a chunk: 32 m is 128 cells of 0.25 m).
struct AgentSettings {
    double height_m = 2.0;        // headroom needed, in [0.5, 10]
    double radius_m = 0.5;        // kept from walls, in [0, 5]
    double max_climb_m = 0.5;     // the highest step walked up, in [0, 5]
    double max_slope_deg = 45.0;  // the steepest ground walked on, in [0, 85]
    double cell_size_m = 0.25;    // 32 / cell_size_m whole, in [0.125, 1]
    double cell_height_m = 0.1;   // in [0.05, 1]
    bool operator==(const AgentSettings&) const = default;
};

/// Returns an empty string when `agent` is usable, else one line naming the setting and
/// its range ("radius 9 m must be in [0, 5]").
std::string validate_agent(const AgentSettings& agent);

/// The most tiles one NavMesh holds (Detour's 32-bit references: 10 bits of tile, 12 of
/// polygon), so at most 4096 polygons a tile.
inline constexpr int kMaxNavTiles = 1024;
inline constexpr int kMaxNavPolysPerTile = 4096;
/// How far from the world's origin a navigation mesh may reach (Detour works in floats).
inline constexpr double kNavCoordinateLimit_m = 1.0e5;
/// What a plan reckons one tile costs while built (Recast's heightfields, the meshes of its
/// column and border) and once held.
inline constexpr double kNavTileBuildBytes = 24.0 * 1024 * 1024;
inline constexpr double kNavTileBytes = 256.0 * 1024;

/// A rectangle of level-0 chunk columns, [lo, hi] inclusive (x and z).
struct TileRange {
    glm::ivec2 lo{0}, hi{-1};
    int count() const { return hi.x < lo.x || hi.y < lo.y ? 0 : (hi.x - lo.x + 1) * (hi.y - lo.y + 1); }
    bool contains(int x, int z) const { return x >= lo.x && x <= hi.x && z >= lo.y && z <= hi.y; }
};

/// Returns the columns covering x in [from.x, to.x) and z in [from.y, to.y). Throws NavError
/// for an empty or non-finite rectangle, one past kNavCoordinateLimit_m or of more than
/// kMaxNavTiles columns; MemoryBudgetError when building it would not fit the budget.
TileRange nav_tiles_covering(const glm::dvec2& from, const glm::dvec2& to);

/// One built tile: Detour's tile data (dtCreateNavMeshData), empty where nothing is walkable.
struct NavTile {
    int x = 0, z = 0;
    std::vector<unsigned char> data;
};

/// Builds the tiles of `columns` (in the order given) from `field` with `deltas` (null: no
/// edits) on `threads` threads: every tile the same bytes whatever the threads. Throws
/// NavError for bad agent settings or a tile with more than kMaxNavPolysPerTile polygons.
std::vector<NavTile> build_nav_tiles(const Field& field, const ChunkDeltas* deltas, const AgentSettings& agent,
                                     const std::vector<glm::ivec2>& columns, int threads);

/// Returns the columns whose tiles read a sample in `box` (an edit's box): their own area
/// and its border, widened by the meshes' reach.
std::vector<glm::ivec2> nav_tiles_touching(const Box& box, const AgentSettings& agent);

/// A path's waypoints (world metres, on the ground, one to two metres apart) and its length
/// along them.
struct NavPath {
    std::vector<glm::dvec3> points;
    double length_m = 0.0;
};

/// A tiled Detour navigation mesh over a rectangle of columns, with its query.
class NavMesh {
public:
    /// Builds every tile of `range` (nav_tiles_covering) on `threads` threads.
    NavMesh(std::shared_ptr<const Field> field, std::shared_ptr<const ChunkDeltas> deltas, const AgentSettings& agent,
            const TileRange& range, int threads);
    ~NavMesh();
    NavMesh(const NavMesh&) = delete;
    NavMesh& operator=(const NavMesh&) = delete;

    /// Takes new edits and rebuilds exactly the tiles of the range that read a sample in
    /// `changed` (the box of what an edit changed). Returns how many were rebuilt.
    std::size_t update(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed, int threads);

    /// Returns the shortest path between two points on walkable ground. Throws NavError
    /// naming `from_what` or `to_what` for a point inside rock, in the air or outside the
    /// mesh, NoPathError when no path joins them. Not thread-safe (one query object).
    NavPath path(const glm::dvec3& from, const glm::dvec3& to, const std::string& from_what = "from",
                 const std::string& to_what = "to") const;

    /// Returns the walkable surface as triangles (Detour's detail meshes), world metres.
    MeshBuffers triangles() const;
    /// Returns the tiles and the agent in one file (see docs/guides/navigation.md): the
    /// same bytes whatever the threads and the order the tiles were built in.
    std::vector<unsigned char> serialize() const;

    const AgentSettings& agent() const { return agent_; }
    const TileRange& range() const { return range_; }
    /// Returns the tiles held, sorted by z, then x.
    const std::vector<NavTile>& tiles() const { return tiles_; }

private:
    friend class NavStream;
    /// An empty mesh whose tiles a NavStream installs and removes.
    NavMesh(std::shared_ptr<const Field> field, std::shared_ptr<const ChunkDeltas> deltas, const AgentSettings& agent);
    /// Returns true when the column under `p` has a tile (perhaps one with nothing walkable).
    bool holds(const glm::dvec3& p) const;
    /// Takes tile (x, z) out, if held.
    void remove(int x, int z);
    struct Detour;
    void install(std::vector<NavTile> built);
    std::shared_ptr<const Field> field_;
    std::shared_ptr<const ChunkDeltas> deltas_;
    AgentSettings agent_;
    TileRange range_;
    std::vector<NavTile> tiles_;
    std::unique_ptr<Detour> detour_;
};

}  // namespace isoterra

namespace isoterra {

/// What a NavStream keeps around its World's focus.
struct NavStreamSettings {
    AgentSettings agent;
    /// The tiles whose area comes within this of the focus (in x and z) are kept, in [32, 512]
    /// m; one is dropped once it lies a tile's width farther.
    double radius_m = 256.0;
};

/// Counts at one moment. Thread-safe to read via NavStream::counts().
struct NavStreamCounts {
    std::size_t wanted = 0;         // tiles kept around the focus
    std::size_t current = 0;        // of those, built at their current version
    std::uint64_t tiles_built = 0;  // tile builds finished since the start (kept or not)
    std::uint64_t columns_meshed = 0;
};

/// Navigation tiles kept around a World's focus (nav/nav_stream.cpp): built on the World's
/// workers between its chunk jobs, nearest first, each as soon as the meshes of its column
/// and the columns beside it are made (never after the whole view); after an edit, exactly
/// the tiles that read a changed sample (nav_tiles_touching) are built again, the old ones
/// kept until then. A tile's bytes are build_nav_tiles' for the same field and edits,
/// whatever the threads and the order. It may outlive its World (then it stops: its tiles
/// stay as they are).
class NavStream {
public:
    /// Attaches to `world` and starts on the tiles around its focus. Throws NavError for
    /// bad settings.
    NavStream(World& world, const NavStreamSettings& settings);
    /// Stops: jobs in flight finish on the World's workers and are dropped, and the World's
    /// calls do nothing from then on.
    ~NavStream();
    NavStream(const NavStream&) = delete;
    NavStream& operator=(const NavStream&) = delete;

    /// Hands the tiles finished since the last call to the mesh and takes out those dropped
    /// (with the owner's workers, threads < 0, builds a piece first). Returns the columns
    /// whose tile was added, replaced or taken out, (x, z). Owner's thread, once a frame.
    std::vector<glm::ivec2> update();
    /// Returns true when every tile kept is in the mesh at its current version. Owner's thread.
    bool settled() const;
    NavStreamCounts counts() const;
    /// Returns the first error a tile's build threw ("" when none; that tile is left empty).
    std::string error() const;
    /// The tiles in hand: paths, triangles, tiles() (not range(): a stream has none).
    /// Owner's thread.
    const NavMesh& mesh() const { return *mesh_; }
    const NavStreamSettings& settings() const { return settings_; }

private:
    struct Core;  // nav/nav_stream_core.hpp
    NavStreamSettings settings_;
    std::shared_ptr<Core> core_;
    std::unique_ptr<NavMesh> mesh_;
};

}  // namespace isoterra
