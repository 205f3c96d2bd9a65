// parallel_for: every index once on any number of threads, progress counted up to the end,
// and the first exception rethrown after the others stop.
#include <atomic>
#include <chrono>
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
