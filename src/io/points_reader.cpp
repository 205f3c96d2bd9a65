// Points input of `isoterra sample`: one "x y z" per line. Lines are read with a bound on
// their length, so a file of one huge line costs no more memory than a short one, and a bad
// line is quoted in the error as a short, escaped excerpt.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

#include <fmt/format.h>

#include "isoterra/grid.hpp"
#include "isoterra/io.hpp"

namespace isoterra {
namespace {

constexpr std::size_t kMaxLineBytes = 4096;

// Reads one line (without its '\n') into `line`, at most kMaxLineBytes of it; returns false
// at the end of the input. `too_long` tells that the line goes on past the bound: reading
// stops there, so an endless stream without a newline ends in an error, not a hang.
bool next_line(std::istream& in, std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    std::streambuf* buf = in.rdbuf();
    bool any = false;
    for (;;) {
        const int c = buf->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            in.setstate(std::ios::eofbit);
            return any;
        }
        any = true;
        if (c == '\n') return true;
        if (line.size() == kMaxLineBytes) {
            too_long = true;
            return true;
        }
        line += static_cast<char>(c);
    }
}

}  // namespace

std::vector<glm::dvec3> read_points(std::istream& in, const std::string& source) {
    std::vector<glm::dvec3> points;
    std::string line;
    bool too_long = false;
    long number = 0;
    const auto bad = [&](const char* what) {
        throw PointsError(fmt::format("{}:{}: {}, got '{}'", source, number, what, text_excerpt(line, 60)));
    };
    while (next_line(in, line, too_long)) {
        ++number;
        if (too_long) bad("a line longer than 4096 bytes");
        const char* s = line.c_str();
        while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
        if (*s == '\0' || *s == '#') continue;  // blank lines and comments carry no point
        double v[3];
        for (double& c : v) {
            char* end = nullptr;
            errno = 0;
            c = std::strtod(s, &end);
            if (end == s || errno == ERANGE || !std::isfinite(c)) bad("expected three finite numbers 'x y z'");
            if (std::fabs(c) > kCoordinateLimit_m) bad("coordinates must lie within +-1e8 m");
            s = end;
            while (*s == ' ' || *s == '\t' || *s == ',') ++s;
        }
        while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
        if (static_cast<std::size_t>(s - line.c_str()) != line.size()) bad("expected three finite numbers 'x y z'");
        if (points.size() == kMaxPoints)
            throw PointsError(fmt::format("{}:{}: more than {} points; give them in parts", source, number, kMaxPoints));
        points.emplace_back(v[0], v[1], v[2]);
    }
    if (in.bad()) throw PointsError(fmt::format("{}: read error", source));
    return points;
}

std::vector<glm::dvec3> read_points_file(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        throw PointsError(fmt::format("{}: cannot open ({})", text_excerpt(path, 200), std::strerror(errno)));
    if (!S_ISREG(st.st_mode))
        throw PointsError(fmt::format("{}: not a regular file (a stream of points goes on stdin)", text_excerpt(path, 200)));
    std::ifstream in(path);
    if (!in) throw PointsError(fmt::format("{}: cannot open ({})", text_excerpt(path, 200), std::strerror(errno)));
    return read_points(in, path);
}

}  // namespace isoterra
