// A loop over indices shared between threads: each takes the next index until none is left.
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "isoterra/base.hpp"

namespace isoterra {

int default_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& job,
                  const std::function<void(std::size_t, std::size_t)>& progress) {
    std::atomic<std::size_t> next{0};
    std::size_t done = 0;  // jobs finished, under `lock`
    std::exception_ptr failure;
    std::mutex lock;
    const auto work = [&] {
        for (std::size_t i; (i = next++) < count;) {
            try {
                job(i);
            } catch (...) {
                std::lock_guard<std::mutex> g(lock);
                if (!failure) failure = std::current_exception();
                next = count;
            }
            if (progress) {
                // Counted under the lock, so that the calls see 1, 2, 3, ... in order.
                std::lock_guard<std::mutex> g(lock);
                progress(++done, count);
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads && static_cast<std::size_t>(t) < count; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace isoterra
