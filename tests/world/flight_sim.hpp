// A flight with the owner's workers and the owner's clock: `jobs_per_frame` jobs run each
// frame of 1/60 s, so that what the World shows at each frame is the same on any machine.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "isoterra/world.hpp"
#include "world_checks.hpp"

namespace isoterra::test {

struct SimFlight {
    std::size_t frames = 0, frames_outside_finest = 0, max_triangles = 0, holds = 0, settled_triangles = 0;
    bool settled_first = false;
};

/// Settles `w` (threads < 0) at `start`, then flies along `velocity` for `seconds`, checking
/// after each frame's delivery (`check(owner, focus)` may assert more).
template <class Check>
SimFlight simulate_flight(World& w, const Field& field, const glm::dvec3& start, const glm::dvec3& velocity, double seconds,
                          int jobs_per_frame, Check check) {
    Owner owner;
    SimFlight out;
    double t = 0.0;
    const auto frame = [&](const glm::dvec3& focus) {
        w.set_focus(focus, t);
        for (int k = 0; k < jobs_per_frame; ++k) {
            WorldJob job;
            if (!w.take_job(job)) break;
            WorldJobResult result;
            run_world_job(field, nullptr, job, result);
            w.finish_job(job, std::move(result));
        }
        w.deliver(1e9, [&](const ChunkUpdate& u) { owner.take(u); });
        t += 1.0 / 60.0;
        out.max_triangles = std::max(out.max_triangles, owner.shown.triangles_drawn());
        check(owner, focus);
    };
    for (int i = 0; i < 200000 && !out.settled_first; ++i) {
        frame(start);
        out.settled_first = w.settled();
    }
    const double t0 = t;
    out.settled_triangles = owner.shown.triangles_drawn();
    while (t - t0 < seconds) {
        const glm::dvec3 focus = start + velocity * (t - t0);
        frame(focus);
        ++out.frames;
        const LodColumn under{0, static_cast<int>(std::floor(focus.x / kChunkSize)), static_cast<int>(std::floor(focus.z / kChunkSize))};
        out.frames_outside_finest += !owner.shown.visible_columns().count(under);
    }
    out.holds = w.counts().held_for_budget;
    return out;
}

}  // namespace isoterra::test
