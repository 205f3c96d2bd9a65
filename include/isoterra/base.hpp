// What every stage shares: text fit for the one-line messages of errors, SHA-256 digests of
// files and settings (the bake's manifests), and a loop shared between threads.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
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

/// Runs job(i) for every i in [0, count) on `threads` threads, the caller's among them
/// (threads < 1: one). After each job, `progress(done, count)` when given, one call at a
/// time. The first exception a job throws stops the handing out of jobs and is rethrown once
/// every thread has stopped.
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& job,
                  const std::function<void(std::size_t, std::size_t)>& progress = {});

}  // namespace isoterra
