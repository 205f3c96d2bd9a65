#include "region.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

#include <fmt/format.h>

namespace isoterra::app {

void require_ordered(const glm::dvec3& from, const glm::dvec3& to, int axes) {
    static const char* kNames[3] = {"X", "Y", "Z"};
    for (int a = 0; a < axes; ++a)
        if (!(from[a] < to[a]))
            throw UsageError(fmt::format("--from/--to: {} must grow from --from to --to, got {} to {}", kNames[a], from[a], to[a]));
}

std::vector<ChunkCoord> chunks_covering(const glm::dvec3& from, const glm::dvec3& to, std::size_t limit, bool force) {
    require_ordered(from, to, 3);
    glm::dvec3 lo, hi;
    double count = 1.0;
    for (int a = 0; a < 3; ++a) {
        lo[a] = std::floor(from[a] / kChunkSize);
        hi[a] = std::ceil(to[a] / kChunkSize) - 1;
        count *= hi[a] - lo[a] + 1;
    }
    // Chunk indices in range first (coordinates are checked when parsed; this holds for any).
    for (int a = 0; a < 3; ++a)
        if (!(std::fabs(lo[a]) <= kCoordinateLimit_m / kChunkSize && std::fabs(hi[a]) <= kCoordinateLimit_m / kChunkSize))
            throw UsageError("--from/--to: the region reaches past +-1e8 m, where the world ends");
    if (count > static_cast<double>(limit) && !force)
        throw UsageError(fmt::format("--from/--to: the region spans {:.0f} chunks, more than {}; add --force to go ahead", count, limit));
    if (count > 1e8) throw UsageError(fmt::format("--from/--to: the region spans {:.0f} chunks, too many even with --force", count));
    std::vector<ChunkCoord> chunks;
    for (int z = static_cast<int>(lo.z); z <= hi.z; ++z)
        for (int y = static_cast<int>(lo.y); y <= hi.y; ++y)
            for (int x = static_cast<int>(lo.x); x <= hi.x; ++x) chunks.push_back({x, y, z, 0});
    return chunks;
}

ImageGrid image_grid(const std::string& from, const std::string& to, double step, int limit, bool force) {
    ImageGrid g;
    g.from = parse_vec2(from, "--from");
    g.to = parse_vec2(to, "--to");
    require_ordered(glm::dvec3(g.from, 0), glm::dvec3(g.to, 0), 2);
    const double w = std::floor((g.to.x - g.from.x) / step) + 1, h = std::floor((g.to.y - g.from.y) / step) + 1;
    if ((w > limit || h > limit) && !force)
        throw UsageError(fmt::format("--from/--to/--step: the image would be {:.0f}x{:.0f} pixels; add --force", w, h));
    if (w * h > 1e9) throw UsageError(fmt::format("--from/--to/--step: {:.0f}x{:.0f} pixels is too many even with --force", w, h));
    g.width = static_cast<int>(w);
    g.height = static_cast<int>(h);
    return g;
}

int default_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void parallel_for(std::size_t count, int threads, const std::string& label, bool quiet,
                  const std::function<void(std::size_t)>& job) {
    const bool show = !quiet && stderr_is_terminal();
    std::atomic<std::size_t> next{0}, done{0};
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
            const std::size_t d = ++done;
            if (show && (d % 16 == 0 || d == count)) {
                std::lock_guard<std::mutex> g(lock);
                std::fprintf(stderr, "\r%s: %zu/%zu", label.c_str(), d, count);
                if (d == count) std::fprintf(stderr, "\n");
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace isoterra::app
