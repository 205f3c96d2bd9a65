// A session's terrain and its World: starts and restarts, streaming, the first picture and view.
#include "isoterra/session.hpp"

#include <utility>

namespace isoterra {

Session::Session(const TerrainSource& terrain)
    : terrain_(terrain), field_(terrain.make_field()), editor_(std::make_unique<WorldEditor>(field_, nullptr)) {}

Session::Session(std::unique_ptr<WorldFile> file) : terrain_(file->terrain()), field_(terrain_.make_field()), created_(file->created()) {
    editor_ = std::make_unique<WorldEditor>(field_, std::move(file));
}

Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

std::shared_ptr<const ChunkDeltas> Session::deltas() const { return std::make_shared<const ChunkDeltas>(history().deltas()); }

void Session::start(const WorldSettings& settings) {
    // The old World's workers stop before the new one's start.
    world_.reset();
    settings_ = settings;
    shown_ = ShownChunks(keep_meshes_);
    world_ = std::make_unique<World>(field_, settings_, deltas());
    ++restarts_;
    started_ = std::chrono::steady_clock::now();
    times_ = {};
}

std::size_t Session::deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink) {
    if (!world_) return 0;
    const std::size_t n = world_->deliver(budget_ms, [&](const ChunkUpdate& u) {
        shown_.apply(u);
        if (sink) sink(u);
    });
    const double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (times_.first_picture_s < 0.0 && world_->covered()) times_.first_picture_s = since;
    if (times_.first_view_s < 0.0 && world_->settled()) times_.first_view_s = since;
    return n;
}

std::string Session::set_terrain(const TerrainSource& terrain) {
    if (file()) return "a world file keeps its own terrain";
    // Edits made on the old terrain do not carry over.
    auto field = terrain.make_field();
    editor_ = std::make_unique<WorldEditor>(field, nullptr);
    field_ = std::move(field);
    terrain_ = terrain;
    created_ = saved_ = false;
    if (world_) start(settings_);
    return "";
}

void Session::set_mesher(Mesher mesher) {
    settings_.mesher = mesher;
    if (world_) world_->set_mesher(mesher);
}

void Session::set_view(int radius, double view_distance_m) {
    settings_.view_radius = radius;
    settings_.view_distance_m = view_distance_m;
    if (world_) start(settings_);
}

}  // namespace isoterra
