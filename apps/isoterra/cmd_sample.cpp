// `isoterra sample`: the field value at each "x y z" line, 17 significant digits.
#include <cstdio>
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "edit_session.hpp"
#include "isoterra/io.hpp"

namespace isoterra::app {
namespace {

struct SampleOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string points_path;
};

}  // namespace

void register_sample(CLI::App& app) {
    static SampleOptions opt;
    auto* cmd = app.add_subcommand("sample", "Print the field value at each 'x y z' line (stdin or --points), one per line");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd);
    cmd->add_option("--points", opt.points_path, "File of 'x y z' lines (default: standard input)");
    cmd->callback([] {
        // Every point is read first, so a bad line stops the command before anything is printed
        // and before a world file is made.
        std::vector<glm::dvec3> points;
        try {
            if (opt.points_path.empty()) {
                points = read_points(std::cin, "stdin");
            } else {
                points = read_points_file(opt.points_path);
            }
        } catch (const PointsError& e) {
            throw UsageError(opt.points_path.empty() ? e.what() : fmt::format("--points: {}", e.what()));
        }
        const EditSession session(opt.field, opt.world.path);
        const auto field = session.field();
        std::vector<double> values(points.size());
        // Edits add their deltas, trilinear between the 1 m samples they are stored at.
        sample_edited(*field, session.history().deltas(), points.data(), points.size(), values.data());
        std::string out;
        for (const double v : values) out += fmt::format("{:.17g}\n", v);
        std::fwrite(out.data(), 1, out.size(), stdout);
        if (std::fflush(stdout) != 0) throw Failure("cannot write to standard output");
    });
}

ISOTERRA_SUBCOMMAND(30, register_sample);

}  // namespace isoterra::app
