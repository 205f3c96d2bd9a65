// `isoterra bench`: the pipeline's figures on this machine, single thread, as medians of
// repeated runs so that a noisy neighbour moves them little. Any terrain: a classic preset or
// a field graph, with a ground output or without.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <thread>
#include <time.h>
#include <unistd.h>

#include "cli.hpp"
#include "cpu_lanes.hpp"
#include "isoterra/mesh.hpp"
#include "isoterra/store.hpp"
#include "isoterra/world.hpp"

namespace isoterra::app {
namespace {

struct BenchOptions {
    bool json = false;
    int repeats = 7;
};

using Clock = std::chrono::steady_clock;

// The median wall time and the median CPU time of this thread, per op, of repeated runs.
struct PerOp {
    double wall_ns = 0.0, cpu_ns = 0.0;
};

// Runs `work` (which does `ops` operations) `repeats` times. The CPU time leaves out the time
// a busy machine's scheduler gives to others, which a wall clock counts.
PerOp median_per_op(int repeats, double ops, const std::function<void()>& work) {
    work();  // warm the caches and the tables
    std::vector<double> wall, cpu;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = Clock::now();
        const double c0 = thread_cpu_s();
        work();
        cpu.push_back((thread_cpu_s() - c0) * 1e9 / ops);
        wall.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / ops);
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

// The median wall time per op.
double median_ns_per_op(int repeats, double ops, const std::function<void()>& work) { return median_per_op(repeats, ops, work).wall_ns; }

volatile double g_sink = 0.0;  // keeps results alive so the loops are not optimised away

// The surface's height at a column: the field's ground height, else (a graph without a
// ground output) the highest solid sample of the column within 8 km, found 8 m apart and
// then to the metre; 0 when it has none.
double surface_at(const Field& field, double x, double z) {
    const double g = field.ground_height(x, z);
    if (std::isfinite(g)) return g;
    for (double y = 8192.0; y >= -8192.0; y -= 8.0) {
        if (field.value({x, y, z}) >= 0.0) continue;
        double top = y;
        while (top < y + 7.0 && field.value({x, top + 1.0, z}) < 0.0) top += 1.0;
        return top;
    }
    return 0.0;
}

// Where the edits go: 35 spots on the surface near the origin, found before any timing.
struct EditSpots {
    std::vector<glm::dvec3> at;
    explicit EditSpots(const Field& field) {
        for (int i = 0; i < 35; ++i) {
            const double x = 8.0 + 5.0 * (i % 7), z = 8.0 + 4.0 * (i / 7);
            at.push_back({x, surface_at(field, x, z), z});
        }
    }
    // The i-th edit, each a little further along so that every one changes samples.
    EditOp edit(int i, double radius) const {
        return EditOp{BrushKind::sphere, i % 2 ? BrushMode::add : BrushMode::carve, at[i % at.size()], radius};
    }
};

// The median milliseconds from an edit to every chunk it touched rebuilt and handed over, in
// a settled world of one level, 64 m around, with one worker.
double edit_to_rebuilt_ms(const std::shared_ptr<const Field>& terrain, const EditSpots& spots, double radius, int repeats) {
    WorldSettings settings;
    settings.view_radius = 2;
    settings.view_distance_m = 64.0;
    settings.levels = 1;
    settings.threads = 1;
    World world(terrain, settings);
    const glm::dvec3 focus(16.0, surface_at(*terrain, 16.0, 16.0), 16.0);
    const auto settle = [&] {
        for (;;) {
            world.set_focus(focus);
            world.deliver(1e9, [](const ChunkUpdate&) {});
            if (world.settled()) return;
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    };
    settle();
    EditHistory history(terrain);
    std::vector<double> runs;
    for (int r = 0; r < repeats; ++r) {
        const EditOp op = spots.edit(r, radius);
        const auto t0 = Clock::now();
        history.apply(op);
        world.set_edits(std::make_shared<const ChunkDeltas>(history.deltas()), edit_box(op));
        settle();
        runs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

// Edits a second, each applied and committed (one transaction, synchronous) to a world file
// in the temporary directory.
double edits_committed_per_s(const TerrainSource& source, const std::shared_ptr<const Field>& terrain, const EditSpots& spots, int count) {
    const std::string path = (std::filesystem::temp_directory_path() / fmt::format("isoterra-bench-{}.db", ::getpid())).string();
    const auto remove_all = [&] {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    };
    remove_all();
    double seconds = 0.0;
    {
        WorldEditor editor(terrain, std::make_unique<WorldFile>(path, &source));
        const auto t0 = Clock::now();
        for (int i = 0; i < count; ++i) editor.apply(spots.edit(i, 4.0));
        seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    remove_all();
    return count / seconds;
}

// The noises alone, per point: 2D and 3D simplex, the chunk path's lattice noise, fBm.
void bench_noise(nlohmann::ordered_json& out, const NoiseSet& noise, const std::vector<glm::dvec3>& pts, int repeats) {
    const double n = static_cast<double>(pts.size());
    out["noise2_ns"] = median_ns_per_op(repeats * 3, n, [&] {
        double s = 0;
        for (const auto& p : pts) s += noise.noise2(p.x * 0.01, p.z * 0.01);
        g_sink = s;
    });
    out["noise3_ns"] = median_ns_per_op(repeats * 3, n, [&] {
        double s = 0;
        for (const auto& p : pts) s += noise.noise3(p.x * 0.01, p.y * 0.01, p.z * 0.01);
        g_sink = s;
    });
    // The chunk path's noise: single precision, sixteen or eight lattice points at a time.
    out["noise_path"] = noise_path_name(noise_path());
    const NoiseLattice lattice{{10, -20, 10}, {33, 33, 33}, 1.0, {50.0, 35.0, 50.0}, {0.0, 0.0, 0.0}};
    std::vector<float> lattice_out(static_cast<std::size_t>(33) * 33 * 33);
    out["noise3_lattice_ns"] = median_ns_per_op(repeats * 3, static_cast<double>(lattice_out.size()), [&] {
        noise.noise3.lattice_fast(lattice, lattice_out.data());
        g_sink = lattice_out[5];
    });
    const FbmShape five{5, 2.0, 0.5, 0.5};
    out["fbm5_ns"] = median_ns_per_op(repeats * 3, n, [&] {
        double s = 0;
        for (const auto& p : pts) s += fbm2(noise.noise2, p.x * 0.0025, p.z * 0.0025, five);
        g_sink = s;
    });
}

// The terrain: per point, then a chunk's lattice, whole and for meshing only. (The keys keep
// the tutorial's name, which they were first measured on, whatever the terrain.)
void bench_terrain(nlohmann::ordered_json& out, const Field& terrain, const std::vector<glm::dvec3>& pts, int repeats) {
    std::vector<double> values(pts.size());
    out["tutorial_sample_ns"] = median_ns_per_op(repeats, static_cast<double>(pts.size()), [&] {
        terrain.sample_points(pts.data(), pts.size(), values.data());
        g_sink = values[7];
    });
    // One chunk with the padding a mesher needs: 33 samples a side, near the ground.
    Lattice chunk;
    chunk.origin = {10, static_cast<std::int64_t>(std::floor(surface_at(terrain, 26, 26))) - 16, 10};
    chunk.size = {33, 33, 33};
    std::vector<float> grid(chunk.count());
    const PerOp whole = median_per_op(repeats, 1.0, [&] {
        terrain.sample_lattice(chunk, grid.data());
        g_sink = grid[100];
    });
    out["tutorial_chunk_sample_ms"] = whole.wall_ns / 1e6;
    out["tutorial_chunk_sample_cpu_ms"] = whole.cpu_ns / 1e6;
    // The same chunk ready for meshing (LatticeUse::surface), as the World samples it: every
    // sample a mesher reads, the rest only of the right sign.
    std::vector<float> ground(static_cast<std::size_t>(chunk.size.x) * chunk.size.z);
    const PerOp surface = median_per_op(repeats, 1.0, [&] {
        terrain.sample_lattice_and_ground(chunk, grid.data(), ground.data(), LatticeUse::surface);
        g_sink = grid[100];
    });
    out["tutorial_chunk_surface_ms"] = surface.wall_ns / 1e6;
    out["tutorial_chunk_surface_cpu_ms"] = surface.cpu_ns / 1e6;
}

// Meshing: the same chunks for every mesher, sampled once beforehand. They are the tutorial's,
// lifted by the chunks between y = 0 and the surface at the origin's column (none for the
// tutorial), so that a terrain whose ground lies far up or down has surface in them too.
void bench_meshers(nlohmann::ordered_json& out, const Field& terrain, int repeats) {
    ChunkCoord chunk_coords[] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {9, 0, -2}, {-3, 1, 4}, {5, 0, 5}};
    const int lift = static_cast<int>(std::floor(surface_at(terrain, 16.0, 16.0) / kChunkSize));
    for (ChunkCoord& c : chunk_coords) c.y += lift;
    for (const MesherInfo& info : meshers()) {
        const Mesher m = info.id;
        std::vector<ChunkSamples> samples(std::size(chunk_coords));
        for (std::size_t c = 0; c < samples.size(); ++c) sample_chunk(terrain, chunk_coords[c], mesher_padding(m), samples[c]);
        MeshScratch scratch;
        MeshBuffers buffers;
        std::size_t triangles = 0;
        const PerOp per_chunk = median_per_op(repeats, static_cast<double>(samples.size()), [&] {
            triangles = 0;
            for (const auto& s : samples) {
                mesh_chunk(m, s, terrain.material_rules(), scratch, buffers);
                triangles += buffers.triangle_count();
            }
        });
        const double ms = per_chunk.wall_ns / 1e6;
        out["mesh_ms"][mesher_name(m)] = ms;
        out["mesh_cpu_ms"][mesher_name(m)] = per_chunk.cpu_ns / 1e6;
        out["mesh_mtris_per_s"][mesher_name(m)] = static_cast<double>(triangles) / samples.size() / (ms * 1e3);
    }
}

// Editing: a brush alone, an edit until its chunks are rebuilt, edits committed.
void bench_edits(nlohmann::ordered_json& out, const TerrainSource& source, const std::shared_ptr<const Field>& terrain, int repeats) {
    const EditSpots spots(*terrain);
    for (const double radius : {4.0, 8.0, 16.0}) {
        const std::string key = fmt::format("r{}", static_cast<int>(radius));
        int i = 0;
        out["edit_apply_ms"][key] = median_ns_per_op(repeats, 1.0,
                                                     [&] {
                                                         ChunkDeltas deltas;
                                                         apply_edit(*terrain, spots.edit(i++, radius), deltas);
                                                     }) /
                                    1e6;
        out["edit_rebuild_ms"][key] = edit_to_rebuilt_ms(terrain, spots, radius, repeats);
    }
    out["edits_committed_per_s"] = edits_committed_per_s(source, terrain, spots, 10 * repeats);
}

// The figures as text: a heading, then one line each (those under a heading by its name).
void print_figures(const nlohmann::ordered_json& out, const TerrainSource& source, int repeats) {
    fmt::print("isoterra bench: {} {}, seed {}, single thread, median of {} runs, lattice noise on {}\n",
               source.is_graph() ? "graph" : "preset", printable(source.name, 100), source.seed, repeats, noise_path_name(noise_path()));
    for (auto it = out.begin(); it != out.end(); ++it) {
        if (it.value().is_object()) {
            for (auto in = it.value().begin(); in != it.value().end(); ++in)
                fmt::print("  {:<32} {:>10.3f}\n", it.key() + "." + in.key(), in.value().get<double>());
        } else if (it.value().is_number_float()) {
            fmt::print("  {:<32} {:>10.3f}\n", it.key(), it.value().get<double>());
        }
    }
}

void bench(const BenchOptions& opt, const FieldOptions& field_opt) {
    const TerrainSource source = field_opt.load();
    Mulberry32 rng(12345);
    std::vector<glm::dvec3> pts(4096);
    for (auto& p : pts) p = glm::dvec3(rng.next() * 2000 - 1000, rng.next() * 200 - 50, rng.next() * 2000 - 1000);

    nlohmann::ordered_json out;
    out["preset"] = source.name;
    out["seed"] = source.seed;
    out["graph"] = source.is_graph();
    bench_noise(out, NoiseSet(source.seed), pts, opt.repeats);
    const std::shared_ptr<const Field> terrain = source.make_field();
    bench_terrain(out, *terrain, pts, opt.repeats);
    bench_meshers(out, *terrain, opt.repeats);
    bench_edits(out, source, terrain, opt.repeats);
    if (opt.json) fmt::print("{}\n", out.dump(2));
    else print_figures(out, source, opt.repeats);
}

}  // namespace

void register_bench(CLI::App& app) {
    static BenchOptions opt;
    static FieldOptions field_opt;
    auto* cmd = app.add_subcommand("bench", "Measure noise, field, chunk, meshing and editing timings (single thread, medians)");
    cmd->footer(
        "The lattice noise takes the widest instruction set the CPU has (AVX-512, AVX2, baseline; the same\n"
        "bits on each); ISOTERRA_NOISE_PATH=avx2 or baseline in the environment caps it, here and in every command.\n\n" +
        app.get_footer());
    cmd->add_flag("--json", opt.json, "Print one JSON object instead of text");
    cmd->add_option("--repeats", opt.repeats, "Timed runs per figure (the median is reported)")->transform(decimal_integer(1, 1000));
    field_opt.add_to(*cmd);
    cmd->callback([] { bench(opt, field_opt); });
}

ISOTERRA_SUBCOMMAND(140, register_bench);

}  // namespace isoterra::app
