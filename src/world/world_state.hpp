// What a World keeps (internal to world/): its tables of columns and chunks, the job list,
// the finished meshes and its tasks on its pool. One mutex guards the tables, the job list
// and the finished list; tasks hold it only to take a job and to hand back a result, never
// while surveying, sampling or meshing. world.cpp schedules, world_delivery.cpp hands over.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "isoterra/base.hpp"
#include "isoterra/world.hpp"

namespace isoterra {

struct World::State {
    State(std::shared_ptr<const Field> field, const WorldSettings& settings, std::shared_ptr<const ChunkDeltas> deltas);
    /// Stops its tasks (jobs in flight finish first; waits for its own tasks only).
    ~State();

    // World's calls, as documented there.
    void set_focus(const glm::dvec3& focus, double time_s);
    void set_mesher(Mesher mesher);
    void invalidate(const Box& box);
    void set_edits(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed);
    std::size_t deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink);
    bool take_job(WorldJob& job, std::shared_ptr<const LatticeColumns>& columns);
    void finish_job(const WorldJob& job, WorldJobResult result);
    WorldCounts counts() const;
    bool settled() const;
    bool covered() const;
    std::vector<ChunkCoord> loaded() const;
    LodColumnSet shown_columns() const;
    int top_layer(const LodColumn& c) const;

    struct Chunk {
        std::uint64_t version = 0;  // counts up whenever the chunk must be built again
        std::int64_t handed = -1;   // the version the owner has a mesh of
        std::int64_t pending = -1;  // the version on a worker or waiting for delivery
        // Of the mesh handed while the triangle budget counts: its triangles and which are
        // drawn beside other levels (ranges).
        std::size_t triangles = 0;
        std::vector<IndexRange> ranges;
    };
    struct Column {
        bool surveyed = false, surveying = false;
        int bottom = 0, top = -1;                               // its chunk layers
        ValueRange ground;                                      // proven range of the bent ground over its samples
        std::shared_ptr<const LatticeColumns> lattice_columns;  // shared by its chunks' sampling
        bool shown = false;
        Neighbourhood neighbours;  // as shown
        // While the triangle budget counts: its handed chunks' triangles, all ranges, which
        // is at least what it draws beside any neighbours (a bound kept as meshes come in).
        std::size_t triangles = 0;
    };
    struct Finished {
        ChunkCoord coord;
        std::uint64_t version;
        bool dropped;
        MeshBuffers mesh;
        MeshBuffers water;
    };

    /// Queues tasks on the pool while jobs wait, up to settings_.threads queued or running.
    void pump_locked();
    /// One task: runs the World's next best job until none is left (or the World stops).
    void run_jobs();
    /// Takes the nearest job still wanted; `columns` gets its column's per-column work.
    bool take_job_locked(WorldJob& job, std::shared_ptr<const LatticeColumns>& columns);
    void finish_job_locked(const WorldJob& job, WorldJobResult&& result);
    void queue_jobs_locked();
    /// Works out the target for focus_ (select_lod; `fresh`: without the hysteresis of the
    /// target before), its columns, stand-ins and what to drop.
    void retarget_locked(bool fresh = false);
    /// Once every column of budget_probe_ is handed over: chooses the ring for the triangle
    /// budget and works out the target again. Returns true when it chose.
    bool choose_ring_locked();
    using ColumnChunks = std::unordered_map<LodColumn, std::vector<const Chunk*>, LodColumnHash>;
    /// Puts the chunks of each column of `shown` and `ready` (all handed over) in `out`: what
    /// the triangle budget counts them by. Workers only add chunks meanwhile, which leaves
    /// these in place.
    void chunks_of_locked(const LodColumnSet& shown, const LodColumnSet& ready, ColumnChunks& out) const;
    /// Returns the Column::triangles of `shown` and `ready` together: a bound on what any
    /// next shown partition of them draws.
    std::size_t triangle_bound_locked(const LodColumnSet& shown, const LodColumnSet& ready) const;
    /// Returns true when column `c` is surveyed and every chunk of it handed over (an empty
    /// column at once).
    bool handed_whole_locked(const LodColumn& c) const;
    /// Returns the height guess for column `c` (kept while the column is in the target).
    ValueRange height_guess_locked(const LodColumn& c);
    /// Works out the guesses of those of `columns` without one, together (on the workers too).
    void guess_heights_locked(const std::vector<LodColumn>& columns);
    void add_chunks_locked(const LodColumn& c, Column& column);
    void invalidate_locked(const Box& box);
    void update_shown(std::vector<ChunkUpdate>& changes);
    /// Returns true while the focus moves faster than a walk (FocusLead's velocity).
    bool moving_locked() const;
    /// After a swap waited for the triangle budget in flight: narrows the ring by a quarter
    /// step (at most every half second), so that what the camera flies into fits.
    void narrow_in_flight_locked();
    /// Returns true when column `c` is to be built: a leaf of the target, a stand-in or measured.
    bool wanted_locked(const LodColumn& c) const;
    void drop_unwanted_locked();
    void update_stand_ins_locked();
    double distance_to(const Box& box) const;
    int edited_top(const LodColumn& c) const;
    ValueRange height_estimate(const LodColumn& c) const;

    std::shared_ptr<const Field> field_;
    std::shared_ptr<const ChunkDeltas> deltas_;  // null: no edits
    WorldSettings settings_;
    LodParams lod_;
    glm::dvec3 focus_{0.0};
    FocusLead lead_;
    double now_s_ = 0.0;               // the owner's time at the last set_focus
    double narrowed_at_s_ = -1e300;    // when the ring was last narrowed in flight
    bool narrowed_in_flight_ = false;  // chosen again, from the whole ring, once the focus stops
    bool held_ = false;                // the last swaps waited for the triangle budget
    glm::dvec3 lead_focus_{0.0};       // where the focus is heading: what the levels and the jobs are chosen around
    bool target_settled_ = false;      // target_ is select_lod's answer for lead_focus_ and itself (set_focus)
    Mesher mesher_;

    mutable std::mutex mu_;
    std::condition_variable idle_;  // tasks_ fell to 0
    bool stopping_ = false;
    int tasks_ = 0;  // its tasks queued or running on pool_
    LodTarget target_;
    LodColumnSet stand_ins_;     // inner nodes of the target shown until their finer columns are (coarse_first)
    LodColumnSet wanted_;        // the target's columns when the shown ones last moved towards them
    bool ring_chosen_ = true;    // the triangle budget has chosen lod_.chunks_per_ring (or there is none)
    bool probed_ = false;        // budget_probe_ was measured (and emptied)
    LodColumnSet budget_probe_;  // until then: the columns it measures first (triangle_budget.hpp), kept built
    bool shown_dirty_ = false;   // something may let the shown columns move
    std::unordered_map<LodColumn, Column, LodColumnHash> columns_;
    std::unordered_map<LodColumn, ValueRange, LodColumnHash> heights_;  // guesses, for distances
    LodColumnSet shown_;
    std::unordered_map<ChunkCoord, Chunk, ChunkKey> chunks_;
    std::uint64_t next_version_ = 0;
    std::vector<WorldJob> jobs_;  // nearest last, for pop_back
    std::deque<Finished> finished_;
    WorldCounts counts_;
    std::vector<std::shared_ptr<WorldCompanion>> companions_;  // world_companion.cpp; run between jobs
    // The World's own pool, settings_.threads workers (none for the owner's workers): a pool
    // of its own rather than TaskPool::shared(), so that `threads` still means how many jobs
    // run at once, whatever else the process runs, and one World's jobs never wait behind
    // another's or behind a region command's loop. Declared last: it goes first, once the
    // destructor has seen tasks_ fall to 0.
    std::unique_ptr<TaskPool> pool_;
};

/// Returns the chunk of column `c` at layer `y`.
inline ChunkCoord chunk_of(const LodColumn& c, int y) { return {c.x, y, c.z, c.level}; }

}  // namespace isoterra
