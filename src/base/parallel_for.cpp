// A loop over indices shared between the caller and helpers on the shared task pool: each
// takes the next index until none is left.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "isoterra/base.hpp"

namespace isoterra {

int default_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

namespace {

// What the caller and its helpers share. A helper that starts after the caller has closed
// the loop touches nothing of the caller's (its job, progress and stack are gone by then).
struct ParallelLoop {
    std::mutex lock;
    std::condition_variable idle;
    bool closed = false;  // the caller is done; helpers starting now return at once
    int helpers = 0;      // helpers inside the loop, under `lock`
};

// `pool` null: the shared pool, started only when helpers are wanted (one thread: none, as
// in a WebAssembly build without threads).
void run_loop(TaskPool* pool, std::size_t count, int threads, const std::function<void(std::size_t)>& job,
              const std::function<void(std::size_t, std::size_t)>& progress) {
    std::atomic<std::size_t> next{0};
    std::size_t done = 0;  // jobs finished, under `loop->lock`
    std::exception_ptr failure;
    const auto loop = std::make_shared<ParallelLoop>();
    const auto work = [&] {
        for (std::size_t i; (i = next++) < count;) {
            try {
                job(i);
            } catch (...) {
                std::lock_guard<std::mutex> g(loop->lock);
                if (!failure) failure = std::current_exception();
                next = count;
            }
            if (progress) {
                // Counted under the lock, so that the calls see 1, 2, 3, ... in order.
                std::lock_guard<std::mutex> g(loop->lock);
                progress(++done, count);
            }
        }
    };
    const std::function<void()> helper = [loop, &work] {
        {
            std::lock_guard<std::mutex> g(loop->lock);
            if (loop->closed) return;
            ++loop->helpers;
        }
        work();
        std::lock_guard<std::mutex> g(loop->lock);
        if (--loop->helpers == 0) loop->idle.notify_all();
    };
    for (int t = 1; t < threads && static_cast<std::size_t>(t) < count; ++t) {
        // The helper's copy holds `loop`; `work` is only reached while the loop is open.
        (pool ? *pool : TaskPool::shared()).submit(TaskPriority::normal, helper);
    }
    work();
    {
        std::unique_lock<std::mutex> g(loop->lock);
        loop->closed = true;
        loop->idle.wait(g, [&] { return loop->helpers == 0; });
    }
    if (failure) std::rethrow_exception(failure);
}

}  // namespace

void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& job,
                  const std::function<void(std::size_t, std::size_t)>& progress) {
    run_loop(nullptr, count, threads, job, progress);
}

void parallel_for(TaskPool& pool, std::size_t count, int threads, const std::function<void(std::size_t)>& job,
                  const std::function<void(std::size_t, std::size_t)>& progress) {
    run_loop(&pool, count, threads, job, progress);
}

}  // namespace isoterra
