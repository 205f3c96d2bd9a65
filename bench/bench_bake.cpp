// A bake's tiles, one level at a time: the time one thread takes to bake a tile (survey,
// chunks, skirts) and encode its glb, with its triangles and bytes, over 32 columns spread
// across a 64 km square of the alpine preset (docs/design/benchmarks.md projects a whole bake of
// that square from these).
#include <benchmark/benchmark.h>

#include "isoterra/bake.hpp"

namespace {

using namespace isoterra;

void BM_bake_tile(benchmark::State& state) {
    const int level = static_cast<int>(state.range(0));
    static const std::shared_ptr<const Field> terrain = builtin_terrain("alpine").make_field();
    // Columns of this level spread over 65,536 m (a level-L column is 32 * 2^L m).
    const int across = 1 << (11 - level);
    Mulberry32 rng(777);
    std::vector<LodColumn> columns;
    for (int i = 0; i < 32; ++i) columns.push_back({level, static_cast<int>(rng.next() * across), static_cast<int>(rng.next() * across)});
    std::size_t i = 0;
    double triangles = 0.0, bytes = 0.0;
    for (auto _ : state) {
        const LodColumn& c = columns[i++ % columns.size()];
        const BakedTile tile = bake_tile(*terrain, nullptr, c, Mesher::marching_cubes, -2);
        const std::string glb = encode_gltf({{"tile", tile.mesh}}, true, true);
        triangles += static_cast<double>(tile.mesh.triangle_count());
        bytes += static_cast<double>(glb.size());
        benchmark::DoNotOptimize(glb.data());
    }
    state.counters["triangles"] = triangles / static_cast<double>(state.iterations());
    state.counters["kb"] = bytes / 1024.0 / static_cast<double>(state.iterations());
}
BENCHMARK(BM_bake_tile)->DenseRange(0, 11)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace
