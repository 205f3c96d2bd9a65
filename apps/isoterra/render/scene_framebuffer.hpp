// The framebuffer the terrain is drawn into: 8-bit colour and a 32-bit float depth buffer,
// which reversed depth (1 near, 0 at infinity) needs to keep its precision to the horizon.
// The viewer draws into one and copies it to the window; `render` reads it back.
#pragma once

namespace isoterra::app {

class SceneFramebuffer {
public:
    SceneFramebuffer() = default;
    ~SceneFramebuffer();
    SceneFramebuffer(const SceneFramebuffer&) = delete;
    SceneFramebuffer& operator=(const SceneFramebuffer&) = delete;

    /// Makes it width x height (reallocating only when that changes) and binds it for
    /// drawing. Throws Failure if the framebuffer is not complete. Needs a current context.
    void bind(int width, int height);
    /// Copies its colour to the framebuffer `target` (0: the window's back buffer).
    void copy_to(unsigned target) const;

private:
    unsigned fbo_ = 0, colour_ = 0, depth_ = 0;
    int width_ = 0, height_ = 0;
};

}  // namespace isoterra::app
