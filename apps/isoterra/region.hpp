// Regions of the world given as --from/--to, the chunks that cover them, and progress lines.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "cli.hpp"
#include <glm/vec2.hpp>

#include "isoterra/base.hpp"
#include "isoterra/grid.hpp"

namespace isoterra::app {

/// Returns the LOD-0 chunks that cover the box [from, to); throws UsageError for an empty
/// box or one of more than `limit` chunks unless `force`.
std::vector<ChunkCoord> chunks_covering(const glm::dvec3& from, const glm::dvec3& to, std::size_t limit, bool force);

/// Checks from < to on every axis; throws UsageError naming the flags.
void require_ordered(const glm::dvec3& from, const glm::dvec3& to, int axes);

/// The pixel grid of an image over the rectangle [from, to] (A, B) at `step` metres:
/// checks the corners and the size (at most `limit` a side unless `force`); throws UsageError.
struct ImageGrid {
    glm::dvec2 from, to;
    int width = 0, height = 0;
};
ImageGrid image_grid(const std::string& from, const std::string& to, double step, int limit, bool force);

/// A progress callback that prints "label: done/count" on a terminal unless `quiet`; empty
/// otherwise.
std::function<void(std::size_t, std::size_t)> progress_line(const std::string& label, bool quiet);

/// Runs job(i) for i in [0, count) on `threads` threads; prints "label: n/count" on a
/// terminal unless `quiet`. The first exception thrown by a job is rethrown.
void parallel_for(std::size_t count, int threads, const std::string& label, bool quiet, const std::function<void(std::size_t)>& job);

}  // namespace isoterra::app
