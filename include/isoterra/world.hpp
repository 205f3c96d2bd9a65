// Stage 5 of the pipeline: an endless world around a moving focus (seed 003), to the
// horizon. The ground is split into columns of chunks, finer near the focus and twice as
// coarse ring after ring (levels of detail, a quadtree whose neighbours differ by at most one
// level). The world builds the nearest first on worker threads, skips the air above each
// column's highest ground and every chunk its field proves empty, drops what the focus
// leaves behind, swaps a region to another level only when its replacement is ready, and
// hands meshes and what to draw to its owner within a time budget. It knows nothing of
// rendering: the owner uploads what deliver() gives it and draws the visible chunks with
// their neighbourhoods (select_for_neighbours, or the same in a shader).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "isoterra/edit.hpp"
#include "isoterra/mesh.hpp"

namespace isoterra {

// ---------------------------------------------------------------------------------------
// Levels of detail (world/lod_selection.cpp)

/// A column of chunks at one level: level n, x and z counted in columns of 32 * 2^n metres.
struct LodColumn {
    int level = 0, x = 0, z = 0;
    bool operator==(const LodColumn&) const = default;
    /// Returns the edge of the column in metres: 32 * 2^level.
    double size_m() const { return kChunkSize * static_cast<double>(std::int64_t{1} << level); }
    /// Returns the column one level coarser that holds this one.
    LodColumn parent() const { return {level + 1, static_cast<int>(floor_div(x, 2)), static_cast<int>(floor_div(z, 2))}; }
    /// Returns child c (0..3: x + 2 z) one level finer.
    LodColumn child(int c) const { return {level - 1, 2 * x + (c & 1), 2 * z + (c >> 1)}; }
    /// Returns the column of the same level `dx`, `dz` columns away.
    LodColumn moved(int dx, int dz) const { return {level, x + dx, z + dz}; }
    /// Returns the column at `level` (at or above this one's) that holds this one.
    LodColumn ancestor(int at_level) const;
    /// Returns the distance in x and z from `p` to the column's square (0 inside it).
    double distance_xz(const glm::dvec3& p) const;
};
struct LodColumnHash {
    std::size_t operator()(const LodColumn& c) const {
        return (static_cast<std::size_t>(c.x) * 73856093u) ^ (static_cast<std::size_t>(c.z) * 19349663u) ^
               (static_cast<std::size_t>(c.level) * 83492791u);
    }
};
using LodColumnSet = std::unordered_set<LodColumn, LodColumnHash>;

/// How the world chooses levels.
struct LodParams {
    double chunks_per_ring = 8;      // R: a column of level n is split within R columns of level n - 1
    int levels = 1;                  // L: levels 0 .. L - 1
    double view_distance_m = 256.0;  // columns nearer than this (in x and z) are shown
    double hysteresis = 0.2;         // a split column joins again only R (1 + this) away
    int stand_in_roots = 0;          // how many of the L, the coarsest, only stand in (coarse first): their
                                     // columns over wanted ones are inner nodes, over those alone
};

/// Returns the levels that reach `view_distance_m` with `chunks_per_ring` columns per ring:
/// the least L with R * 32 * 2^(L - 1) >= the distance (at least 1).
int lod_levels_for(double view_distance_m, int chunks_per_ring);

/// The columns a world wants around a focus: the leaves of a quadtree over the coarsest
/// wanted level's columns within the view distance (the `stand_in_roots` levels above it
/// hold only inner nodes, over those columns), where a column of level n >= 1 is split when
/// the focus is nearer its box than R columns of level n - 1 (R (1 + hysteresis) if it was
/// split before), and further where needed so that no two leaves that touch, by a side or a
/// corner, are more than one level apart.
struct LodTarget {
    LodColumnSet leaves;
    LodColumnSet split;  // the inner nodes, for the next call's hysteresis
};
/// `height_range(c)` gives the vertical extent used for column c's distance (its ground);
/// `heights_ahead`, when given, is called with each level's columns before any of theirs is
/// asked, so that they can be worked out together.
LodTarget select_lod(const glm::dvec3& focus, const LodParams& params, const LodTarget& previous,
                     const std::function<ValueRange(const LodColumn&)>& height_range,
                     const std::function<void(const std::vector<LodColumn>&)>& heights_ahead = {});

/// Returns the column of `columns` (a partition: no two overlap) that holds column `c`, or
/// one of level -1 when none does.
LodColumn covering(const LodColumnSet& columns, const LodColumn& c, int levels);
/// Returns the neighbourhood of column `c` in the partition `columns`: the levels of the
/// columns across its four sides and four vertical edges, relative to its own (0 where
/// nothing is, and above and below, which are the same column).
Neighbourhood neighbourhood_in(const LodColumnSet& columns, const LodColumn& c, int levels);
/// Returns true when no two columns of the partition that touch differ by more than one level.
bool lod_balanced(const LodColumnSet& columns, int levels);

// ---------------------------------------------------------------------------------------
// The streaming world (world/world.cpp, world_delivery.cpp; its jobs world_job.cpp)

/// Samples chunk `c` as a World does for `mesher`: with the mesher's padding, `deltas`
/// added (null: none), and the world's floor: samples at or below `floor_m` take the
/// floor's value (world_floor_value: rock) in place of the field's, every sample is at most
/// that value, so caves close at the floor at every level alike. `surface`: skip what no
/// mesher reads (LatticeUse::surface) where no edit reaches. Thread-safe for distinct `out`.
/// `columns`: the field's per-column work for the chunk's lattice (ColumnSource::columns_of, through Field::columns()), if
/// kept; null: worked out here.
void sample_world_chunk(const Field& field, const ChunkDeltas* deltas, const ChunkCoord& c, Mesher mesher, double floor_m,
                        ChunkSamples& out, bool surface = true, const LatticeColumns* columns = nullptr);
/// The faces across which a world's chunks meet other levels (its columns share one level
/// up and down): the transition strips its chunks carry.
inline constexpr unsigned kWorldTransitionSides = 1u << side_neg_x | 1u << side_pos_x | 1u << side_neg_z | 1u << side_pos_z;

/// The value the floor caps samples at height `y` with: rock below `floor_m`.
inline float world_floor_value(double y, double floor_m) { return static_cast<float>(y - floor_m - 0.5); }

struct WorldSettings {
    int view_radius = 8;            // chunks per ring (R); also --radius
    double view_distance_m = 8000;  // the world reaches this far (x and z) from the focus
    int levels = 0;                 // levels of detail; 0: as many as the view distance needs
    int lowest_layer = -2;          // the world's floor: solid below lowest_layer * 32 m
    int threads = 0;                // jobs at once, on its own task pool; 0 = hardware threads - 1, at least 1; < 0: the owner's (take_job)
    Mesher mesher = Mesher::marching_cubes;
    // The columns of a level above the coarsest first (a quarter as many, standing in for
    // the whole view), then inner levels stand in until finer ones are ready.
    bool coarse_first = true;
    // Marching cubes' chunks of level 1 and coarser with more triangles are simplified
    // towards this many (simplify_interior, by about half their spacing at most; seams and
    // transitions untouched). 0: none, the default: simplifying costs about three times a
    // chunk's build (docs/design/benchmarks.md).
    std::size_t chunk_triangles = 0;
    // The triangles the whole view may show (0: no limit). The World measures the columns
    // around the focus first, then narrows the ring below view_radius, in quarter steps,
    // until what its target would show is estimated within this (triangle_budget.cpp); the
    // swaps that would show more wait, in flight too (lod_swaps.cpp).
    std::size_t triangle_budget = 6'000'000;

    /// The chunks per ring a World uses (R, at least 2).
    int ring() const { return view_radius > 2 ? view_radius : 2; }
    /// The levels a World uses: `levels`, or those the view distance needs.
    int levels_used() const { return levels > 0 ? levels : lod_levels_for(view_distance_m, ring()); }
};

/// One piece of a World's work: survey a column (the chunk layers that can hold ground, and
/// its ground range) or sample and mesh a chunk. A World whose workers are the owner's
/// (threads < 0: a web page's Web Workers) hands them out through take_job(); the owner runs
/// them with run_world_job, anywhere the same field and edits are at hand, and returns the
/// result through finish_job().
struct WorldJob {
    bool survey = false;
    ChunkCoord coord;  // the chunk; for a survey the column (x, z, lod)
    std::uint64_t version = 0;
    Mesher mesher = Mesher::marching_cubes;
    double distance = 0.0;            // from the focus when it was queued
    ValueRange ground;                // chunk jobs: the column's ground range, from its survey
    int lowest_layer = -2;            // the world's floor
    std::size_t chunk_triangles = 0;  // WorldSettings::chunk_triangles
};
struct WorldJobResult {
    int bottom = 0, top = -1;                               // a survey's chunk layers
    ValueRange ground;                                      // a survey's ground range
    std::shared_ptr<const LatticeColumns> lattice_columns;  // a survey's per-column work, if the field shares it
    bool built = false;                                     // a chunk job: false when its bounds proved it empty or full
    MeshBuffers mesh;                                       // a chunk job's mesh (empty when not built)
    MeshBuffers water;                                      // a chunk job's water surface (mesh_water; empty when none)
};
/// Runs `job` over `field` + `deltas` (null: no edits) exactly as a World's own workers do.
/// `columns`: the column's per-column work from its survey, when at hand. Thread-safe for
/// distinct `out`.
void run_world_job(const Field& field, const ChunkDeltas* deltas, const WorldJob& job, WorldJobResult& out,
                   const LatticeColumns* columns = nullptr);

/// Returns a range holding every sample of chunk job `job` (the field's bounds over the chunk
/// with its column's ground range, the edits' range added, capped by the floor): a chunk
/// whose range is all above 0 or all at or below it has no surface and is not built.
ValueRange world_chunk_range(const Field& field, const ChunkDeltas* deltas, const WorldJob& job);
/// Returns the highest chunk layer of column `c` that holds an edited sample of it or of the
/// border samples its chunks read, or INT_MIN when `deltas` (null: none) reach none: a
/// column's chunks go up to at least this layer.
int edited_top_layer(const ChunkDeltas* deltas, const LodColumn& c);
/// Returns the lowest chunk layer of column `c` whose chunks read an edited sample of it or of
/// its border, or INT_MAX when `deltas` (null: none) reach none: a column's chunks go down to
/// at most this layer (not below the floor). Thread-safe.
int edited_bottom_layer(const ChunkDeltas* deltas, const LodColumn& c);

/// What deliver() hands the owner for one chunk: a new mesh (empty if the chunk has no
/// surface) with its water surface, a change of whether it is drawn or of its neighbours'
/// levels, or the news that it was dropped and its meshes can go. Every update but a drop
/// carries the chunk's current `visible` and `neighbours`. The water is drawn with the chunk
/// (when it is visible), after the ground and translucent.
struct ChunkUpdate {
    ChunkCoord coord;
    std::uint64_t version = 0;
    bool dropped = false;
    const MeshBuffers* mesh = nullptr;  // a new mesh, valid during the call; null otherwise
    bool visible = false;
    Neighbourhood neighbours;
    const MeshBuffers* water = nullptr;  // with a new mesh: its water surface (often empty), valid during the call
};

/// Counts at one moment. Thread-safe to read via World::counts().
struct WorldCounts {
    std::size_t loaded = 0;                    // chunks tracked (shown, or wanted by the levels around the focus)
    std::size_t waiting = 0;                   // of those, not yet handed over at their current version
    std::size_t building = 0;                  // on a worker now
    std::size_t built = 0;                     // chunks sampled and meshed since the start
    std::size_t skipped = 0;                   // chunks the field's bounds proved empty or full, not sampled
    std::vector<std::size_t> shown_per_level;  // chunks drawn, per level (WorldSettings::levels; one more while coarse first's stands in)
    double ring = 0.0;                         // the chunks per ring in use (below R when the triangle budget narrowed it)
    bool ring_chosen = false;                  // the triangle budget has chosen it (or there is none)
    std::size_t held_for_budget = 0;           // times a swap that adds triangles waited for the budget
};

/// Where a moving focus is heading (world/focus_lead.cpp): its velocity over the last
/// quarter second of foci, and the focus that far ahead. A World leads its levels with it,
/// so that what the camera flies into is built first. Not thread-safe.
class FocusLead {
public:
    /// Takes the focus at `time_s` (seconds, any origin, not decreasing); returns it moved
    /// `lead_s` along the velocity, by at most `most_m`. A step faster than 5 km/s is a jump:
    /// the velocity starts again from there (0).
    glm::dvec3 update(const glm::dvec3& focus, double time_s, double lead_s, double most_m);
    /// Returns the velocity in m/s worked out at the last update.
    glm::dvec3 velocity() const { return velocity_; }

private:
    std::vector<std::pair<double, glm::dvec3>> recent_;  // time, focus; oldest first
    glm::dvec3 velocity_{0.0};
};

class TaskPool;

/// Work of a later stage that follows a World (navigation tiles: nav.hpp's NavStream): told
/// of every focus and edit on the owner's thread, and run on the World's workers between its
/// own jobs, one piece at a time, so that it never waits for the whole view.
class WorldCompanion {
public:
    virtual ~WorldCompanion() = default;
    /// From set_focus, the focus as given. Owner's thread.
    virtual void focus_moved(const glm::dvec3& focus) = 0;
    /// From set_edits, after the World took them. Owner's thread.
    virtual void edited(const std::shared_ptr<const ChunkDeltas>& deltas, const Box& changed) = 0;
    /// Runs one piece of its work; false when none waits now. Any of the World's workers.
    virtual bool run_one() = 0;
    /// From the World's destructor, before its workers stop: no piece may start after it.
    virtual void world_ending() = 0;
};

class World {
public:
    /// Starts its task pool over `field` plus `deltas` (edits; null for none). A field with a
    /// ground height (ground_heights) gets exact column tops and bounds from it.
    World(std::shared_ptr<const Field> field, const WorldSettings& settings, std::shared_ptr<const ChunkDeltas> deltas = nullptr);
    /// Stops its tasks (jobs in flight finish first).
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    /// Follows the focus: chooses the columns of every level, drops what is no longer
    /// wanted, and queues what is missing, nearest first. Call from the owner's thread, once
    /// a frame. A focus is held within kCoordinateLimit_m of the origin; a non-finite one is
    /// ignored.
    void set_focus(const glm::dvec3& focus);
    /// The same at the owner's time (seconds; the one above takes the steady clock's): the
    /// levels are chosen, and the jobs ordered, around where the focus is heading (FocusLead,
    /// a second ahead, by at most half the finest ring's reach: R x 16 m).
    void set_focus(const glm::dvec3& focus, double time_s);
    /// Switches the mesher: every chunk is built again and keeps its mesh until then.
    /// Owner's thread.
    void set_mesher(Mesher mesher);
    /// Marks every chunk, of any level, whose samples meet `box` as out of date. Owner's thread.
    void invalidate(const Box& box);
    /// Builds chunks from now on with `deltas` added to the field (a snapshot: the world
    /// keeps it), adds the chunks edits raised above a column's highest ground, and rebuilds
    /// those of every level whose samples meet `changed` (finer levels first). Each keeps
    /// showing its old mesh until then. Owner's thread.
    void set_edits(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed);
    /// Hands finished meshes, drops and changes of what to draw to `sink`, oldest first,
    /// meshes until `budget_ms` has passed (at least one if any). Regions whose replacement
    /// at another level is complete swap here, all at once. Returns how many updates it
    /// handed. Owner's thread.
    std::size_t deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink);
    /// With the owner's workers (threads < 0): takes the nearest job still wanted; false when
    /// there is none now. Every job taken must come back through finish_job. Owner's thread.
    bool take_job(WorldJob& job);
    /// The same, with the column's per-column work from its survey for a chunk job (null
    /// when none was kept): run_world_job's `columns`, as the World's own workers pass it.
    bool take_job(WorldJob& job, std::shared_ptr<const LatticeColumns>& columns);
    /// Hands back the result of a job from take_job (run_world_job's). Owner's thread.
    void finish_job(const WorldJob& job, WorldJobResult result);
    /// Returns the counts now. Thread-safe.
    WorldCounts counts() const;
    /// Returns true when every wanted column is shown at its current version and nothing
    /// waits to be delivered: the whole view, every level. Thread-safe.
    bool settled() const;
    /// Returns true when every wanted column within the view distance of the focus (in x and
    /// z; farther ones are made ready before they come into view, and the fog is full there)
    /// is covered by shown ones, at any level: the whole view is on screen, perhaps coarser
    /// than wanted. Thread-safe.
    bool covered() const;
    /// Returns the chunks tracked now (any order). Thread-safe.
    std::vector<ChunkCoord> loaded() const;
    /// Returns the columns drawn now. Thread-safe.
    LodColumnSet shown_columns() const;
    /// Returns the highest chunk layer of column `c` (its ground's, or higher where edits
    /// reach), or INT_MIN while the column is not surveyed. Thread-safe.
    int top_layer(const LodColumn& c) const;
    /// Returns the levels of detail in use: WorldSettings::levels, and with coarse first
    /// the one above them whose columns only stand in while the view fills.
    int levels() const;
    const WorldSettings& settings() const;

    // Companions (world/world_companion.cpp).
    /// Attaches `companion` for the World's life, held shared so that a worker's call in
    /// flight keeps it alive (a companion stops itself). Owner's thread.
    void attach(std::shared_ptr<WorldCompanion> companion);
    /// Returns the World's pool (null with the owner's workers, threads < 0), for a
    /// companion's own tasks.
    TaskPool* pool() const;
    /// Returns the field and the edits chunks are built with now (null: none).
    std::shared_ptr<const Field> field() const;
    std::shared_ptr<const ChunkDeltas> edits() const;
    /// Returns the focus last set. Owner's thread.
    glm::dvec3 focus() const;

private:
    std::vector<std::shared_ptr<WorldCompanion>> companions() const;
    struct State;  // world/world_state.hpp
    std::unique_ptr<State> state_;
};

/// Returns how many of a chunk's `triangles` it draws beside the levels `n`: all of them
/// when it has no `ranges`, else those of the ranges that hold for `n`.
std::size_t drawn_triangles(const std::vector<IndexRange>& ranges, std::size_t triangles, const Neighbourhood& n);

/// The owner's side of a World, kept on the CPU for programs that draw nothing themselves
/// (`isoterra fly`, `isoterra mesh --around`, tests): the meshes it was handed (or, without
/// `keep_meshes`, only their index ranges), which are drawn, and their neighbourhoods.
/// Not thread-safe.
class ShownChunks {
public:
    explicit ShownChunks(bool keep_meshes = true) : keep_meshes_(keep_meshes) {}
    /// Takes one update from World::deliver.
    void apply(const ChunkUpdate& u);
    /// Returns how many triangles the visible chunks draw with their neighbourhoods.
    std::size_t triangles_drawn() const;
    /// Returns the visible chunks per level (index = level).
    std::vector<std::size_t> visible_per_level() const;
    /// Returns the triangles the visible chunks draw, per level.
    std::vector<std::size_t> triangles_per_level() const;
    /// Returns each visible chunk as drawn (select_for_neighbours), sorted by level, x, y, z.
    /// Needs keep_meshes.
    std::vector<std::pair<ChunkCoord, MeshBuffers>> drawn() const;
    /// Returns the water surface of each visible chunk that has one, sorted as drawn().
    /// Needs keep_meshes.
    std::vector<std::pair<ChunkCoord, MeshBuffers>> drawn_water() const;
    /// Returns how many water triangles the visible chunks draw.
    std::size_t water_triangles_drawn() const;
    /// Returns the columns with a visible chunk.
    LodColumnSet visible_columns() const;
    /// Returns the chunk's mesh as built (all its ranges) and its water surface, or null
    /// when the chunk is not held. Needs keep_meshes.
    const MeshBuffers* mesh(const ChunkCoord& c) const;
    const MeshBuffers* water(const ChunkCoord& c) const;
    /// Returns the bytes the held meshes' arrays take (what memory budgets count).
    std::size_t byte_size() const { return bytes_; }

private:
    struct Entry {
        MeshBuffers mesh;   // with keep_meshes; else only ranges and indices' count
        MeshBuffers water;  // with keep_meshes
        std::size_t triangles = 0, water_triangles = 0;
        std::size_t drawn = 0;  // what it draws with its neighbourhood while visible
        bool visible = false;
        Neighbourhood neighbours;
    };
    bool keep_meshes_;
    std::unordered_map<ChunkCoord, Entry, ChunkKey> chunks_;
    std::size_t bytes_ = 0;
    std::size_t drawn_ = 0;  // the visible entries' `drawn`, kept as they change (a renderer asks every frame)
};

// ---------------------------------------------------------------------------------------
// A region meshed at once, without streaming (world/region_mesh.cpp): `isoterra mesh
// --from --to`, the C API and the Python module.

/// A region the library refuses: empty on an axis, past the world's end (kCoordinateLimit_m)
/// or of too many chunks. what() is one line.
class RegionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The most levels of detail a region may be meshed at (chunk spacing up to 2^kMaxRegionLod m).
inline constexpr int kMaxRegionLod = 10;

/// Returns the chunks of level `lod` whose cores cover the box [from, to), z slowest, then
/// y, then x. Throws RegionError for an empty or non-finite box, one past
/// kCoordinateLimit_m, a level outside [0, kMaxRegionLod], or a box of more than `limit`
/// chunks (the message gives the count); MemoryBudgetError when the list would not fit.
std::vector<ChunkCoord> chunks_covering(const glm::dvec3& from, const glm::dvec3& to, double limit = 4096, int lod = 0);

/// The bytes a plan reckons with for the surface crossing one column of chunks (32 x 32 m at
/// its level): rolling land meshed by marching cubes holds about 80 KiB
/// (tests/world/memory_plan_test.cpp); cliffs, overhangs and caves hold more, which the
/// running counts catch.
inline constexpr double kSurfaceBytesPerColumn = 128.0 * 1024.0;

/// Returns the bytes the meshes a World shows with `settings` are expected to hold, once
/// settled around any focus: each level's (2R + 2)^2 columns, one surface each
/// (kSurfaceBytesPerColumn). Plans for views (`mesh --around`, `render`) multiply it by the
/// copies they hold.
double expected_view_bytes(const WorldSettings& settings);

/// Throws MemoryBudgetError ("WHAT with N levels of R chunks per ring needs about ...")
/// unless `copies` times expected_view_bytes(settings) fits the memory budget: the plan every
/// view is checked against before its World starts. A World checks one copy (its own
/// meshes); callers that hold more say how many (the C API 2, `render` 3, `mesh --around` 4).
void check_view_plan(const WorldSettings& settings, double copies, const std::string& what);

/// Returns the bytes the meshes of `chunks` are expected to hold: each chunk's record and one
/// surface per column of chunks (kSurfaceBytesPerColumn).
double expected_mesh_bytes(const std::vector<ChunkCoord>& chunks);

/// Meshes each of `chunks` (any level) of `field` with `deltas` (null: none) added, one mesh per chunk in
/// the order given, on `threads` threads (< 1: one): what `isoterra mesh --from --to` writes.
/// Calls `progress(done, count)` after each chunk when given. Thread-safe.
/// `copies` is how many copies of the meshes the caller holds at once (a merged mesh, an
/// encoded file): `copies` times expected_mesh_bytes must fit the memory budget before any
/// chunk is meshed, and `copies` times the bytes meshed so far after each chunk; else
/// MemoryBudgetError.
std::vector<MeshBuffers> mesh_chunks(const Field& field, const ChunkDeltas* deltas, const std::vector<ChunkCoord>& chunks, Mesher mesher,
                                     int threads, const std::function<void(std::size_t, std::size_t)>& progress = {}, double copies = 1.0);

/// Returns `meshes` appended into one whose origin is the world's (positions in world metres,
/// as floats): what `isoterra mesh` writes without --per-chunk.
MeshBuffers merge_meshes(const std::vector<MeshBuffers>& meshes);

}  // namespace isoterra
