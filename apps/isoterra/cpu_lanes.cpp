// CpuLanes: a World's workers played one job at a time, each charged its thread CPU time.
#include "cpu_lanes.hpp"

#include <algorithm>
#include <ctime>

namespace isoterra::app {
double thread_cpu_s() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void CpuLanes::charge(double seconds, double now_s) {
    owner_s_ += seconds;
    const double share = seconds / static_cast<double>(free_at_.size());
    for (double& f : free_at_) f = std::max(f, now_s) + share;
}

void CpuLanes::run_until(World& world, const Field& field, const ChunkDeltas* deltas, double until_s) {
    // Those that finished by now, in the order they finished.
    std::sort(running_.begin(), running_.end(), [](const Running& a, const Running& b) { return a.done_s > b.done_s; });
    while (!running_.empty() && running_.back().done_s <= until_s) {
        world.finish_job(running_.back().job, std::move(running_.back().result));
        running_.pop_back();
    }
    for (;;) {
        const auto lane = std::min_element(free_at_.begin(), free_at_.end());
        if (*lane >= until_s) return;
        Running r{0.0, {}, {}};
        std::shared_ptr<const LatticeColumns> columns;
        if (!world.take_job(r.job, columns)) {
            for (double& f : free_at_) f = std::max(f, until_s);  // idle until the next frame
            return;
        }
        const double start = thread_cpu_s();
        run_world_job(field, deltas, r.job, r.result, columns.get());
        const double cost = thread_cpu_s() - start;
        busy_s_ += cost;
        r.done_s = *lane + cost;
        *lane = r.done_s;
        if (r.done_s <= until_s) world.finish_job(r.job, std::move(r.result));
        else running_.push_back(std::move(r));
    }
}

}  // namespace isoterra::app
