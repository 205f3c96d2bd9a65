// The viewer's window: GLFW with an OpenGL 3.3 core context and Dear ImGui over it, and the
// clicks, key presses and wheel turns that arrive between two frames.
#pragma once

#include <cstdint>
#include <vector>

struct GLFWwindow;

namespace isoterra::app {

/// A click or key press: a click can start and end between two frames, where polling the
/// button would miss it, so callbacks keep them (a click with where the cursor was).
struct ViewEvent {
    enum Kind { carve, add, undo, redo, path_end } kind;
    double x = 0.0, y = 0.0;
};

class ViewWindow {
public:
    /// Opens the window; throws Failure when there is no display or no OpenGL 3.3.
    ViewWindow(int width, int height);
    ~ViewWindow();
    ViewWindow(const ViewWindow&) = delete;
    ViewWindow& operator=(const ViewWindow&) = delete;

    GLFWwindow* handle() const { return window_; }
    bool closing() const;
    /// Polls the window; then events() and scroll() hold what came since the last poll.
    void poll();
    const std::vector<ViewEvent>& events() const { return events_; }
    /// True when `key` (GLFW_KEY_*) went down without Ctrl since the last poll: a press and
    /// its release can both come between two polls, where the key's state would miss it.
    bool pressed(int key) const;
    double scroll() const { return scroll_; }
    /// The window's size in screen units (the cursor's) and its framebuffer's in pixels.
    void size(int& width, int& height) const;
    void framebuffer_size(int& width, int& height) const;

    /// Dear ImGui's frame: begin before the panel, end after it (draws it).
    void begin_panel();
    void end_panel();
    /// The back buffer (before the swap) as RGB rows from the top.
    std::vector<std::uint8_t> read_back(int width, int height) const;
    void swap();

private:
    static void on_scroll(GLFWwindow* w, double dx, double dy);
    static void on_button(GLFWwindow* w, int button, int action, int mods);
    static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);

    GLFWwindow* window_ = nullptr;
    std::vector<ViewEvent> events_;
    std::vector<int> pressed_;
    double scroll_ = 0.0;
};

}  // namespace isoterra::app
