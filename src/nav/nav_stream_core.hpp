// What a NavStream shares with the World's workers (src/nav/ only): the tiles kept around
// the focus and the meshes of their columns, each with a version that an edit counts up,
// the jobs that build them nearest first, and the tiles finished for the owner.
#pragma once

#include <array>
#include <map>
#include <mutex>

#include "isoterra/base.hpp"
#include "isoterra/nav.hpp"
#include "nav/nav_parts.hpp"

namespace isoterra {

struct NavStream::Core final : WorldCompanion, std::enable_shared_from_this<Core> {
    Core(std::shared_ptr<const Field> field, std::shared_ptr<const ChunkDeltas> deltas, const NavStreamSettings& settings, TaskPool* pool);

    void focus_moved(const glm::dvec3& focus) override;
    void edited(const std::shared_ptr<const ChunkDeltas>& deltas, const Box& changed) override;
    bool run_one() override;
    void world_ending() override;

    using Key = std::pair<int, int>;  // (z, x), the order tiles are handed to Detour in
    struct Tile {
        std::uint64_t version = 0;
        std::int64_t building = -1;  // the version on a worker
        std::int64_t done = -1;      // the version finished (for the owner, or in the mesh)
        double distance = 0.0;       // from the focus, in x and z
    };
    struct Column {
        std::uint64_t version = 0;
        std::int64_t meshing = -1;  // the version on a worker
        std::int64_t have = -1;     // the version of `soup`
        std::shared_ptr<const nav_detail::TileTriangles> soup;
    };
    struct Job {
        bool tile = false;  // else a column's meshes
        Key key;
        std::uint64_t version = 0;
        std::shared_ptr<const ChunkDeltas> deltas;
        std::array<std::shared_ptr<const nav_detail::TileTriangles>, 9> around;  // a tile's columns (AroundTile's order)
    };
    struct Finished {
        NavTile tile;
        std::uint64_t version = 0;
    };

    /// Works out the tiles kept around focus_, their order and their columns.
    void retarget_locked();
    /// Takes the nearest piece of work that can start: a tile whose columns are all meshed,
    /// or else a column the nearest waiting tile needs.
    bool take_locked(Job& job);
    void finish_locked(const Job& job, nav_detail::TileTriangles soup, std::vector<unsigned char> data);
    /// Queues tasks on the pool (up to its workers waiting), each running one piece.
    void pump_locked();
    bool settled_locked() const;

    const std::shared_ptr<const Field> field_;
    const NavStreamSettings settings_;
    TaskPool* const pool_;  // null: the owner runs the pieces (NavStream::update)

    mutable std::mutex mu_;
    std::shared_ptr<const ChunkDeltas> deltas_;
    glm::dvec3 focus_{0.0}, targeted_at_{1e300};
    std::map<Key, Tile> tiles_;
    std::map<Key, Column> columns_;
    std::vector<Key> order_;  // tiles_' keys, nearest first
    std::vector<Finished> finished_;
    std::vector<Key> dropped_;
    std::uint64_t next_version_ = 0;
    int queued_ = 0;  // tasks queued on the pool, not yet started
    bool stopping_ = false;
    NavStreamCounts counts_;
    std::string error_;
};

}  // namespace isoterra
