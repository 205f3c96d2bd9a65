// A terrain being looked at and edited, with no UI: the terrain and its edits (kept in a
// world file or in memory), the World streaming around a camera, the brush, undo and redo,
// the restarts when the terrain, the mesher or the view changes, and the figures a panel
// shows. The viewer, the web page's core and `isoterra fly` each adapt it to their own
// input and drawing; the subcommands that only read or edit a world use it without a World.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <glm/vec3.hpp>

#include "isoterra/store.hpp"
#include "isoterra/world.hpp"

namespace isoterra {

/// A flying camera: where it is and where it looks (yaw 0 looks north, -z; pitch up).
struct FlyCamera {
    glm::dvec3 position{0.0};
    double yaw = 0.0, pitch = -0.08;  // radians

    glm::dvec3 forward() const;
    /// Level, to the right of forward().
    glm::dvec3 right() const;
    /// The unit ray through a point of the picture: `nx`, `ny` from -1 (left, bottom) to 1,
    /// for a vertical field of view `fov_deg` and a picture `aspect` (width / height) wide.
    glm::dvec3 ray_through(double nx, double ny, double fov_deg, double aspect) const;
};

/// Where a front end starts when it is given no eye (the viewer, `fly`, `render`, the page):
/// 40 m above the ground (or the sea) at (0, 40), looking down onto the ground 420 m out (over
/// the sea, the first land beyond): north, unless another way shows clearly more dry land in
/// sight (none with a slope rising steeply near the eye).
struct StartingView {
    glm::dvec3 eye{0.0}, target{0.0};
    /// A flying camera at the eye, turned toward the target.
    FlyCamera camera() const;
};
StartingView starting_view(const Field& field);

/// Seconds from a World's start until the whole view is shown at some level (the first
/// picture) and at its own levels (the first view); negative until then.
struct SessionTimes {
    double first_picture_s = -1.0;
    double first_view_s = -1.0;
};

class Session {
public:
    /// `terrain` with no world file: its edits live as long as the session.
    explicit Session(const TerrainSource& terrain);
    /// The terrain of `file` and its edits; every edit is saved into it. When the file was
    /// created for this session and its first edit cannot be saved, the file is removed
    /// and the session goes on without one.
    explicit Session(std::unique_ptr<WorldFile> file);
    Session(Session&&) noexcept;
    Session& operator=(Session&&) noexcept;
    ~Session();

    const TerrainSource& terrain() const { return terrain_; }
    const std::shared_ptr<const Field>& field() const { return field_; }
    const EditHistory& history() const { return editor_->history(); }
    /// A snapshot of the current deltas, for a World or a mesher.
    std::shared_ptr<const ChunkDeltas> deltas() const;
    /// The world file, or null.
    WorldFile* file() const { return editor_->file(); }

    // ---- The World ------------------------------------------------------------------------

    /// Starts a World with `settings` over the terrain and its edits, in place of the one
    /// before (if any): what that one showed goes, so a front end drops what it drew when
    /// restarts() changes.
    void start(const WorldSettings& settings);
    /// The World, or null before start().
    World* world() { return world_.get(); }
    const World* world() const { return world_.get(); }
    /// The settings of the World (or of the next start()).
    const WorldSettings& settings() const { return settings_; }
    /// How many Worlds this session has started.
    unsigned restarts() const { return restarts_; }

    /// One frame of streaming: hands finished meshes within `budget_ms` to shown() and to
    /// `sink`, and notes the first picture and view. Returns the updates handed over.
    std::size_t deliver(double budget_ms, const std::function<void(const ChunkUpdate&)>& sink = {});
    /// What the World shows: per-level counts; meshes too when `keep_meshes` was asked.
    const ShownChunks& shown() const { return shown_; }
    /// Whether shown() keeps the meshes (for exporting what is shown); the next start() on.
    void keep_meshes(bool keep) { keep_meshes_ = keep; }
    SessionTimes times() const { return times_; }

    /// A new terrain (a preset, a graph or another seed), its edits empty, and a new World
    /// when one was running. Returns "" or why not: a world file keeps its own terrain.
    std::string set_terrain(const TerrainSource& terrain);
    /// Another mesher: the World rebuilds every chunk and shows the old meshes meanwhile.
    void set_mesher(Mesher mesher);
    /// Another ring size or view distance: a new World when one was running.
    void set_view(int radius, double view_distance_m);

    // ---- Edits ------------------------------------------------------------------------------

    /// The sphere brush's radius in metres.
    double brush_radius_m = 4.0;
    /// The sphere brush at the first ground along the ray from `origin` (unit `direction`),
    /// within the view distance and 2 km. Returns what happened, in one line.
    std::string brush_along(const glm::dvec3& origin, const glm::dvec3& direction, BrushMode mode);
    /// Applies `op` (valid: see validate_edit), saves it and tells the World. Returns the
    /// box of samples it changed. Throws WorldFileWriteError when it cannot be saved (then
    /// neither the file nor the session changed).
    Box apply(const EditOp& op);
    /// Takes back the last edit / applies the next undone one, saves and tells the World;
    /// false when there is none. `changed` gets the box of samples that changed. Throws
    /// WorldFileWriteError.
    bool undo(Box& changed) { return walk(false, changed); }
    bool redo(Box& changed) { return walk(true, changed); }
    /// undo() or redo(), and what happened in one line.
    std::string step_history(bool forward);

private:
    bool walk(bool forward, Box& changed);

    TerrainSource terrain_;
    std::shared_ptr<const Field> field_;
    std::unique_ptr<WorldEditor> editor_;
    bool created_ = false, saved_ = false;  // the file was made for this session; an edit went in

    WorldSettings settings_;
    std::unique_ptr<World> world_;
    ShownChunks shown_{false};
    bool keep_meshes_ = false;
    unsigned restarts_ = 0;
    std::chrono::steady_clock::time_point started_{};
    SessionTimes times_;
};

}  // namespace isoterra
