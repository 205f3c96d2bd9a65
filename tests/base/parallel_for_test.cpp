// parallel_for: every index once on any number of threads, progress counted up to the end,
// the helpers on a pool given, and the first exception rethrown after the others stop.
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "isoterra/base.hpp"

namespace isoterra {
namespace {

TEST(ParallelFor, runs_every_index_once_and_reports_progress_up_to_the_count) {
    for (const int threads : {0, 1, 2, 7}) {
        std::vector<std::atomic<int>> seen(1000);
        std::vector<std::size_t> done;
        parallel_for(
            seen.size(), threads, [&](std::size_t i) { ++seen[i]; },
            [&](std::size_t d, std::size_t count) {
                EXPECT_EQ(count, 1000u);
                done.push_back(d);
            });
        for (const auto& s : seen) ASSERT_EQ(s.load(), 1) << threads << " threads";
        ASSERT_EQ(done.size(), 1000u);
        for (std::size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], i + 1);  // one call at a time, in order
    }
    parallel_for(0, 4, [](std::size_t) { FAIL() << "no job for an empty range"; });
}

// Given a pool, the helpers are its workers: each job waits (up to 10 s) until the caller
// and a helper have both started one, so a helper takes part, on the pool's one thread.
TEST(ParallelFor, on_a_given_pool_the_helpers_are_its_workers) {
    TaskPool pool(1);
    std::thread::id worker;
    {
        TaskGroup probe(pool);
        probe.run(TaskPriority::normal, [&] { worker = std::this_thread::get_id(); });
        probe.wait();
    }
    const std::thread::id caller = std::this_thread::get_id();
    std::mutex lock;
    std::vector<std::thread::id> ran_on(8);
    std::atomic<int> callers{0}, helpers{0};
    parallel_for(pool, ran_on.size(), 2, [&](std::size_t i) {
        {
            std::lock_guard<std::mutex> g(lock);
            ran_on[i] = std::this_thread::get_id();
        }
        ++(ran_on[i] == caller ? callers : helpers);
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while ((callers == 0 || helpers == 0) && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    });
    EXPECT_GT(callers.load(), 0);
    EXPECT_GT(helpers.load(), 0);
    for (const std::thread::id& t : ran_on) EXPECT_TRUE(t == caller || t == worker);
}

TEST(ParallelFor, rethrows_the_first_exception_and_stops_handing_out_jobs) {
    // On one thread the jobs run in order, so exactly 0..10 run.
    // On more, a job after 10 waits until 10 has thrown and then lingers 10 ms, so
    // the stop is visible before the next index is taken: a handful run, never 100,000
    // (without the wait, one thread can finish the range while the throw unwinds).
    for (const int threads : {1, 2, 4}) {
        std::atomic<int> ran{0};
        std::atomic<bool> thrown{false};
        EXPECT_THROW(parallel_for(100000, threads,
                                  [&](std::size_t i) {
                                      ++ran;
                                      if (i == 10) {
                                          thrown = true;
                                          throw std::runtime_error("job 10");
                                      }
                                      if (i > 10) {
                                          while (!thrown) std::this_thread::yield();
                                          std::this_thread::sleep_for(std::chrono::milliseconds(10));
                                      }
                                  }),
                     std::runtime_error)
            << threads << " threads";
        if (threads == 1) EXPECT_EQ(ran.load(), 11);
        else EXPECT_LT(ran.load(), 11 + 4 * threads) << threads << " threads";
    }
}

}  // namespace
}  // namespace isoterra
