// `isoterra render`: one picture of the world with no display: streams the chunks around the
// eye, every level of detail to the view distance, until all are shown, draws them with the
// viewer's shading through EGL, writes a PNG.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "edit_session.hpp"
#include "isoterra/base.hpp"
#include "isoterra/io.hpp"
#include "isoterra/world.hpp"
#include "nav_cli.hpp"
#include "render/headless_gl.hpp"
#include "render/path_overlay.hpp"
#include "render/terrain_renderer.hpp"

namespace isoterra::app {
namespace {

struct RenderOptions {
    FieldOptions field;
    WorldOptions world;
    WorldFileOption world_file;
    EyeOptions eye;
    std::string size = "1280x720", output, path;
    double fog_m = -1.0;
    bool level_colours = false;
};

// The two ends of --path X,Y,Z,X,Y,Z.
std::pair<glm::dvec3, glm::dvec3> parse_path_ends(const std::string& text) {
    std::size_t third = 0;
    for (int i = 0; i < 3; ++i)
        if ((third = text.find(',', i == 0 ? 0 : third + 1)) == std::string::npos)
            throw UsageError(fmt::format("--path: expected X,Y,Z,X,Y,Z (two points on the ground), got '{}'", text_excerpt(text)));
    return {parse_vec3(text.substr(0, third), "--path"), parse_vec3(text.substr(third + 1), "--path")};
}

}  // namespace

void register_render(CLI::App& app) {
    static RenderOptions opt;
    auto* cmd = app.add_subcommand("render", "Render one picture with no display (EGL, software) and write a PNG");
    opt.field.add_to(*cmd);
    opt.world_file.add_to(*cmd);
    opt.eye.add_to(*cmd);
    cmd->add_option("--size", opt.size, "Image size WxH");
    opt.world.add_to(*cmd, 32);
    cmd->add_option("--fog", opt.fog_m, "Metres where the fog is full (0: none; default: the view distance)")
        ->check(finite_range(0.0, 1e6));
    cmd->add_flag("--level-colours", opt.level_colours, "Tint each chunk by its level of detail");
    cmd->add_option("--path", opt.path,
                    "Draw the path an agent walks between two points on the ground, X,Y,Z,X,Y,Z (default agent; exit 3: no path; guide: "
                    "docs/guides/navigation.md)");
    cmd->add_option("-o,--output", opt.output, "Output PNG")->required();
    cmd->callback([] {
        const auto given = opt.eye.camera();
        glm::dvec3 eye{0.0}, target{0.0};
        if (given) eye = given->first, target = given->second;
        int width = 0, height = 0;
        char x = 0;
        int used = 0;  // the whole text, not a prefix ("16x16junk")
        if (std::sscanf(opt.size.c_str(), "%d%c%d%n", &width, &x, &height, &used) != 3 || x != 'x' ||
            used != static_cast<int>(opt.size.size()) || opt.size.find_first_not_of("0123456789x") != std::string::npos || width < 16 ||
            height < 16 || width > 8192 || height > 8192)
            throw UsageError(fmt::format("--size: expected WxH from 16x16 to 8192x8192, got '{}'", text_excerpt(opt.size)));
        require_extension(opt.output, ".png", "-o");
        require_writable(opt.output);
        const WorldSettings settings = opt.world.settings();
        // Held at once: the world's queue, the renderer's meshes and the driver's copies.
        check_view_plan(settings, 3.0, "render");
        HeadlessGl gl(width, height);  // before the world file: a machine without EGL leaves none
        const EditSession session(opt.field, opt.world_file.path);
        const std::shared_ptr<const Field> field = session.field();
        NavPath path;  // before the picture: a bad end or no path leaves no file
        if (!opt.path.empty()) {
            const auto [a, b] = parse_path_ends(opt.path);
            path = find_nav_path(session, AgentSettings{}, a, b, 64.0, default_threads(), "--path's first point", "--path's second point");
        }
        if (!given) {
            const StartingView start = starting_view(*field);
            eye = start.eye, target = start.target;
            std::fprintf(stderr, "render: from %.0f,%.0f,%.0f to %.0f,%.0f,%.0f\n", eye.x, eye.y, eye.z, target.x, target.y, target.z);
        }

        TerrainRenderer renderer;
        World world(field, settings, session.deltas());
        const auto start = std::chrono::steady_clock::now();
        for (;;) {
            world.set_focus(eye);
            world.deliver(1e9, [&](const ChunkUpdate& u) { renderer.apply(u); });
            if (world.settled()) break;
            if (std::chrono::steady_clock::now() - start > std::chrono::minutes(10))
                throw Failure("render: the world did not settle in 10 minutes");
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        const double view = settings.view_distance_m;
        Camera camera{eye, target, 60.0, 0.5, view * 1.5};
        DrawOptions draw;
        draw.fog_m = opt.fog_m < 0.0 ? view : opt.fog_m;
        draw.sea_level_m = session.terrain().sea_level_m();
        draw.level_colours = opt.level_colours;
        renderer.draw(camera, width, height, draw);
        std::vector<std::uint8_t> rgb = gl.read_rgb();
        if (!path.points.empty()) draw_path(rgb, width, height, camera, path.points, kPathColour, 3);
        try {
            write_png(opt.output, width, height, 3, 8, rgb.data());
        } catch (const IoError& e) {
            throw_write_error(e);
        }
        std::fprintf(stderr, "wrote %s: %dx%d, %d levels, %zu chunks, %zu triangles\n", printable(opt.output).c_str(), width, height,
                     world.settings().levels, renderer.chunk_count(), renderer.triangle_count());
        if (!path.points.empty()) std::fprintf(stderr, "path: %zu waypoints, %.1f m\n", path.points.size(), path.length_m);
    });
}

ISOTERRA_SUBCOMMAND(120, register_render);

}  // namespace isoterra::app
