// What a World hands its owner: finished meshes oldest first within a time budget, then the
// swaps of regions whose replacement at another level is ready, all at once; and the counts
// and tables the owner may read from any thread.
#include <algorithm>
#include <chrono>
#include <climits>

#include "coarse_first.hpp"
#include "lod_swaps.hpp"
#include "world_state.hpp"

namespace isoterra {

void World::State::update_shown(std::vector<ChunkUpdate>& changes) {
    // What the swaps need, taken under the lock; the swaps themselves worked out without it,
    // so workers are not held up. Meanwhile only this thread changes what is shown, handed
    // or wanted, so the answer still holds when it is applied.
    LodColumnSet shown, stand_ins, ready;
    LodTarget target;
    ColumnChunks chunks;  // of the columns that may be shown next, for the triangle budget
    detail::ShownBudget limit;
    bool counted = false;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (!shown_dirty_) return;
        shown_dirty_ = false;
        shown = shown_;
        target = target_;
        stand_ins = stand_ins_;
        limit.focus = lead_focus_;
        // Ready: every chunk handed over (an empty column is ready at once).
        for (const LodColumnSet* set : {&target.leaves, &stand_ins}) {
            for (const LodColumn& c : *set)
                if (!shown.count(c) && handed_whole_locked(c)) ready.insert(c);
        }
        // The swaps are counted only when they could take the view past the budget.
        counted = settings_.triangle_budget > 0 && triangle_bound_locked(shown, ready) > settings_.triangle_budget;
        if (counted) chunks_of_locked(shown, ready, chunks);
    }
    const auto is_ready = [&](const LodColumn& c) { return ready.count(c) > 0; };
    const LodColumnSet wanted =
        settings_.coarse_first ? detail::staged_target(target, stand_ins, shown, lod_.levels, is_ready) : target.leaves;
    // (A budget that not even the narrowest ring meets is not held to.)
    limit.budget = !counted || lod_.chunks_per_ring <= 2.0 ? 0 : settings_.triangle_budget;
    limit.triangles = [&](const LodColumn& c, const Neighbourhood& n) {
        std::size_t sum = 0;
        for (const Chunk* chunk : chunks.at(c)) sum += drawn_triangles(chunk->ranges, chunk->triangles, n);
        return sum;
    };
    bool held = false;
    LodColumnSet next = detail::next_shown(shown, wanted, lod_.levels, is_ready, &limit, &held);
    {
        std::lock_guard<std::mutex> lock(mu_);
        held_ = held;  // tried again when a column is ready (a join may let it fit)
        counts_.held_for_budget += held;
    }
    if (next == shown) return;
    std::vector<std::pair<LodColumn, Neighbourhood>> around;
    for (const LodColumn& c : next) around.emplace_back(c, neighbourhood_in(next, c, lod_.levels));

    std::lock_guard<std::mutex> lock(mu_);
    const auto tell = [&](const LodColumn& c, const Column& column) {
        for (int y = column.bottom; y <= column.top; ++y) {
            auto chunk = chunks_.find(chunk_of(c, y));
            if (chunk == chunks_.end() || chunk->second.handed < 0) continue;
            changes.push_back(
                {chunk->first, static_cast<std::uint64_t>(chunk->second.handed), false, nullptr, column.shown, column.neighbours});
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
    shown_dirty_ = true;  // a swap may let another follow
    update_stand_ins_locked();
    drop_unwanted_locked();
    // What the swap let go: dropped now, so the owner frees it in the same frame.
    while (!finished_.empty() && finished_.back().dropped) {
        const Finished& f = finished_.back();
        changes.push_back({f.coord, f.version, true, nullptr, false, {}});
        finished_.pop_back();
    }
}

void World::State::chunks_of_locked(const LodColumnSet& shown, const LodColumnSet& ready, ColumnChunks& out) const {
    for (const LodColumnSet* set : {&shown, &ready})
        for (const LodColumn& c : *set) {
            const Column& column = columns_.at(c);
            std::vector<const Chunk*>& list = out[c];
            for (int y = column.bottom; y <= column.top; ++y) list.push_back(&chunks_.at(chunk_of(c, y)));
        }
}

std::size_t World::State::triangle_bound_locked(const LodColumnSet& shown, const LodColumnSet& ready) const {
    std::size_t sum = 0;
    for (const LodColumnSet* set : {&shown, &ready})
        for (const LodColumn& c : *set) sum += columns_.at(c).triangles;
    return sum;
}

bool World::State::handed_whole_locked(const LodColumn& c) const {
    const auto it = columns_.find(c);
    if (it == columns_.end() || !it->second.surveyed) return false;
    for (int y = it->second.bottom; y <= it->second.top; ++y) {
        const auto chunk = chunks_.find(chunk_of(c, y));
        if (chunk == chunks_.end() || chunk->second.handed < 0) return false;
    }
    return true;
}

std::size_t World::State::deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink) {
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
                const LodColumn c{f.coord.lod, f.coord.x, f.coord.z};
                Column& column = columns_.at(c);
                if (settings_.triangle_budget > 0) {  // what the triangle budget counts
                    column.triangles += f.mesh.triangle_count() - it->second.triangles;
                    it->second.triangles = f.mesh.triangle_count();
                    it->second.ranges = f.mesh.ranges;
                }
                visible = column.shown;
                neighbours = column.neighbours;
                // Its column may be ready now: the shown columns can move only then (the
                // swaps are worked out again only when one is).
                shown_dirty_ |= !column.shown && handed_whole_locked(c);
                // Out of date already (the mesher changed meanwhile): build it again.
                if (it->second.version != f.version) queue_jobs_locked();
            }
        }
        sink(
            ChunkUpdate{f.coord, f.version, f.dropped, f.dropped ? nullptr : &f.mesh, visible, neighbours, f.dropped ? nullptr : &f.water});
        ++handed;
    }
    {
        // The probe measured may leave the target measured already (nothing more to build).
        std::lock_guard<std::mutex> lock(mu_);
        bool chose = false;
        while (choose_ring_locked()) chose = true;
        if (chose) queue_jobs_locked();
    }
    std::vector<ChunkUpdate> changes;
    update_shown(changes);
    {
        std::lock_guard<std::mutex> lock(mu_);
        narrow_in_flight_locked();
        held_ = false;
    }
    for (const ChunkUpdate& u : changes) sink(u);
    return handed + changes.size();
}

WorldCounts World::State::counts() const {
    std::lock_guard<std::mutex> lock(mu_);
    WorldCounts c = counts_;
    c.loaded = chunks_.size();
    c.ring = lod_.chunks_per_ring;
    c.ring_chosen = ring_chosen_;
    c.waiting = 0;
    for (const auto& [coord, chunk] : chunks_) c.waiting += static_cast<std::int64_t>(chunk.version) != chunk.handed;
    for (const LodColumn& s : shown_) {
        const Column& column = columns_.at(s);
        c.shown_per_level[static_cast<std::size_t>(s.level)] += static_cast<std::size_t>(column.top - column.bottom + 1);
    }
    // The level that only stands in, counted while it is shown.
    while (c.shown_per_level.size() > static_cast<std::size_t>(settings_.levels) && c.shown_per_level.back() == 0)
        c.shown_per_level.pop_back();
    return c;
}

bool World::State::settled() const {
    std::lock_guard<std::mutex> lock(mu_);
    // A world without a focus yet wants nothing; with one, it is settled once the budget chose.
    if ((!ring_chosen_ && !target_.leaves.empty()) || !finished_.empty() || counts_.building > 0 || shown_ != target_.leaves) return false;
    for (const auto& [coord, chunk] : chunks_)
        if (static_cast<std::int64_t>(chunk.version) != chunk.handed) return false;
    return true;
}

bool World::State::covered() const {
    std::lock_guard<std::mutex> lock(mu_);
    return detail::view_covered(shown_, target_.leaves, lod_.levels, focus_, lod_.view_distance_m);
}

std::vector<ChunkCoord> World::State::loaded() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<ChunkCoord> out;
    out.reserve(chunks_.size());
    for (const auto& [coord, chunk] : chunks_) out.push_back(coord);
    return out;
}

int World::State::top_layer(const LodColumn& c) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = columns_.find(c);
    return it == columns_.end() || !it->second.surveyed ? INT_MIN : it->second.top;
}

LodColumnSet World::State::shown_columns() const {
    std::lock_guard<std::mutex> lock(mu_);
    return shown_;
}

}  // namespace isoterra
