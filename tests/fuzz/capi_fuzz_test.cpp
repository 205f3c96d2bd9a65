// Seeded fuzzing of the C API (include/isoterra/isoterra.h) from the fuzz targets' corpora
// (fuzz_support.hpp): graph and preset texts, world files and names mutated, and hostile
// numbers (NaN, infinities, 1e300, whatever eight of an input's bytes make) for every
// coordinate, size and distance. Every call must return what the header says (0 or -1,
// a handle or NULL, 1 or 0 for undo and redo), leave isoterra_last_error() "" when it
// succeeds and one clean line (no control character, UTF-8, at most 700 bytes) when it
// fails, and never crash (this suite runs under AddressSanitizer and UBSan).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "fuzz_support.hpp"
#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/io.hpp"
#include "isoterra/isoterra.h"

namespace {

using isoterra::fuzz::corpus;
using isoterra::fuzz::run_target;

constexpr std::size_t kMostMessageBytes = 700;  // isoterra.h

// The last error after a call: "" when it succeeded, else one clean line.
void expect_last_error(bool succeeded, const std::string& input) {
    const std::string what = isoterra_last_error();
    if (succeeded) {
        EXPECT_EQ(what, "") << isoterra::text_excerpt(input, 300);
        return;
    }
    EXPECT_FALSE(what.empty()) << isoterra::text_excerpt(input, 300);
    EXPECT_LE(what.size(), kMostMessageBytes) << isoterra::text_excerpt(what, 300);
    // printable() leaves text alone exactly when it is UTF-8 with no control character.
    EXPECT_EQ(isoterra::printable(what, 1 << 20), what) << isoterra::text_excerpt(what, 300);
}

// Numbers from an input: each either eight of its bytes as they are (NaN, infinities,
// subnormals, 1e300) or a small ordinary value, so that some calls get past the checks.
class HostileNumbers {
public:
    explicit HostileNumbers(const std::string& input) : bytes_(input) {}
    double next() {
        const std::size_t at = (i_ * 8) % (bytes_.size() + 1);
        const auto pick = at < bytes_.size() ? static_cast<unsigned char>(bytes_[at]) : 0u;
        ++i_;
        if (pick % 4 != 0) return (static_cast<int>(pick) - 128) * 0.75;
        double raw = 0;
        std::memcpy(&raw, (bytes_ + std::string(8, '\0')).data() + std::min(at, bytes_.size()), 8);
        return raw;
    }

private:
    std::string bytes_;
    std::size_t i_ = 0;
};

// A whole number in (-n, n) from any double (a cast of NaN or 1e300 would be undefined).
int small_int(double x, int n) { return std::isfinite(x) ? static_cast<int>(std::fmod(x, n)) : n - 1; }

bool within_limits(const double* p, int n) {
    for (int a = 0; a < n; ++a)
        if (!(std::fabs(p[a]) <= isoterra::kCoordinateLimit_m)) return false;
    return true;
}

// A field's calls with hostile numbers: sample, lattice, ground, raycast.
void exercise_field(const isoterra_field* f, const std::string& input) {
    HostileNumbers h(input);
    double xyz[6], values[2];
    for (double& c : xyz) c = h.next();
    const int sampled = isoterra_field_sample(f, xyz, 2, values);
    EXPECT_EQ(sampled == 0, within_limits(xyz, 6)) << xyz[0] << " " << xyz[1] << " " << xyz[2];
    expect_last_error(sampled == 0, input);

    const double step = std::fabs(h.next()) < 1e-3 ? h.next() : std::fmod(std::fabs(h.next()), 8.0) + 0.5;
    double origin[3];
    std::int32_t size[3];
    for (int a = 0; a < 3; ++a) origin[a] = step * std::round(h.next()), size[a] = small_int(h.next(), 7) - 1;
    float lattice[5 * 5 * 5];
    const int lattice_rc = isoterra_field_lattice(f, origin, size, step, lattice);
    EXPECT_TRUE(lattice_rc == 0 || lattice_rc == -1);
    if (lattice_rc == 0) EXPECT_TRUE(size[0] > 0 && size[1] > 0 && size[2] > 0 && std::isfinite(step) && step > 0);
    expect_last_error(lattice_rc == 0, input);

    const double xz[2] = {xyz[0], xyz[2]};
    const int ground_rc = isoterra_field_ground(f, xz, 1, values);
    EXPECT_TRUE(ground_rc == 0 || ground_rc == -1);
    expect_last_error(ground_rc == 0, input);

    double direction[3], hit[3];
    for (double& d : direction) d = h.next();
    const double reach = h.next();
    // A reach the API takes is kept short: a long ray through a costly graph is slow, not wrong.
    const int ray_rc = isoterra_field_raycast(f, xyz, direction, std::isfinite(reach) && reach > 0 ? std::fmin(reach, 64.0) : reach, hit);
    EXPECT_TRUE(ray_rc >= -1 && ray_rc <= 1);
    expect_last_error(ray_rc >= 0, input);
}

// A string from an input (and `salt`, the iteration: an input repeated picks others):
// mostly one of `good`, else a hostile word or a slice of the input, NULs and all.
std::string some_text(const std::string& input, std::size_t k, const std::vector<std::string>& good, std::size_t salt) {
    static const char* const hostile[] = {"", "\x1b[2J", "./missing.toml", "/", "sphere\n", "carve ", "\xff\xfe"};
    const std::size_t pick = (input.empty() ? k : static_cast<unsigned char>(input[(k * 13) % input.size()]) + k) + salt * 7;
    if (pick % 4 != 0) return good[pick % good.size()];
    if (pick % 8 == 0) return hostile[pick / 8 % (sizeof(hostile) / sizeof(hostile[0]))];
    return input.substr(pick % (input.size() + 1), pick % 300);
}

}  // namespace

TEST(Fuzz, c_api_fields_from_text) {
    auto inputs = corpus("graph");
    for (const auto& text : corpus("preset")) inputs.push_back(text);
    for (const auto& n : isoterra::builtin_terrain_names())
        if (isoterra::is_graph_text(isoterra::builtin_preset_text(n))) inputs.push_back(isoterra::builtin_preset_text(n));
    const std::vector<std::string> words = {"[node]\n",
                                            "[output]\n",
                                            "sdf = ",
                                            "ground = ",
                                            "type = ",
                                            "\"add\"",
                                            "{ type = \"",
                                            "= 1e308",
                                            "= nan",
                                            "format = 1\n",
                                            "name = \"\\u001b[2J\"\n",
                                            "seed = ",
                                            "\n"};
    const std::string dir = isoterra::test::fresh_folder("fuzz_capi_text");
    std::size_t accepted = 0, refused = 0;
    run_target("capi_text", inputs, words, [&](const std::string& text) {
        const std::int64_t seed = text.size() % 3 == 0 ? static_cast<std::int64_t>(text.size()) << 30 : -1;
        isoterra_field* f = isoterra_field_from_text(text.c_str(), dir.c_str(), seed);
        expect_last_error(f != nullptr, text);
        if (!f) {
            ++refused;
            return;
        }
        ++accepted;
        EXPECT_NE(isoterra_field_name(f), nullptr);
        exercise_field(f, text);
        isoterra_field_free(f);
        expect_last_error(true, text);
    });
    std::printf("C API fields from text: %zu accepted, %zu refused\n", accepted, refused);
    EXPECT_GT(accepted, 3u);
    EXPECT_GT(refused, 10u);
}

// World files (the world target's corpus, mutated) opened by an editor, which then takes
// brushes, modes and numbers from the input; names and meshers from it too.
TEST(Fuzz, c_api_editor_and_names) {
    const std::string path = isoterra::test::fresh_path("fuzz_capi_world.db");
    isoterra_field* tutorial = isoterra_field_new("tutorial", -1);
    ASSERT_NE(tutorial, nullptr);
    const std::vector<std::string> files = corpus("world");
    std::size_t opened = 0, refused = 0, edits = 0, i = 0;
    run_target("capi_editor", files, {"SQLite format 3", "sphere", "carve", "add", "\x1b]0;x\x07", "tutorial"},
               [&](const std::string& bytes) {
                   for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
                   // Every other time the file as it is, so that the edits' part gets its share.
                   std::ofstream(path, std::ios::binary) << (++i % 2 ? files[i % files.size()] : bytes);
                   isoterra_editor* e = isoterra_editor_open(path.c_str(), "tutorial", -1);
                   expect_last_error(e != nullptr, bytes);
                   HostileNumbers h(bytes);
                   for (std::size_t k = 0; e && k < 2; ++k) {
                       const std::string brush = some_text(bytes, 2 * k, {"sphere", "smooth", "flatten"}, i),
                                         mode = some_text(bytes, 2 * k + 1, {"carve", "add"}, i);
                       double p[3] = {h.next(), h.next(), h.next()};
                       const double radius = k % 2 ? h.next() : std::fmod(std::fabs(h.next()), 6.0) + 0.5;
                       const int rc = isoterra_editor_apply(e, brush.c_str(), k == 1 && mode.empty() ? nullptr : mode.c_str(), p[0], p[1],
                                                            p[2], radius, h.next());
                       EXPECT_TRUE(rc == 0 || rc == -1);
                       expect_last_error(rc == 0, bytes);
                       edits += rc == 0;
                       const int back = k % 2 ? isoterra_editor_undo(e) : isoterra_editor_redo(e);
                       EXPECT_TRUE(back == 0 || back == 1) << isoterra_last_error();
                       expect_last_error(back >= 0, bytes);
                   }
                   if (e) {
                       ++opened;
                       isoterra_field* snapshot = isoterra_editor_field(e);
                       expect_last_error(snapshot != nullptr, bytes);
                       if (snapshot) exercise_field(snapshot, bytes);
                       isoterra_field_free(snapshot);
                       isoterra_editor_free(e);
                   } else {
                       ++refused;
                   }
                   // Names: a preset's or a file's, and a mesher's for one small chunk.
                   const std::string name = some_text(bytes, 9, {"tutorial", "alpine"}, i);
                   isoterra_field* named = isoterra_field_new(name.c_str(), -1);
                   expect_last_error(named != nullptr, bytes);
                   isoterra_field_free(named);
                   const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
                   const std::string mesher = some_text(bytes, 10, {"marching-cubes", "surface-nets", "blocks"}, i);
                   isoterra_mesh* m = isoterra_mesh_region(tutorial, lo, hi, mesher.c_str(), small_int(h.next(), 12), 1);
                   expect_last_error(m != nullptr, bytes);
                   isoterra_mesh_free(m);
               });
    isoterra_field_free(tutorial);
    std::printf("C API editor: %zu world files opened, %zu refused, %zu edits applied\n", opened, refused, edits);
    EXPECT_GT(opened, 2u);
    EXPECT_GT(refused, 2u);
    EXPECT_GT(edits, 2u);
}
