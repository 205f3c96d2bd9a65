// `isoterra slice`: a plane through the field as a picture: the value in grey (solid dark,
// air light), the iso contour (f = 0) in red over it.
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "isoterra/io.hpp"
#include "isoterra/mesh.hpp"
#include "edit_session.hpp"
#include "region.hpp"

namespace isoterra::app {
namespace {

struct SliceOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string axis = "y", from, to, output;
    double at = 0.0, step = 1.0, range = 32.0;
    bool force = false, materials = false, quiet = false;
};

}  // namespace

void register_slice(CLI::App& app) {
    static SliceOptions opt;
    auto* cmd = app.add_subcommand("slice", "Draw a plane through the field as a PNG: grey values, red iso contour");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd);
    cmd->add_option("--axis", opt.axis, "Plane normal: y (A,B = X,Z), x (A,B = Z,Y) or z (A,B = X,Y)")
        ->check(CLI::IsMember({"x", "y", "z"}));
    cmd->add_option("--at", opt.at, "The plane's coordinate on that axis (metres)")
        ->required()
        ->check(finite_range(-kCoordinateLimit_m, kCoordinateLimit_m));
    cmd->add_option("--from", opt.from, "Corner A,B in the plane (metres)")->required();
    cmd->add_option("--to", opt.to, "Opposite corner A,B")->required();
    cmd->add_option("--step", opt.step, "Metres per pixel")->check(finite_range(0.001, 1e6));
    cmd->add_option("--range", opt.range, "Values from -range (black) to +range (white)")->check(finite_range(1e-6, 1e9));
    cmd->add_option("-o,--output", opt.output, "Output PNG")->required();
    cmd->add_flag("--force", opt.force, "Allow images over 4096 pixels a side");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    cmd->add_flag("--materials", opt.materials, "Colour solid pixels by their material (grass, soil, rock, snow)");
    cmd->callback([] {
        require_extension(opt.output, ".png", "-o");
        require_writable(opt.output);
        const ImageGrid grid = image_grid(opt.from, opt.to, opt.step, 4096, opt.force);
        const glm::dvec2 a = grid.from, b = grid.to;
        const int width = grid.width, height = grid.height;
        const EditSession session(opt.field, opt.world.path);
        const auto field = session.field();
        const ChunkDeltas& deltas = session.history().deltas();
        // Row r of the image: the top row is the largest B when B is the height (y).
        const bool vertical = opt.axis != "y";
        std::vector<glm::dvec3> pts(static_cast<std::size_t>(width) * height);
        for (int r = 0; r < height; ++r)
            for (int c = 0; c < width; ++c) {
                const double u = a.x + c * opt.step, v = vertical ? b.y - r * opt.step : a.y + r * opt.step;
                glm::dvec3& p = pts[static_cast<std::size_t>(r) * width + c];
                if (opt.axis == "y") p = {u, opt.at, v};
                else if (opt.axis == "x") p = {opt.at, v, u};
                else p = {u, v, opt.at};
            }
        std::vector<double> values(pts.size());
        parallel_for(static_cast<std::size_t>(height), default_threads(), "slice rows", opt.quiet, [&](std::size_t r) {
            sample_edited(*field, deltas, pts.data() + r * width, static_cast<std::size_t>(width), values.data() + r * width);
        });
        std::vector<std::uint8_t> rgb(pts.size() * 3);
        for (std::size_t i = 0; i < pts.size(); ++i) {
            const double t = std::clamp(values[i] / opt.range * 0.5 + 0.5, 0.0, 1.0);
            glm::vec3 colour(static_cast<float>(t));
            if (opt.materials && values[i] < 0.0) {
                // The material a surface through this point would have, darkened with depth.
                const glm::dvec3 g = field->gradient(pts[i], 0.25 * opt.step);
                const double len = std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
                const MaterialSample m = field->material(pts[i], len > 0 ? g / len : glm::dvec3(0, 1, 0));
                colour = material_colour(m) * static_cast<float>(0.45 + 0.55 * t * 2.0);
            }
            bool contour = false;
            const std::size_t r = i / width, c = i % width;
            if (c + 1 < static_cast<std::size_t>(width)) contour |= (values[i] < 0) != (values[i + 1] < 0);
            if (r + 1 < static_cast<std::size_t>(height)) contour |= (values[i] < 0) != (values[i + width] < 0);
            if (contour) colour = glm::vec3(1.0f, 0.16f, 0.16f);
            for (int ch = 0; ch < 3; ++ch)
                rgb[3 * i + ch] = static_cast<std::uint8_t>(std::lround(std::clamp(colour[ch], 0.0f, 1.0f) * 255));
        }
        try {
            write_png(opt.output, width, height, 3, 8, rgb.data());
        } catch (const IoError& e) {
            throw_write_error(e);
        }
        std::fprintf(stderr, "wrote %s: %dx%d pixels, %g m each\n", printable(opt.output).c_str(), width, height, opt.step);
    });
}

ISOTERRA_SUBCOMMAND(60, register_slice);

}  // namespace isoterra::app
