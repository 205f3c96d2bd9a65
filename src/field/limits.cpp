// The limits every door shares: coordinates finite and within the world's end, lattices that
// fit in it without an index that could wrap, and within the memory budget. The program's
// flags and point files, the C API and the Python module all refuse through these.
#include <cmath>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/field.hpp"

namespace isoterra {

const char* coordinate_problem(double v) {
    if (!std::isfinite(v)) return "a coordinate is not finite";
    if (std::fabs(v) > kCoordinateLimit_m) return "coordinates must lie within +-1e8 m";
    return "";
}

void check_coordinate(double v, const std::string& what) {
    if (const char* why = coordinate_problem(v); *why) throw LimitError(fmt::format("{}: {}, got {}", what, why, v));
}

void check_point(const glm::dvec3& p, const std::string& what) {
    for (int a = 0; a < 3; ++a) check_coordinate(p[a], what);
}

void check_lattice(const Lattice& lattice, const std::string& what) {
    const double step = lattice.spacing_m;
    if (!(std::isfinite(step) && step > 0.0)) throw LimitError(fmt::format("{}: the spacing must be a positive number of metres", what));
    double count = 1.0;
    for (int a = 0; a < 3; ++a) {
        if (lattice.size[a] < 1) throw LimitError(fmt::format("{}: every size must be at least 1, got {}", what, lattice.size[a]));
        count *= lattice.size[a];
        // In doubles: an origin near the int64 ends plus the size would wrap as integers.
        const double first = static_cast<double>(lattice.origin[a]) * step;
        const double last = (static_cast<double>(lattice.origin[a]) + (lattice.size[a] - 1)) * step;
        if (coordinate_problem(first)[0] || coordinate_problem(last)[0])
            throw LimitError(fmt::format("{}: the lattice reaches past +-1e8 m, where the world ends", what));
    }
    if (count > kMaxLatticeSamples)
        throw LimitError(fmt::format("{}: {:.0f} samples, more than the {:.0e} a lattice may have", what, count, kMaxLatticeSamples));
    const double columns = static_cast<double>(lattice.size.x) * lattice.size.z;
    check_memory_budget(count * kLatticeBytesPerSample + columns * kLatticeBytesPerColumn,
                        fmt::format("{}: sampling {:.0f} samples", what, count));
}

Lattice lattice_at(const glm::dvec3& origin_m, const glm::ivec3& size, double spacing_m, const std::string& what) {
    if (!(std::isfinite(spacing_m) && spacing_m > 0.0))
        throw LimitError(fmt::format("{}: the spacing must be a positive number of metres", what));
    Lattice lattice;
    lattice.spacing_m = spacing_m;
    lattice.size = size;
    for (int a = 0; a < 3; ++a) {
        check_coordinate(origin_m[a], what + ": origin");
        const double steps = origin_m[a] / spacing_m;
        // Whole, and exact in a double (so in an int64 too): a tiny spacing makes many steps.
        if (!(steps == std::floor(steps) && std::fabs(steps) <= 0x1p53))
            throw LimitError(fmt::format("{}: the origin must be a whole multiple of the spacing, within 2^53 steps of 0", what));
        lattice.origin[a] = static_cast<std::int64_t>(steps);
    }
    check_lattice(lattice, what);
    return lattice;
}

}  // namespace isoterra
