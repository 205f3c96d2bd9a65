// The viewer's window: GLFW, the OpenGL context, Dear ImGui and the input callbacks.
#include "view_window.hpp"

#include <algorithm>

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "../cli.hpp"

namespace isoterra::app {

ViewWindow::ViewWindow(int width, int height) {
    if (!glfwInit()) throw Failure("view: no display (GLFW cannot start); use `isoterra render` instead");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    window_ = glfwCreateWindow(width, height, "isoterra", nullptr, nullptr);
    if (!window_) {
        glfwTerminate();
        throw Failure("view: cannot open an OpenGL 3.3 window");
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(1);
    glfwSetWindowUserPointer(window_, this);
    glfwSetScrollCallback(window_, on_scroll);
    glfwSetMouseButtonCallback(window_, on_button);
    glfwSetKeyCallback(window_, on_key);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    // ImGui's own callbacks chain to the ones above.
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330");
}

namespace {
ViewWindow& owner(GLFWwindow* w) { return *static_cast<ViewWindow*>(glfwGetWindowUserPointer(w)); }
}  // namespace

void ViewWindow::on_scroll(GLFWwindow* w, double, double dy) { owner(w).scroll_ += dy; }

void ViewWindow::on_button(GLFWwindow* w, int button, int action, int mods) {
    if (action != GLFW_PRESS || (mods & GLFW_MOD_ALT)) return;
    double x, y;
    glfwGetCursorPos(w, &x, &y);
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        owner(w).events_.push_back({mods & GLFW_MOD_SHIFT ? ViewEvent::path_end : ViewEvent::carve, x, y});
    if (button == GLFW_MOUSE_BUTTON_RIGHT) owner(w).events_.push_back({ViewEvent::add, x, y});
}

void ViewWindow::on_key(GLFWwindow* w, int key, int, int action, int mods) {
    if (action != GLFW_PRESS) return;
    if (!(mods & GLFW_MOD_CONTROL)) {
        owner(w).pressed_.push_back(key);
        return;
    }
    if (key == GLFW_KEY_Z) owner(w).events_.push_back({mods & GLFW_MOD_SHIFT ? ViewEvent::redo : ViewEvent::undo});
    if (key == GLFW_KEY_Y) owner(w).events_.push_back({ViewEvent::redo});
}

ViewWindow::~ViewWindow() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
    glfwTerminate();
}

bool ViewWindow::closing() const { return glfwWindowShouldClose(window_); }

void ViewWindow::poll() {
    events_.clear();
    pressed_.clear();
    scroll_ = 0.0;
    glfwPollEvents();
}

bool ViewWindow::pressed(int key) const { return std::find(pressed_.begin(), pressed_.end(), key) != pressed_.end(); }

void ViewWindow::size(int& width, int& height) const { glfwGetWindowSize(window_, &width, &height); }
void ViewWindow::framebuffer_size(int& width, int& height) const { glfwGetFramebufferSize(window_, &width, &height); }

void ViewWindow::begin_panel() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void ViewWindow::end_panel() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

std::vector<std::uint8_t> ViewWindow::read_back(int width, int height) const {
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4), rgb(static_cast<std::size_t>(width) * height * 3);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < 3; ++c)
                rgb[(static_cast<std::size_t>(y) * width + x) * 3 + c] =
                    rgba[(static_cast<std::size_t>(height - 1 - y) * width + x) * 4 + c];
    return rgb;
}

void ViewWindow::swap() { glfwSwapBuffers(window_); }

}  // namespace isoterra::app
