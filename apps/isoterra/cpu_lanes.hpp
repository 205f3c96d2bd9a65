// A World's workers played on the calling thread, on a clock of their own CPU time, for
// `fly --clock cpu`: on a loaded machine a real-time flight is starved, and what it shows
// says more of the load than of the World. Here each of N lanes takes the World's next job
// when it is free, the job keeps its lane busy for the CPU time it took the thread, and its
// result is handed back at the time it would have finished.
#pragma once

#include <vector>

#include "isoterra/world.hpp"

namespace isoterra::app {

class CpuLanes {
public:
    explicit CpuLanes(int lanes) : free_at_(static_cast<std::size_t>(lanes), 0.0) {}

    /// Hands back to `world` the jobs finished by `until_s`, then runs jobs on every lane
    /// free before `until_s` (those finishing by then handed back at once, the rest held for
    /// a later call); a lane that finds no job waits until `until_s`. Not thread-safe.
    void run_until(World& world, const Field& field, const ChunkDeltas* deltas, double until_s);
    /// Charges `seconds` of the owner's own work (its frame's bookkeeping on the same cores)
    /// at `now_s`, shared between the lanes. Not thread-safe.
    void charge(double seconds, double now_s);
    /// Returns the CPU seconds the jobs took, all lanes together.
    double busy_s() const { return busy_s_; }
    /// Returns the CPU seconds charged for the owner's work.
    double owner_s() const { return owner_s_; }

private:
    struct Running {
        double done_s;
        WorldJob job;
        WorldJobResult result;
    };
    std::vector<double> free_at_;   // per lane: when it is free for its next job
    std::vector<Running> running_;  // taken, not yet handed back
    double busy_s_ = 0.0, owner_s_ = 0.0;
};

/// Returns this thread's CPU time in seconds.
double thread_cpu_s();

}  // namespace isoterra::app
