// A World in flight: the focus led ahead (FocusLead), so that the levels and the jobs are
// chosen around where the camera is heading; the columns split behind its path kept whole
// for the joins once it has passed; and the ring narrowed while a swap waits for the
// triangle budget, chosen again once the focus stops.
#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include <cmath>

#include "world_state.hpp"

namespace isoterra {
namespace {

// How far ahead the levels are led: about what the finest ring takes to build at speed.
constexpr double kLead_s = 1.0;
// A focus slower than this keeps no columns but those it wants and shows.
constexpr double kMoving_m_s = 1.0;

}  // namespace

void World::State::set_focus(const glm::dvec3& wanted, double time_s) {
    // A focus past the world's edge is held at it; one that is not a number changes nothing.
    if (!std::isfinite(wanted.x) || !std::isfinite(wanted.y) || !std::isfinite(wanted.z) || !std::isfinite(time_s)) return;
    const glm::dvec3 focus = glm::clamp(wanted, glm::dvec3(-kCoordinateLimit_m), glm::dvec3(kCoordinateLimit_m));
    std::lock_guard<std::mutex> lock(mu_);
    // Led a second ahead (what the finest ring takes to build at speed), by at most half
    // that ring's reach, so that the camera's own column stays in it.
    const glm::dvec3 led = lead_.update(focus, time_s, kLead_s, 0.5 * lod_.chunks_per_ring * kChunkSize);
    // The viewer and `fly` call this every frame. Once select_lod gives back the target it
    // was given, the same focus gives the same target again (the height guesses of its
    // columns are kept), and the same stand-ins and columns (deliver() updates those when
    // what is shown changes): none of it is worked out again until the focus moves.
    focus_ = focus;
    now_s_ = time_s;
    bool fresh = false;
    if (narrowed_in_flight_ && !moving_locked()) {
        // Stopped: the ring is chosen again for the view here, as at the start.
        narrowed_in_flight_ = false;
        lod_.chunks_per_ring = settings_.ring();
        ring_chosen_ = probed_ = false;
        fresh = true;
    }
    if (fresh || !target_settled_ || led != lead_focus_) {
        lead_focus_ = led;
        retarget_locked(fresh);
    }
    queue_jobs_locked();
}

bool World::State::moving_locked() const { return glm::length(lead_.velocity()) > kMoving_m_s; }

void World::State::narrow_in_flight_locked() {
    constexpr double kStep = 0.25, kNarrowest = 2.0, kEvery_s = 0.5;
    if (!held_ || !ring_chosen_ || !moving_locked() || lod_.chunks_per_ring - kStep < kNarrowest || now_s_ - narrowed_at_s_ < kEvery_s)
        return;
    lod_.chunks_per_ring -= kStep;
    narrowed_at_s_ = now_s_;
    narrowed_in_flight_ = true;
    retarget_locked();
    queue_jobs_locked();
}

bool World::State::wanted_locked(const LodColumn& c) const {
    return target_.leaves.count(c) || stand_ins_.count(c) || budget_probe_.count(c);
}

void World::State::drop_unwanted_locked() {
    // In flight, a column split behind the camera's path joins again once the camera has
    // passed: kept whole (its meshes with the owner, not drawn) it is ready at once, so the
    // region behind goes back to the coarser level without being built again.
    const bool moving = moving_locked();
    for (auto it = columns_.begin(); it != columns_.end();) {
        if (it->second.shown || wanted_locked(it->first) || (moving && target_.split.count(it->first) && handed_whole_locked(it->first))) {
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

}  // namespace isoterra
