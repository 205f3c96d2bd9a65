// Stage 7: baking a region into tiles any client streams (OGC 3D Tiles 1.1). Every level of
// detail is sampled from the field itself (a coarse tile is a column of chunks at a coarser
// level, never decimated from its children); each tile is one column of chunks, meshed as
// the World meshes it, with skirts hanging from its four sides so that tiles of different
// levels side by side show no cracks. The work is cut into jobs that depend on nothing
// else (a subtree of tiles each); every file is a pure function of the settings and its
// job, so a bake on any number of machines, ranks and threads gives the same bytes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "isoterra/graph.hpp"
#include "isoterra/io.hpp"
#include "isoterra/world.hpp"

namespace isoterra {

/// A bake folder or its settings are not what they must be (the message says what).
class BakeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Everything a bake's files depend on; bake.json holds it.
struct BakeSettings {
    std::string terrain_name;  // the preset's or graph's name
    std::uint32_t seed = 0;
    std::string terrain_sha256;          // of TerrainSource::to_text()
    std::string world_sha256;            // of the world file's edits (world_edits_sha256); "" for none
    int levels = 5;                      // levels of detail 0 .. levels - 1; tiles of the coarsest are the roots
    int job_levels = 3;                  // levels of tiles one job bakes (a subtree)
    int x0 = 0, z0 = 0, x1 = 0, z1 = 0;  // the root columns (level levels - 1), inclusive
    Mesher mesher = Mesher::marching_cubes;
    bool heightmaps = false;
    int lowest_layer = -2;  // the world's floor, as WorldSettings::lowest_layer
    bool compress = false;  // tiles quantized and meshopt-compressed (encode_gltf's compress)
    bool operator==(const BakeSettings&) const = default;

    /// Returns the bytes of bake.json: every field, in a fixed order.
    std::string to_json() const;
    /// Reads bake.json; throws BakeError naming `source` for anything else.
    static BakeSettings from_json(const std::string& text, const std::string& source);
    /// Returns the root columns' corner and far corner in metres (x, z).
    glm::dvec2 from_m() const;
    glm::dvec2 to_m() const;
};

/// Returns the SHA-256 of what a world file adds to its terrain: its delta chunks in a fixed
/// order (coordinates, then their deltas' bytes); the same edits give the same digest.
std::string world_edits_sha256(const ChunkDeltas& deltas);

/// One job: the tiles of the subtree under `root`, down `depth` levels (to level
/// root.level - depth + 1).
struct BakeJob {
    LodColumn root;
    int depth = 1;
    /// Returns the job's tiles, coarsest first, each level in (z, x) order.
    std::vector<LodColumn> tiles() const;
    /// Returns the roots of the jobs under this one (empty at level 0).
    std::vector<LodColumn> child_roots() const;
};

/// The jobs of a bake, in their fixed order: coarse levels first, then by z and x.
class BakePlan {
public:
    explicit BakePlan(BakeSettings settings);
    const BakeSettings& settings() const { return settings_; }
    const std::vector<BakeJob>& jobs() const { return jobs_; }
    /// Returns the number of tiles over every level.
    std::size_t tile_count() const { return tile_count_; }

private:
    BakeSettings settings_;
    std::vector<BakeJob> jobs_;
    std::size_t tile_count_ = 0;
};

/// Paths inside a bake folder, relative to it.
std::string tile_content_path(const LodColumn& c);     // "content/L/X/Z.glb"
std::string job_tileset_path(const LodColumn& root);   // "tiles/L/X/Z.json": the job's tiles
std::string job_manifest_path(const LodColumn& root);  // "jobs/L/X/Z.json": written last
std::string height_tile_path(const LodColumn& c);      // "height/L/X/Z.png"
/// Returns a tile's geometric error in metres: 2^level, and 0 at level 0 (the finest).
double tile_geometric_error(int level);

/// The heightmap tiles: samples a side (edges shared with the neighbours) and the fixed
/// mapping of a 16-bit pixel to metres: height = kHeightOffset_m + pixel * kHeightScale_m.
inline constexpr int kHeightSamples = kChunkSize + 1;
inline constexpr double kHeightOffset_m = -1024.0;
inline constexpr double kHeightScale_m = 1.0 / 16.0;

/// A tile as baked: its column's chunks meshed as a World meshes them, merged (origin at the
/// column's corner at height 0), skirts added; `box` holds it (world metres, Y up).
struct BakedTile {
    LodColumn column;
    MeshBuffers mesh;
    Box box;
};

/// Returns the box a column's subtree can fill: its x and z, and the chunk layers the
/// World would build (from the floor to the highest that can hold ground or edits), one
/// sample wider every way. Deterministic; used before the subtree is baked.
Box tile_survey_box(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer);
/// Bakes one tile. Thread-safe.
BakedTile bake_tile(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer);

/// Adds skirts to `mesh` (positions relative to a column's corner; the column `size_m`
/// square): every open edge within `band_m` of one of the four sides gets a wall hanging
/// `depth_m` down (not below `floor_y`), wound like the surface it continues, with its
/// vertices' normals and materials. Returns the number of skirt triangles added.
std::size_t add_skirts(MeshBuffers& mesh, double size_m, double band_m, double depth_m, double floor_y);

/// Returns a 3D Tiles box (12 numbers, Z up) for a box in world metres (Y up): glTF's Y-up
/// content is turned Z-up by the client, so world (x, y, z) is tileset (x, -z, y).
std::vector<double> tiles_box(const Box& box);

/// Writes the files a bake starts with (bake.json, tileset.json, and height/heights.json
/// with heightmaps), atomically; refuses (BakeError) a folder that holds a bake with other
/// settings. Every process of a bake may call it; they write the same bytes.
void start_bake(const BakePlan& plan, const Field& field, const ChunkDeltas* deltas, const std::string& dir);

/// What one job made.
struct BakeJobReport {
    std::size_t tiles = 0, tiles_with_content = 0, triangles = 0, bytes = 0;
    std::vector<std::size_t> tiles_per_level, triangles_per_level;  // index = level
};
/// Bakes job `index` of `plan` into `dir`: its tiles' glb files (and heightmap tiles), its
/// tileset file, then its manifest (each file's size and SHA-256), each written atomically,
/// the manifest last. Throws IoError when a write fails. Thread-safe for distinct jobs.
BakeJobReport run_bake_job(const BakePlan& plan, const Field& field, const ChunkDeltas* deltas, std::size_t index, const std::string& dir);
/// Returns true when job `index` has its manifest in `dir` (it is complete).
bool bake_job_done(const BakePlan& plan, std::size_t index, const std::string& dir);
/// When every job is complete, writes bake.digest and returns the digest; else returns "".
std::string finish_bake(const BakePlan& plan, const std::string& dir);

/// What --verify found: `problems` (one line each: a missing job, a file that differs) and
/// the digest of the files as they are.
struct BakeCheck {
    std::vector<std::string> problems;
    std::size_t jobs = 0, files = 0;
    std::string digest;
};
/// Checks every job's files in `dir` against its manifest. Throws BakeError when `dir` holds
/// no bake.json.
BakeCheck verify_bake(const std::string& dir);

}  // namespace isoterra
