// Google Benchmark suite: per-sample and per-chunk figures of each pipeline stage (the noises
// alone: bench_noise.cpp; the bake: bench_bake.cpp).
// Run: build/bench/isoterra_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "isoterra/graph.hpp"
#include "isoterra/mesh.hpp"
#include "isoterra/world.hpp"
#include "random_points.hpp"

namespace {

using namespace isoterra;
using isoterra::bench::random_points;

void BM_tutorial_points(benchmark::State& state) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const auto pts = random_points(4096);
    std::vector<double> out(pts.size());
    for (auto _ : state) {
        terrain->sample_points(pts.data(), pts.size(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * pts.size());
}
BENCHMARK(BM_tutorial_points);

// The 33^3 chunk the tutorial benchmarks sample: 1 m spacing, its middle on the ground.
Lattice surface_chunk(const Field& terrain) {
    Lattice chunk;
    chunk.origin = {10, static_cast<std::int64_t>(std::floor(terrain.surface_height(26, 26))) - 16, 10};
    chunk.size = {33, 33, 33};
    return chunk;
}

void BM_tutorial_chunk(benchmark::State& state) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const Lattice chunk = surface_chunk(*terrain);
    std::vector<float> grid(chunk.count());
    for (auto _ : state) {
        terrain->sample_lattice(chunk, grid.data());
        benchmark::DoNotOptimize(grid.data());
    }
    state.SetItemsProcessed(state.iterations() * grid.size());
}
BENCHMARK(BM_tutorial_chunk)->Unit(benchmark::kMillisecond);

// The same chunk and points through the tutorial exported as a field graph (the same bits):
// what the graph evaluator costs against the built-in function.
void BM_tutorial_graph_chunk(benchmark::State& state) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const auto graph = parse_graph(knob_terrain_to_graph(builtin_knob_terrain("tutorial")), "tutorial graph");
    const Lattice chunk = surface_chunk(*terrain);
    std::vector<float> grid(chunk.count());
    for (auto _ : state) {
        graph->sample_lattice(chunk, grid.data());
        benchmark::DoNotOptimize(grid.data());
    }
    state.SetItemsProcessed(state.iterations() * grid.size());
    // The share of 3D-noise samples a min proved unneeded (the caves above the ground).
    const GraphSkipCount skipped = graph->count_skipped(chunk);
    state.counters["noise_skipped_pct"] = 100.0 * static_cast<double>(skipped.skipped) / static_cast<double>(skipped.noise_samples);
    // ... and of the ridges' columns, those where no mountain rises.
    state.counters["ridges_skipped_pct"] = 100.0 * static_cast<double>(skipped.masked_columns_skipped) /
                                           static_cast<double>(std::max<std::size_t>(skipped.masked_column_runs, 1));
}
BENCHMARK(BM_tutorial_graph_chunk)->Unit(benchmark::kMillisecond);

// The graph against the built-in, timed in pairs: each iteration samples the chunk with one
// and then the other, so that a shared machine's changing speed slows both alike; the
// counter is the median of the pairs' ratios (graph time / built-in time).
void time_graph_over_builtin(benchmark::State& state, const Field& builtin, const Field& graph, const Lattice& chunk) {
    std::vector<float> grid(chunk.count());
    std::vector<double> ratios;
    using clock = std::chrono::steady_clock;
    for (auto _ : state) {
        const auto t0 = clock::now();
        builtin.sample_lattice(chunk, grid.data());
        benchmark::DoNotOptimize(grid.data());
        const auto t1 = clock::now();
        graph.sample_lattice(chunk, grid.data());
        benchmark::DoNotOptimize(grid.data());
        const auto t2 = clock::now();
        ratios.push_back(std::chrono::duration<double>(t2 - t1).count() / std::chrono::duration<double>(t1 - t0).count());
    }
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    state.counters["graph_over_builtin"] = ratios[ratios.size() / 2];
}

void BM_tutorial_graph_over_builtin(benchmark::State& state) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const auto graph = parse_graph(knob_terrain_to_graph(builtin_knob_terrain("tutorial")), "tutorial graph");
    time_graph_over_builtin(state, *terrain, *graph, surface_chunk(*terrain));
}
BENCHMARK(BM_tutorial_graph_over_builtin)->Unit(benchmark::kMillisecond);

// The same pairing for the terrain function's old alpine preset (tests/reference/presets, as
// world files made before issue 24 store it: domain warp, reshaped hills, overhangs, caves)
// against its export as a graph, on a chunk at its ground.
void BM_classic_alpine_graph_over_builtin(benchmark::State& state) {
    std::ifstream file(std::string(ISOTERRA_REFERENCE_DIR) + "/presets/alpine_classic.toml");
    std::stringstream text;
    text << file.rdbuf();
    const KnobTerrain preset = parse_knob_terrain(text.str(), "alpine_classic.toml");
    const auto terrain = make_terrain(preset, preset.seed);
    const auto graph = parse_graph(knob_terrain_to_graph(preset), "alpine_classic graph");
    time_graph_over_builtin(state, *terrain, *graph, surface_chunk(*terrain));
}
BENCHMARK(BM_classic_alpine_graph_over_builtin)->Unit(benchmark::kMillisecond);

void BM_tutorial_graph_points(benchmark::State& state) {
    const auto graph = parse_graph(knob_terrain_to_graph(builtin_knob_terrain("tutorial")), "tutorial graph");
    const auto pts = random_points(4096);
    std::vector<double> out(pts.size());
    for (auto _ : state) {
        graph->sample_points(pts.data(), pts.size(), out.data());
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * pts.size());
}
BENCHMARK(BM_tutorial_graph_points);

// Meshing the six tutorial chunks of `isoterra bench`, sampled once beforehand.
void BM_mesh(benchmark::State& state) {
    const auto mesher = static_cast<Mesher>(state.range(0));
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const ChunkCoord coords[] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {9, 0, -2}, {-3, 1, 4}, {5, 0, 5}};
    std::vector<ChunkSamples> samples(std::size(coords));
    for (std::size_t c = 0; c < samples.size(); ++c) sample_chunk(*terrain, coords[c], mesher_padding(mesher), samples[c]);
    MeshScratch scratch;
    MeshBuffers buffers;
    std::size_t triangles = 0;
    for (auto _ : state)
        for (const auto& s : samples) {
            mesh_chunk(mesher, s, terrain->material_rules(), scratch, buffers);
            triangles += buffers.triangle_count();
        }
    state.SetLabel(mesher_name(mesher));
    state.counters["triangles_per_s"] = benchmark::Counter(static_cast<double>(triangles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_mesh)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// Surface nets against marching cubes on the same six tutorial chunks (each sampled with the
// padding its mesher reads), timed in pairs as BM_tutorial_graph_over_builtin is: the counter
// is the median of the pairs' ratios (surface nets' time / marching cubes').
void BM_surface_nets_over_marching_cubes(benchmark::State& state) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const ChunkCoord coords[] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {9, 0, -2}, {-3, 1, 4}, {5, 0, 5}};
    std::vector<ChunkSamples> cubes(std::size(coords)), nets(std::size(coords));
    for (std::size_t c = 0; c < cubes.size(); ++c) {
        sample_chunk(*terrain, coords[c], mesher_padding(Mesher::marching_cubes), cubes[c]);
        sample_chunk(*terrain, coords[c], mesher_padding(Mesher::surface_nets), nets[c]);
    }
    MeshScratch scratch;
    MeshBuffers buffers;
    std::vector<double> ratios;
    using clock = std::chrono::steady_clock;
    for (auto _ : state) {
        const auto t0 = clock::now();
        for (const auto& s : cubes) mesh_chunk(Mesher::marching_cubes, s, terrain->material_rules(), scratch, buffers);
        const auto t1 = clock::now();
        for (const auto& s : nets) mesh_chunk(Mesher::surface_nets, s, terrain->material_rules(), scratch, buffers);
        const auto t2 = clock::now();
        ratios.push_back(std::chrono::duration<double>(t2 - t1).count() / std::chrono::duration<double>(t1 - t0).count());
    }
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    state.counters["nets_over_cubes"] = ratios[ratios.size() / 2];
}
BENCHMARK(BM_surface_nets_over_marching_cubes)->Unit(benchmark::kMillisecond);

// Six chunks of `field` at `level` holding the ground at their columns' middles.
std::vector<ChunkCoord> ground_chunks(const Field& field, int level) {
    const int columns[6][2] = {{0, 0}, {1, 0}, {0, 1}, {-1, 2}, {3, -2}, {2, 2}};
    std::vector<ChunkCoord> coords;
    for (const auto& c : columns) {
        const double size = kChunkSize * std::ldexp(1.0, level);
        const double ground = field.ground_height((c[0] + 0.5) * size, (c[1] + 0.5) * size);
        coords.push_back({c[0], static_cast<int>(std::floor(ground / size)), c[1], level});
    }
    return coords;
}

// Six alpine chunks holding the ground, at level range(0) (0: 1 m apart, 5: 32 m, the
// coarsest of an 8 km view, whose 256 columns are the first picture), sampled: the time a
// chunk. The drainage network's tiles are cached after the first iteration.
void BM_alpine_ground_chunk(benchmark::State& state) {
    const int level = static_cast<int>(state.range(0));
    static const std::shared_ptr<const Field> alpine = builtin_terrain("alpine").make_field();
    const std::vector<ChunkCoord> coords = ground_chunks(*alpine, level);
    ChunkSamples samples;
    for (auto _ : state)
        for (const ChunkCoord& c : coords) {
            sample_chunk(*alpine, c, mesher_padding(Mesher::marching_cubes), samples);
            benchmark::DoNotOptimize(samples.values.data());
        }
    state.counters["chunk_ms"] = benchmark::Counter(static_cast<double>(state.iterations() * coords.size()) / 1000.0,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_alpine_ground_chunk)->Arg(0)->Arg(5)->Unit(benchmark::kMillisecond);

// Detail where it shows: a graph that leaves out, inside the World's columns, what a level
// cannot show, against the same graph without (range(1) 0: the keys `depth_keys` and `keys`
// taken out; 1: `depth_keys` alone; 2: as written), six chunks holding the ground at level
// range(0), sampled as the World samples them: the time a chunk. The tutorial
// (examples/tutorial_lod.toml: its hills' and ridges' octaves, overhangs, tunnels, deep
// tunnels) and the weld test's hills (tests/fuzz/corpus/graph/lod_hills.toml: besides, a 3D
// fBm of three octaves at every sample). A key missing from its file stops the benchmark, so
// an edited file cannot time one graph as both.
void time_lod_chunks(benchmark::State& state, const std::string& path, std::initializer_list<const char*> depth_keys,
                     std::initializer_list<const char*> keys) {
    const int level = static_cast<int>(state.range(0));
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    std::string graph = text.str();
    const auto erase = [&graph](const char* key) {
        bool found = false;
        for (std::size_t at; (at = graph.find(key)) != std::string::npos; found = true) graph.erase(at, std::strlen(key));
        return found;
    };
    bool found = true;
    for (const char* key : depth_keys)
        if (state.range(1) < 2) found = erase(key) && found;
    for (const char* key : keys)
        if (state.range(1) == 0) found = erase(key) && found;
    if (!found) return state.SkipWithError((path + ": a key to take out is not in the file").c_str());
    const std::shared_ptr<const Field> field = parse_graph(graph, path);
    const std::vector<ChunkCoord> coords = ground_chunks(*field, level);
    ChunkSamples samples;
    for (auto _ : state)
        for (const ChunkCoord& c : coords) {
            sample_world_chunk(*field, nullptr, c, Mesher::marching_cubes, -1e9, samples);
            benchmark::DoNotOptimize(samples.values.data());
        }
    state.counters["chunk_ms"] = benchmark::Counter(static_cast<double>(state.iterations() * coords.size()) / 1000.0,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
void BM_tutorial_lod_chunk(benchmark::State& state) {
    time_lod_chunks(state, std::string(ISOTERRA_EXAMPLES_DIR) + "/tutorial_lod.toml", {", detail_m = 2.0, far = 1000.0, depth_m = 40.0"},
                    {", lod = true", ", detail_m = 16.0, far = 1000.0"});
}
BENCHMARK(BM_tutorial_lod_chunk)->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0, 1, 2}})->Unit(benchmark::kMillisecond);
void BM_lod_hills_chunk(benchmark::State& state) {
    time_lod_chunks(state, std::string(ISOTERRA_REFERENCE_DIR) + "/../fuzz/corpus/graph/lod_hills.toml", {", depth_m = 10.0"},
                    {", lod = true", ", detail_m = 6.0, far = 1000.0"});
}
BENCHMARK(BM_lod_hills_chunk)->ArgsProduct({{0, 2, 3, 5}, {0, 2}})->Unit(benchmark::kMillisecond);

// Simplifying the insides of six tutorial chunks of level 2 (marching cubes, 4 m apart) by
// up to half their spacing, down to range(0) triangles a chunk (0: as far as the error
// allows), as the World does to chunks over its triangle budget: the time a chunk, and the
// triangles before and after.
void BM_simplify_interior(benchmark::State& state) {
    const auto terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const ChunkCoord coords[] = {{0, 0, 0, 2}, {1, 0, 0, 2}, {0, 0, 1, 2}, {9, 0, -2, 2}, {-3, 0, 4, 2}, {5, 0, 5, 2}};
    std::vector<MeshBuffers> meshes(std::size(coords));
    MeshScratch scratch;
    double before = 0.0, after = 0.0;
    for (std::size_t c = 0; c < meshes.size(); ++c) {
        ChunkSamples s;
        sample_chunk(*terrain, coords[c], mesher_padding(Mesher::marching_cubes), s);
        mesh_chunk(Mesher::marching_cubes, s, terrain->material_rules(), scratch, meshes[c]);
        before += static_cast<double>(meshes[c].triangle_count());
    }
    MeshBuffers work;
    for (auto _ : state) {
        after = 0.0;
        for (const MeshBuffers& m : meshes) {
            work = m;
            simplify_interior(work, 4.0, 2.0, static_cast<std::size_t>(state.range(0)));
            after += static_cast<double>(work.triangle_count());
        }
    }
    state.counters["chunk_us"] = benchmark::Counter(static_cast<double>(state.iterations() * meshes.size()),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["triangles_before"] = before / static_cast<double>(meshes.size());
    state.counters["triangles_after"] = after / static_cast<double>(meshes.size());
}
BENCHMARK(BM_simplify_interior)->Arg(0)->Arg(2000)->Unit(benchmark::kMicrosecond);

}  // namespace

// A world's first view (tutorial, 256 m, eight columns a ring, one level) with its jobs run
// on this thread, as a web page's workers run them: the milliseconds a built chunk takes to
// sample and mesh (chunk_ms). web/bench/world-jobs.mjs runs the same in WebAssembly, and
// bench/compare-wasm.sh compares the two.
void BM_world_jobs(benchmark::State& state) {
    const std::shared_ptr<const Field> terrain = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    double chunk_ms = 0.0, chunks = 0.0;
    for (auto _ : state) {
        WorldSettings settings;
        settings.view_distance_m = 256.0;
        settings.view_radius = 8;
        settings.threads = -1;
        World world(terrain, settings);
        for (;;) {
            world.set_focus({0.0, 60.0, 0.0});
            WorldJob job;
            while (world.take_job(job)) {
                WorldJobResult result;
                const auto t0 = std::chrono::steady_clock::now();
                run_world_job(*terrain, nullptr, job, result);
                if (!job.survey && result.built) {
                    chunk_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                    chunks += 1.0;
                }
                world.finish_job(job, std::move(result));
            }
            world.deliver(1e9, [](const ChunkUpdate&) {});
            if (world.settled()) break;
        }
    }
    state.counters["chunk_ms"] = chunk_ms / chunks;
    state.counters["chunks"] = chunks / static_cast<double>(state.iterations());
}
BENCHMARK(BM_world_jobs)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
