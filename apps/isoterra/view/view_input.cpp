// The viewer's keys and mouse: the camera's flight, the brush, undo and redo, the toggles.
#include "view_input.hpp"

#include <algorithm>
#include <cmath>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace isoterra::app {

namespace {
bool down(const ViewWindow& window, int key) { return glfwGetKey(window.handle(), key) == GLFW_PRESS; }
}  // namespace

void ViewInput::move(const ViewWindow& window, double dt, FlyCamera& camera) const {
    const double v = speed * (down(window, GLFW_KEY_LEFT_SHIFT) || down(window, GLFW_KEY_RIGHT_SHIFT) ? 4.0 : 1.0) * dt;
    const glm::dvec3 f = camera.forward(), right = camera.right();
    if (down(window, GLFW_KEY_W)) camera.position += f * v;
    if (down(window, GLFW_KEY_S)) camera.position -= f * v;
    if (down(window, GLFW_KEY_D)) camera.position += right * v;
    if (down(window, GLFW_KEY_A)) camera.position -= right * v;
    if (down(window, GLFW_KEY_E)) camera.position.y += v;
    if (down(window, GLFW_KEY_Q)) camera.position.y -= v;
}

ViewToggles ViewInput::keys(const ViewWindow& window, Session& session) {
    // A key counts once when it goes down, however long it is held.
    ViewToggles t;
    t.wireframe = window.pressed(GLFW_KEY_L);
    t.level_colours = window.pressed(GLFW_KEY_C);
    t.screenshot = window.pressed(GLFW_KEY_F12);
    t.navmesh = window.pressed(GLFW_KEY_N);
    if (window.pressed(GLFW_KEY_M)) session.set_mesher(next_mesher(session.settings().mesher));
    return t;
}

void ViewInput::mouse(const ViewWindow& window, FlyCamera& camera, Session& session, std::string& status, ViewToggles& t) {
    GLFWwindow* w = window.handle();
    double mx, my;
    glfwGetCursorPos(w, &mx, &my);
    int width, height;
    window.size(width, height);
    for (const ViewEvent& e : window.events()) {
        if (e.kind == ViewEvent::undo || e.kind == ViewEvent::redo) {
            status = session.step_history(e.kind == ViewEvent::redo);
            continue;
        }
        // The sphere brush at the ground under the cursor, through the picture's 60 degrees.
        const double nx = 2.0 * e.x / width - 1.0, ny = 1.0 - 2.0 * e.y / height;
        const glm::dvec3 ray = camera.ray_through(nx, ny, 60.0, double(width) / std::max(1, height));
        if (e.kind == ViewEvent::path_end) {
            static const ChunkDeltas kNone;
            const std::shared_ptr<const ChunkDeltas> deltas = session.deltas();
            glm::dvec3 hit;
            if (ray_cast(*session.field(), deltas ? *deltas : kNone, camera.position, ray, 2000.0, hit)) t.path_ends.push_back(hit);
            else status = "no ground under the cursor within 2 km";
            continue;
        }
        status = session.brush_along(camera.position, ray, e.kind == ViewEvent::carve ? BrushMode::carve : BrushMode::add);
    }
    const bool alt = down(window, GLFW_KEY_LEFT_ALT) || down(window, GLFW_KEY_RIGHT_ALT);
    const bool left = glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    const bool held = glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS || (left && alt);
    if (held && dragging_) {
        camera.yaw -= (mx - last_x_) * 0.004;
        camera.pitch = std::clamp(camera.pitch - (my - last_y_) * 0.004, -1.5, 1.5);
    }
    dragging_ = held;
    last_x_ = mx, last_y_ = my;
    const double wheel = window.scroll();
    const bool ctrl = down(window, GLFW_KEY_LEFT_CONTROL) || down(window, GLFW_KEY_RIGHT_CONTROL);
    if (wheel != 0.0 && ctrl) session.brush_radius_m = std::clamp(session.brush_radius_m * std::pow(1.25, wheel), 1.0, 32.0);
    else if (wheel != 0.0) speed = std::clamp(speed * std::pow(1.25, wheel), 1.0, 2000.0);
}

ViewToggles ViewInput::frame(const ViewWindow& window, double dt, bool keyboard_free, bool mouse_free, FlyCamera& camera, Session& session,
                             std::string& status) {
    ViewToggles t;
    if (keyboard_free) {
        move(window, dt, camera);
        t = keys(window, session);
    }
    if (mouse_free) mouse(window, camera, session, status, t);
    return t;
}

}  // namespace isoterra::app
