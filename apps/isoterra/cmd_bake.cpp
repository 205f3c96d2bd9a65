// `isoterra bake`: a region baked into an OGC 3D Tiles 1.1 tileset (every level of detail,
// edits included), split into jobs that shards (--shard) or MPI ranks share, resumable, and
// checked against its manifests with --verify (docs/guides/baking.md).
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include <fmt/format.h>

#include "bake_ranks.hpp"
#include "edit_session.hpp"
#include "isoterra/bake.hpp"
#include "isoterra/base.hpp"
#include "region.hpp"

namespace isoterra::app {
namespace {

struct BakeOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string from, to, out, shard = "0/1", mesher_name = meshers().front().name;
    int levels = 5, job_levels = 3, threads = 0;
    bool heightmaps = false, resume = false, verify = false, force = false, quiet = false, compress = false;
};

constexpr std::size_t kTileLimit = 200000;

// The root columns covering [from, to] (x, z), checked.
void region_of(const BakeOptions& opt, BakeSettings& s) {
    const glm::dvec2 from = parse_vec2(opt.from, "--from"), to = parse_vec2(opt.to, "--to");
    for (int a = 0; a < 2; ++a) {
        if (!(from[a] < to[a]))
            throw UsageError(fmt::format("--from/--to: {} must grow from --from to --to, got {} to {} (an empty region)",
                                         a == 0 ? "X" : "Z", from[a], to[a]));
        if (std::fabs(from[a]) > kCoordinateLimit_m || std::fabs(to[a]) > kCoordinateLimit_m)
            throw UsageError("--from/--to: the region reaches past +-1e8 m, where the world ends");
    }
    const double size = LodColumn{s.levels - 1, 0, 0}.size_m();
    const double columns = (std::ceil(to.x / size) - std::floor(from.x / size)) * (std::ceil(to.y / size) - std::floor(from.y / size));
    const double tiles = columns * ((std::ldexp(1.0, 2 * s.levels) - 1.0) / 3.0);
    if (tiles > static_cast<double>(kTileLimit) && !opt.force)
        throw UsageError(fmt::format("--from/--to: the region holds {:.0f} tiles over {} levels, more than {}; add --force to go ahead",
                                     tiles, s.levels, kTileLimit));
    if (columns > 1e6) throw UsageError(fmt::format("--from/--to: {:.0f} root columns is too many even with --force", columns));
    s.x0 = static_cast<int>(std::floor(from.x / size));
    s.x1 = static_cast<int>(std::ceil(to.x / size)) - 1;
    s.z0 = static_cast<int>(std::floor(from.y / size));
    s.z1 = static_cast<int>(std::ceil(to.y / size)) - 1;
}

void parse_shard(const std::string& text, std::size_t& shard, std::size_t& shards) {
    unsigned long i = 0, n = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%lu/%lu%c", &i, &n, &tail) != 2 || n == 0 || i >= n || n > 1000000)
        throw UsageError(fmt::format("--shard: '{}' must be I/N with 0 <= I < N (for example 0/4)", text_excerpt(text)));
    shard = i, shards = n;
}

// --out: a folder that can be written, made when only its last part is missing.
void prepare_folder(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir, ec)) {
        if (!fs::is_directory(dir, ec)) throw UsageError(fmt::format("--out {}: not a folder", dir));
    } else {
        const fs::path parent = fs::path(dir).lexically_normal().parent_path();
        if (!parent.empty() && !fs::is_directory(parent, ec))
            throw UsageError(fmt::format("--out {}: the folder above it, {}, does not exist", dir, parent.string()));
        if (!fs::create_directory(dir, ec) && !fs::is_directory(dir))
            throw UsageError(fmt::format("--out {}: cannot make the folder ({})", dir, ec.message()));
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) throw UsageError(fmt::format("--out {}: the folder cannot be written (read-only)", dir));
}

std::string duration(double s) {
    if (!std::isfinite(s) || s < 0) return "?";
    const long t = std::lround(s);
    return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}

void verify(const BakeOptions& opt) {
    BakeCheck check;
    try {
        check = verify_bake(opt.out);
    } catch (const BakeError& e) {
        throw UsageError(e.what());
    }
    for (const auto& p : check.problems) std::fprintf(stderr, "verify: %s\n", printable(p).c_str());
    std::printf("%zu jobs, %zu files checked: %s\n", check.jobs, check.files,
                check.problems.empty() ? "every file matches its manifest" : fmt::format("{} problems", check.problems.size()).c_str());
    // The digest is the last line, also when something is wrong (then the exit code is 1).
    std::printf("%s\n", check.digest.c_str());
    std::fflush(stdout);
    std::fflush(stderr);
    if (!check.problems.empty()) std::exit(1);
}

// A bake's own errors as the program reports them: a BakeError is the user's (a usage
// error), an IoError a write that failed; anything else as it is.
[[noreturn]] void rethrow_for_user(const std::exception_ptr& failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const IoError& e) {
        throw_write_error(e);
    } catch (const BakeError& e) {
        throw UsageError(e.what());
    }
}

// This process's jobs on its worker threads: the totals under one lock, the first failure
// kept (it stops them all), a progress line on a terminal.
class BakeWorkers {
public:
    BakeWorkers(const BakeOptions& opt, const BakePlan& plan, const Field& field, const ChunkDeltas* edits, BakeRanks& ranks,
                std::size_t shard, std::size_t shards)
        : opt_(opt), plan_(plan), field_(field), edits_(edits), ranks_(ranks),
          show_(!opt.quiet && stderr_is_terminal() && ranks.rank() == 0) {
        const auto levels = static_cast<std::size_t>(plan.settings().levels);
        total.tiles_per_level.assign(levels, 0);
        total.triangles_per_level.assign(levels, 0);
        // This process's share (all of it under MPI, where the ranks split it as they go).
        for (std::size_t i = shard; i < plan.jobs().size(); i += shards) {
            ++mine_;
            mine_tiles_ += plan.jobs()[i].tiles().size();
        }
    }

    // Bakes on `threads` tasks of a pool of that size (its own, so that --threads is how many
    // tiles are baked at once) while this thread serves the ranks; rethrows the first failure.
    void run(int threads) {
        start = std::chrono::steady_clock::now();
        TaskPool pool(threads);
        TaskGroup group(pool);
        for (int t = 0; t < threads; ++t) group.run(TaskPriority::normal, [this] { work(); });
        ranks_.serve();
        group.wait();  // work() keeps its failures in failure_
        if (show_) std::fprintf(stderr, "\n");
        if (failure_) rethrow_for_user(failure_);
    }

    // What run() did, read once it returns.
    std::chrono::steady_clock::time_point start;
    std::size_t jobs = 0, skipped = 0;
    BakeJobReport total;

private:
    // One thread: jobs taken until none is left or another thread failed.
    void work() {
        std::size_t i = 0;
        while (!stop_ && ranks_.next(i)) {
            try {
                if (opt_.resume && bake_job_done(plan_, i, opt_.out)) {
                    std::lock_guard<std::mutex> g(mu_);
                    ++skipped;
                    skipped_tiles_ += plan_.jobs()[i].tiles().size();
                    continue;
                }
                const BakeJobReport r = run_bake_job(plan_, field_, edits_, i, opt_.out);
                std::lock_guard<std::mutex> g(mu_);
                add(r);
                if (show_) show_progress();
            } catch (...) {
                std::lock_guard<std::mutex> g(mu_);
                if (!failure_) failure_ = std::current_exception();
                stop_ = true;
            }
        }
    }

    // Under mu_.
    void add(const BakeJobReport& r) {
        ++jobs;
        total.tiles += r.tiles, total.tiles_with_content += r.tiles_with_content, total.triangles += r.triangles;
        total.bytes += r.bytes;
        for (std::size_t l = 0; l < r.triangles_per_level.size(); ++l) {
            total.tiles_per_level[l] += r.tiles_per_level[l];
            total.triangles_per_level[l] += r.triangles_per_level[l];
        }
    }

    // Under mu_.
    void show_progress() const {
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double rate = total.tiles / std::max(t, 1e-9);
        const double left = ranks_.size() == 1 ? (mine_tiles_ - total.tiles - skipped_tiles_) / rate : NAN;
        std::fprintf(stderr, "\rbake: %zu/%zu jobs, %zu tiles, %.1f tiles/s, %s left   ", jobs + skipped, mine_, total.tiles, rate,
                     duration(left).c_str());
    }

    const BakeOptions& opt_;
    const BakePlan& plan_;
    const Field& field_;
    const ChunkDeltas* edits_;
    BakeRanks& ranks_;
    const bool show_;
    std::size_t mine_ = 0, mine_tiles_ = 0, skipped_tiles_ = 0;
    std::mutex mu_;
    std::exception_ptr failure_;
    std::atomic<bool> stop_{false};
};

// The summary on stderr: jobs, tiles, triangles, bytes and speed, then the tiles a level.
void report_bake(const BakeWorkers& w, const BakeRanks& ranks, int levels, int threads) {
    const BakeJobReport& total = w.total;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.start).count();
    std::fprintf(stderr,
                 "bake%s: %zu jobs baked, %zu skipped (done before); %zu tiles (%zu with content), %zu triangles, "
                 "%.1f MB in %.1f s: %.1f tiles/s with %d threads\n",
                 ranks.size() > 1 ? fmt::format(" rank {}/{}", ranks.rank(), ranks.size()).c_str() : "", w.jobs, w.skipped, total.tiles,
                 total.tiles_with_content, total.triangles, total.bytes / 1e6, seconds, total.tiles / std::max(seconds, 1e-9), threads);
    if (total.tiles == 0) return;
    std::string line;
    for (int l = levels - 1; l >= 0; --l) {
        const std::size_t n = total.tiles_per_level[static_cast<std::size_t>(l)];
        if (n > 0)
            line += fmt::format("{}level {}: {} tiles, {:.0f} triangles a tile", line.empty() ? "" : "; ", l, n,
                                static_cast<double>(total.triangles_per_level[static_cast<std::size_t>(l)]) / n);
    }
    std::fprintf(stderr, "bake: %s\n", line.c_str());
}

// Rank 0's last step: the digest when every job is complete, else how many are.
void finish(const BakePlan& plan, const std::string& out) {
    std::string digest;
    try {
        digest = finish_bake(plan, out);
    } catch (...) {
        rethrow_for_user(std::current_exception());
    }
    if (digest.empty()) {
        std::size_t done = 0;
        for (std::size_t i = 0; i < plan.jobs().size(); ++i) done += bake_job_done(plan, i, out);
        std::printf("%zu of %zu jobs complete in %s; the digest is written when every job is (other shards, or --resume)\n", done,
                    plan.jobs().size(), out.c_str());
    } else {
        std::printf("%s: %zu jobs, %zu tiles complete; digest:\n%s\n", out.c_str(), plan.jobs().size(), plan.tile_count(), digest.c_str());
    }
}

// This process's part of the bake: the folder started, its jobs, its summary, and on rank 0
// the end.
void bake_share(const BakeOptions& opt, const BakePlan& plan, const Field& field, const ChunkDeltas* edits, BakeRanks& ranks,
                std::size_t shard, std::size_t shards) {
    try {
        start_bake(plan, field, edits, opt.out);
    } catch (...) {
        rethrow_for_user(std::current_exception());
    }
    const int threads = opt.threads > 0 ? opt.threads : default_threads();
    BakeWorkers workers(opt, plan, field, edits, ranks, shard, shards);
    workers.run(threads);
    if (!opt.quiet) report_bake(workers, ranks, plan.settings().levels, threads);
    ranks.finish();
    if (ranks.rank() == 0) finish(plan, opt.out);
}

void bake(const BakeOptions& opt) {
    if (opt.from.empty() || opt.to.empty()) throw UsageError("bake: give the region (--from X,Z --to X,Z), or --verify");
    std::size_t shard = 0, shards = 1;
    parse_shard(opt.shard, shard, shards);
    BakeSettings s;
    s.levels = opt.levels;
    s.job_levels = opt.job_levels;
    s.mesher = mesher_flag(opt.mesher_name);
    s.heightmaps = opt.heightmaps;
    s.compress = opt.compress;
    region_of(opt, s);
    const EditSession session(opt.field, opt.world.path, false);
    const auto field = session.field();
    const auto deltas = session.deltas();
    s.terrain_name = session.terrain().name;
    s.seed = session.terrain().seed;
    s.terrain_sha256 = sha256_hex(session.terrain().to_text());
    s.world_sha256 = world_edits_sha256(*deltas);
    if (s.heightmaps && !field->has_ground())
        throw UsageError("--heightmaps: this field graph has no ground output ([output] ground = \"ID\")");
    const BakePlan plan(s);
    prepare_folder(opt.out);

    BakeRanks ranks(plan.jobs().size(), shard, shards);
    try {
        bake_share(opt, plan, *field, deltas->empty() ? nullptr : deltas.get(), ranks, shard, shards);
    } catch (const UsageError& e) {
        if (ranks.size() == 1) throw;
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        ranks.abort(2);
    } catch (const std::exception& e) {
        if (ranks.size() == 1) throw;
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        ranks.abort(1);
    }
}

}  // namespace

void register_bake(CLI::App& app) {
    static BakeOptions opt;
    auto* cmd = app.add_subcommand("bake",
                                   "Bake a region into an OGC 3D Tiles 1.1 tileset (every level, edits included); "
                                   "--shard or mpirun share the jobs; --verify checks a bake (docs/guides/baking.md)");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd, false, false);
    cmd->add_option("--from", opt.from, "Region corner X,Z (metres; widened to whole root tiles)");
    cmd->add_option("--to", opt.to, "Opposite corner X,Z");
    cmd->add_option("--levels", opt.levels, "Levels of detail (default 5: root tiles of 512 m, leaves of 32 m at 1 m)")
        ->transform(decimal_integer(1, 12));
    cmd->add_option("--job-levels", opt.job_levels, "Levels of tiles one job bakes (default 3)")->transform(decimal_integer(1, 6));
    cmd->add_option("--mesher", opt.mesher_name, mesher_names(" | "));
    cmd->add_flag("--heightmaps", opt.heightmaps, "Also write 16-bit PNG height tiles (height/, shared edges)");
    cmd->add_flag("--compress", opt.compress,
                  "Tiles quantized and meshopt-compressed (KHR_mesh_quantization, EXT_meshopt_compression; "
                  "CesiumJS, three.js with its meshopt decoder)");
    cmd->add_option("--out", opt.out, "The bake's folder (made if missing; its parent must exist)")->required();
    cmd->add_option("--shard", opt.shard, "I/N: bake every N-th job from the I-th (N processes or machines, one folder)");
    cmd->add_flag("--resume", opt.resume, "Skip the jobs already complete in --out");
    cmd->add_flag("--verify", opt.verify, "Check every job's files in --out against its manifest; print the digest last");
    cmd->add_option("--threads", opt.threads, "Worker threads per process (default: all cores)")->transform(decimal_integer(0, 256));
    cmd->add_flag("--force", opt.force, "Allow regions of more than 200000 tiles");
    cmd->add_flag("--quiet", opt.quiet, "No progress or summary line");
    cmd->callback([] {
        if (opt.verify) verify(opt);
        else bake(opt);
    });
}

ISOTERRA_SUBCOMMAND(90, register_bake);

}  // namespace isoterra::app
