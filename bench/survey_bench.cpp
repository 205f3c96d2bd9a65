// A World's column surveys alone (issue 57: they were 40 % of alpine's first view, its drainage
// node most of that), for instruction counts that a loaded machine cannot blur:
//   valgrind --tool=callgrind --toggle-collect='*measured_pass*' build/isoterra_survey_bench alpine 0 5 1
// surveys (2R)^2 columns at each level from FIRST to LAST after one unmeasured pass (the
// drainage tiles cached, as in a World that has run a while) and prints a digest of what they
// give (layers, ground range, per-column heights and bends): two builds that print the same
// digest surveyed the same bits.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "isoterra/graph.hpp"
#include "isoterra/world.hpp"

namespace {

struct Digest {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    void add(const void* p, std::size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
    }
};

void survey(const isoterra::Field& field, int first, int last, int radius, Digest& digest) {
    for (int level = first; level <= last; ++level)
        for (int z = -radius; z < radius; ++z)
            for (int x = -radius; x < radius; ++x) {
                isoterra::WorldJob job;
                job.survey = true;
                job.coord = {x + 3, 0, z - 2, level};
                isoterra::WorldJobResult out;
                isoterra::run_world_job(field, nullptr, job, out);
                digest.add(&out.bottom, sizeof out.bottom);
                digest.add(&out.top, sizeof out.top);
                digest.add(&out.ground, sizeof out.ground);
                if (!out.lattice_columns) continue;
                for (const double v : out.lattice_columns->height) digest.add(&v, sizeof v);
            }
}

// Not inlined: callgrind's --toggle-collect names it.
__attribute__((noinline)) void measured_pass(const isoterra::Field& field, int first, int last, int radius, Digest& digest) {
    survey(field, first, last, radius, digest);
}

int number(const char* text, const char* what, int lo, int hi) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) {
        std::fprintf(stderr, "isoterra_survey_bench: %s: expected an integer in [%d, %d], got '%s'\n", what, lo, hi, text);
        std::exit(2);
    }
    return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 5) {
        std::fprintf(stderr, "usage: isoterra_survey_bench PRESET [FIRST_LEVEL LAST_LEVEL RADIUS] (default 0 5 1)\n");
        return 2;
    }
    const int first = argc > 2 ? number(argv[2], "FIRST_LEVEL", 0, 12) : 0;
    const int last = argc > 3 ? number(argv[3], "LAST_LEVEL", first, 12) : 5;
    const int radius = argc > 4 ? number(argv[4], "RADIUS", 1, 16) : 1;
    try {
        const auto field = isoterra::builtin_terrain(argv[1]).make_field();
        Digest warm, digest;
        survey(*field, first, last, radius, warm);
        const auto t0 = std::chrono::steady_clock::now();
        measured_pass(*field, first, last, radius, digest);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%s levels %d-%d radius %d: digest %016llx, %.3f s\n", argv[1], first, last, radius,
                    static_cast<unsigned long long>(digest.h), s);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "isoterra_survey_bench: %s\n", e.what());
        return 2;
    }
    return 0;
}
