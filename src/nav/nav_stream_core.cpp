// The work of a NavStream on the World's workers: which tiles are kept around the focus
// (those within the radius, dropped a tile's width beyond it), which piece comes next
// (nearest tile first: its columns' meshes, then the tile once all nine are made), and
// what an edit makes stale (the columns whose chunks read a changed sample, and exactly the
// tiles nav_tiles_touching names).
#include "nav/nav_stream_core.hpp"

#include <algorithm>
#include <cmath>

namespace isoterra {
namespace {

double distance_xz(const glm::dvec3& p, int x, int z) {
    const double lo_x = x * double(kChunkSize), lo_z = z * double(kChunkSize);
    const double dx = std::max({lo_x - p.x, p.x - (lo_x + kChunkSize), 0.0});
    const double dz = std::max({lo_z - p.z, p.z - (lo_z + kChunkSize), 0.0});
    return std::hypot(dx, dz);
}

}  // namespace

NavStream::Core::Core(std::shared_ptr<const Field> field, std::shared_ptr<const ChunkDeltas> deltas, const NavStreamSettings& settings,
                      TaskPool* pool)
    : field_(std::move(field)), settings_(settings), pool_(pool), deltas_(std::move(deltas)) {}

void NavStream::Core::focus_moved(const glm::dvec3& focus) {
    if (!std::isfinite(focus.x) || !std::isfinite(focus.z)) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    focus_ = focus;
    // Within a metre the tiles kept and their order hardly change: not worth a frame's work.
    if (std::hypot(focus.x - targeted_at_.x, focus.z - targeted_at_.z) < 1.0) return;
    retarget_locked();
    pump_locked();
}

void NavStream::Core::retarget_locked() {
    targeted_at_ = focus_;
    const double keep = settings_.radius_m + kChunkSize;
    const int reach = static_cast<int>(std::ceil(keep / kChunkSize)) + 1;
    const int fx = static_cast<int>(std::floor(focus_.x / kChunkSize)), fz = static_cast<int>(std::floor(focus_.z / kChunkSize));
    for (auto it = tiles_.begin(); it != tiles_.end();) {
        it->second.distance = distance_xz(focus_, it->first.second, it->first.first);
        if (it->second.distance <= keep) {
            ++it;
        } else {
            dropped_.push_back(it->first);
            it = tiles_.erase(it);
        }
    }
    for (int z = fz - reach; z <= fz + reach; ++z)
        for (int x = fx - reach; x <= fx + reach; ++x)
            if (const double d = distance_xz(focus_, x, z); d <= settings_.radius_m && !tiles_.contains({z, x}))
                tiles_.emplace(Key{z, x}, Tile{next_version_++, -1, -1, d});
    order_.clear();
    std::map<Key, bool> needed;
    for (const auto& [key, tile] : tiles_) {
        order_.push_back(key);
        for (int k = 0; k < 9; ++k) needed[{key.first + k / 3 - 1, key.second + k % 3 - 1}] = true;
    }
    std::sort(order_.begin(), order_.end(), [&](const Key& a, const Key& b) {
        const double da = tiles_.at(a).distance, db = tiles_.at(b).distance;
        return da != db ? da < db : a < b;
    });
    std::erase_if(columns_, [&](const auto& c) { return !needed.contains(c.first); });
    for (const auto& [key, _] : needed)
        if (!columns_.contains(key)) columns_.emplace(key, Column{next_version_++, -1, -1, nullptr});
}

void NavStream::Core::edited(const std::shared_ptr<const ChunkDeltas>& deltas, const Box& changed) {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    deltas_ = deltas;
    for (const Key& key : nav_detail::columns_remeshed(changed))
        if (const auto it = columns_.find(key); it != columns_.end()) it->second.version = next_version_++;
    for (const glm::ivec2& c : nav_tiles_touching(changed, settings_.agent))
        if (const auto it = tiles_.find({c.y, c.x}); it != tiles_.end()) it->second.version = next_version_++;
    pump_locked();
}

bool NavStream::Core::take_locked(Job& job) {
    for (const Key& key : order_) {
        Tile& t = tiles_.at(key);
        if (t.done == std::int64_t(t.version) || t.building == std::int64_t(t.version)) continue;
        bool ready = true;
        for (int k = 0; k < 9; ++k) {
            const Key ck{key.first + k / 3 - 1, key.second + k % 3 - 1};
            Column& c = columns_.at(ck);
            if (c.have == std::int64_t(c.version)) {
                job.around[k] = c.soup;
                continue;
            }
            ready = false;
            if (c.meshing == std::int64_t(c.version)) continue;
            c.meshing = std::int64_t(c.version);
            job = {false, ck, c.version, deltas_, {}};
            return true;
        }
        if (!ready) continue;
        t.building = std::int64_t(t.version);
        job.tile = true;
        job.key = key;
        job.version = t.version;
        return true;
    }
    return false;
}

bool NavStream::Core::run_one() {
    Job job;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (stopping_ || !take_locked(job)) return false;
    }
    nav_detail::TileTriangles soup;
    std::vector<unsigned char> data;
    std::string problem;
    try {
        if (job.tile) {
            nav_detail::AroundTile around{};
            for (int k = 0; k < 9; ++k) around[k] = job.around[k].get();
            data = nav_detail::build_tile_from(around, settings_.agent, job.key.second, job.key.first);
        } else {
            soup = nav_detail::mesh_column(*field_, job.deltas.get(), job.key.second, job.key.first);
        }
    } catch (const std::exception& e) {  // a task must not throw: the tile stays empty, the error is kept
        problem = e.what();
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (!problem.empty() && error_.empty()) error_ = problem;
    finish_locked(job, std::move(soup), std::move(data));
    pump_locked();
    return true;
}

void NavStream::Core::finish_locked(const Job& job, nav_detail::TileTriangles soup, std::vector<unsigned char> data) {
    if (!job.tile) {
        ++counts_.columns_meshed;
        const auto it = columns_.find(job.key);
        if (it == columns_.end() || it->second.version != job.version) return;  // dropped or edited meanwhile
        it->second.soup = std::make_shared<const nav_detail::TileTriangles>(std::move(soup));
        it->second.have = std::int64_t(job.version);
        return;
    }
    ++counts_.tiles_built;
    const auto it = tiles_.find(job.key);
    if (it == tiles_.end() || it->second.version != job.version) return;
    it->second.done = std::int64_t(job.version);
    finished_.push_back({NavTile{job.key.second, job.key.first, std::move(data)}, job.version});
}

void NavStream::Core::pump_locked() {
    if (!pool_) return;
    for (; !stopping_ && queued_ < pool_->threads(); ++queued_)
        pool_->submit(TaskPriority::normal, [self = shared_from_this()] {
            {
                std::lock_guard<std::mutex> lock(self->mu_);
                --self->queued_;
            }
            self->run_one();
        });
}

void NavStream::Core::world_ending() {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;  // the pool goes with the World: nothing more is queued on it
}

bool NavStream::Core::settled_locked() const {
    if (!finished_.empty() || !dropped_.empty()) return false;
    return std::all_of(tiles_.begin(), tiles_.end(), [](const auto& t) { return t.second.done == std::int64_t(t.second.version); });
}

}  // namespace isoterra
