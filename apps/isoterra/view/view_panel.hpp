// The viewer's panel (Dear ImGui): the counts per level, the first picture and view, the
// camera, and the controls that change the session: preset, seed, mesher, view, undo, redo.
#pragma once

#include <string>
#include <vector>

#include "isoterra/session.hpp"

namespace isoterra::app {

/// What the panel's controls hold between frames.
struct ViewPanel {
    /// Starts with the session's terrain, seed and view.
    explicit ViewPanel(const Session& session);
    /// Draws the panel and applies what changed to the session (a world file keeps its own
    /// preset and seed). `status`: the last edit's line, which undo and redo replace.
    void draw(Session& session, const FlyCamera& camera, double fps, double upload_ms, double speed, std::string& status);

    bool wireframe = false, level_colours = false;

private:
    std::vector<std::string> names_;  // the built-in terrains
    int preset_index_ = 0, seed_ = 0, radius_ = 0;
    float view_distance_ = 0.0f;
};

}  // namespace isoterra::app
