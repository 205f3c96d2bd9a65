#include "headless_gl.hpp"

#include <cstdlib>

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <fmt/format.h>

#include "../cli.hpp"

namespace isoterra::app {

HeadlessGl::HeadlessGl(int width, int height) : width_(width), height_(height) {
    // Repeatable pictures: Mesa's software rasteriser even where a GPU render node exists.
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 0);
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
        throw Failure("render: EGL has no surfaceless platform (install libegl-mesa0 libgl1-mesa-dri)");
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, nullptr, nullptr))
        throw Failure("render: cannot open Mesa's surfaceless EGL display (install libegl-mesa0 libgl1-mesa-dri)");
    display_ = dpy;
    if (!eglBindAPI(EGL_OPENGL_API)) throw Failure("render: EGL cannot bind desktop OpenGL");
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config;
    EGLint configs = 0;
    if (!eglChooseConfig(dpy, config_attribs, &config, 1, &configs) || configs < 1)
        throw Failure("render: no EGL config for desktop OpenGL without a surface");
    const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION,           3,       EGL_CONTEXT_MINOR_VERSION, 3, EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (ctx == EGL_NO_CONTEXT) throw Failure("render: cannot create an OpenGL 3.3 core context");
    context_ = ctx;
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) throw Failure("render: cannot make the context current");

    framebuffer_ = std::make_unique<SceneFramebuffer>();
    framebuffer_->bind(width, height);
}

HeadlessGl::~HeadlessGl() {
    framebuffer_.reset();  // while the context is current
    if (display_) {
        eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context_) eglDestroyContext(display_, context_);
        eglTerminate(display_);
    }
}

std::vector<std::uint8_t> HeadlessGl::read_rgb() const {
    glFinish();
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width_) * height_ * 4), rgb(static_cast<std::size_t>(width_) * height_ * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    // GL's rows start at the bottom.
    for (int y = 0; y < height_; ++y)
        for (int x = 0; x < width_; ++x)
            for (int c = 0; c < 3; ++c)
                rgb[(static_cast<std::size_t>(y) * width_ + x) * 3 + c] =
                    rgba[(static_cast<std::size_t>(height_ - 1 - y) * width_ + x) * 4 + c];
    return rgb;
}

}  // namespace isoterra::app
