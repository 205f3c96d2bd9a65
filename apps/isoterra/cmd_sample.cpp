// `isoterra sample`: the field value at each "x y z" line, 17 significant digits.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "edit_session.hpp"

namespace isoterra::app {
namespace {

struct SampleOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string points_path;
};

// Reads every point first, so a bad line stops the command before anything is printed.
std::vector<glm::dvec3> read_points(std::istream& in, const std::string& source) {
    std::vector<glm::dvec3> points;
    std::string line;
    long number = 0;
    while (std::getline(in, line)) {
        ++number;
        const char* s = line.c_str();
        while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
        if (*s == '\0' || *s == '#') continue;  // blank lines and comments carry no point
        double v[3];
        for (double& c : v) {
            char* end = nullptr;
            errno = 0;
            c = std::strtod(s, &end);
            if (end == s || errno == ERANGE || !std::isfinite(c))
                throw UsageError(fmt::format("{}:{}: expected three finite numbers 'x y z', got '{}'", source, number, line));
            s = end;
            while (*s == ' ' || *s == '\t' || *s == ',') ++s;
        }
        while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
        if (*s != '\0')
            throw UsageError(fmt::format("{}:{}: expected three finite numbers 'x y z', got '{}'", source, number, line));
        points.emplace_back(v[0], v[1], v[2]);
    }
    if (in.bad()) throw Failure(fmt::format("{}: read error", source));
    return points;
}

}  // namespace

void register_sample(CLI::App& app) {
    static SampleOptions opt;
    auto* cmd = app.add_subcommand("sample", "Print the field value at each 'x y z' line (stdin or --points), one per line");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd);
    cmd->add_option("--points", opt.points_path, "File of 'x y z' lines (default: standard input)");
    cmd->callback([] {
        const EditSession session(opt.field, opt.world.path);
        const auto field = session.field();
        std::vector<glm::dvec3> points;
        if (opt.points_path.empty()) {
            points = read_points(std::cin, "stdin");
        } else {
            std::ifstream in(opt.points_path);
            if (!in) throw UsageError(fmt::format("--points: cannot open '{}'", opt.points_path));
            points = read_points(in, opt.points_path);
        }
        std::vector<double> values(points.size());
        // Edits add their deltas, trilinear between the 1 m samples they are stored at.
        sample_edited(*field, session.history().deltas(), points.data(), points.size(), values.data());
        std::string out;
        for (const double v : values) out += fmt::format("{:.17g}\n", v);
        std::fwrite(out.data(), 1, out.size(), stdout);
        if (std::fflush(stdout) != 0) throw Failure("cannot write to standard output");
    });
}

}  // namespace isoterra::app
