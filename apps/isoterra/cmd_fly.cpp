// `isoterra fly`: a headless camera flight through the streamed world in real time, 60
// frames a second, as a renderer would drive the World: set the focus, take finished meshes
// for at most 4 ms, wait for the next frame. The camera holds still at the start until the
// first view is filled, every level of detail to the view distance, then flies.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <sys/resource.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cpu_lanes.hpp"
#include "edit_session.hpp"
#include "flight_path.hpp"

namespace isoterra::app {
namespace {

struct FlyOptions {
    FieldOptions field;
    WorldOptions world;
    WorldFileOption world_file;
    double speed = 20.0, seconds = 10.0, budget_ms = 4.0;
    std::string path = "line", clock = "wall";
    bool json = false, quiet = false;
    int threads_used = 0;  // the workers (lanes) the flight has
};

double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0;  // kilobytes on Linux
}

using Clock = std::chrono::steady_clock;

// How far ahead a flight over the land looks for a rise: the camera climbs before it.
constexpr double kLookAhead_s = 1.0;

// The flight's clock: the wall's, with the World's own workers; or (--clock cpu) the CPU
// time of the workers played on this thread (CpuLanes), 60 frames to each second of it.
struct FlightClock {
    std::unique_ptr<CpuLanes> lanes;  // null: the wall's
    Clock::time_point t0 = Clock::now();
    double now(std::size_t frame) const {
        return lanes ? static_cast<double>(frame) / 60.0 : std::chrono::duration<double>(Clock::now() - t0).count();
    }
    double owner_cpu_s = thread_cpu_s();  // this thread's CPU time when its last frame's jobs ended
    /// Lets the frame's time pass: the workers' jobs up to the next frame (the frame's own
    /// work charged to them: the cores are shared), or a sleep.
    void pass_frame(Session& session, std::size_t frame) {
        if (lanes) {
            lanes->charge(thread_cpu_s() - owner_cpu_s, now(frame));
            lanes->run_until(*session.world(), *session.field(), session.deltas().get(), static_cast<double>(frame + 1) / 60.0);
            owner_cpu_s = thread_cpu_s();
            return;
        }
        std::this_thread::sleep_until(t0 + std::chrono::microseconds(static_cast<long long>((frame + 1) * 1e6 / 60.0)));
    }
};

// What a flight measured.
struct FlightLog {
    double first_picture_s = -1.0, first_view_s = -1.0;  // on the flight's clock
    double flight_start = 0.0;                           // seconds from the start until the first view was filled and the camera set off
    double total = 0.0;                                  // seconds from the start to the end of the flight
    std::size_t max_waiting = 0, max_loaded = 0, triangles = 0, frames = 0, max_shown = 0;
    std::size_t frames_outside_finest = 0, first_picture_chunks = 0, flight_frames = 0;
    double lowest_above_m = NAN, highest_above_m = NAN;  // the camera over the ground or the sea, 10 times a second in flight
    nlohmann::json loaded_over_time = nlohmann::json::array();
};

// The floor under x, z: the ground or the sea, whichever is higher; NaN where the field has no ground.
double floor_at(const Field& field, double x, double z) {
    const double g = field.ground_height(x, z);
    return std::isfinite(g) ? std::max(g, field.sea_level_m()) : g;
}

void note_height_above_floor(const Field& field, const glm::dvec3& focus, FlightLog& log) {
    const double above = focus.y - floor_at(field, focus.x, focus.z);
    if (!std::isfinite(above)) return;
    log.lowest_above_m = std::isnan(log.lowest_above_m) ? above : std::min(log.lowest_above_m, above);
    log.highest_above_m = std::isnan(log.highest_above_m) ? above : std::max(log.highest_above_m, above);
}

// The flight, a frame every 1/60 s: still at `start` until the first view is filled, then
// along the path for opt.seconds; a progress line each second on a terminal.
FlightLog fly(const FlyOptions& opt, Session& session, const Path& path, const glm::dvec3& start, FlightClock& clock) {
    World& world = *session.world();
    const ShownChunks& shown = session.shown();
    const bool show = !opt.quiet && stderr_is_terminal();
    FlightLog log;
    double last_report = -1.0;
    for (;; ++log.frames) {
        const double now = clock.now(log.frames);
        const bool viewing = log.first_view_s >= 0.0;
        // A nanosecond's slack: on the CPU clock (k + 60) / 60 - k / 60 can fall an ulp short of 1.
        if (viewing && now - log.flight_start >= opt.seconds - 1e-9) break;
        if (!viewing && now > 600.0) throw Failure("the first view did not fill within 600 s");
        const glm::dvec3 focus = !viewing ? start : path.at((now - log.flight_start) * opt.speed);
        world.set_focus(focus, now);
        const bool had_picture = session.times().first_picture_s >= 0.0;
        session.deliver(opt.budget_ms, [&](const ChunkUpdate& u) {
            if (u.mesh) log.triangles += u.mesh->triangle_count();
        });
        const WorldCounts c = world.counts();
        log.max_waiting = std::max(log.max_waiting, c.waiting);
        log.max_loaded = std::max(log.max_loaded, c.loaded);
        log.max_shown = std::max(log.max_shown, shown.triangles_drawn());
        if (!had_picture && session.times().first_picture_s >= 0.0) {
            log.first_picture_chunks = c.built + c.skipped;
            log.first_picture_s = clock.lanes ? now : session.times().first_picture_s;
        }
        if (!viewing && session.times().first_view_s >= 0.0) {
            log.first_view_s = clock.lanes ? now : session.times().first_view_s;
            log.flight_start = clock.now(log.frames);
        }
        // The finest ring follows the camera: the column under it is drawn at level 0.
        if (viewing) {
            const LodColumn under{0, static_cast<int>(std::floor(focus.x / kChunkSize)),
                                  static_cast<int>(std::floor(focus.z / kChunkSize))};
            log.frames_outside_finest += !shown.visible_columns().count(under);
            ++log.flight_frames;
            if (log.frames % 6 == 0) note_height_above_floor(*session.field(), focus, log);
        }
        if (std::floor(now) > last_report) {
            last_report = std::floor(now);
            log.loaded_over_time.push_back({{"t_s", last_report}, {"loaded", c.loaded}, {"waiting", c.waiting}});
            if (show)
                std::fprintf(stderr,
                             "\rfly: %5.1f s  loaded %5zu  waiting %5zu  built %6zu  shown %5.2f M triangles  at (%.0f, %.0f, %.0f)   ",
                             now, c.loaded, c.waiting, c.built, shown.triangles_drawn() / 1e6, focus.x, focus.y, focus.z);
        }
        clock.pass_frame(session, log.frames);
    }
    if (show) std::fprintf(stderr, "\n");
    log.total = clock.now(log.frames);
    return log;
}

// The flight's figures: one JSON object with --json, else four lines.
void report_flight(const FlyOptions& opt, const WorldSettings& settings, const Session& session, const FlightLog& log,
                   const FlightClock& clock) {
    const World& world = *session.world();
    const ShownChunks& shown = session.shown();
    const WorldCounts c = world.counts();
    nlohmann::ordered_json out;
    out["preset"] = session.terrain().name;
    out["radius"] = opt.world.radius;
    out["triangle_budget"] = settings.triangle_budget;
    out["ring"] = c.ring;  // the chunks per ring in use: below the radius where the budget narrowed it
    out["view_distance_m"] = settings.view_distance_m;
    out["lod_levels"] = world.settings().levels;  // those the view wants (coarse first stands in one above)
    out["threads"] = opt.threads_used;
    out["clock"] = opt.clock;
    // With --clock cpu: the CPU seconds of the jobs, and of the frames' own work charged to the lanes.
    out["jobs_cpu_s"] = clock.lanes ? nlohmann::ordered_json(clock.lanes->busy_s()) : nlohmann::ordered_json();
    out["frames_cpu_s"] = clock.lanes ? nlohmann::ordered_json(clock.lanes->owner_s()) : nlohmann::ordered_json();
    out["mesher"] = mesher_name(settings.mesher);
    out["path"] = opt.path;
    out["speed_m_s"] = opt.speed;
    out["coarse_first"] = settings.coarse_first;
    out["first_picture_s"] = log.first_picture_s;
    out["first_picture_chunks"] = log.first_picture_chunks;
    out["first_view_s"] = log.first_view_s;
    out["flight_s"] = log.total - log.flight_start;
    out["frames"] = log.frames;
    out["flight_frames"] = log.flight_frames;  // those after the first view: what frames_outside_finest_ring counts among
    out["chunks_built"] = c.built;
    out["chunks_skipped"] = c.skipped;
    out["chunks_per_s"] = c.built / log.total;
    out["chunks_per_lod"] = shown.visible_per_level();
    out["triangles_per_lod"] = shown.triangles_per_level();
    out["triangles_delivered"] = log.triangles;
    out["max_triangles_shown"] = log.max_shown;
    out["final_triangles_shown"] = shown.triangles_drawn();
    out["max_waiting"] = log.max_waiting;
    out["max_loaded"] = log.max_loaded;
    out["final_loaded"] = c.loaded;
    out["frames_outside_finest_ring"] = log.frames_outside_finest;
    // The camera over the ground or the sea in flight (null: no ground height, or no flight).
    const auto metres = [](double m) { return std::isnan(m) ? nlohmann::ordered_json() : nlohmann::ordered_json(m); };
    out["camera_above_ground_m"]["lowest"] = metres(log.lowest_above_m);
    out["camera_above_ground_m"]["highest"] = metres(log.highest_above_m);
    out["budget_waits"] = c.held_for_budget;  // deliveries whose swaps waited for the triangle budget
    out["peak_rss_mb"] = peak_rss_mb();
    out["loaded_over_time"] = log.loaded_over_time;
    if (opt.json) {
        fmt::print("{}\n", out.dump(2));
        return;
    }
    fmt::print("whole view shown at some level in {:.2f} s\n", log.first_picture_s);
    fmt::print("first view filled in {:.2f} s ({} threads, radius {}, {} levels to {:.0f} m)\n", log.first_view_s, opt.threads_used,
               opt.world.radius, world.settings().levels, settings.view_distance_m);
    fmt::print("flew {:.1f} s at {} m/s: {} chunks built ({:.1f} per s), {} skipped by bounds\n", log.total - log.flight_start, opt.speed,
               c.built, c.built / log.total, c.skipped);
    fmt::print("most waiting {}, most loaded {}, loaded at the end {}, most triangles shown {}, peak memory {:.0f} MB\n", log.max_waiting,
               log.max_loaded, c.loaded, log.max_shown, peak_rss_mb());
}

void run_fly(FlyOptions& opt) {
    WorldSettings settings = opt.world.settings();
    // (The World's own default: one less than the cores, at least one.)
    opt.threads_used = settings.threads > 0 ? settings.threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    FlightClock clock;
    if (opt.clock == "cpu") {
        clock.lanes = std::make_unique<CpuLanes>(opt.threads_used);
        settings.threads = -1;  // the owner's workers: the lanes
    }
    EditSession edits(opt.field, opt.world_file.path);
    Session& session = edits.session();
    const glm::dvec3 start = starting_view(*session.field()).eye;
    Path path = make_path(opt.path, start);
    if (opt.path == "line" || path.radius > 0.0) {  // over the land, as flown (a file: as written)
        const std::shared_ptr<const Field> field = session.field();
        path.follow_floor([field](double x, double z) { return floor_at(*field, x, z); }, opt.speed * kLookAhead_s);
    }
    session.start(settings);
    clock.t0 = Clock::now();
    clock.owner_cpu_s = thread_cpu_s();
    const FlightLog log = fly(opt, session, path, start, clock);
    report_flight(opt, settings, session, log, clock);
}

}  // namespace

void register_fly(CLI::App& app) {
    static FlyOptions opt;
    auto* cmd = app.add_subcommand("fly", "Fly a headless camera through the streamed world in real time and report");
    opt.field.add_to(*cmd);
    opt.world_file.add_to(*cmd);
    opt.world.add_to(*cmd, 64, true);
    cmd->add_option("--speed", opt.speed, "Metres per second")->check(finite_range(0.0, 10000.0));
    cmd->add_option("--seconds", opt.seconds, "Seconds of flight after the first view is filled")->check(finite_range(0.0, 3600.0));
    cmd->add_option("--path", opt.path,
                    "line (north) or circle:R, each at the start's height over the ground or the sea, climbing a second "
                    "before a rise; or a file of 'x y z' waypoints, flown as written");
    cmd->add_option("--budget-ms", opt.budget_ms, "Milliseconds per frame for taking finished meshes")->check(finite_range(0.1, 1000.0));
    cmd->add_option("--clock", opt.clock,
                    "wall (real time), or cpu: the workers played on one thread, a frame every 1/60 s of their CPU time "
                    "(a flight that a loaded machine does not starve; --threads lanes)")
        ->check(CLI::IsMember({"wall", "cpu"}));
    cmd->add_flag("--json", opt.json, "Print one JSON object");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    cmd->callback([] { run_fly(opt); });
}

ISOTERRA_SUBCOMMAND(110, register_fly);

}  // namespace isoterra::app
