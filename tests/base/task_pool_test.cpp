// TaskPool and TaskGroup: urgent tasks first and FIFO within a priority, a group's first
// exception at its waiter, queued tasks finished when the pool goes, and parallel_for on the
// shared pool (its progress in order, nested loops that cannot starve it).
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "isoterra/base.hpp"

namespace isoterra {
namespace {

TEST(TaskPool, runs_urgent_tasks_first_and_each_priority_in_order_on_one_thread) {
    TaskPool pool(1);
    TaskGroup group(pool);
    std::mutex mu;
    std::vector<int> order;
    std::mutex gate;
    std::unique_lock<std::mutex> hold(gate);
    // The one worker is held inside the first task while the others queue up.
    group.run(TaskPriority::normal, [&] { std::lock_guard<std::mutex> g(gate); });
    const auto add = [&](TaskPriority p, int id) {
        group.run(p, [&, id] {
            std::lock_guard<std::mutex> g(mu);
            order.push_back(id);
        });
    };
    add(TaskPriority::background, 30);
    add(TaskPriority::normal, 20);
    add(TaskPriority::urgent, 10);
    add(TaskPriority::background, 31);
    add(TaskPriority::urgent, 11);
    add(TaskPriority::normal, 21);
    hold.unlock();
    group.wait();
    EXPECT_EQ(order, (std::vector<int>{10, 11, 20, 21, 30, 31}));
}

TEST(TaskPool, hands_the_first_exception_of_a_group_to_its_waiter) {
    TaskPool pool(3);
    TaskGroup group(pool);
    std::atomic<int> ran{0};
    for (int i = 0; i < 20; ++i) {
        group.run(TaskPriority::normal, [&, i] {
            ++ran;
            if (i % 5 == 4) throw std::runtime_error("task failed");
        });
    }
    EXPECT_THROW(group.wait(), std::runtime_error);
    EXPECT_EQ(ran.load(), 20);
    group.wait();  // the exception was handed over once
    group.run(TaskPriority::urgent, [&] { ++ran; });
    group.wait();
    EXPECT_EQ(ran.load(), 21);
}

TEST(TaskPool, finishes_queued_tasks_when_destroyed) {
    std::atomic<int> ran{0};
    {
        TaskPool pool(2);
        for (int i = 0; i < 200; ++i) pool.submit(i % 2 ? TaskPriority::background : TaskPriority::urgent, [&] { ++ran; });
    }
    EXPECT_EQ(ran.load(), 200);
}

TEST(TaskPool, the_shared_pool_has_the_hardware_threads) {
    EXPECT_EQ(TaskPool::shared().threads(), default_threads());
    EXPECT_EQ(TaskPool(0).threads(), 1);
}

TEST(TaskPool, parallel_for_counts_progress_in_order_on_the_shared_pool) {
    for (const int threads : {1, 2, 16}) {
        std::vector<std::size_t> done;
        std::atomic<std::size_t> sum{0};
        parallel_for(
            500, threads, [&](std::size_t i) { sum += i; },
            [&](std::size_t d, std::size_t count) {
                EXPECT_EQ(count, 500u);
                done.push_back(d);
            });
        EXPECT_EQ(sum.load(), 500u * 499u / 2u);
        ASSERT_EQ(done.size(), 500u);
        for (std::size_t k = 0; k < done.size(); ++k) EXPECT_EQ(done[k], k + 1);
    }
}

TEST(TaskPool, parallel_for_inside_the_shared_pools_tasks_does_not_deadlock) {
    // Every worker of the shared pool runs a loop whose helpers queue behind them: the
    // callers do the work themselves and do not wait for helpers that never started.
    std::atomic<std::size_t> sum{0};
    TaskGroup group(TaskPool::shared());
    for (int t = 0; t < TaskPool::shared().threads() + 2; ++t)
        group.run(TaskPriority::normal, [&] { parallel_for(100, 4, [&](std::size_t i) { sum += i; }); });
    group.wait();
    EXPECT_EQ(sum.load(), (TaskPool::shared().threads() + 2) * (100u * 99u / 2u));
}

}  // namespace
}  // namespace isoterra
