// Points input of `isoterra sample`: one "x y z" per line. Lines are read with a bound on
// their length, so a file of one huge line costs no more memory than a short one, and a bad
// line is quoted in the error as a short, escaped excerpt.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <istream>
#include <vector>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/grid.hpp"
#include "isoterra/io.hpp"

namespace isoterra {
namespace {

constexpr std::size_t kMaxLineBytes = 4096;

// Bytes from a stream (stdin) one at a time; EOF at the end.
struct StreamBytes {
    std::streambuf* buf;
    int next() { return buf->sbumpc(); }
};

// Bytes from a regular file in blocks; a failed read throws (FileReadError), never ends it.
struct FileBytes {
    InputFile& file;
    std::vector<char> block = std::vector<char>(65536);
    std::size_t at = 0, size = 0;
    int next() {
        if (at == size) {
            size = file.read(block.data(), block.size());
            at = 0;
            if (size == 0) return std::char_traits<char>::eof();
        }
        return static_cast<unsigned char>(block[at++]);
    }
};

// Reads one line (without its '\n') into `line`, at most kMaxLineBytes of it; returns false
// at the end of the input. `too_long` tells that the line goes on past the bound: reading
// stops there, so an endless stream without a newline ends in an error, not a hang.
template <class Bytes>
bool next_line(Bytes& in, std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    bool any = false;
    for (;;) {
        const int c = in.next();
        if (c == std::char_traits<char>::eof()) return any;
        any = true;
        if (c == '\n') return true;
        if (line.size() == kMaxLineBytes) {
            too_long = true;
            return true;
        }
        line += static_cast<char>(c);
    }
}

template <class Bytes>
std::vector<glm::dvec3> parse_points(Bytes& in, const std::string& source) {
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
            if (const char* why = coordinate_problem(c); *why) bad(why);
            s = end;
            while (*s == ' ' || *s == '\t' || *s == ',') ++s;
        }
        while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
        if (static_cast<std::size_t>(s - line.c_str()) != line.size()) bad("expected three finite numbers 'x y z'");
        if (points.size() == kMaxPoints)
            throw PointsError(fmt::format("{}:{}: more than {} points; give them in parts", source, number, kMaxPoints));
        points.emplace_back(v[0], v[1], v[2]);
    }
    return points;
}

}  // namespace

std::vector<glm::dvec3> read_points(std::istream& in, const std::string& source) {
    StreamBytes bytes{in.rdbuf()};
    std::vector<glm::dvec3> points;
    try {
        points = parse_points(bytes, source);
    } catch (const std::ios_base::failure& e) {  // a file stream's buffer reports a failed read so
        throw PointsError(fmt::format("{}: read error ({})", source, e.code().message()));
    }
    if (in.bad()) throw PointsError(fmt::format("{}: read error", source));
    return points;
}

std::vector<glm::dvec3> read_points_file(const std::string& path) {
    try {
        InputFile file(path, "points");
        FileBytes bytes{file};
        return parse_points(bytes, path);
    } catch (const FileReadError& e) {
        throw PointsError(e.what());
    }
}

}  // namespace isoterra
