// A session's edits: the brush along a ray, undo and redo, each saved and handed to the World.
#include "isoterra/session.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace isoterra {

Box Session::apply(const EditOp& op) {
    Box box;
    try {
        box = editor_->apply(op);
    } catch (const WorldFileWriteError& e) {
        // A world file made for this session that cannot take its first edit (a full disk)
        // is removed: a failed start leaves nothing new behind.
        if (!created_ || saved_) throw;
        const std::string path = file()->path();
        editor_ = std::make_unique<WorldEditor>(field_, nullptr);
        remove_world_file(path);
        created_ = false;
        throw WorldFileWriteError(fmt::format("{}; the new world file was removed", e.what()));
    }
    saved_ = true;
    if (world_) world_->set_edits(deltas(), box);
    return box;
}

bool Session::walk(bool forward, Box& changed) {
    if (!(forward ? editor_->redo(changed) : editor_->undo(changed))) return false;
    if (world_) world_->set_edits(deltas(), changed);
    return true;
}

std::string Session::brush_along(const glm::dvec3& origin, const glm::dvec3& direction, BrushMode mode) {
    glm::dvec3 hit;
    if (!ray_cast(*field_, history().deltas(), origin, direction, std::min(2000.0, settings_.view_distance_m), hit))
        return "no ground under the cursor";
    const EditOp op{BrushKind::sphere, mode, hit, brush_radius_m};
    if (const std::string bad = validate_edit(op); !bad.empty()) return bad;
    try {
        apply(op);
    } catch (const WorldFileWriteError& e) {
        return e.what();
    }
    return fmt::format("{}: {}", history().applied(), describe_edit(history().ops().back()));
}

std::string Session::step_history(bool forward) {
    Box box;
    try {
        if (!walk(forward, box)) return forward ? "nothing to redo" : "nothing to undo";
    } catch (const WorldFileWriteError& e) {
        return e.what();
    }
    return fmt::format("{} ({} of {} edits in effect)", forward ? "redone" : "undone", history().applied(), history().ops().size());
}

}  // namespace isoterra
