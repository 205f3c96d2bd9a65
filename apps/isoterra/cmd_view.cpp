// `isoterra view`: the interactive viewer. A flying camera over the streamed world (W A S D,
// Q and E down and up, middle-drag or Alt+left-drag to look, Shift four times as fast, the
// wheel changes the speed), the terrain shading of `render`, and a panel (Dear ImGui) with
// the counts, the preset and seed, the mesher, the view radius and wireframe. Editing: the
// left button carves and the right button adds a sphere at the ground under the cursor,
// Ctrl+wheel sizes the brush, Ctrl+Z / Ctrl+Y undo and redo; with --world the edits go to
// the world file. L: wireframe, M: next mesher, F12: screenshot. With --frames N it runs N frames (along --path if given), writes
// --screenshot and exits: for tests and the docs.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "edit_session.hpp"
#include "flight_path.hpp"
#include "isoterra/io.hpp"
#include "isoterra/world.hpp"
#include "render/scene_framebuffer.hpp"
#include "render/terrain_renderer.hpp"

namespace isoterra::app {
namespace {

// The mesher's place in the registry: the order the panel lists them and M steps through.
int mesher_index(Mesher m) { return static_cast<int>(&mesher_info(m) - meshers().data()); }

struct ViewOptions {
    FieldOptions field;
    WorldOptions world;
    WorldFileOption world_file;
    int frames = 0;
    std::string screenshot, path;
    double speed = 20.0, budget_ms = 4.0, fog_m = -1.0;
    bool level_colours = false;
};

// Reads the back buffer (before the swap) as RGB rows from the top.
std::vector<std::uint8_t> read_back(int width, int height) {
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4), rgb(static_cast<std::size_t>(width) * height * 3);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < 3; ++c)
                rgb[(static_cast<std::size_t>(y) * width + x) * 3 + c] = rgba[(static_cast<std::size_t>(height - 1 - y) * width + x) * 4 + c];
    return rgb;
}

struct FlyCamera {
    glm::dvec3 position{0.0};
    double yaw = 0.0, pitch = -0.08;  // radians; yaw 0 looks north (-z), over the hills
    glm::dvec3 forward() const {
        return {-std::sin(yaw) * std::cos(pitch), std::sin(pitch), -std::cos(yaw) * std::cos(pitch)};
    }
};

double g_scroll = 0.0;
// Clicks and key presses arrive through callbacks: a click can start and end between two
// frames, where polling the button would miss it.
// A click keeps where the cursor was when it happened.
struct ViewEvent {
    enum Kind { carve, add, undo, redo } kind;
    double x = 0.0, y = 0.0;
};
std::vector<ViewEvent> g_events;

}  // namespace

void register_view(CLI::App& app) {
    static ViewOptions opt;
    auto* cmd = app.add_subcommand("view", "The interactive viewer: fly through the streamed world (needs a display)");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd, 32, true);
    opt.world_file.add_to(*cmd);
    cmd->add_option("--frames", opt.frames, "Run this many frames, then exit (0: until the window closes)")->check(CLI::Range(0, 1000000));
    cmd->add_option("--screenshot", opt.screenshot, "With --frames: write the last frame to this PNG");
    cmd->add_option("--path", opt.path, "With --frames: fly line, circle:R or a waypoint file instead of standing");
    cmd->add_option("--speed", opt.speed, "Metres per second (the wheel changes it)")->check(finite_range(0.1, 10000.0));
    cmd->add_option("--fog", opt.fog_m, "Metres where the fog is full (0: none; default: the view distance)")
        ->check(finite_range(0.0, 1e6));
    cmd->add_flag("--level-colours", opt.level_colours, "Start with chunks tinted by their level of detail (C toggles)");
    cmd->callback([] {
        WorldSettings settings = opt.world.settings();
        if (!opt.screenshot.empty()) require_extension(opt.screenshot, ".png", "--screenshot");
        auto session = std::make_unique<EditSession>(opt.field, opt.world_file.path);
        const TerrainSource& terrain = session->terrain();
        std::shared_ptr<const Field> field = session->field();
        double sea_level_m = terrain.sea_level_m();

        if (!glfwInit()) throw Failure("view: no display (GLFW cannot start); use `isoterra render` instead");
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        GLFWwindow* window = glfwCreateWindow(1280, 720, "isoterra", nullptr, nullptr);
        if (!window) {
            glfwTerminate();
            throw Failure("view: cannot open an OpenGL 3.3 window");
        }
        glfwMakeContextCurrent(window);
        glfwSwapInterval(1);
        glfwSetScrollCallback(window, [](GLFWwindow*, double, double dy) { g_scroll += dy; });
        glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
            if (action != GLFW_PRESS || (mods & GLFW_MOD_ALT)) return;
            double x, y;
            glfwGetCursorPos(w, &x, &y);
            if (button == GLFW_MOUSE_BUTTON_LEFT) g_events.push_back({ViewEvent::carve, x, y});
            if (button == GLFW_MOUSE_BUTTON_RIGHT) g_events.push_back({ViewEvent::add, x, y});
        });
        glfwSetKeyCallback(window, [](GLFWwindow*, int key, int, int action, int mods) {
            if (action != GLFW_PRESS || !(mods & GLFW_MOD_CONTROL)) return;
            if (key == GLFW_KEY_Z) g_events.push_back({mods & GLFW_MOD_SHIFT ? ViewEvent::redo : ViewEvent::undo});
            if (key == GLFW_KEY_Y) g_events.push_back({ViewEvent::redo});
        });
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        ImGui_ImplGlfw_InitForOpenGL(window, true);
        ImGui_ImplOpenGL3_Init("#version 330");

        {
            auto renderer = std::make_unique<TerrainRenderer>();
            auto world = std::make_unique<World>(field, settings, session->deltas());
            SceneFramebuffer scene;
            FlyCamera camera;
            camera.position = starting_eye(*field);
            const Path path = opt.path.empty() ? Path{} : make_path(opt.path, camera.position);
            double speed = opt.speed, last_x = 0, last_y = 0, fps = 0, upload_ms = 0;
            bool wireframe = false, dragging = false, want_screenshot = false, level_colours = opt.level_colours;
            float view_distance = static_cast<float>(settings.view_distance_m);
            double brush_radius = 4.0;
            // Since the world started: the whole view at some level, then at its own (coarse first).
            auto world_start = std::chrono::steady_clock::now();
            double first_picture_s = -1.0, first_view_s = -1.0;
            std::string edit_status = session->has_file() ? "edits go to " + session->path() : "edits are not saved (no --world)";
            int seed = static_cast<int>(terrain.seed), preset_index = 0, radius = settings.view_radius;
            const auto names = builtin_terrain_names();
            for (std::size_t i = 0; i < names.size(); ++i)
                if (names[i] == terrain.name) preset_index = static_cast<int>(i);
            const auto restart = [&] {
                // A new field: the old world and its meshes go, a new one streams in.
                world.reset();
                renderer = std::make_unique<TerrainRenderer>();
                settings.view_radius = radius;
                settings.view_distance_m = view_distance;
                world = std::make_unique<World>(field, settings, session->deltas());
                world_start = std::chrono::steady_clock::now();
                first_picture_s = first_view_s = -1.0;
            };
            // One edit: the sphere brush at the ground under the cursor.
            const auto edit_at_cursor = [&](BrushMode mode, double mx, double my, int window_w, int window_h) {
                const double tan_half = std::tan(glm::radians(30.0)), aspect = double(window_w) / std::max(1, window_h);
                const glm::dvec3 f = camera.forward(), right = glm::normalize(glm::cross(f, glm::dvec3(0, 1, 0))),
                                 up = glm::cross(right, f);
                const double nx = 2.0 * mx / window_w - 1.0, ny = 1.0 - 2.0 * my / window_h;
                const glm::dvec3 dir = glm::normalize(f + right * (nx * tan_half * aspect) + up * (ny * tan_half));
                glm::dvec3 hit;
                if (!ray_cast(*field, session->history().deltas(), camera.position, dir, std::min(2000.0, settings.view_distance_m), hit)) {
                    edit_status = "no ground under the cursor";
                    return;
                }
                try {
                    const Box box = session->apply(EditOp{BrushKind::sphere, mode, hit, brush_radius});
                    world->set_edits(session->deltas(), box);
                    edit_status = fmt::format("{}: {}", session->history().applied(), describe_edit(session->history().ops().back()));
                } catch (const std::exception& e) {
                    edit_status = e.what();
                }
            };
            const auto walk_history = [&](bool forward) {
                Box box;
                try {
                    if (forward ? session->redo(box) : session->undo(box)) {
                        world->set_edits(session->deltas(), box);
                        edit_status = fmt::format("{} ({} of {} edits in effect)", forward ? "redone" : "undone",
                                                  session->history().applied(), session->history().ops().size());
                    } else {
                        edit_status = forward ? "nothing to redo" : "nothing to undo";
                    }
                } catch (const std::exception& e) {
                    edit_status = e.what();
                }
            };
            using Clock = std::chrono::steady_clock;
            auto previous = Clock::now();
            const auto t0 = previous;
            bool key_l = false, key_m = false, key_c = false, key_f12 = false;
            double frame_ms_total = 0.0, upload_ms_total = 0.0, worst_frame_ms = 0.0;
            int frames_run = 0;
            for (int frame = 0; !glfwWindowShouldClose(window) && (opt.frames == 0 || frame < opt.frames); ++frame) {
                const auto now = Clock::now();
                const double dt = std::min(0.1, std::chrono::duration<double>(now - previous).count());
                previous = now;
                fps = fps * 0.9 + (dt > 0 ? 0.1 / dt : 0.0);
                glfwPollEvents();
                ImGuiIO& io = ImGui::GetIO();
                // Keys and mouse, when the panel does not want them.
                if (!io.WantCaptureKeyboard) {
                    const auto down = [&](int key) { return glfwGetKey(window, key) == GLFW_PRESS; };
                    const double v = speed * (down(GLFW_KEY_LEFT_SHIFT) || down(GLFW_KEY_RIGHT_SHIFT) ? 4.0 : 1.0) * dt;
                    const glm::dvec3 f = camera.forward(), right(std::cos(camera.yaw), 0.0, -std::sin(camera.yaw));
                    if (down(GLFW_KEY_W)) camera.position += f * v;
                    if (down(GLFW_KEY_S)) camera.position -= f * v;
                    if (down(GLFW_KEY_D)) camera.position += right * v;
                    if (down(GLFW_KEY_A)) camera.position -= right * v;
                    if (down(GLFW_KEY_E)) camera.position.y += v;
                    if (down(GLFW_KEY_Q)) camera.position.y -= v;
                    const auto pressed = [&](int key, bool& was) {
                        const bool is = down(key), edge = is && !was;
                        was = is;
                        return edge;
                    };
                    if (pressed(GLFW_KEY_L, key_l)) wireframe = !wireframe;
                    if (pressed(GLFW_KEY_M, key_m)) {
                        settings.mesher = meshers()[(mesher_index(settings.mesher) + 1) % meshers().size()].id;
                        world->set_mesher(settings.mesher);
                    }
                    if (pressed(GLFW_KEY_C, key_c)) level_colours = !level_colours;
                    if (pressed(GLFW_KEY_F12, key_f12)) want_screenshot = true;
                }
                if (!io.WantCaptureMouse) {
                    double mx, my;
                    glfwGetCursorPos(window, &mx, &my);
                    const bool alt = glfwGetKey(window, GLFW_KEY_LEFT_ALT) == GLFW_PRESS || glfwGetKey(window, GLFW_KEY_RIGHT_ALT) == GLFW_PRESS;
                    const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
                    const bool held = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS || (left && alt);
                    int window_w, window_h;
                    glfwGetWindowSize(window, &window_w, &window_h);
                    for (const ViewEvent& e : g_events) {
                        if (e.kind == ViewEvent::carve || e.kind == ViewEvent::add)
                            edit_at_cursor(e.kind == ViewEvent::carve ? BrushMode::carve : BrushMode::add, e.x, e.y, window_w, window_h);
                        else
                            walk_history(e.kind == ViewEvent::redo);
                    }
                    if (held && dragging) {
                        camera.yaw -= (mx - last_x) * 0.004;
                        camera.pitch = std::clamp(camera.pitch - (my - last_y) * 0.004, -1.5, 1.5);
                    }
                    dragging = held;
                    last_x = mx, last_y = my;
                    const bool ctrl = glfwGetKey(window, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS || glfwGetKey(window, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
                    if (g_scroll != 0.0 && ctrl) brush_radius = std::clamp(brush_radius * std::pow(1.25, g_scroll), 1.0, 32.0);
                    else if (g_scroll != 0.0) speed = std::clamp(speed * std::pow(1.25, g_scroll), 1.0, 2000.0);
                }
                g_scroll = 0.0;
                g_events.clear();
                if (!path.points.empty() || path.radius > 0.0)
                    camera.position = path.at(std::chrono::duration<double>(now - t0).count() * speed);

                world->set_focus(camera.position);
                const auto u0 = Clock::now();
                const double clock_s = std::chrono::duration<double>(u0 - t0).count();
                world->deliver(opt.budget_ms, [&](const ChunkUpdate& u) { renderer->apply(u, clock_s); });
                const double since_start = std::chrono::duration<double>(std::chrono::steady_clock::now() - world_start).count();
                if (first_picture_s < 0.0 && world->covered()) first_picture_s = since_start;
                if (first_view_s < 0.0 && world->settled()) first_view_s = since_start;
                const double this_upload = std::chrono::duration<double, std::milli>(Clock::now() - u0).count();
                upload_ms = upload_ms * 0.9 + 0.1 * this_upload;
                upload_ms_total += this_upload;

                int width, height;
                glfwGetFramebufferSize(window, &width, &height);
                // The terrain in a framebuffer of its own (a float depth buffer for reversed
                // depth), copied to the window; the panel is drawn over it there.
                scene.bind(std::max(1, width), std::max(1, height));
                DrawOptions draw;
                draw.fog_m = opt.fog_m < 0.0 ? settings.view_distance_m : opt.fog_m;
                draw.sea_level_m = sea_level_m;
                draw.wireframe = wireframe;
                draw.level_colours = level_colours;
                draw.time_s = clock_s;
                renderer->draw(Camera{camera.position, camera.position + camera.forward(), 60.0, 0.5, settings.view_distance_m * 1.5},
                               std::max(1, width), std::max(1, height), draw);
                scene.copy_to(0);
                glViewport(0, 0, width, height);

                ImGui_ImplOpenGL3_NewFrame();
                ImGui_ImplGlfw_NewFrame();
                ImGui::NewFrame();
                ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
                ImGui::Begin("isoterra");
                const WorldCounts c = world->counts();
                ImGui::Text("%zu chunks loaded, %zu waiting; %.2f M triangles shown", c.loaded, c.waiting, renderer->triangle_count() / 1e6);
                const std::vector<LevelCounts> levels = renderer->per_level();
                for (std::size_t l = 0; l < levels.size(); ++l)
                    if (levels[l].chunks > 0)
                        ImGui::Text("  level %zu (%g m): %4zu chunks, %7zu triangles", l, std::ldexp(1.0, static_cast<int>(l)),
                                    levels[l].chunks, levels[l].triangles);
                ImGui::Text("first picture %s, first view %s",
                            first_picture_s < 0.0 ? "filling" : fmt::format("{:.2f} s", first_picture_s).c_str(),
                            first_view_s < 0.0 ? "filling" : fmt::format("{:.2f} s", first_view_s).c_str());
                ImGui::Text("%.0f fps, upload %.2f ms/frame", fps, upload_ms);
                ImGui::Text("x %.0f  y %.0f  z %.0f  speed %.0f m/s", camera.position.x, camera.position.y, camera.position.z, speed);
                std::vector<const char*> items;
                for (const auto& n : names) items.push_back(n.c_str());
                // A world file keeps its own preset and seed.
                ImGui::BeginDisabled(session->has_file());
                bool regenerate = ImGui::Combo("preset", &preset_index, items.data(), static_cast<int>(items.size()));
                regenerate |= ImGui::InputInt("seed", &seed);
                ImGui::EndDisabled();
                int mesher = mesher_index(settings.mesher);
                const auto label = [](void*, int i, const char** out) {
                    *out = meshers()[static_cast<std::size_t>(i)].label;
                    return true;
                };
                if (ImGui::Combo("mesher", &mesher, label, nullptr, static_cast<int>(meshers().size()))) {
                    settings.mesher = meshers()[static_cast<std::size_t>(mesher)].id;
                    world->set_mesher(settings.mesher);
                }
                const bool new_radius = ImGui::SliderInt("chunks per ring", &radius, 2, 16);
                ImGui::SliderFloat("view distance (m)", &view_distance, 256.0f, 32000.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
                const bool new_distance = ImGui::IsItemDeactivatedAfterEdit();  // on release: a new world is costly
                ImGui::Checkbox("wireframe (L)", &wireframe);
                ImGui::SameLine();
                ImGui::Checkbox("colour levels (C)", &level_colours);
                ImGui::Text("brush %.1f m (Ctrl+wheel), %zu of %zu edits in effect", brush_radius, session->history().applied(),
                            session->history().ops().size());
                ImGui::TextUnformatted(edit_status.c_str());
                if (ImGui::Button("undo (Ctrl+Z)")) walk_history(false);
                ImGui::SameLine();
                if (ImGui::Button("redo (Ctrl+Y)")) walk_history(true);
                ImGui::Text("WASD move, QE down/up, middle-drag or Alt+drag to look, Shift x4, wheel speed");
                ImGui::Text("left carve, right add, Ctrl+Z undo, Ctrl+Y redo, M mesher, F12 screenshot");
                ImGui::End();
                if (regenerate) {
                    // A new terrain: edits made on the old one do not carry over.
                    TerrainSource chosen = builtin_terrain(names[static_cast<std::size_t>(preset_index)]);
                    chosen.seed = static_cast<std::uint32_t>(seed);
                    session = std::make_unique<EditSession>(chosen);
                    field = session->field();
                    sea_level_m = chosen.sea_level_m();
                }
                if (regenerate || new_radius || new_distance) {
                    restart();
                }
                ImGui::Render();
                ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

                const bool last = opt.frames > 0 && frame + 1 == opt.frames;
                if (want_screenshot || (last && !opt.screenshot.empty())) {
                    const std::string out = !opt.screenshot.empty() ? opt.screenshot : fmt::format("isoterra-{}.png", frame);
                    const auto rgb = read_back(width, height);
                    try {
                        write_png(out, width, height, 3, 8, rgb.data());
                    } catch (const IoError& e) {
                        throw_write_error(e);
                    }
                    std::fprintf(stderr, "wrote %s\n", printable(out).c_str());
                    want_screenshot = false;
                }
                glfwSwapBuffers(window);
                const double frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - now).count();
                frame_ms_total += frame_ms;
                worst_frame_ms = std::max(worst_frame_ms, frame_ms);
                ++frames_run;
                // One line when the window is up and taking input (scripts driving it wait for it).
                if (frames_run == 1) std::fprintf(stderr, "view: first frame shown; %s\n", edit_status.c_str());
                // Xvfb does not throttle the swap: keep to 60 frames a second ourselves.
                std::this_thread::sleep_until(now + std::chrono::microseconds(16667));
            }
            if (opt.frames > 0 && frames_run > 0)
                std::fprintf(stderr, "view: %d frames, frame time mean %.1f ms (worst %.1f), upload mean %.2f ms per frame\n",
                             frames_run, frame_ms_total / frames_run, worst_frame_ms, upload_ms_total / frames_run);
        }
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        glfwDestroyWindow(window);
        glfwTerminate();
    });
}

}  // namespace isoterra::app
