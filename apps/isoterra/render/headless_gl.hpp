// An OpenGL 3.3 core context with no display at all: EGL on Mesa's surfaceless platform,
// drawing into a framebuffer object. Software rendering (llvmpipe) unless told otherwise,
// so the same command gives the same image on every machine.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "scene_framebuffer.hpp"

namespace isoterra::app {

class HeadlessGl {
public:
    /// Creates the context and a width x height SceneFramebuffer, and makes both current. Throws Failure with one line on any EGL or GL problem.
    HeadlessGl(int width, int height);
    ~HeadlessGl();
    HeadlessGl(const HeadlessGl&) = delete;
    HeadlessGl& operator=(const HeadlessGl&) = delete;

    /// Returns the framebuffer as RGB rows from the top, after glFinish.
    std::vector<std::uint8_t> read_rgb() const;

private:
    void* display_ = nullptr;
    void* context_ = nullptr;
    std::unique_ptr<SceneFramebuffer> framebuffer_;
    int width_, height_;
};

}  // namespace isoterra::app
