// `isoterra heightmap`: the ground height over a rectangle as a 16-bit PNG, with a JSON
// sidecar holding the height range and extent needed to turn pixels back into metres.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isoterra/io.hpp"
#include "region.hpp"

namespace isoterra::app {
namespace {

struct HeightmapOptions {
    FieldOptions field;
    std::string from, to, output;
    double step = 1.0;
    bool force = false, quiet = false;
};

}  // namespace

void register_heightmap(CLI::App& app) {
    static HeightmapOptions opt;
    auto* cmd = app.add_subcommand("heightmap", "Write the ground height as a 16-bit PNG and a JSON sidecar (range, extent)");
    opt.field.add_to(*cmd);
    cmd->add_option("--from", opt.from, "Corner X,Z (metres)")->required();
    cmd->add_option("--to", opt.to, "Opposite corner X,Z")->required();
    cmd->add_option("--step", opt.step, "Metres per pixel")->check(finite_range(0.001, 1e6));
    cmd->add_option("-o,--output", opt.output, "Output .png (the sidecar is the same name with .json)")->required();
    cmd->add_flag("--force", opt.force, "Allow images over 8192 pixels a side");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    cmd->callback([] {
        require_extension(opt.output, ".png", "-o");
        require_writable(opt.output);
        const ImageGrid grid = image_grid(opt.from, opt.to, opt.step, 8192, opt.force);
        const glm::dvec2 a = grid.from;
        const int width = grid.width, height = grid.height;
        const auto terrain = opt.field.build();
        if (!terrain->has_ground()) throw UsageError("heightmap: this field graph has no ground output ([output] ground = \"ID\")");
        std::vector<double> heights(static_cast<std::size_t>(width) * height);
        parallel_for(static_cast<std::size_t>(height), default_threads(), "heightmap rows", opt.quiet, [&](std::size_t r) {
            for (int c = 0; c < width; ++c)
                heights[r * width + c] = terrain->ground_height(a.x + c * opt.step, a.y + static_cast<double>(r) * opt.step);
        });
        // A PNG's heights are min + pixel * (max - min): every one must be a number, and within
        // what the heightmap node reads back.
        const auto where = [&](std::size_t i) {
            return fmt::format("{:g},{:g}", a.x + static_cast<double>(i % width) * opt.step,
                               a.y + static_cast<double>(i / width) * opt.step);
        };
        for (std::size_t i = 0; i < heights.size(); ++i) {
            if (!std::isfinite(heights[i]))
                throw UsageError(fmt::format("heightmap: the ground is {} at {}; a heightmap needs a finite height everywhere",
                                             std::isnan(heights[i]) ? "NaN" : fmt::format("{}", heights[i]), where(i)));
            if (std::fabs(heights[i]) > kRasterHeightLimit_m)
                throw UsageError(
                    fmt::format("heightmap: the ground is {:g} m at {}; a heightmap holds heights within +-1e7 m", heights[i], where(i)));
        }
        const auto [lo_it, hi_it] = std::minmax_element(heights.begin(), heights.end());
        const double lo = *lo_it, hi = *hi_it;
        std::vector<std::uint16_t> pixels(heights.size());
        const double span = hi > lo ? hi - lo : 1.0;
        for (std::size_t i = 0; i < heights.size(); ++i)
            pixels[i] = static_cast<std::uint16_t>(std::lround((heights[i] - lo) / span * 65535.0));
        nlohmann::ordered_json side;
        side["image"] = opt.output.substr(opt.output.find_last_of('/') + 1);
        side["width"] = width;
        side["height"] = height;
        side["step_m"] = opt.step;
        side["from_xz_m"] = {a.x, a.y};
        side["to_xz_m"] = {a.x + (width - 1) * opt.step, a.y + (height - 1) * opt.step};
        side["min_height_m"] = lo;
        side["max_height_m"] = hi;
        side["pixel_to_height"] =
            "height_m = min_height_m + pixel / 65535 * (max_height_m - min_height_m); row 0 is from_z, column 0 is from_x";
        const std::string sidecar = opt.output.substr(0, opt.output.size() - 4) + ".json";
        try {
            // Both or neither: a PNG without its sidecar has no heights.
            write_files_atomically(
                {{opt.output, encode_png(opt.output, width, height, 1, 16, pixels.data())}, {sidecar, side.dump(2) + "\n"}});
        } catch (const IoError& e) {
            throw_write_error(e);
        }
        std::fprintf(stderr, "wrote %s (%dx%d, %.2f..%.2f m) and %s\n", printable(opt.output).c_str(), width, height, lo, hi,
                     printable(sidecar).c_str());
    });
}

ISOTERRA_SUBCOMMAND(50, register_heightmap);

}  // namespace isoterra::app
