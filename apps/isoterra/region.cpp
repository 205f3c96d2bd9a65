#include "region.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/world.hpp"

namespace isoterra::app {

void require_ordered(const glm::dvec3& from, const glm::dvec3& to, int axes) {
    static const char* kNames[3] = {"X", "Y", "Z"};
    for (int a = 0; a < axes; ++a)
        if (!(from[a] < to[a]))
            throw UsageError(fmt::format("--from/--to: {} must grow from --from to --to, got {} to {}", kNames[a], from[a], to[a]));
}

std::vector<ChunkCoord> chunks_covering(const glm::dvec3& from, const glm::dvec3& to, std::size_t limit, bool force) {
    require_ordered(from, to, 3);
    try {
        return isoterra::chunks_covering(from, to, force ? 1e8 : static_cast<double>(limit));
    } catch (const RegionError& e) {
        throw UsageError(fmt::format("--from/--to: {}{}", e.what(), force ? ", too many even with --force" : "; add --force to go ahead"));
    }
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

std::function<void(std::size_t, std::size_t)> progress_line(const std::string& label, bool quiet) {
    if (quiet || !stderr_is_terminal()) return {};
    return [label](std::size_t done, std::size_t all) {
        if (done % 16 == 0 || done == all) std::fprintf(stderr, "\r%s: %zu/%zu%s", label.c_str(), done, all, done == all ? "\n" : "");
    };
}

void parallel_for(std::size_t count, int threads, const std::string& label, bool quiet, const std::function<void(std::size_t)>& job) {
    isoterra::parallel_for(count, threads, job, progress_line(label, quiet));
}

}  // namespace isoterra::app
