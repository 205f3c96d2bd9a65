// Stage 5 of the pipeline: an endless world around a moving focus (seed 003). The world
// keeps the chunks within a view radius loaded, builds the nearest first on worker threads,
// skips the air above each column's highest ground and every chunk its field proves empty,
// drops what the focus leaves behind, and hands finished meshes to its owner within a time
// budget. It knows nothing of rendering: the owner uploads what deliver() gives it.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "isoterra/edit.hpp"
#include "isoterra/mesh.hpp"

namespace isoterra {

struct WorldSettings {
    int view_radius = 8;  // chunks, in x and z around the focus column
    int lowest_layer = -2; // no chunk below this layer is built
    int threads = 0;      // workers; 0 = hardware threads - 1, at least 1
    Mesher mesher = Mesher::marching_cubes;
};

/// What deliver() hands the owner: a new mesh for a chunk (empty if the chunk has no
/// surface), or the news that a chunk was dropped and its mesh can go.
struct ChunkUpdate {
    ChunkCoord coord;
    std::uint64_t version = 0;
    bool dropped = false;
    const MeshBuffers* mesh = nullptr;  // valid during the call only; null when dropped
};

/// Counts at one moment. Thread-safe to read via World::counts().
struct WorldCounts {
    std::size_t loaded = 0;    // chunks tracked around the focus
    std::size_t waiting = 0;   // of those, not showing their current version yet
    std::size_t building = 0;  // on a worker now
    std::size_t built = 0;     // chunks sampled and meshed since the start
    std::size_t skipped = 0;   // chunks the field's bounds proved empty or full, not sampled
};

class World {
public:
    /// Starts the workers over `field` plus `deltas` (edits; null for none).
    World(std::shared_ptr<const TerrainField> field, const WorldSettings& settings,
          std::shared_ptr<const ChunkDeltas> deltas = nullptr);
    /// Stops the workers (jobs in flight finish first).
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    /// Follows the focus: drops far chunks, adds and queues the missing ones nearest first.
    /// Call from the owner's thread, once a frame.
    void set_focus(const glm::dvec3& focus);
    /// Switches the mesher: every chunk is built again and keeps its mesh until then.
    /// Owner's thread.
    void set_mesher(Mesher mesher);
    /// Marks every loaded chunk whose samples meet `box` as out of date (after an edit).
    /// Owner's thread.
    void invalidate(const Box& box);
    /// Builds chunks from now on with `deltas` added to the field (a snapshot: the world
    /// keeps it), loads chunks that edits raised above the highest ground, and rebuilds the
    /// chunks whose samples meet `changed`. Each keeps showing its old mesh until then.
    /// Owner's thread.
    void set_edits(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed);
    /// Hands finished meshes and drops to `sink`, oldest first, until `budget_ms` has passed
    /// (at least one if any). Returns how many it handed. Owner's thread.
    std::size_t deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink);
    /// Returns the counts now. Thread-safe.
    WorldCounts counts() const;
    /// Returns true when every loaded chunk shows its current version and nothing waits to
    /// be delivered. Thread-safe.
    bool settled() const;
    /// Returns the loaded chunks (any order). Thread-safe.
    std::vector<ChunkCoord> loaded() const;
    /// Returns the highest layer of chunks that can hold ground in column (x, z): the
    /// seed-003 rule, computed once per column and forgotten with it. Thread-safe.
    int top_layer(int x, int z) const;
    const WorldSettings& settings() const { return settings_; }

private:
    struct Chunk {
        ChunkCoord coord;
        std::uint64_t version = 0;   // counts up whenever the chunk must be built again
        std::int64_t shown = -1;     // the version the owner has (or will get) a mesh of
        std::int64_t pending = -1;   // the version on a worker or waiting for delivery
    };
    struct Job {
        ChunkCoord coord;
        std::uint64_t version;
        Mesher mesher;
        double distance;
    };
    struct Finished {
        ChunkCoord coord;
        std::uint64_t version;
        bool dropped;
        MeshBuffers mesh;
    };

    struct Column {
        int rule_top;       // highest layer that can hold ground (seed-003 rule)
        int top;            // the same, or higher where edits reach
        bool has_ground_range = false;
        ValueRange ground;  // proven ground range over the column's square, for the bounds
    };

    void work();
    void queue_jobs_locked();
    void load_around_focus_locked();
    void invalidate_locked(const Box& box);
    double distance_to(const ChunkCoord& c) const;
    Column& column_locked(int x, int z) const;
    static std::int64_t column_key(int x, int z) { return static_cast<std::int64_t>(x) << 32 ^ static_cast<std::uint32_t>(z); }

    std::shared_ptr<const TerrainField> field_;
    std::shared_ptr<const ChunkDeltas> deltas_;  // null: no edits
    WorldSettings settings_;
    glm::dvec3 focus_{0.0};
    Mesher mesher_;

    mutable std::mutex mu_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::unordered_map<ChunkCoord, Chunk, ChunkKey> chunks_;
    mutable std::unordered_map<std::int64_t, Column> columns_;  // forgotten with their chunks
    std::uint64_t next_version_ = 0;
    std::vector<Job> jobs_;                               // nearest last, for pop_back
    std::deque<Finished> finished_;
    WorldCounts counts_;
    std::vector<std::thread> workers_;
};

}  // namespace isoterra
