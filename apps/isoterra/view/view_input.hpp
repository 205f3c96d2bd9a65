// The viewer's keys and mouse, turned into what they ask of the camera and the session.
#pragma once

#include <string>
#include <vector>

#include "isoterra/session.hpp"
#include "view_window.hpp"

namespace isoterra::app {

/// What the keys asked of the picture in one frame.
struct ViewToggles {
    bool wireframe = false, level_colours = false, screenshot = false, navmesh = false;
    std::vector<glm::dvec3> path_ends;  // the ground under each Shift+click
};

class ViewInput {
public:
    /// One frame's input, `dt` seconds after the last: W A S D Q E move the camera (Shift four
    /// times as fast), middle-drag or Alt+left-drag turn it, the wheel sets the speed
    /// (Ctrl+wheel the brush), clicks carve and add through the session, Ctrl+Z / Ctrl+Y
    /// undo and redo, M steps to the next mesher, N shows the navigation mesh, Shift+click
    /// sets a path's end. Keys and mouse the panel wants are left to
    /// it. `status` gets what an edit did.
    ViewToggles frame(const ViewWindow& window, double dt, bool keyboard_free, bool mouse_free, FlyCamera& camera, Session& session,
                      std::string& status);
    /// Metres per second.
    double speed = 20.0;

private:
    void move(const ViewWindow& window, double dt, FlyCamera& camera) const;
    static ViewToggles keys(const ViewWindow& window, Session& session);
    void mouse(const ViewWindow& window, FlyCamera& camera, Session& session, std::string& status, ViewToggles& t);

    bool dragging_ = false;
    double last_x_ = 0.0, last_y_ = 0.0;
};

}  // namespace isoterra::app
