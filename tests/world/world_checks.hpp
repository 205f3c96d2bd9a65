// What the world tests share: a terrain, settings, an owner that keeps what it is handed,
// and a loop that runs frames until the world settles.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <thread>
#include <tuple>

#include "isoterra/world.hpp"

namespace isoterra::test {

using Key = std::tuple<int, int, int, int>;  // lod, x, y, z
inline Key key(const ChunkCoord& c) { return {c.lod, c.x, c.y, c.z}; }

inline std::shared_ptr<const Field> tutorial() {
    static const std::shared_ptr<const Field> t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    return t;
}

/// `radius` chunks per ring, the view distance, `levels` (0: as the distance needs).
inline WorldSettings settings(int radius, double view_distance_m, int levels = 0, int threads = 2) {
    WorldSettings s;
    s.view_radius = radius;
    s.view_distance_m = view_distance_m;
    s.levels = levels;
    s.threads = threads;
    return s;
}

// The owner's side: the meshes it holds and how often each was handed, as a renderer would.
struct Owner {
    std::map<Key, MeshBuffers> meshes;
    std::map<Key, int> deliveries;
    ShownChunks shown{true};
    void take(const ChunkUpdate& u) {
        shown.apply(u);
        if (u.dropped) {
            meshes.erase(key(u.coord));
            return;
        }
        if (!u.mesh) return;
        meshes[key(u.coord)] = *u.mesh;
        ++deliveries[key(u.coord)];
    }
};

// Runs frames until the world settles; fails the test after `seconds`.
// A world with the owner's workers (threads < 0) gets its jobs run here, three at a time
// and handed back in the reverse order, as a page's Web Workers might (over tutorial()).
inline void settle(World& w, Owner& owner, const glm::dvec3& focus, double seconds = 120) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        w.set_focus(focus);
        if (w.settings().threads < 0) {
            std::vector<WorldJob> jobs(3);
            std::size_t taken = 0;
            while (taken < jobs.size() && w.take_job(jobs[taken])) ++taken;
            while (taken > 0) {
                WorldJobResult result;
                run_world_job(*tutorial(), nullptr, jobs[--taken], result);
                w.finish_job(jobs[taken], std::move(result));
            }
        }
        w.deliver(1e9, [&](const ChunkUpdate& u) { owner.take(u); });
        if (w.settled()) return;
        ASSERT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), seconds);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

}  // namespace isoterra::test
