// The streaming world of seed 003, to the horizon: which columns of which level to keep,
// survey, build and drop around a focus, and the jobs that do it, nearest first, on the
// World's workers or the owner's. What is shown, and when, is world_delivery.cpp's.
#include "isoterra/world.hpp"

#include <glm/common.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "coarse_first.hpp"
#include "triangle_budget.hpp"
#include "world_state.hpp"

namespace isoterra {
namespace {

double distance_to_box(const glm::dvec3& p, const Box& b) {
    const glm::dvec3 d = glm::max(glm::max(b.lo - p, p - b.hi), glm::dvec3(0.0));
    return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

}  // namespace

World::World(std::shared_ptr<const Field> field, const WorldSettings& settings, std::shared_ptr<const ChunkDeltas> deltas)
    : state_(std::make_unique<State>(std::move(field), settings, std::move(deltas))) {}
World::~World() {
    for (const auto& c : companions()) c->world_ending();
}
void World::set_focus(const glm::dvec3& focus) {
    set_focus(focus, std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count());
}
void World::set_focus(const glm::dvec3& focus, double time_s) {
    state_->set_focus(focus, time_s);
    for (const auto& c : companions()) c->focus_moved(focus);
}
void World::set_mesher(Mesher mesher) { state_->set_mesher(mesher); }
void World::invalidate(const Box& box) { state_->invalidate(box); }
void World::set_edits(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed) {
    state_->set_edits(deltas, changed);
    for (const auto& c : companions()) c->edited(deltas, changed);
}
std::size_t World::deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink) {
    return state_->deliver(budget_ms, sink);
}
bool World::take_job(WorldJob& job) {
    std::shared_ptr<const LatticeColumns> columns;
    return state_->take_job(job, columns);
}
bool World::take_job(WorldJob& job, std::shared_ptr<const LatticeColumns>& columns) { return state_->take_job(job, columns); }
void World::finish_job(const WorldJob& job, WorldJobResult result) { state_->finish_job(job, std::move(result)); }
WorldCounts World::counts() const { return state_->counts(); }
bool World::settled() const { return state_->settled(); }
bool World::covered() const { return state_->covered(); }
std::vector<ChunkCoord> World::loaded() const { return state_->loaded(); }
LodColumnSet World::shown_columns() const { return state_->shown_columns(); }
int World::top_layer(const LodColumn& c) const { return state_->top_layer(c); }
int World::levels() const { return state_->lod_.levels; }
const WorldSettings& World::settings() const { return state_->settings_; }

World::State::State(std::shared_ptr<const Field> field, const WorldSettings& settings, std::shared_ptr<const ChunkDeltas> deltas)
    : field_(std::move(field)), deltas_(std::move(deltas)), settings_(settings), mesher_(settings.mesher) {
    check_view_plan(settings_, 1.0, "a World");
    int n = settings_.threads;
    if (n == 0) n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    settings_.threads = n;
    lod_.chunks_per_ring = settings_.ring();
    lod_.view_distance_m = settings_.view_distance_m;
    settings_.levels = settings_.levels_used();
    // Coarse first: one level above the coarsest wanted, whose few columns stand in first.
    lod_.stand_in_roots = settings_.coarse_first ? 1 : 0;
    lod_.levels = settings_.levels + lod_.stand_in_roots;
    ring_chosen_ = settings_.triangle_budget == 0;
    counts_.shown_per_level.assign(static_cast<std::size_t>(lod_.levels), 0);
    if (n > 0) pool_ = std::make_unique<TaskPool>(n);
}

World::State::~State() {
    {
        std::unique_lock<std::mutex> lock(mu_);
        stopping_ = true;
        idle_.wait(lock, [&] { return tasks_ == 0; });
    }
}

double World::State::distance_to(const Box& box) const { return distance_to_box(lead_focus_, box); }

ValueRange World::State::height_estimate(const LodColumn& c) const {
    // Nine heights over the column: only for distances, so a guess will do (and none for
    // a field without a ground height).
    Lattice lat;
    lat.origin = glm::i64vec3(2 * std::int64_t{c.x}, 0, 2 * std::int64_t{c.z});
    lat.size = glm::ivec3(3, 1, 3);
    lat.spacing_m = 0.5 * c.size_m();
    const ColumnSource* columns = field_->columns();
    float h[9];
    if (!columns || !columns->ground_heights(lat, h)) return {0.0, 0.0};
    const auto [lo, hi] = std::minmax_element(h, h + 9);
    return {*lo - columns->ground_bend(), *hi + columns->ground_bend()};
}

int World::State::edited_top(const LodColumn& c) const { return edited_top_layer(deltas_.get(), c); }

void World::State::add_chunks_locked(const LodColumn& c, Column& column) {
    column.top = std::max(column.top, edited_top(c));
    // Edits below the column's lowest chunk (a carve into the rock under it) get chunks too,
    // down to the world's floor.
    const int edited_bottom = edited_bottom_layer(deltas_.get(), c);
    if (edited_bottom < column.bottom)
        column.bottom = std::max(edited_bottom, static_cast<int>(std::floor(settings_.lowest_layer * double(kChunkSize) / c.size_m())));
    for (int y = column.bottom; y <= column.top; ++y) {
        const ChunkCoord coord = chunk_of(c, y);
        auto [it, fresh] = chunks_.try_emplace(coord, Chunk{next_version_++, -1, -1, 0, {}});
        if (!fresh) continue;
        // Taken next: its column was surveyed nearest first. The next frame sorts it in.
        const glm::dvec3 lo = coord.origin_m();
        jobs_.push_back({false, coord, it->second.version, mesher_, distance_to({lo, lo + kChunkSize * coord.spacing_m()}), {}, 0});
    }
    pump_locked();
}

ValueRange World::State::height_guess_locked(const LodColumn& c) {
    auto [it, fresh] = heights_.try_emplace(c);
    if (fresh) it->second = height_estimate(c);
    return it->second;
}

void World::State::guess_heights_locked(const std::vector<LodColumn>& columns) {
    std::vector<LodColumn> missing;
    for (const LodColumn& c : columns)
        if (!heights_.count(c)) missing.push_back(c);
    // The first target asks for about a thousand, before any job is queued: the workers help.
    std::vector<ValueRange> guesses(missing.size());
    const auto guess = [&](std::size_t i) { guesses[i] = height_estimate(missing[i]); };
    if (pool_ && missing.size() > 1) parallel_for(*pool_, missing.size(), pool_->threads() + 1, guess);
    else
        for (std::size_t i = 0; i < missing.size(); ++i) guess(i);
    for (std::size_t i = 0; i < missing.size(); ++i) heights_.emplace(missing[i], guesses[i]);
}

void World::State::retarget_locked(bool fresh) {
    LodTarget next = select_lod(
        lead_focus_, lod_, fresh ? LodTarget{} : target_, [&](const LodColumn& c) { return height_guess_locked(c); },
        [&](const std::vector<LodColumn>& level) { guess_heights_locked(level); });
    target_settled_ = next.leaves == target_.leaves && next.split == target_.split;
    target_ = std::move(next);
    // The guesses are kept for the columns of the tree only.
    for (auto it = heights_.begin(); it != heights_.end();)
        it = target_.leaves.count(it->first) || target_.split.count(it->first) ? std::next(it) : heights_.erase(it);
    for (const LodColumn& c : target_.leaves) columns_.try_emplace(c);
    if (!ring_chosen_ && !probed_) {  // around the focus as it is now: the old ones are dropped
        budget_probe_ = detail::budget_probe(target_, settings_.levels, lead_focus_);
        for (const LodColumn& c : budget_probe_) columns_.try_emplace(c);
    }
    update_stand_ins_locked();
    if (target_.leaves != wanted_) {
        wanted_ = target_.leaves;
        shown_dirty_ = true;
    }
    drop_unwanted_locked();
}

bool World::State::choose_ring_locked() {
    if (ring_chosen_) return false;
    // First the probe's columns, whose estimate stands for the whole view (aiming a tenth
    // below the budget: a level's columns around the focus have been 3-14 % off its mean);
    // then, once the target is built, its own columns, narrowing again if they are over.
    const bool probing = !probed_;
    if (probing && budget_probe_.empty()) return false;  // no focus yet
    const LodColumnSet& columns = probing ? budget_probe_ : target_.leaves;
    for (const LodColumn& c : columns)
        if (!handed_whole_locked(c)) return false;
    std::unordered_map<LodColumn, std::size_t, LodColumnHash> measured;
    for (const LodColumn& c : columns) {
        const Column& column = columns_.at(c);
        // The probe's columns counted as beside their own level; the target's as drawn in it.
        const Neighbourhood beside = probing ? Neighbourhood{} : neighbourhood_in(target_.leaves, c, lod_.levels);
        std::size_t triangles = 0;
        for (int y = column.bottom; y <= column.top; ++y) {
            const Chunk& chunk = chunks_.at(chunk_of(c, y));
            triangles += drawn_triangles(chunk.ranges, chunk.triangles, beside);
        }
        measured.emplace(c, triangles);
    }
    const double aim = static_cast<double>(settings_.triangle_budget) * (probing ? 0.9 : 1.0);
    const double ring = detail::ring_within_budget(lod_.chunks_per_ring, static_cast<std::size_t>(aim), [&](double r) {
        LodParams p = lod_;
        p.chunks_per_ring = r;
        const LodTarget t = select_lod(
            lead_focus_, p, {}, [&](const LodColumn& c) { return height_guess_locked(c); },
            [&](const std::vector<LodColumn>& level) { guess_heights_locked(level); });
        return detail::estimated_triangles(t.leaves, measured, lod_.levels);
    });
    budget_probe_.clear();
    probed_ = true;
    if (!probing && ring == lod_.chunks_per_ring) {
        ring_chosen_ = true;  // the target is within the budget (or the ring is the narrowest)
        return false;
    }
    lod_.chunks_per_ring = ring;
    // Without the old target's hysteresis, which would keep its wider ring; this drops the
    // measured columns the new target does not hold.
    retarget_locked(ring != settings_.ring());
    return true;
}

void World::State::update_stand_ins_locked() {
    if (!settings_.coarse_first) return;
    stand_ins_ =
        detail::stand_ins(target_, shown_, lod_.levels, lead_focus_, detail::kStandInLevels + lod_.stand_in_roots, !moving_locked());
    for (const LodColumn& c : stand_ins_) columns_.try_emplace(c);
}

void World::State::set_mesher(Mesher mesher) {
    std::lock_guard<std::mutex> lock(mu_);
    mesher_ = mesher;
    for (auto& [c, chunk] : chunks_) chunk.version = next_version_++;
    queue_jobs_locked();
}

void World::State::invalidate(const Box& box) {
    std::lock_guard<std::mutex> lock(mu_);
    invalidate_locked(box);
    queue_jobs_locked();
}

void World::State::set_edits(std::shared_ptr<const ChunkDeltas> deltas, const Box& changed) {
    std::lock_guard<std::mutex> lock(mu_);
    deltas_ = std::move(deltas);
    for (auto& [c, column] : columns_)
        if (column.surveyed) add_chunks_locked(c, column);
    invalidate_locked(changed);
    queue_jobs_locked();
}

void World::State::invalidate_locked(const Box& box) {
    for (auto& [c, chunk] : chunks_) {
        const Box r = c.read_box();
        if (r.lo.x <= box.hi.x && r.hi.x >= box.lo.x && r.lo.y <= box.hi.y && r.hi.y >= box.lo.y && r.lo.z <= box.hi.z &&
            r.hi.z >= box.lo.z)
            chunk.version = next_version_++;
    }
}

void World::State::queue_jobs_locked() {
    jobs_.clear();
    // Column by column: a surveyed column's chunks are its layers bottom..top (add_chunks_locked),
    // so each wanted one is found once, without a pass over every chunk and a column lookup for
    // each (the order below is total: the list comes out the same).
    // (A column kept only for a join behind the camera is not built again meanwhile.)
    for (const auto& [c, column] : columns_) {
        if (column.surveying || !(column.shown || wanted_locked(c))) continue;
        if (column.surveyed) {
            for (int y = column.bottom; y <= column.top; ++y) {
                const auto it = chunks_.find(chunk_of(c, y));
                if (it == chunks_.end()) continue;
                const Chunk& chunk = it->second;
                if (static_cast<std::int64_t>(chunk.version) == chunk.handed || chunk.pending >= 0) continue;
                const glm::dvec3 lo = it->first.origin_m();
                jobs_.push_back(
                    {false, it->first, chunk.version, mesher_, distance_to({lo, lo + kChunkSize * it->first.spacing_m()}), {}, 0});
            }
            continue;
        }
        const double s = c.size_m();
        auto h = heights_.find(c);
        const ValueRange height = h != heights_.end() ? h->second : ValueRange{0.0, 0.0};
        const Box box{{c.x * s, height.lo, c.z * s}, {(c.x + 1) * s, height.hi, (c.z + 1) * s}};
        jobs_.push_back({true, {c.x, 0, c.z, c.level}, 0, mesher_, distance_to(box), {}, 0});
    }
    // Nearest last, so that workers pop the nearest; finer levels first at equal distance
    // (an edit's own chunks before the coarser ones over it), then surveys, then by
    // coordinate, for a repeatable order. Coarse first: the coarsest level before all, then
    // the other stand-ins. The columns the triangle budget measures come with the stand-ins
    // (first, without coarse first), so that it narrows the ring before the rest is built.
    const int top = lod_.levels - 1;
    const auto tier = [&](const WorldJob& j) {
        const LodColumn c{j.coord.lod, j.coord.x, j.coord.z};
        if (!settings_.coarse_first) return budget_probe_.count(c) ? 0 : 1;
        return j.coord.lod == top ? 0 : stand_ins_.count(c) || budget_probe_.count(c) ? 1 : 2;
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
    pump_locked();
}

bool World::State::take_job_locked(WorldJob& job, std::shared_ptr<const LatticeColumns>& columns) {
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

void World::State::finish_job_locked(const WorldJob& job, WorldJobResult&& result) {
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

bool World::State::take_job(WorldJob& job, std::shared_ptr<const LatticeColumns>& columns) {
    std::lock_guard<std::mutex> lock(mu_);
    columns.reset();
    return take_job_locked(job, columns);
}

void World::State::finish_job(const WorldJob& job, WorldJobResult result) {
    std::lock_guard<std::mutex> lock(mu_);
    finish_job_locked(job, std::move(result));
}

void World::State::pump_locked() {
    if (!pool_) return;  // the owner's workers take the jobs
    for (; !stopping_ && tasks_ < settings_.threads && !jobs_.empty(); ++tasks_)
        pool_->submit(TaskPriority::normal, [this] { run_jobs(); });
}

void World::State::run_jobs() {
    std::unique_lock<std::mutex> lock(mu_);
    WorldJob job;
    std::shared_ptr<const LatticeColumns> columns;
    while (!stopping_ && take_job_locked(job, columns)) {
        const std::shared_ptr<const ChunkDeltas> deltas = deltas_;
        lock.unlock();
        WorldJobResult result;
        run_world_job(*field_, deltas.get(), job, result, columns.get());
        columns.reset();
        lock.lock();
        finish_job_locked(job, std::move(result));
        if (!companions_.empty()) {  // a piece of each companion's work between jobs
            const auto companions = companions_;
            lock.unlock();
            for (const auto& c : companions) c->run_one();
            lock.lock();
        }
    }
    if (--tasks_ == 0) idle_.notify_all();
}

}  // namespace isoterra
