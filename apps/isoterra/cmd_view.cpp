// `isoterra view`: the interactive viewer. A flying camera over the streamed world (W A S D,
// Q and E down and up, middle-drag or Alt+left-drag to look, Shift four times as fast, the
// wheel changes the speed), the terrain shading of `render`, and a panel (Dear ImGui) with
// the counts, the preset and seed, the mesher, the view radius and wireframe. Editing: the
// left button carves and the right button adds a sphere at the ground under the cursor,
// Ctrl+wheel sizes the brush, Ctrl+Z / Ctrl+Y undo and redo; with --world the edits go to
// the world file. L: wireframe, M: next mesher, F12: screenshot, N: the navigation mesh,
// Shift+click: a path's ends (view_nav.hpp; what they did also goes to stdout, one line each,
// for scripts). --eye/--target place the camera. With --frames N it runs N frames (along
// --path if given), writes --screenshot and exits: for tests and the docs.
// The terrain, its World and its edits are the library's Session; this file is the frame
// loop, view/ the window, the input and the panel.
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include <epoxy/gl.h>
#include <fmt/format.h>
#include <imgui.h>

#include "edit_session.hpp"
#include "flight_path.hpp"
#include "isoterra/io.hpp"
#include "render/scene_framebuffer.hpp"
#include "render/terrain_renderer.hpp"
#include "view/view_input.hpp"
#include "view/view_nav.hpp"
#include "view/view_panel.hpp"
#include "view/view_window.hpp"

namespace isoterra::app {
namespace {

struct ViewOptions {
    FieldOptions field;
    WorldOptions world;
    WorldFileOption world_file;
    EyeOptions eye;
    std::optional<std::pair<glm::dvec3, glm::dvec3>> camera;  // eye and target, when given
    int frames = 0;
    std::string screenshot, path;
    double speed = 20.0, budget_ms = 4.0, fog_m = -1.0;
    bool level_colours = false;
};

void write_screenshot(const ViewWindow& window, const std::string& path, int width, int height) {
    const auto rgb = window.read_back(width, height);
    try {
        write_png(path, width, height, 3, 8, rgb.data());
    } catch (const IoError& e) {
        throw_write_error(e);
    }
    std::fprintf(stderr, "wrote %s\n", printable(path).c_str());
}

// Mesa's software rasterizer (llvmpipe) allocates and frees large buffers every frame. glibc
// hands freed pages at the top of its heap back to the kernel and faults them in again the
// next frame: under a virtual machine, about a quarter of the drawing thread's time went to
// the kernel (perf; git show 7acd295:docs/benchmarks.md, "The viewer's frame"). Keeping up to 512 MiB of
// freed memory stops that; the peak stays what it was.
void keep_freed_memory() {
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, 64 << 20);
}

// The frame times of a run, for the summary line of --frames.
struct FrameTimes {
    double total_ms = 0.0, upload_total_ms = 0.0, worst_ms = 0.0;
    // The frames drawn once the world had settled (everything built): what drawing the
    // whole view costs, without the workers beside it.
    double settled_total_ms = 0.0;
    int frames = 0, settled_frames = 0;

    void add(double frame_ms, double upload_ms, bool settled) {
        total_ms += frame_ms, upload_total_ms += upload_ms;
        if (settled) settled_total_ms += frame_ms, ++settled_frames;
        worst_ms = std::max(worst_ms, frame_ms);
        ++frames;
    }
    void report() const {
        std::fprintf(
            stderr,
            "view: %d frames, frame time mean %.1f ms (worst %.1f), upload mean %.2f ms per frame; settled: %d frames, mean %.1f ms\n",
            frames, total_ms / frames, worst_ms, upload_total_ms / frames, settled_frames,
            settled_frames ? settled_total_ms / settled_frames : 0.0);
    }
};

// The viewer's frame loop: the camera flown by the input (or along --path), the session's
// World delivering to the renderer, the terrain drawn and the panel over it.
class FrameLoop {
public:
    using Clock = std::chrono::steady_clock;

    FrameLoop(const ViewOptions& opt, ViewWindow& window, Session& session, std::string status)
        : opt_(opt), window_(window), session_(session), status_(std::move(status)), renderer_(std::make_unique<TerrainRenderer>()),
          drawn_world_(session.restarts()), panel_(session), t0_(Clock::now()), previous_(t0_) {
        camera_ = opt.camera ? StartingView{opt.camera->first, opt.camera->second}.camera() : starting_view(*session.field()).camera();
        placed_for_ = session.field();
        if (!opt.path.empty()) path_ = make_path(opt.path, camera_.position);
        input_.speed = opt.speed;
        panel_.level_colours = opt.level_colours;
    }

    // Frames until the window closes or `opt.frames` ran.
    void run() {
        for (int frame = 0; !window_.closing() && (opt_.frames == 0 || frame < opt_.frames); ++frame) {
            const auto now = Clock::now();
            this->frame(frame, now);
            // One line when the window is up and taking input (scripts driving it wait for it).
            if (times_.frames == 1) std::fprintf(stderr, "view: first frame shown; %s\n", status_.c_str());
            // Xvfb does not throttle the swap: keep to 60 frames a second ourselves.
            std::this_thread::sleep_until(now + std::chrono::microseconds(16667));
        }
        if (opt_.frames > 0 && times_.frames > 0) times_.report();
    }

private:
    void frame(int frame, Clock::time_point now) {
        // The camera moves by at most a tenth of a second a frame; the panel's rate counts the
        // whole interval (clamped, it could not read under 10 frames a second).
        const double interval = std::chrono::duration<double>(now - previous_).count();
        const double dt = std::min(0.1, interval);
        previous_ = now;
        fps_ = fps_ * 0.9 + (interval > 0 ? 0.1 / interval : 0.0);
        window_.poll();
        const ImGuiIO& io = ImGui::GetIO();
        const ViewToggles keys = input_.frame(window_, dt, !io.WantCaptureKeyboard, !io.WantCaptureMouse, camera_, session_, status_);
        panel_.wireframe ^= keys.wireframe;
        panel_.level_colours ^= keys.level_colours;
        if (keys.navmesh) nav_.toggle(session_);
        for (const glm::dvec3& p : keys.path_ends) nav_.pick(session_, p, status_);
        const double clock_s = std::chrono::duration<double>(now - t0_).count();
        if (!path_.points.empty() || path_.radius > 0.0) camera_.position = path_.at(clock_s * input_.speed);

        // A new World (terrain or view changed): what the old one showed goes.
        if (session_.restarts() != drawn_world_) {
            renderer_ = std::make_unique<TerrainRenderer>();
            drawn_world_ = session_.restarts();
            // Another terrain (the panel's): start above its ground, as at the start.
            if (session_.field() != placed_for_) {
                camera_ = starting_view(*session_.field()).camera();
                placed_for_ = session_.field();
            }
        }
        session_.world()->set_focus(camera_.position);
        const bool settled = session_.world()->settled();
        const auto u0 = Clock::now();
        const double delivered_s = std::chrono::duration<double>(u0 - t0_).count();
        session_.deliver(opt_.budget_ms, [&](const ChunkUpdate& u) { renderer_->apply(u, delivered_s); });
        nav_.frame(session_, camera_.position);
        const double this_upload = std::chrono::duration<double, std::milli>(Clock::now() - u0).count();
        upload_ms_ = upload_ms_ * 0.9 + 0.1 * this_upload;

        int width, height;
        window_.framebuffer_size(width, height);
        width = std::max(1, width), height = std::max(1, height);
        draw(width, height, delivered_s);
        const bool last = opt_.frames > 0 && frame + 1 == opt_.frames;
        if (keys.screenshot || (last && !opt_.screenshot.empty()))
            write_screenshot(window_, !opt_.screenshot.empty() ? opt_.screenshot : fmt::format("isoterra-{}.png", frame), width, height);
        window_.swap();
        times_.add(std::chrono::duration<double, std::milli>(Clock::now() - now).count(), this_upload, settled);
    }

    // The terrain in a framebuffer of its own (a float depth buffer for reversed depth),
    // copied to the window; the panel is drawn over it there.
    void draw(int width, int height, double clock_s) {
        scene_.bind(width, height);
        const double view_m = session_.settings().view_distance_m;
        DrawOptions draw;
        draw.fog_m = opt_.fog_m < 0.0 ? view_m : opt_.fog_m;
        draw.sea_level_m = session_.terrain().sea_level_m();
        draw.wireframe = panel_.wireframe;
        draw.level_colours = panel_.level_colours;
        draw.time_s = clock_s;
        const Camera camera{camera_.position, camera_.position + camera_.forward(), 60.0, 0.5, view_m * 1.5};
        renderer_->draw(camera, width, height, draw);
        scene_.copy_to(0);
        glViewport(0, 0, width, height);
        window_.begin_panel();
        const ImVec2 panel = ImGui::GetIO().DisplaySize;  // the panel's units (the cursor's)
        nav_.draw(camera, static_cast<int>(panel.x), static_cast<int>(panel.y));
        panel_.draw(session_, camera_, fps_, upload_ms_, input_.speed, status_);
        window_.end_panel();
    }

    const ViewOptions& opt_;
    ViewWindow& window_;
    Session& session_;
    std::string status_;
    std::unique_ptr<TerrainRenderer> renderer_;
    unsigned drawn_world_;
    std::shared_ptr<const Field> placed_for_;  // the terrain the camera was placed over
    SceneFramebuffer scene_;
    FlyCamera camera_;
    Path path_;
    ViewInput input_;
    ViewPanel panel_;
    ViewNav nav_;
    double fps_ = 0.0, upload_ms_ = 0.0;
    FrameTimes times_;
    const Clock::time_point t0_;
    Clock::time_point previous_;
};

void run_viewer(const ViewOptions& opt, ViewWindow& window, Session& session, std::string status) {
    keep_freed_memory();
    FrameLoop(opt, window, session, std::move(status)).run();
}

}  // namespace

void register_view(CLI::App& app) {
    static ViewOptions opt;
    auto* cmd = app.add_subcommand("view", "The interactive viewer: fly through the streamed world (needs a display)");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd, 32, true);
    opt.world_file.add_to(*cmd);
    opt.eye.add_to(*cmd);
    cmd->add_option("--frames", opt.frames, "Run this many frames, then exit (0: until the window closes)")
        ->transform(decimal_integer(0, 1000000));
    cmd->add_option("--screenshot", opt.screenshot, "Write the last frame of --frames, and F12's pictures, to this PNG");
    cmd->add_option("--path", opt.path, "With --frames: fly line, circle:R or a waypoint file instead of standing");
    cmd->add_option("--speed", opt.speed, "Metres per second (the wheel changes it)")->check(finite_range(0.1, 10000.0));
    cmd->add_option("--fog", opt.fog_m, "Metres where the fog is full (0: none; default: the view distance)")
        ->check(finite_range(0.0, 1e6));
    cmd->add_flag("--level-colours", opt.level_colours, "Start with chunks tinted by their level of detail (C toggles)");
    cmd->footer(
        "Keys: W A S D Q E fly (Shift: four times as fast), middle-drag or Alt+left-drag looks, the wheel sets the speed; the left\n"
        "button carves and the right adds at the ground under the cursor (Ctrl+wheel: the brush), Ctrl+Z / Ctrl+Y undo and redo;\n"
        "L wireframe, C level colours, M next mesher, F12 screenshot, N the navigation mesh, Shift+click a path's ends.\n"
        "N and Shift+click each print one line on stdout (docs/guides/navigation.md):\n"
        "  nav: mesh shown, T tiles within 128 m of X,Z, N triangles   (once those tiles are built)\n"
        "  nav: mesh hidden\n"
        "  path: from X,Y,Z; Shift+click its end\n"
        "  path: from X,Y,Z to X,Y,Z, N waypoints, L m\n"
        "  path: no path from X,Y,Z to X,Y,Z: why\n\n" +
        app.get_footer());
    cmd->callback([] {
        opt.camera = opt.eye.camera();
        if (!opt.screenshot.empty()) {
            require_extension(opt.screenshot, ".png", "--screenshot");
            require_writable(opt.screenshot);
        }
        const WorldSettings settings = opt.world.settings();
        ViewWindow window(1280, 720);  // before the world file: without a display none is made
        EditSession edits(opt.field, opt.world_file.path);
        const std::string status = edits.has_file() ? "edits go to " + edits.path() : "edits are not saved (no --world)";
        Session& session = edits.session();
        session.start(settings);
        run_viewer(opt, window, session, status);
    });
}

ISOTERRA_SUBCOMMAND(130, register_view);

}  // namespace isoterra::app
