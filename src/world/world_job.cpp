// A World's jobs as pure functions of the field and the edits: a column's survey (the chunk
// layers that can hold ground) and a chunk's sampling and meshing, with the world's floor.
// The World's own workers and an owner's (a web page's Web Workers) run the same code, so
// their meshes are the same bits.
#include "isoterra/world.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

namespace isoterra {
namespace {

// A lattice of a World column: it meets other levels at its x and z faces only, so inside a
// field may leave out what the level cannot show, all but the mesher's seam reach of them
// (Lattice::lod_column_samples).
Lattice in_world_column(Lattice lattice, Mesher mesher) {
    lattice.lod_column_samples = kChunkSize;
    lattice.lod_exact_samples = mesher_info(mesher).seam_reach;
    return lattice;
}

}  // namespace

void sample_world_chunk(const Field& field, const ChunkDeltas* deltas, const ChunkCoord& c, Mesher mesher, double floor_m,
                        ChunkSamples& out, bool surface, const LatticeColumns* columns) {
    const bool edited = deltas && !deltas->empty();
    const LatticeUse use = !surface ? LatticeUse::values : edited ? meshing_lattice_use(*deltas, c) : LatticeUse::surface;
    out.coord = c;
    out.pad = mesher_padding(mesher);
    out.lattice = in_world_column(chunk_lattice(c, out.pad), mesher);
    const Lattice& lat = out.lattice;
    out.values.resize(lat.count());
    out.ground.resize(static_cast<std::size_t>(lat.size.x) * lat.size.z);
    // The world's floor: rock below it, so the surfaces of caves close there instead of
    // ending in the open at the lowest chunks. At and below the floor the value is the
    // floor's alone, so those rows (most of a coarse chunk's lowest layer) are not sampled.
    const int below = static_cast<int>(
        std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(floor_m / lat.spacing_m)) - lat.origin.y + 1, 0, lat.size.y));
    const double sp = lat.spacing_m;
    out.sea_level_m = field.sea_level_m();
    // The column looks (water, snow line, scree) come with the values of whichever rows are
    // sampled: they are per column, the same for every row.
    if (below == 0) {
        out.has_ground = field.sample_lattice_and_ground(lat, out.values.data(), out.ground.data(), use, columns, &out.looks);
    } else {
        Lattice upper = lat;
        upper.origin.y += below;
        upper.size.y -= below;
        if (upper.size.y > 0) {
            thread_local std::vector<float> rows;
            rows.resize(upper.count());
            out.has_ground = field.sample_lattice_and_ground(upper, rows.data(), out.ground.data(), use, columns, &out.looks);
            for (int k = 0; k < lat.size.z; ++k)
                for (int j = 0; j < upper.size.y; ++j)
                    std::copy_n(&rows[upper.index(0, j, k)], lat.size.x, &out.values[lat.index(0, j + below, k)]);
        } else {
            // All below the floor: the ground as before, the looks from one row of samples.
            Lattice ground = lat;
            ground.size.y = 1;
            out.has_ground = field.ground_heights(ground, out.ground.data());
            thread_local std::vector<float> row, heights;
            row.resize(ground.count());
            heights.resize(ground.count());
            field.sample_lattice_and_ground(ground, row.data(), heights.data(), LatticeUse::values, nullptr, &out.looks);
        }
        for (int k = 0; k < lat.size.z; ++k)
            for (int j = 0; j < below; ++j)
                std::fill_n(&out.values[lat.index(0, j, k)], lat.size.x,
                            world_floor_value(static_cast<double>(lat.origin.y + j) * sp, floor_m));
    }
    if (edited) deltas->add_to(lat, out.values.data());
    const std::size_t row = static_cast<std::size_t>(lat.size.x);
    for (int k = 0; k < lat.size.z; ++k)
        for (int j = 0; j < lat.size.y; ++j) {
            const float cap = world_floor_value(static_cast<double>(lat.origin.y + j) * sp, floor_m);
            float* v = &out.values[lat.index(0, j, k)];
            for (std::size_t i = 0; i < row; ++i) v[i] = std::min(v[i], cap);
        }
    update_core_range(out);
}

namespace {

// The ground heights at the column's own lattice columns: a chunk of this level samples
// nothing else, so the bounds of every chunk of the column follow from them exactly. A
// field that shares its per-column work gives them with it, for the chunks to reuse.
void survey_column(const Field& field, const WorldJob& job, WorldJobResult& out) {
    const LodColumn c{job.coord.lod, job.coord.x, job.coord.z};
    const Padding pad = mesher_padding(job.mesher);
    const ColumnSource* columns = field.columns();  // null: no ground, no shared column work
    if (columns) out.lattice_columns = columns->columns_of(in_world_column(chunk_lattice({c.x, 0, c.z, c.level}, pad), job.mesher));
    std::vector<float> heights(static_cast<std::size_t>(kChunkSize + 1) * (kChunkSize + 1));
    bool has_ground = false;
    if (out.lattice_columns && !out.lattice_columns->height.empty()) {
        const LatticeColumns& lc = *out.lattice_columns;
        for (int k = 0; k <= kChunkSize; ++k)
            for (int i = 0; i <= kChunkSize; ++i)
                heights[static_cast<std::size_t>(k) * (kChunkSize + 1) + i] =
                    static_cast<float>(lc.height[static_cast<std::size_t>(k + pad.lo) * lc.size.x + i + pad.lo]);
        has_ground = true;
    } else {
        Lattice lat;
        lat.origin = glm::i64vec3(std::int64_t{c.x} * kChunkSize, 0, std::int64_t{c.z} * kChunkSize);
        lat.size = glm::ivec3(kChunkSize + 1, 1, kChunkSize + 1);
        lat.spacing_m = std::ldexp(1.0, c.level);
        has_ground = columns && columns->ground_heights(in_world_column(lat, job.mesher), heights.data());
    }
    if (has_ground) {
        const auto [lo, hi] = std::minmax_element(heights.begin(), heights.end());
        // Floats of the double heights: a centimetre covers their rounding.
        const double bend = columns->ground_bend() + 0.01 + 1e-6 * std::max(std::fabs(*lo), std::fabs(*hi));
        out.ground = {*lo - bend, *hi + bend};
    }
    // The chunks from the lowest whose samples can be air (those below are all rock, with
    // nothing to mesh: high ground would otherwise stand on tens of them) up to the highest
    // whose samples can be solid. Over ground the field only grows upwards, so the first
    // chunk that is all air ends the column; a field without a ground height is searched up
    // to a ceiling.
    const double size = c.size_m(), floor_m = job.lowest_layer * double(kChunkSize);
    constexpr double kCeiling = 4096.0;
    const int floor_layer = static_cast<int>(std::floor(floor_m / size));
    out.bottom = INT_MAX;
    out.top = floor_layer;
    const double x0 = c.x * size, z0 = c.z * size;
    for (int y = floor_layer; y * size < kCeiling; ++y) {
        const Box box{{x0, y * size, z0}, {x0 + size, (y + 1) * size, z0 + size}};
        const ValueRange r = columns ? columns->bounds_with_ground(box, out.ground) : field.bounds(box);
        if (r.hi > 0.0 && out.bottom == INT_MAX) out.bottom = y;
        if (r.lo <= 0.0) out.top = y;
        else if (has_ground) break;
    }
    out.bottom = std::min(out.bottom, out.top);
}

}  // namespace

ValueRange world_chunk_range(const Field& field, const ChunkDeltas* deltas, const WorldJob& job) {
    // The column's ground range over its samples tells, without sampling, whether the chunk
    // can hold a surface at all.
    const ChunkCoord& c = job.coord;
    const double floor_m = job.lowest_layer * double(kChunkSize);
    const glm::dvec3 lo = c.origin_m(), hi = lo + kChunkSize * c.spacing_m();
    const ColumnSource* columns = field.columns();
    ValueRange range = columns ? columns->bounds_with_ground({lo, hi}, job.ground) : field.bounds({lo, hi});
    if (deltas) {
        const ValueRange d = deltas->range(c.read_box());
        range = {range.lo + d.lo, range.hi + d.hi};
    }
    return {std::min(range.lo, double(world_floor_value(lo.y, floor_m))), std::min(range.hi, double(world_floor_value(hi.y, floor_m)))};
}

namespace {

// Samples and meshes a chunk; leaves `built` false when its bounds prove it empty or full.
void build_chunk(const Field& field, const ChunkDeltas* deltas, const WorldJob& job, WorldJobResult& out, const LatticeColumns* columns) {
    thread_local ChunkSamples samples;
    thread_local MeshScratch scratch;
    const ChunkCoord& c = job.coord;
    const double floor_m = job.lowest_layer * double(kChunkSize);
    const ValueRange range = world_chunk_range(field, deltas, job);
    out.water.clear();
    out.built = !(range.lo > 0.0 || range.hi <= 0.0);
    if (!out.built) return;
    sample_world_chunk(field, deltas, c, job.mesher, floor_m, samples, true, columns);
    // The world's columns meet other levels across x and z only.
    mesh_chunk(job.mesher, samples, field.material_rules(), scratch, out.mesh, kWorldTransitionSides);
    // Over the triangle budget: the inside simplified, within half a sample (level 0, under
    // the camera, keeps every triangle), for the meshers whose seams stay closed then.
    if (job.chunk_triangles > 0 && c.lod >= 1 && mesher_info(job.mesher).simplifiable && out.mesh.triangle_count() > job.chunk_triangles)
        simplify_interior(out.mesh, c.spacing_m(), 0.5 * c.spacing_m(), job.chunk_triangles);
    // The water of the cells whose ground this chunk holds (a chunk with a surface there).
    mesh_water(samples, out.water, floor_m);
    if (out.water.indices.empty()) out.water.clear();
}

}  // namespace

void run_world_job(const Field& field, const ChunkDeltas* deltas, const WorldJob& job, WorldJobResult& out, const LatticeColumns* columns) {
    if (job.survey) survey_column(field, job, out);
    else build_chunk(field, deltas, job, out, columns);
}

int edited_bottom_layer(const ChunkDeltas* deltas, const LodColumn& c) {
    // The lowest layer of this level whose chunks read an edited sample of the column (two
    // samples of padding below them), or of its neighbours' (one level-0 column around).
    if (!deltas || deltas->empty()) return INT_MAX;
    const std::int64_t span = std::int64_t{1} << c.level;
    const std::int64_t x0 = c.x * span - 1, x1 = (c.x + 1) * span, z0 = c.z * span - 1, z1 = (c.z + 1) * span;
    const double size = c.size_m();
    int bottom = INT_MAX;
    for (const auto& [d, chunk] : deltas->chunks())
        if (d.x >= x0 && d.x <= x1 && d.z >= z0 && d.z <= z1)
            bottom = std::min(bottom, static_cast<int>(std::floor((d.y * double(kChunkSize) - 2.0 * c.size_m() / kChunkSize) / size)));
    return bottom;
}

int edited_top_layer(const ChunkDeltas* deltas, const LodColumn& c) {
    // The highest layer of this level that holds an edited sample of the column, or of the
    // samples of its neighbours that its chunks read (one level-0 column around).
    if (!deltas || deltas->empty()) return INT_MIN;
    const std::int64_t span = std::int64_t{1} << c.level;
    const std::int64_t x0 = c.x * span - 1, x1 = (c.x + 1) * span, z0 = c.z * span - 1, z1 = (c.z + 1) * span;
    const double size = c.size_m();
    int top = INT_MIN;
    for (const auto& [d, chunk] : deltas->chunks())
        if (d.x >= x0 && d.x <= x1 && d.z >= z0 && d.z <= z1)
            top = std::max(top, static_cast<int>(std::floor((d.y * double(kChunkSize) + kChunkSize - 1) / size)));
    return top;
}

}  // namespace isoterra
