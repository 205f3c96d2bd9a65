// What every stage shares: text fit for the one-line messages of errors, SHA-256 digests of
// files and settings (the bake's manifests), the one pool of worker threads and a loop
// shared between them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace isoterra {

/// Returns the start of `text` fit to show inside a one-line message, at most `max_bytes`
/// long: printable ASCII as it is; backslashes, tabs, control bytes and bytes above ASCII
/// escaped ("\\x1b"), so nothing reaches a terminal that it could act on; and
/// "... (N bytes)" after it when the text was cut.
std::string text_excerpt(const std::string& text, std::size_t max_bytes = 60);

/// Returns `text` fit to print as (part of) one line on a terminal, at most about
/// `max_bytes` long: valid UTF-8 as it is, but control characters (C0, DEL, C1), line and
/// paragraph separators, bidirectional controls and bytes that are not UTF-8 escaped ("\n",
/// "\x1b", "\u{202e}"); when longer, its start and its end with "...(N bytes)..." between,
/// so that a long path in a message keeps the reason after it. Every echo of a user's
/// value (paths, environment, names) and every error line goes through it.
std::string printable(std::string_view text, std::size_t max_bytes = 600);

/// SHA-256 (FIPS 180-4) over bytes given in any number of pieces.
class Sha256 {
public:
    Sha256();
    /// Adds `bytes` to the message.
    void update(std::string_view bytes);
    /// Returns the digest as 64 lower-case hex digits; the object is spent after it.
    std::string hex();

private:
    void block(const unsigned char* p);
    std::array<std::uint32_t, 8> h_;
    unsigned char buffer_[64];
    std::size_t buffered_ = 0;
    std::uint64_t length_ = 0;
};

/// Returns the SHA-256 of `bytes` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view bytes);

/// The memory a command may plan for (base/memory_budget.cpp): ISOTERRA_MEMORY_BUDGET when
/// set (bytes with an optional K, M, G or T suffix, powers of 1024: "512M", "8G"), else half
/// of the machine's physical memory. `source` says which, for messages.
struct MemoryBudget {
    double bytes = 0;
    std::string source;
};
/// A plan too large for the memory budget, or a bad ISOTERRA_MEMORY_BUDGET. what() is one line.
class MemoryBudgetError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
/// Returns the budget; throws MemoryBudgetError when ISOTERRA_MEMORY_BUDGET is not a size
/// from 1M to 1024T.
MemoryBudget memory_budget();
/// Throws MemoryBudgetError ("WHAT needs about 3.1 GiB, more than the memory budget of
/// 1.0 GiB (ISOTERRA_MEMORY_BUDGET=1G)") unless `bytes` fits the budget. Checked before
/// allocating by every plan whose size a user chooses: regions, views, bakes, rasters.
void check_memory_budget(double bytes, const std::string& what);
/// Returns `bytes` for people: "512 bytes", "3.2 MiB", "1.5 GiB".
std::string byte_count_text(double bytes);

/// Returns the number of hardware threads (at least 1).
int default_threads();

/// A user's file that cannot be read as asked: missing, not a regular file, too large, or an
/// I/O error while reading (base/file_read.cpp). what() is one line: "PATH: cannot read the
/// WHAT file (Input/output error)" and the like.
class FileReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
/// Throws FileReadError unless `path` is a regular file of at most `max_bytes`, without
/// opening it: for files another library reads. `what` names the file ("preset", "points").
void check_regular_file(const std::string& path, const std::string& what, std::size_t max_bytes);
/// Returns the bytes of the regular file `path`, at most `max_bytes` of them (checked before
/// and while reading). Throws FileReadError; a failed read is an error, never a short file.
/// Thread-safe.
std::string read_regular_file(const std::string& path, const std::string& what, std::size_t max_bytes);
/// A regular file open for reading in pieces (a file of points may be larger than memory
/// would like at once). Not thread-safe; one reader at a time.
class InputFile {
public:
    /// Opens `path` after check_regular_file (a folder, FIFO or device is never opened, so
    /// nothing waits); throws FileReadError.
    InputFile(const std::string& path, const std::string& what, std::size_t max_bytes = ~std::size_t{0});
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    /// Reads up to `n` bytes into `out`; returns how many, 0 only at the end. Throws
    /// FileReadError "PATH: cannot read the WHAT file (reason)" when the read fails.
    std::size_t read(char* out, std::size_t n);

private:
    int fd_ = -1;
    std::string path_, what_;
};

/// How urgent a task is: a pool runs every waiting task of a more urgent priority (a lower
/// value) before any of a less urgent one; tasks of one priority run in the order submitted.
enum class TaskPriority : int { urgent = 0, normal = 1, background = 2 };

/// A fixed number of worker threads running submitted tasks, most urgent first. The World's
/// jobs, the region commands' loops (parallel_for) and the bake's workers all run on pools.
class TaskPool {
public:
    /// Starts `threads` workers (threads < 1: one).
    explicit TaskPool(int threads);
    /// Finishes every task already submitted, queued ones included (so a TaskGroup waiting on
    /// them is never left waiting), then joins the workers. Submitting from a task while the
    /// pool is being destroyed is allowed; those tasks run too.
    ~TaskPool();
    TaskPool(const TaskPool&) = delete;
    TaskPool& operator=(const TaskPool&) = delete;

    /// Queues `task`. A task submitted here must not throw (std::terminate, as on a
    /// std::thread); run it through a TaskGroup to have its exception reach a waiter.
    void submit(TaskPriority priority, std::function<void()> task);
    /// Returns the number of workers.
    int threads() const;

    /// Returns the process's pool, sized by default_threads(), started on first use, for
    /// callers that bring none of their own.
    static TaskPool& shared();

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// Tasks run on a pool and waited for together. The first exception one of them throws is
/// rethrown by wait(); the others' are dropped.
class TaskGroup {
public:
    explicit TaskGroup(TaskPool& pool);
    /// Waits for the group's tasks (an exception still pending is dropped).
    ~TaskGroup();
    TaskGroup(const TaskGroup&) = delete;
    TaskGroup& operator=(const TaskGroup&) = delete;

    /// Submits `task` to the pool as one of the group's.
    void run(TaskPriority priority, std::function<void()> task);
    /// Waits until every task run so far has finished; rethrows the first exception.
    void wait();

private:
    struct State;
    TaskPool& pool_;
    std::unique_ptr<State> state_;
};

/// Runs job(i) for every i in [0, count) on `threads` threads, the caller's among them
/// (threads < 1: one), the others on TaskPool::shared() at normal priority (so fewer when
/// the pool is busy or smaller; helpers that have not started when the caller runs out of
/// indices are not waited for, so a parallel_for inside a task cannot deadlock the pool).
/// After each job, `progress(done, count)` when given, one call at a
/// time. The first exception a job throws stops the handing out of jobs and is rethrown once
/// every thread has stopped.
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& job,
                  const std::function<void(std::size_t, std::size_t)>& progress = {});
/// The same with the helpers on `pool`.
void parallel_for(TaskPool& pool, std::size_t count, int threads, const std::function<void(std::size_t)>& job,
                  const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace isoterra
