// Navigation on the tutorial terrain (issue 55's speed goals, 2 threads): the tiles of a
// 256 x 256 m square; a 500 m path on a built mesh; the tiles one edit reaches, rebuilt;
// and beside them the way engines do it today: Recast fed the region's mesh by hand (the
// square meshed at once, then every tile rasterized from that whole triangle soup).
#include <benchmark/benchmark.h>

#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/nav.hpp"
#include "nav/nav_parts.hpp"

namespace {

using namespace isoterra;

const std::shared_ptr<const Field>& tutorial() {
    static const std::shared_ptr<const Field> field = builtin_terrain("tutorial").make_field();
    return field;
}

std::vector<glm::ivec2> square_columns() {  // 256 x 256 m: 8 x 8 columns from the origin
    std::vector<glm::ivec2> columns;
    for (int z = 0; z < 8; ++z)
        for (int x = 0; x < 8; ++x) columns.emplace_back(x, z);
    return columns;
}

void BM_nav_tiles_256m_square(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(build_nav_tiles(*tutorial(), nullptr, AgentSettings{}, square_columns(), 2));
}
BENCHMARK(BM_nav_tiles_256m_square)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

void BM_nav_recast_by_hand_256m_square(benchmark::State& state) {
    // The region's mesh (the chunks covering it and its tiles' borders, meshed at once and
    // merged), then each tile from the whole soup: Recast culls what lies outside the tile.
    const AgentSettings agent;
    for (auto _ : state) {
        const auto chunks = chunks_covering({-4.0, -64.0, -4.0}, {260.0, 128.0, 260.0}, 1e5);
        const MeshBuffers soup = merge_meshes(mesh_chunks(*tutorial(), nullptr, chunks, Mesher::marching_cubes, 2));
        nav_detail::TileTriangles input;
        for (const glm::vec3& p : soup.positions) input.verts.insert(input.verts.end(), {p.x, p.y, p.z});
        input.tris.assign(soup.indices.begin(), soup.indices.end());
        const auto columns = square_columns();
        std::vector<std::vector<unsigned char>> tiles(columns.size());
        parallel_for(columns.size(), 2,
                     [&](std::size_t i) { tiles[i] = nav_detail::build_tile_data(input, agent, columns[i].x, columns[i].y); });
        benchmark::DoNotOptimize(tiles.data());
    }
}
BENCHMARK(BM_nav_recast_by_hand_256m_square)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

void BM_nav_path_500m(benchmark::State& state) {
    // The 500 m path of the tests' kind at another place: x from 0 to 500 m along z = 300.
    const NavMesh nav(tutorial(), nullptr, AgentSettings{}, nav_tiles_covering({-32.0, 268.0}, {532.0, 332.0}), 2);
    glm::dvec3 a, b;
    ray_cast(*tutorial(), ChunkDeltas{}, {0.0, 500.0, 300.0}, {0.0, -1.0, 0.0}, 1000.0, a, 0.25);
    ray_cast(*tutorial(), ChunkDeltas{}, {500.0, 500.0, 300.0}, {0.0, -1.0, 0.0}, 1000.0, b, 0.25);
    double length = 0.0;
    for (auto _ : state) length = nav.path(a, b).length_m;
    state.counters["length_m"] = length;
}
BENCHMARK(BM_nav_path_500m)->Unit(benchmark::kMicrosecond)->MinTime(2.0)->UseRealTime();

void BM_nav_edit_tiles(benchmark::State& state) {
    // One carve of 4 m on the ground in the middle of a column, and one across a corner where
    // four columns meet: the tiles it reaches rebuilt (1 and 4).
    const glm::dvec2 at = state.range(0) == 0 ? glm::dvec2(48.0, 48.0) : glm::dvec2(64.0, 64.0);
    NavMesh nav(tutorial(), nullptr, AgentSettings{}, TileRange{{0, 0}, {3, 3}}, 2);
    glm::dvec3 ground;
    ray_cast(*tutorial(), ChunkDeltas{}, {at.x, 500.0, at.y}, {0.0, -1.0, 0.0}, 1000.0, ground, 0.25);
    EditOp op;
    op.centre = ground;
    op.radius_m = 4.0;
    ChunkDeltas edited;
    apply_edit(*tutorial(), op, edited);
    const auto deltas = std::make_shared<const ChunkDeltas>(edited);
    std::size_t tiles = 0;
    for (auto _ : state) tiles = nav.update(deltas, edit_box(op), 2);
    state.counters["tiles"] = static_cast<double>(tiles);
}
BENCHMARK(BM_nav_edit_tiles)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
