// `isoterra bench`: the pipeline's figures on this machine, single thread, as medians of
// repeated runs so that a noisy neighbour moves them little.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "isoterra/mesh.hpp"

namespace isoterra::app {
namespace {

struct BenchOptions {
    bool json = false;
    int repeats = 7;
};

using Clock = std::chrono::steady_clock;

// Runs `work` (which does `ops` operations) `repeats` times; returns the median ns per op.
double median_ns_per_op(int repeats, double ops, const std::function<void()>& work) {
    work();  // warm the caches and the tables
    std::vector<double> runs;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = Clock::now();
        work();
        const auto t1 = Clock::now();
        runs.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / ops);
    }
    std::sort(runs.begin(), runs.end());
    return runs[runs.size() / 2];
}

volatile double g_sink = 0.0;  // keeps results alive so the loops are not optimised away

}  // namespace

void register_bench(CLI::App& app) {
    static BenchOptions opt;
    static FieldOptions field_opt;
    auto* cmd = app.add_subcommand("bench", "Measure noise, field and chunk timings (single thread, medians)");
    cmd->add_flag("--json", opt.json, "Print one JSON object instead of text");
    cmd->add_option("--repeats", opt.repeats, "Timed runs per figure (the median is reported)")
        ->check(CLI::Range(1, 1000));
    field_opt.add_to(*cmd);
    cmd->callback([] {
        const Preset preset = field_opt.load();
        const NoiseSet noise(preset.seed);
        Mulberry32 rng(12345);
        std::vector<glm::dvec3> pts(4096);
        for (auto& p : pts) p = glm::dvec3(rng.next() * 2000 - 1000, rng.next() * 200 - 50, rng.next() * 2000 - 1000);
        const double n = static_cast<double>(pts.size());

        nlohmann::ordered_json out;
        out["preset"] = preset.name;
        out["seed"] = preset.seed;
        out["noise2_ns"] = median_ns_per_op(opt.repeats * 3, n, [&] {
            double s = 0;
            for (const auto& p : pts) s += noise.noise2(p.x * 0.01, p.z * 0.01);
            g_sink = s;
        });
        out["noise3_ns"] = median_ns_per_op(opt.repeats * 3, n, [&] {
            double s = 0;
            for (const auto& p : pts) s += noise.noise3(p.x * 0.01, p.y * 0.01, p.z * 0.01);
            g_sink = s;
        });
        // The chunk path's noise: single precision, eight lattice points at a time.
        const NoiseLattice lattice{{10, -20, 10}, {33, 33, 33}, 1.0, {50.0, 35.0, 50.0}, {0.0, 0.0, 0.0}};
        std::vector<float> lattice_out(static_cast<std::size_t>(33) * 33 * 33);
        out["noise3_lattice_ns"] = median_ns_per_op(opt.repeats * 3, static_cast<double>(lattice_out.size()), [&] {
            noise.noise3.lattice_fast(lattice, lattice_out.data());
            g_sink = lattice_out[5];
        });
        const FbmShape five{5, 2.0, 0.5, 0.5};
        out["fbm5_ns"] = median_ns_per_op(opt.repeats * 3, n, [&] {
            double s = 0;
            for (const auto& p : pts) s += fbm2(noise.noise2, p.x * 0.0025, p.z * 0.0025, five);
            g_sink = s;
        });

        const auto terrain = make_terrain(preset, preset.seed);
        std::vector<double> values(pts.size());
        out["tutorial_sample_ns"] = median_ns_per_op(opt.repeats, n, [&] {
            terrain->sample_points(pts.data(), pts.size(), values.data());
            g_sink = values[7];
        });

        // One chunk with the padding a mesher needs: 33 samples a side, near the ground.
        Lattice chunk;
        chunk.origin = {10, static_cast<std::int64_t>(std::floor(terrain->surface_height(26, 26))) - 16, 10};
        chunk.size = {33, 33, 33};
        std::vector<float> grid(chunk.count());
        out["tutorial_chunk_sample_ms"] = median_ns_per_op(opt.repeats, 1.0, [&] {
            terrain->sample_lattice(chunk, grid.data());
            g_sink = grid[100];
        }) / 1e6;

        // Meshing: the same tutorial chunks for every mesher, sampled once beforehand.
        const ChunkCoord chunk_coords[] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {9, 0, -2}, {-3, 1, 4}, {5, 0, 5}};
        for (const Mesher m : {Mesher::marching_cubes, Mesher::surface_nets, Mesher::blocks}) {
            std::vector<ChunkSamples> samples(std::size(chunk_coords));
            for (std::size_t c = 0; c < samples.size(); ++c) sample_chunk(*terrain, chunk_coords[c], mesher_padding(m), samples[c]);
            MeshScratch scratch;
            MeshBuffers buffers;
            std::size_t triangles = 0;
            const double ms = median_ns_per_op(opt.repeats, static_cast<double>(samples.size()), [&] {
                triangles = 0;
                for (const auto& s : samples) {
                    mesh_chunk(m, s, terrain->material_rules(), scratch, buffers);
                    triangles += buffers.triangle_count();
                }
            }) / 1e6;
            out["mesh_ms"][mesher_name(m)] = ms;
            out["mesh_mtris_per_s"][mesher_name(m)] = static_cast<double>(triangles) / samples.size() / (ms * 1e3);
        }

        if (opt.json) {
            fmt::print("{}\n", out.dump(2));
            return;
        }
        fmt::print("isoterra bench: preset {}, seed {}, single thread, median of {} runs\n", preset.name, preset.seed, opt.repeats);
        for (auto it = out.begin(); it != out.end(); ++it) {
            if (it.value().is_object()) {
                for (auto in = it.value().begin(); in != it.value().end(); ++in)
                    fmt::print("  {:<28} {:>10.3f}\n", it.key() + "." + in.key(), in.value().get<double>());
            } else if (it.value().is_number_float()) {
                fmt::print("  {:<28} {:>10.3f}\n", it.key(), it.value().get<double>());
            }
        }
    });
}

}  // namespace isoterra::app
