// The streaming world of seed 003: which chunks to keep, build, show and drop around a
// focus. One mutex guards the chunk table, the job list and the finished list; workers hold
// it only to take a job and to hand back a result, never while sampling or meshing.
#include "isoterra/world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace isoterra {
namespace {

// Chunks are dropped a little beyond the view radius, so that one on the edge is not
// dropped and loaded again as the focus moves back and forth across a border.
constexpr double kDropMargin = 1.5;

}  // namespace

World::World(std::shared_ptr<const TerrainField> field, const WorldSettings& settings, std::shared_ptr<const ChunkDeltas> deltas)
    : field_(std::move(field)), deltas_(std::move(deltas)), settings_(settings), mesher_(settings.mesher) {
    int n = settings_.threads;
    if (n <= 0) n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    settings_.threads = n;
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

World::Column& World::column_locked(int x, int z) const {
    auto it = columns_.find(column_key(x, z));
    if (it == columns_.end()) {
        const double h = field_->highest_ground(x * double(kChunkSize), z * double(kChunkSize), kChunkSize);
        const int rule_top = static_cast<int>(std::floor(h / kChunkSize));
        const int top = deltas_ ? std::max(rule_top, deltas_->highest_layer(x, z)) : rule_top;
        it = columns_.emplace(column_key(x, z), Column{rule_top, top, false, {}}).first;
    }
    return it->second;
}

int World::top_layer(int x, int z) const {
    std::lock_guard<std::mutex> lock(mu_);
    return column_locked(x, z).top;
}

double World::distance_to(const ChunkCoord& c) const {
    const glm::dvec3 centre = (glm::dvec3(c.x, c.y, c.z) + 0.5) * double(kChunkSize);
    const glm::dvec3 d = centre - focus_;
    return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

void World::set_focus(const glm::dvec3& focus) {
    std::lock_guard<std::mutex> lock(mu_);
    focus_ = focus;
    const int cx = static_cast<int>(std::floor(focus.x / kChunkSize));
    const int cz = static_cast<int>(std::floor(focus.z / kChunkSize));
    const double keep = (settings_.view_radius + kDropMargin) * (settings_.view_radius + kDropMargin);
    const auto far = [&](int x, int z) { return double(x - cx) * (x - cx) + double(z - cz) * (z - cz) > keep; };

    for (auto it = chunks_.begin(); it != chunks_.end();) {
        if (!far(it->first.x, it->first.z)) {
            ++it;
            continue;
        }
        if (it->second.shown >= 0) finished_.push_back({it->first, it->second.version, true, {}});
        it = chunks_.erase(it);
    }
    for (auto it = columns_.begin(); it != columns_.end();) {
        const int x = static_cast<int>(it->first >> 32), z = static_cast<int>(static_cast<std::int32_t>(it->first & 0xffffffff));
        it = far(x, z) ? columns_.erase(it) : std::next(it);
    }
    load_around_focus_locked();
    queue_jobs_locked();
}

void World::load_around_focus_locked() {
    const int cx = static_cast<int>(std::floor(focus_.x / kChunkSize));
    const int cz = static_cast<int>(std::floor(focus_.z / kChunkSize));
    const int r = settings_.view_radius;
    for (int dz = -r; dz <= r; ++dz)
        for (int dx = -r; dx <= r; ++dx) {
            if (dx * dx + dz * dz > r * r) continue;
            const int x = cx + dx, z = cz + dz;
            const int top = column_locked(x, z).top;
            for (int y = settings_.lowest_layer; y <= top; ++y) {
                const ChunkCoord c{x, y, z, 0};
                if (chunks_.count(c)) continue;
                chunks_.emplace(c, Chunk{c, next_version_++, -1, -1});
            }
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
    for (auto& [key, column] : columns_) {
        const int x = static_cast<int>(key >> 32), z = static_cast<int>(static_cast<std::int32_t>(key & 0xffffffff));
        column.top = deltas_ ? std::max(column.rule_top, deltas_->highest_layer(x, z)) : column.rule_top;
    }
    load_around_focus_locked();
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
    for (const auto& [c, chunk] : chunks_)
        if (static_cast<std::int64_t>(chunk.version) != chunk.shown && chunk.pending < 0)
            jobs_.push_back({c, chunk.version, mesher_, distance_to(c)});
    // Nearest last, so that workers pop the nearest; ties broken by coordinate for a
    // repeatable order.
    std::sort(jobs_.begin(), jobs_.end(), [](const Job& a, const Job& b) {
        if (a.distance != b.distance) return a.distance > b.distance;
        return std::tie(a.coord.x, a.coord.y, a.coord.z) > std::tie(b.coord.x, b.coord.y, b.coord.z);
    });
    if (!jobs_.empty()) wake_.notify_all();
}

void World::work() {
    thread_local ChunkSamples samples;
    thread_local MeshScratch scratch;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (stopping_) return;
        const Job job = jobs_.back();
        jobs_.pop_back();
        // The job list is rebuilt every frame, but a chunk may have gone or changed since.
        auto it = chunks_.find(job.coord);
        if (it == chunks_.end() || it->second.version != job.version || it->second.pending >= 0) continue;
        it->second.pending = static_cast<std::int64_t>(job.version);
        ++counts_.building;
        Column column = column_locked(job.coord.x, job.coord.z);
        const std::shared_ptr<const ChunkDeltas> deltas = deltas_;
        lock.unlock();

        // The column's proven ground range tells, without sampling, whether the chunk can
        // hold a surface at all.
        if (!column.has_ground_range) {
            const double x0 = job.coord.x * double(kChunkSize), z0 = job.coord.z * double(kChunkSize);
            column.ground = field_->ground_range(x0, z0, x0 + kChunkSize, z0 + kChunkSize);
            column.has_ground_range = true;
        }
        const glm::dvec3 lo = job.coord.origin_m();
        ValueRange range = field_->bounds_with_ground({lo, lo + double(kChunkSize)}, column.ground);
        LatticeUse use = LatticeUse::surface;
        if (deltas) {
            const ValueRange d = deltas->range(job.coord.read_box());
            range = {range.lo + d.lo, range.hi + d.hi};
            use = meshing_lattice_use(*deltas, job.coord);
        }
        Finished done{job.coord, job.version, false, {}};
        const bool empty = range.lo > 0.0 || range.hi <= 0.0;
        if (!empty) {
            sample_chunk(*field_, job.coord, mesher_padding(job.mesher), samples, use);
            if (deltas) apply_deltas(*deltas, samples);
            mesh_chunk(job.mesher, samples, field_->material_rules(), scratch, done.mesh);
        }

        lock.lock();
        auto col = columns_.find(column_key(job.coord.x, job.coord.z));
        if (col != columns_.end() && !col->second.has_ground_range) {
            col->second.ground = column.ground;
            col->second.has_ground_range = true;
        }
        --counts_.building;
        ++(empty ? counts_.skipped : counts_.built);
        finished_.push_back(std::move(done));
    }
}

std::size_t World::deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink) {
    const auto start = std::chrono::steady_clock::now();
    std::size_t handed = 0;
    for (;;) {
        Finished f;
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (finished_.empty()) break;
            if (handed > 0 && std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() >= budget_ms)
                break;
            f = std::move(finished_.front());
            finished_.pop_front();
            if (!f.dropped) {
                // Built for a chunk that has since been dropped (or dropped and loaded anew):
                // throw it away.
                auto it = chunks_.find(f.coord);
                if (it == chunks_.end() || it->second.pending != static_cast<std::int64_t>(f.version)) continue;
                it->second.pending = -1;
                it->second.shown = static_cast<std::int64_t>(f.version);
                // Out of date already (the mesher changed meanwhile): build it again.
                if (it->second.version != f.version)
                    jobs_.push_back({f.coord, it->second.version, mesher_, 0.0}), wake_.notify_one();
            }
        }
        sink(ChunkUpdate{f.coord, f.version, f.dropped, f.dropped ? nullptr : &f.mesh});
        ++handed;
    }
    return handed;
}

WorldCounts World::counts() const {
    std::lock_guard<std::mutex> lock(mu_);
    WorldCounts c = counts_;
    c.loaded = chunks_.size();
    c.waiting = 0;
    for (const auto& [coord, chunk] : chunks_) c.waiting += static_cast<std::int64_t>(chunk.version) != chunk.shown;
    return c;
}

bool World::settled() const {
    std::lock_guard<std::mutex> lock(mu_);
    if (!finished_.empty() || counts_.building > 0) return false;
    for (const auto& [coord, chunk] : chunks_)
        if (static_cast<std::int64_t>(chunk.version) != chunk.shown) return false;
    return true;
}

std::vector<ChunkCoord> World::loaded() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<ChunkCoord> out;
    out.reserve(chunks_.size());
    for (const auto& [coord, chunk] : chunks_) out.push_back(coord);
    return out;
}

}  // namespace isoterra
