#include "bake_ranks.hpp"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <thread>

#include "cli.hpp"

#ifdef ISOTERRA_HAS_MPI
#include <mpi.h>
#endif

namespace isoterra::app {

namespace {
[[maybe_unused]] constexpr int kRequest = 1, kAnswer = 2, kDone = 3;
}

bool started_by_mpi_launcher() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}

BakeRanks::BakeRanks(std::size_t count, std::size_t shard, std::size_t shards) : count_(count), shard_(shard), shards_(shards) {
    cursor_ = shard_;
    if (!started_by_mpi_launcher()) return;
#ifdef ISOTERRA_HAS_MPI
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    if (provided < MPI_THREAD_SERIALIZED) {
        MPI_Finalize();
        throw Failure("bake: this MPI library cannot serve requests from worker threads (MPI_THREAD_SERIALIZED)");
    }
    mpi_ = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
    throw UsageError(
        "bake: started by an MPI launcher, but this isoterra was built without MPI "
        "(install libopenmpi-dev and build again, or run without mpirun, with --shard)");
#endif
}

BakeRanks::~BakeRanks() {
#ifdef ISOTERRA_HAS_MPI
    if (mpi_ && finished_) MPI_Finalize();
    else if (mpi_) MPI_Abort(MPI_COMM_WORLD, 1);
#endif
}

bool BakeRanks::take_local(std::size_t& job) {
    const std::size_t i = cursor_.fetch_add(shards_);
    if (i >= count_) return false;
    job = i;
    return true;
}

bool BakeRanks::next(std::size_t& job) {
    if (!mpi_ || rank_ == 0) return take_local(job);
#ifdef ISOTERRA_HAS_MPI
    std::lock_guard<std::mutex> lock(mu_);
    if (exhausted_) return false;
    std::int64_t answer = -1;
    const int ask = 0;
    MPI_Send(&ask, 1, MPI_INT, 0, kRequest, MPI_COMM_WORLD);
    MPI_Recv(&answer, 1, MPI_INT64_T, 0, kAnswer, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (answer < 0) {
        exhausted_ = true;
        return false;
    }
    job = static_cast<std::size_t>(answer);
    return true;
#else
    return false;
#endif
}

void BakeRanks::serve() {
#ifdef ISOTERRA_HAS_MPI
    if (!mpi_ || rank_ != 0) return;
    int done = 0;
    while (done < size_ - 1) {
        int message = 0, waiting = 0;
        MPI_Status status;
        // Probe and nap rather than block: a blocking receive spins a core that this
        // rank's own workers need (a job takes tens of milliseconds; a nap, a fifth of one).
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, MPI_STATUS_IGNORE);
        if (!waiting) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            continue;
        }
        MPI_Recv(&message, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        if (status.MPI_TAG == kDone) {
            ++done;
            continue;
        }
        std::size_t job = 0;
        const std::int64_t answer = take_local(job) ? static_cast<std::int64_t>(job) : -1;
        MPI_Send(&answer, 1, MPI_INT64_T, status.MPI_SOURCE, kAnswer, MPI_COMM_WORLD);
    }
#endif
}

void BakeRanks::finish() {
#ifdef ISOTERRA_HAS_MPI
    if (!mpi_) return;
    if (rank_ != 0) {
        const int message = 0;
        MPI_Send(&message, 1, MPI_INT, 0, kDone, MPI_COMM_WORLD);
    }
    // Wait for every rank without spinning (the others may still be baking on these cores).
    MPI_Request barrier;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    for (int over = 0; !over;) {
        MPI_Test(&barrier, &over, MPI_STATUS_IGNORE);
        if (!over) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    finished_ = true;
#endif
}

void BakeRanks::abort(int code) {
#ifdef ISOTERRA_HAS_MPI
    if (mpi_) MPI_Abort(MPI_COMM_WORLD, code);
#endif
    std::exit(code);
}

}  // namespace isoterra::app
