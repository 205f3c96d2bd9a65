// A NavStream on the owner's side: attached to its World as a companion, it hands the tiles
// its workers finished to the Detour mesh (dropped ones out first, then the new ones in
// Detour's order, z then x) and answers paths over the tiles in hand.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "nav/nav_detour.hpp"
#include "nav/nav_stream_core.hpp"

namespace isoterra {
namespace {

// The widest radius whose tiles, with the tile's width kept beyond it, fit kMaxNavTiles.
constexpr double kMaxStreamRadius_m = 384.0;

NavStreamSettings checked(const NavStreamSettings& s) {
    if (const std::string problem = validate_agent(s.agent); !problem.empty()) throw NavError("agent: " + problem);
    if (!(s.radius_m >= kChunkSize && s.radius_m <= kMaxStreamRadius_m))
        throw NavError(fmt::format("navigation radius {:g} m must be in [{}, {:g}]", s.radius_m, kChunkSize, kMaxStreamRadius_m));
    // Held at once: the tiles kept, the meshes of their columns and a tile's build per worker.
    const double across = 2.0 * (s.radius_m + kChunkSize) / kChunkSize + 3.0;
    check_memory_budget(across * across * (kNavTileBytes + kSurfaceBytesPerColumn) + default_threads() * kNavTileBuildBytes,
                        fmt::format("navigation tiles within {:g} m", s.radius_m));
    return s;
}

}  // namespace

NavStream::NavStream(World& world, const NavStreamSettings& settings)
    : settings_(checked(settings)), core_(std::make_shared<Core>(world.field(), world.edits(), settings_, world.pool())),
      mesh_(new NavMesh(world.field(), world.edits(), settings_.agent)) {
    world.attach(core_);
    core_->focus_moved(world.focus());
}

NavStream::~NavStream() {
    // The World may be gone already: it is not called. It holds the core (and calls it,
    // to no effect) while it lives; the core lets go of its tiles and meshes now.
    std::lock_guard<std::mutex> lock(core_->mu_);
    core_->stopping_ = true;
    core_->tiles_.clear();
    core_->columns_.clear();
    core_->order_.clear();
    core_->finished_.clear();
}

std::vector<glm::ivec2> NavStream::update() {
    if (!core_->pool_) core_->run_one();
    std::vector<Core::Key> dropped;
    std::vector<NavTile> fresh;
    {
        std::lock_guard<std::mutex> lock(core_->mu_);
        dropped.swap(core_->dropped_);
        for (Core::Finished& f : core_->finished_)
            if (const auto it = core_->tiles_.find({f.tile.z, f.tile.x}); it != core_->tiles_.end() && it->second.version == f.version)
                fresh.push_back(std::move(f.tile));
        core_->finished_.clear();
        mesh_->deltas_ = core_->deltas_;
    }
    std::vector<glm::ivec2> changed;
    for (const Core::Key& k : dropped) {
        mesh_->remove(k.second, k.first);
        changed.emplace_back(k.second, k.first);
    }
    for (const NavTile& t : fresh) changed.emplace_back(t.x, t.z);
    mesh_->install(std::move(fresh));
    return changed;
}

bool NavStream::settled() const {
    std::lock_guard<std::mutex> lock(core_->mu_);
    return core_->settled_locked();
}

NavStreamCounts NavStream::counts() const {
    std::lock_guard<std::mutex> lock(core_->mu_);
    NavStreamCounts out = core_->counts_;
    out.wanted = core_->tiles_.size();
    out.current = static_cast<std::size_t>(std::count_if(core_->tiles_.begin(), core_->tiles_.end(),
                                                         [](const auto& t) { return t.second.done == std::int64_t(t.second.version); }));
    return out;
}

std::string NavStream::error() const {
    std::lock_guard<std::mutex> lock(core_->mu_);
    return core_->error_;
}

}  // namespace isoterra
