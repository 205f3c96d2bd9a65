// The pool of worker threads: one queue per priority, FIFO within it; and groups of tasks
// waited for together with their first exception.
#include <algorithm>
#include <array>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "isoterra/base.hpp"

namespace isoterra {

namespace {
constexpr std::size_t kTaskPriorities = 3;
}

struct TaskPool::State {
    std::mutex mu;
    std::condition_variable wake;
    std::array<std::deque<std::function<void()>>, kTaskPriorities> queues;  // by TaskPriority
    bool stopping = false;
    std::vector<std::thread> workers;

    // Takes the most urgent task, or returns false once stopping with nothing left.
    bool take(std::function<void()>& task) {
        std::unique_lock<std::mutex> lock(mu);
        for (;;) {
            for (auto& q : queues) {
                if (q.empty()) continue;
                task = std::move(q.front());
                q.pop_front();
                return true;
            }
            if (stopping) return false;
            wake.wait(lock);
        }
    }

    void work() {
        std::function<void()> task;
        while (take(task)) {
            task();
            task = nullptr;  // what it holds goes now, not when the next task comes
        }
    }
};

TaskPool::TaskPool(int threads) : state_(std::make_unique<State>()) {
    const int n = std::max(1, threads);
    state_->workers.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) state_->workers.emplace_back([s = state_.get()] { s->work(); });
}

TaskPool::~TaskPool() {
    {
        std::lock_guard<std::mutex> lock(state_->mu);
        state_->stopping = true;
    }
    state_->wake.notify_all();
    for (auto& w : state_->workers) w.join();
}

void TaskPool::submit(TaskPriority priority, std::function<void()> task) {
    {
        std::lock_guard<std::mutex> lock(state_->mu);
        state_->queues.at(static_cast<std::size_t>(priority)).push_back(std::move(task));
    }
    state_->wake.notify_one();
}

int TaskPool::threads() const { return static_cast<int>(state_->workers.size()); }

TaskPool& TaskPool::shared() {
    static TaskPool pool(default_threads());
    return pool;
}

struct TaskGroup::State {
    std::mutex mu;
    std::condition_variable done;
    std::size_t running = 0;
    std::exception_ptr failure;
};

TaskGroup::TaskGroup(TaskPool& pool) : pool_(pool), state_(std::make_unique<State>()) {}

TaskGroup::~TaskGroup() {
    std::unique_lock<std::mutex> lock(state_->mu);
    state_->done.wait(lock, [&] { return state_->running == 0; });
}

void TaskGroup::run(TaskPriority priority, std::function<void()> task) {
    {
        std::lock_guard<std::mutex> lock(state_->mu);
        ++state_->running;
    }
    pool_.submit(priority, [s = state_.get(), task = std::move(task)] {
        std::exception_ptr failure;
        try {
            task();
        } catch (...) {
            failure = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(s->mu);
        if (failure && !s->failure) s->failure = failure;
        if (--s->running == 0) s->done.notify_all();
    });
}

void TaskGroup::wait() {
    std::exception_ptr failure;
    {
        std::unique_lock<std::mutex> lock(state_->mu);
        state_->done.wait(lock, [&] { return state_->running == 0; });
        std::swap(failure, state_->failure);
    }
    if (failure) std::rethrow_exception(failure);
}

}  // namespace isoterra
