// The streaming world of seed 003, to the horizon: which columns of which level to keep,
// survey, build, show and drop around a focus. One mutex guards the tables, the job list and
// the finished list; workers hold it only to take a job and to hand back a result, never
// while surveying, sampling or meshing.
#include <glm/common.hpp>

#include "isoterra/world.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>

#include "coarse_first.hpp"
#include "lod_swaps.hpp"

namespace isoterra {
namespace {

double distance_to_box(const glm::dvec3& p, const Box& b) {
    const glm::dvec3 d = glm::max(glm::max(b.lo - p, p - b.hi), glm::dvec3(0.0));
    return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

ChunkCoord chunk_of(const LodColumn& c, int y) { return {c.x, y, c.z, c.level}; }

}  // namespace

void sample_world_chunk(const Field& field, const ChunkDeltas* deltas, const ChunkCoord& c, Mesher mesher, double floor_m,
                        ChunkSamples& out, bool surface, const LatticeColumns* columns) {
    const bool edited = deltas && !deltas->empty();
    const LatticeUse use = !surface ? LatticeUse::values : edited ? meshing_lattice_use(*deltas, c) : LatticeUse::surface;
    out.coord = c;
    out.pad = mesher_padding(mesher);
    out.lattice = chunk_lattice(c, out.pad);
    const Lattice& lat = out.lattice;
    out.values.resize(lat.count());
    out.ground.resize(static_cast<std::size_t>(lat.size.x) * lat.size.z);
    // The world's floor: rock below it, so the surfaces of caves close there instead of
    // ending in the open at the lowest chunks. At and below the floor the value is the
    // floor's alone, so those rows (most of a coarse chunk's lowest layer) are not sampled.
    const int below = static_cast<int>(std::clamp<std::int64_t>(
        static_cast<std::int64_t>(std::floor(floor_m / lat.spacing_m)) - lat.origin.y + 1, 0, lat.size.y));
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
                std::fill_n(&out.values[lat.index(0, j, k)], lat.size.x, world_floor_value(static_cast<double>(lat.origin.y + j) * sp, floor_m));
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
    out.lattice_columns = field.columns_of(chunk_lattice({c.x, 0, c.z, c.level}, pad));
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
        has_ground = field.ground_heights(lat, heights.data());
    }
    if (has_ground) {
        const auto [lo, hi] = std::minmax_element(heights.begin(), heights.end());
        // Floats of the double heights: a centimetre covers their rounding.
        const double bend = field.ground_bend() + 0.01 + 1e-6 * std::max(std::fabs(*lo), std::fabs(*hi));
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
        const ValueRange r = field.bounds_with_ground({{x0, y * size, z0}, {x0 + size, (y + 1) * size, z0 + size}}, out.ground);
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
    ValueRange range = field.bounds_with_ground({lo, hi}, job.ground);
    if (deltas) {
        const ValueRange d = deltas->range(c.read_box());
        range = {range.lo + d.lo, range.hi + d.hi};
    }
    return {std::min(range.lo, double(world_floor_value(lo.y, floor_m))), std::min(range.hi, double(world_floor_value(hi.y, floor_m)))};
}

namespace {

// Samples and meshes a chunk; leaves `built` false when its bounds prove it empty or full.
void build_chunk(const Field& field, const ChunkDeltas* deltas, const WorldJob& job, WorldJobResult& out,
                 const LatticeColumns* columns) {
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
    if (job.chunk_triangles > 0 && c.lod >= 1 && mesher_info(job.mesher).simplifiable &&
        out.mesh.triangle_count() > job.chunk_triangles)
        simplify_interior(out.mesh, c.spacing_m(), 0.5 * c.spacing_m(), job.chunk_triangles);
    // The water of the cells whose ground this chunk holds (a chunk with a surface there).
    mesh_water(samples, out.water, floor_m);
    if (out.water.indices.empty()) out.water.clear();
}

}  // namespace

void run_world_job(const Field& field, const ChunkDeltas* deltas, const WorldJob& job, WorldJobResult& out,
                   const LatticeColumns* columns) {
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

World::World(std::shared_ptr<const Field> field, const WorldSettings& settings, std::shared_ptr<const ChunkDeltas> deltas)
    : field_(std::move(field)), deltas_(std::move(deltas)), settings_(settings), mesher_(settings.mesher) {
    int n = settings_.threads;
    if (n == 0) n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    settings_.threads = n;
    lod_.chunks_per_ring = settings_.ring();
    lod_.view_distance_m = settings_.view_distance_m;
    lod_.levels = settings_.levels_used();
    settings_.levels = lod_.levels;
    counts_.shown_per_level.assign(static_cast<std::size_t>(lod_.levels), 0);
    for (int i = 0; i < n; ++i) workers_.emplace_back([this] { work(); });
}

World::~World() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
}

double World::distance_to(const Box& box) const { return distance_to_box(focus_, box); }

ValueRange World::height_estimate(const LodColumn& c) const {
    // Nine heights over the column: only for distances, so a guess will do (and none for
    // a field without a ground height).
    Lattice lat;
    lat.origin = glm::i64vec3(2 * std::int64_t{c.x}, 0, 2 * std::int64_t{c.z});
    lat.size = glm::ivec3(3, 1, 3);
    lat.spacing_m = 0.5 * c.size_m();
    float h[9];
    if (!field_->ground_heights(lat, h)) return {0.0, 0.0};
    const auto [lo, hi] = std::minmax_element(h, h + 9);
    return {*lo - field_->ground_bend(), *hi + field_->ground_bend()};
}

int World::edited_top(const LodColumn& c) const { return edited_top_layer(deltas_.get(), c); }

void World::add_chunks_locked(const LodColumn& c, Column& column) {
    column.top = std::max(column.top, edited_top(c));
    // Edits below the column's lowest chunk (a carve into the rock under it) get chunks too,
    // down to the world's floor.
    const int edited_bottom = edited_bottom_layer(deltas_.get(), c);
    if (edited_bottom < column.bottom)
        column.bottom = std::max(edited_bottom, static_cast<int>(std::floor(settings_.lowest_layer * double(kChunkSize) / c.size_m())));
    for (int y = column.bottom; y <= column.top; ++y) {
        const ChunkCoord coord = chunk_of(c, y);
        auto [it, fresh] = chunks_.try_emplace(coord, Chunk{next_version_++, -1, -1});
        if (!fresh) continue;
        // Taken next: its column was surveyed nearest first. The next frame sorts it in.
        const glm::dvec3 lo = coord.origin_m();
        jobs_.push_back({false, coord, it->second.version, mesher_, distance_to({lo, lo + kChunkSize * coord.spacing_m()}), {}, 0});
    }
    wake_.notify_all();
}

void World::set_focus(const glm::dvec3& wanted) {
    // A focus past the world's edge is held at it; one that is not a number changes nothing.
    if (!std::isfinite(wanted.x) || !std::isfinite(wanted.y) || !std::isfinite(wanted.z)) return;
    const glm::dvec3 focus = glm::clamp(wanted, glm::dvec3(-kCoordinateLimit_m), glm::dvec3(kCoordinateLimit_m));
    std::lock_guard<std::mutex> lock(mu_);
    focus_ = focus;
    target_ = select_lod(focus, lod_, target_, [&](const LodColumn& c) {
        auto [it, fresh] = heights_.try_emplace(c);
        if (fresh) it->second = height_estimate(c);
        return it->second;
    });
    // The guesses are kept for the columns of the tree only.
    for (auto it = heights_.begin(); it != heights_.end();)
        it = target_.leaves.count(it->first) || target_.split.count(it->first) ? std::next(it) : heights_.erase(it);
    for (const LodColumn& c : target_.leaves) columns_.try_emplace(c);
    update_stand_ins_locked();
    if (target_.leaves != wanted_) {
        wanted_ = target_.leaves;
        shown_dirty_ = true;
    }
    drop_unwanted_locked();
    queue_jobs_locked();
}

void World::update_stand_ins_locked() {
    if (!settings_.coarse_first) return;
    stand_ins_ = detail::stand_ins(target_, shown_, lod_.levels, focus_);
    for (const LodColumn& c : stand_ins_) columns_.try_emplace(c);
}

void World::drop_unwanted_locked() {
    for (auto it = columns_.begin(); it != columns_.end();) {
        if (it->second.shown || target_.leaves.count(it->first) || stand_ins_.count(it->first)) {
            ++it;
            continue;
        }
        if (it->second.surveyed)
            for (int y = it->second.bottom; y <= it->second.top; ++y) {
                auto chunk = chunks_.find(chunk_of(it->first, y));
                if (chunk == chunks_.end()) continue;
                if (chunk->second.handed >= 0) finished_.push_back({chunk->first, chunk->second.version, true, {}, {}});
                chunks_.erase(chunk);
            }
        it = columns_.erase(it);
    }
}

void World::set_mesher(Mesher mesher) {
    std::lock_guard<std::mutex> lock(mu_);
    mesher_ = mesher;
    for (auto& [c, chunk] : chunks_) chunk.version = next_version_++;
    queue_jobs_locked();
}

void World::invalidate(const Box& box) {
    std::lock_guard<std::mutex> lock(mu_);
    invalidate_locked(box);
    queue_jobs_locked();
}

void World::set_edits(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed) {
    std::lock_guard<std::mutex> lock(mu_);
    deltas_ = std::move(deltas);
    for (auto& [c, column] : columns_)
        if (column.surveyed) add_chunks_locked(c, column);
    invalidate_locked(changed);
    queue_jobs_locked();
}

void World::invalidate_locked(const Box& box) {
    for (auto& [c, chunk] : chunks_) {
        const Box r = c.read_box();
        if (r.lo.x <= box.hi.x && r.hi.x >= box.lo.x && r.lo.y <= box.hi.y && r.hi.y >= box.lo.y && r.lo.z <= box.hi.z &&
            r.hi.z >= box.lo.z)
            chunk.version = next_version_++;
    }
}

void World::queue_jobs_locked() {
    jobs_.clear();
    for (const auto& [c, column] : columns_) {
        if (column.surveyed || column.surveying) continue;
        const double s = c.size_m();
        auto h = heights_.find(c);
        const ValueRange height = h != heights_.end() ? h->second : ValueRange{0.0, 0.0};
        const Box box{{c.x * s, height.lo, c.z * s}, {(c.x + 1) * s, height.hi, (c.z + 1) * s}};
        jobs_.push_back({true, {c.x, 0, c.z, c.level}, 0, mesher_, distance_to(box), {}, 0});
    }
    for (const auto& [c, chunk] : chunks_)
        if (static_cast<std::int64_t>(chunk.version) != chunk.handed && chunk.pending < 0) {
            const glm::dvec3 lo = c.origin_m();
            jobs_.push_back({false, c, chunk.version, mesher_, distance_to({lo, lo + kChunkSize * c.spacing_m()}), {}, 0});
        }
    // Nearest last, so that workers pop the nearest; finer levels first at equal distance
    // (an edit's own chunks before the coarser ones over it), then surveys, then by
    // coordinate, for a repeatable order. Coarse first: the coarsest level before all, then
    // the other stand-ins.
    const int top = lod_.levels - 1;
    const auto tier = [&](const WorldJob& j) {
        if (!settings_.coarse_first) return 0;
        return j.coord.lod == top ? 0 : stand_ins_.count({j.coord.lod, j.coord.x, j.coord.z}) ? 1 : 2;
    };
    std::vector<std::pair<int, std::size_t>> order(jobs_.size());  // tier, job
    for (std::size_t k = 0; k < jobs_.size(); ++k) order[k] = {tier(jobs_[k]), k};
    std::sort(order.begin(), order.end(), [&](const auto& x, const auto& y) {
        if (x.first != y.first) return x.first > y.first;
        const WorldJob &a = jobs_[x.second], &b = jobs_[y.second];
        if (a.distance != b.distance) return a.distance > b.distance;
        if (a.coord.lod != b.coord.lod) return a.coord.lod > b.coord.lod;
        if (a.survey != b.survey) return b.survey;
        return std::tie(a.coord.x, a.coord.y, a.coord.z) > std::tie(b.coord.x, b.coord.y, b.coord.z);
    });
    std::vector<WorldJob> sorted;
    sorted.reserve(jobs_.size());
    for (const auto& [t, k] : order) sorted.push_back(jobs_[k]);
    jobs_.swap(sorted);
    if (!jobs_.empty()) wake_.notify_all();
}

bool World::take_job_locked(WorldJob& job, std::shared_ptr<const LatticeColumns>& columns) {
    // The job list is rebuilt every frame, but a column or chunk may have gone or changed since.
    while (!jobs_.empty()) {
        job = jobs_.back();
        jobs_.pop_back();
        job.lowest_layer = settings_.lowest_layer;
        job.chunk_triangles = settings_.chunk_triangles;
        if (job.survey) {
            auto it = columns_.find({job.coord.lod, job.coord.x, job.coord.z});
            if (it == columns_.end() || it->second.surveyed || it->second.surveying) continue;
            it->second.surveying = true;
            job.mesher = mesher_;
        } else {
            auto it = chunks_.find(job.coord);
            if (it == chunks_.end() || it->second.version != job.version || it->second.pending >= 0) continue;
            it->second.pending = static_cast<std::int64_t>(job.version);
            const Column& column = columns_.at({job.coord.lod, job.coord.x, job.coord.z});
            job.ground = column.ground;
            columns = column.lattice_columns;
        }
        ++counts_.building;
        return true;
    }
    return false;
}

void World::finish_job_locked(const WorldJob& job, WorldJobResult&& result) {
    --counts_.building;
    if (job.survey) {
        auto it = columns_.find({job.coord.lod, job.coord.x, job.coord.z});
        if (it == columns_.end()) return;
        Column& column = it->second;
        column.surveying = false;
        column.surveyed = true;
        column.bottom = result.bottom;
        column.top = result.top;
        column.ground = result.ground;
        column.lattice_columns = std::move(result.lattice_columns);
        add_chunks_locked(it->first, column);
        return;
    }
    ++(result.built ? counts_.built : counts_.skipped);
    finished_.push_back({job.coord, job.version, false, std::move(result.mesh), std::move(result.water)});
}

bool World::take_job(WorldJob& job) {
    std::lock_guard<std::mutex> lock(mu_);
    std::shared_ptr<const LatticeColumns> columns;
    return take_job_locked(job, columns);
}

void World::finish_job(const WorldJob& job, WorldJobResult result) {
    std::lock_guard<std::mutex> lock(mu_);
    finish_job_locked(job, std::move(result));
}

void World::work() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (stopping_) return;
        WorldJob job;
        std::shared_ptr<const LatticeColumns> columns;
        if (!take_job_locked(job, columns)) continue;
        const std::shared_ptr<const ChunkDeltas> deltas = deltas_;
        lock.unlock();
        WorldJobResult result;
        run_world_job(*field_, deltas.get(), job, result, columns.get());
        lock.lock();
        finish_job_locked(job, std::move(result));
    }
}

void World::update_shown(std::vector<ChunkUpdate>& changes) {
    // What the swaps need, taken under the lock; the swaps themselves worked out without it,
    // so workers are not held up. Meanwhile only this thread changes what is shown, handed
    // or wanted, so the answer still holds when it is applied.
    LodColumnSet shown, stand_ins, ready;
    LodTarget target;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (!shown_dirty_) return;
        shown_dirty_ = false;
        shown = shown_;
        target = target_;
        stand_ins = stand_ins_;
        // Ready: every chunk handed over (an empty column is ready at once).
        for (const LodColumnSet* set : {&target.leaves, &stand_ins}) {
            for (const LodColumn& c : *set) {
                if (shown.count(c)) continue;
                auto it = columns_.find(c);
                bool all = it != columns_.end() && it->second.surveyed;
                for (int y = all ? it->second.bottom : 0; all && y <= it->second.top; ++y) {
                    auto chunk = chunks_.find(chunk_of(c, y));
                    all = chunk != chunks_.end() && chunk->second.handed >= 0;
                }
                if (all) ready.insert(c);
            }
        }
    }
    const auto is_ready = [&](const LodColumn& c) { return ready.count(c) > 0; };
    const LodColumnSet wanted =
        settings_.coarse_first ? detail::staged_target(target, stand_ins, shown, lod_.levels, is_ready) : target.leaves;
    LodColumnSet next = detail::next_shown(shown, wanted, lod_.levels, is_ready);
    if (next == shown) return;
    std::vector<std::pair<LodColumn, Neighbourhood>> around;
    for (const LodColumn& c : next) around.emplace_back(c, neighbourhood_in(next, c, lod_.levels));

    std::lock_guard<std::mutex> lock(mu_);
    const auto tell = [&](const LodColumn& c, const Column& column) {
        for (int y = column.bottom; y <= column.top; ++y) {
            auto chunk = chunks_.find(chunk_of(c, y));
            if (chunk == chunks_.end() || chunk->second.handed < 0) continue;
            changes.push_back({chunk->first, static_cast<std::uint64_t>(chunk->second.handed), false, nullptr, column.shown,
                               column.neighbours});
        }
    };
    for (const LodColumn& c : shown_)
        if (!next.count(c)) {
            Column& column = columns_.at(c);
            column.shown = false;
            tell(c, column);
        }
    for (const auto& [c, n] : around) {
        Column& column = columns_.at(c);
        if (column.shown && column.neighbours == n) continue;
        column.shown = true;
        column.neighbours = n;
        tell(c, column);
    }
    shown_ = std::move(next);
    update_stand_ins_locked();
    drop_unwanted_locked();
    // What the swap let go: dropped now, so the owner frees it in the same frame.
    while (!finished_.empty() && finished_.back().dropped) {
        const Finished& f = finished_.back();
        changes.push_back({f.coord, f.version, true, nullptr, false, {}});
        finished_.pop_back();
    }
}

std::size_t World::deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink) {
    const auto start = std::chrono::steady_clock::now();
    std::size_t handed = 0;
    for (;;) {
        Finished f;
        bool visible = false;
        Neighbourhood neighbours;
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (finished_.empty()) break;
            if (handed > 0 && std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() >= budget_ms)
                break;
            f = std::move(finished_.front());
            finished_.pop_front();
            if (!f.dropped) {
                // Built for a chunk that has since been dropped (or dropped and added anew):
                // throw it away.
                auto it = chunks_.find(f.coord);
                if (it == chunks_.end() || it->second.pending != static_cast<std::int64_t>(f.version)) continue;
                it->second.pending = -1;
                it->second.handed = static_cast<std::int64_t>(f.version);
                const Column& column = columns_.at({f.coord.lod, f.coord.x, f.coord.z});
                visible = column.shown;
                neighbours = column.neighbours;
                shown_dirty_ |= !column.shown;  // its column may be ready now
                // Out of date already (the mesher changed meanwhile): build it again.
                if (it->second.version != f.version) queue_jobs_locked();
            }
        }
        sink(ChunkUpdate{f.coord, f.version, f.dropped, f.dropped ? nullptr : &f.mesh, visible, neighbours,
                         f.dropped ? nullptr : &f.water});
        ++handed;
    }
    std::vector<ChunkUpdate> changes;
    update_shown(changes);
    for (const ChunkUpdate& u : changes) sink(u);
    return handed + changes.size();
}

WorldCounts World::counts() const {
    std::lock_guard<std::mutex> lock(mu_);
    WorldCounts c = counts_;
    c.loaded = chunks_.size();
    c.waiting = 0;
    for (const auto& [coord, chunk] : chunks_) c.waiting += static_cast<std::int64_t>(chunk.version) != chunk.handed;
    for (const LodColumn& s : shown_) {
        const Column& column = columns_.at(s);
        c.shown_per_level[static_cast<std::size_t>(s.level)] += static_cast<std::size_t>(column.top - column.bottom + 1);
    }
    return c;
}

bool World::settled() const {
    std::lock_guard<std::mutex> lock(mu_);
    if (!finished_.empty() || counts_.building > 0 || shown_ != target_.leaves) return false;
    for (const auto& [coord, chunk] : chunks_)
        if (static_cast<std::int64_t>(chunk.version) != chunk.handed) return false;
    return true;
}

bool World::covered() const {
    std::lock_guard<std::mutex> lock(mu_);
    return detail::view_covered(shown_, target_.leaves, lod_.levels);
}

std::vector<ChunkCoord> World::loaded() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<ChunkCoord> out;
    out.reserve(chunks_.size());
    for (const auto& [coord, chunk] : chunks_) out.push_back(coord);
    return out;
}

int World::top_layer(const LodColumn& c) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = columns_.find(c);
    return it == columns_.end() || !it->second.surveyed ? INT_MIN : it->second.top;
}

LodColumnSet World::shown_columns() const {
    std::lock_guard<std::mutex> lock(mu_);
    return shown_;
}

}  // namespace isoterra
