// Who bakes which jobs: one process alone (every job, or every N-th with --shard), or the
// ranks of an MPI launch (mpirun, srun) taking jobs one at a time from rank 0 as they
// finish, so that oceans and mountains balance. Threads inside each process take them too.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>

namespace isoterra::app {

/// Returns true when an MPI launcher started this process (its rank variables are set).
bool started_by_mpi_launcher();

class BakeRanks {
public:
    /// Joins the launch's ranks when started by an MPI launcher (throws UsageError if this
    /// program was built without MPI); else one process of rank 0 of 1. Jobs are the indices
    /// 0 .. count - 1 with index % shards == shard.
    BakeRanks(std::size_t count, std::size_t shard, std::size_t shards);
    /// Leaves MPI after finish(); without it (an exception on the way), ends every rank.
    ~BakeRanks();
    BakeRanks(const BakeRanks&) = delete;
    BakeRanks& operator=(const BakeRanks&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    /// Gives the calling worker thread its next job; false when none is left. Thread-safe.
    bool next(std::size_t& job);
    /// Call from the main thread while the workers run: rank 0 answers the other ranks'
    /// requests until every rank is done; other ranks return at once.
    void serve();
    /// Call from the main thread once this process's workers are done: tells rank 0 and
    /// waits until every rank is done.
    void finish();
    /// Ends every rank of the launch with `code` (a failure in one is a failure of all).
    [[noreturn]] void abort(int code);

private:
    bool take_local(std::size_t& job);
    std::size_t count_, shard_, shards_;
    std::atomic<std::size_t> cursor_{0};  // the next candidate index (rank 0 or alone)
    std::mutex mu_;                       // serialises a rank's requests to rank 0
    bool exhausted_ = false;
    bool mpi_ = false, finished_ = false;
    int rank_ = 0, size_ = 1;
};

}  // namespace isoterra::app
