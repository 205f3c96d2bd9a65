// Seeded fuzzing of everything that reads a user's bytes: the preset and graph parsers, the
// heightmap raster reader, the points parser, the delta decoder and the world-file reader. Each target starts from its corpus in
// tests/fuzz/corpus/ (and the built-in presets and graphs, the classic presets of
// tests/reference/presets too) and runs mutated inputs for a bounded time
// (ISOTERRA_FUZZ_SECONDS per target, default 10). Every input must be accepted whole or
// refused with the target's own error, in one line; what is accepted must make sense.
// The run is reproducible: iteration i of a target always tries the same input
// (ISOTERRA_FUZZ_SEED changes the sequence).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>

#include <fmt/format.h>
#include <sqlite3.h>

#include "classic_presets.hpp"
#include "isoterra/bake.hpp"
#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/io.hpp"
#include "isoterra/store.hpp"
#include "fuzz_support.hpp"
#include "mutator.hpp"
#include "temp_files.hpp"

using namespace isoterra;
using isoterra::fuzz::base_seed;
using isoterra::fuzz::corpus;
using isoterra::fuzz::expect_clean_message;
using isoterra::fuzz::run_target;

namespace {

// Reads the PNG and the sidecar in `dir` through a heightmap node: refused with RasterError
// in one clean line, or accepted with finite heights within the proven range, near and far,
// and a 64-digit digest. Counts which in `accepted` and `refused`.
void check_heightmap_files(const std::string& dir, const std::string& input, std::size_t& accepted, std::size_t& refused) {
    std::unique_ptr<GraphField> graph;
    try {
        graph = parse_graph("format = 1\n[node]\nh = { type = \"heightmap\", file = \"h.png\" }\n[output]\nsdf = \"h\"\nground = \"h\"\n",
                            "fuzz.toml", dir);
    } catch (const RasterError& e) {
        ++refused;
        expect_clean_message(e.what(), 2000, input);
        return;
    }
    ++accepted;
    const ValueRange r = graph->bounds({{-1e6, 0, -1e6}, {1e6, 1, 1e6}});
    const glm::dvec3 points[] = {{0, 0, 0}, {1.5, 0, 2.25}, {-1e6, 0, 1e6}, {3, 0, -1}};
    double values[4];
    graph->sample_points(points, 4, values);
    for (const double v : values) EXPECT_TRUE(std::isfinite(v) && v >= r.lo && v <= r.hi) << v << " [" << r.lo << ", " << r.hi << "]";
    EXPECT_EQ(graph->rasters().at(0).digest.size(), 64u);
}

}  // namespace

TEST(Fuzz, preset_parser) {
    auto inputs = corpus("preset");
    // The terrain function's presets: the tutorial and the classic alpine and islands.
    for (const auto& n : test::classic_preset_names()) inputs.push_back(knob_terrain_to_toml(test::classic_preset(n)));
    // clang-format off
    const std::vector<std::string> words = {"[", "[[", "]]", "{", "}", "= ", "\"\"\"", "'''", "\n[a]\n", "a.b.c = 1\n", "x = [[[[",
                                            "{a={b=", "\\u0000", "\\U0010FFFF", "name = ", "seed = ", "caves = true\n",
                                            "hill_scale_m = ", "mountain_to = ", "base_height_m = ", "cave_width = ", "\n"};
    // clang-format on
    std::size_t accepted = 0, refused = 0;
    run_target("preset", inputs, words, [&](const std::string& text) {
        KnobTerrain p;
        try {
            p = parse_knob_terrain(text, "fuzz.toml");
        } catch (const KnobTerrainError& e) {
            ++refused;
            expect_clean_message(e.what(), 2000, text);
            return;
        }
        ++accepted;
        // What is accepted writes back out the same, and makes a field of finite values.
        const std::string again = knob_terrain_to_toml(p);
        EXPECT_EQ(knob_terrain_to_toml(parse_knob_terrain(again, "again.toml")), again);
        const auto field = make_terrain(p, p.seed);
        const glm::dvec3 points[] = {{0, 0, 0}, {123.4, 56.7, -890.1}, {-1e7, 300, 1e7}, {5e7, -2e3, 0.5}};
        double values[4];
        field->sample_points(points, 4, values);
        for (const double v : values) EXPECT_TRUE(std::isfinite(v)) << text_excerpt(text, 2000);
        const ValueRange r = field->bounds(Box{{-16, -16, -16}, {16, 16, 16}});
        EXPECT_TRUE(std::isfinite(r.lo) && std::isfinite(r.hi) && r.lo <= r.hi) << text_excerpt(text, 2000);
    });
    std::printf("presets: %zu accepted, %zu refused\n", accepted, refused);
    EXPECT_GT(accepted, 10u);
    EXPECT_GT(refused, 10u);
}

TEST(Fuzz, graph_parser) {
    // clang-format off
    const std::vector<std::string> words = {"[node]\n", "[node.a]\n", "[output]\n", "sdf = ", "ground = ", "type = ", "\"add\"",
                                            "\"warp2\"", "\"curve\"", ".x\"", "{ type = \"", "a = \"", "in = \"", "points = [[",
                                            "= 1e308", "= -0.0", "format = 1\n", "[[", "{a={b=", "\n"};
    // clang-format on
    // The users' graphs of the corpus, and the built-in graph presets (alpine, canyons, ...).
    auto inputs = corpus("graph");
    for (const auto& n : builtin_terrain_names())
        if (is_graph_text(builtin_preset_text(n))) inputs.push_back(builtin_preset_text(n));
    std::size_t accepted = 0, refused = 0;
    run_target("graph", inputs, words, [&](const std::string& text) {
        std::unique_ptr<GraphField> graph;
        try {
            graph = parse_graph(text, "fuzz.toml");
        } catch (const GraphError& e) {
            ++refused;
            expect_clean_message(e.what(), 2000, text);
            return;
        }
        ++accepted;
        // What is accepted samples within its own proven bounds, on both paths.
        const Box box{{-20, -10, -20}, {20, 30, 20}};
        const ValueRange r = graph->bounds(box);
        const glm::dvec3 points[] = {{0, 0, 0}, {12.5, 3.25, -7.75}, {-20, 30, 20}, {19.9, -10, -0.1}};
        double values[4];
        graph->sample_points(points, 4, values);
        for (const double v : values) EXPECT_TRUE(std::isnan(v) || (v >= r.lo && v <= r.hi)) << v << "\n" << text_excerpt(text, 2000);
        const Lattice lattice{{-5, -2, -5}, {5, 5, 5}, 4.0};
        std::vector<float> lattice_values(lattice.count());
        graph->sample_lattice(lattice, lattice_values.data());
        for (const float v : lattice_values)
            EXPECT_TRUE(std::isnan(v) || (v >= r.lo - std::fabs(v) * 6e-8 && v <= r.hi + std::fabs(v) * 6e-8)) << v << "\n"
                                                                                                               << text_excerpt(text, 2000);
    });
    std::printf("graphs: %zu accepted, %zu refused\n", accepted, refused);
    EXPECT_GT(accepted, 3u);
    EXPECT_GT(refused, 10u);
}

// A heightmap node's raster: the PNG decoder and the sidecar reader. An input is the PNG's
// bytes, a "--sidecar--" line, then the sidecar's JSON; both are written beside a graph
// that reads them.
TEST(Fuzz, heightmap_raster_reader) {
    const std::string dir = test::fresh_folder("fuzz_heightmap");
    const std::string marker = "\n--sidecar--\n";
    // clang-format off
    const std::vector<std::string> words = {"\"width\": ", "\"height\": ", "\"from_xz_m\": [", "\"min_height_m\": ", "1e308", "-0",
                                            "[]", "null", "IDAT", "IHDR", "\xff\xff\xff\xff", "\x00\x00\x00\x10", marker};
    // clang-format on
    std::size_t accepted = 0, refused = 0;
    run_target("heightmap", corpus("heightmap"), words, [&](const std::string& input) {
        const std::size_t at = input.find(marker);
        std::ofstream(dir + "/h.png", std::ios::binary) << input.substr(0, at);
        std::ofstream(dir + "/h.json", std::ios::binary) << (at == std::string::npos ? "" : input.substr(at + marker.size()));
        check_heightmap_files(dir, input, accepted, refused);
    });
    std::printf("heightmaps: %zu accepted, %zu refused\n", accepted, refused);
    EXPECT_GT(accepted, 2u);
    EXPECT_GT(refused, 10u);
}

TEST(Fuzz, points_parser) {
    const std::vector<std::string> words = {" ", "\t", ",", "\n", "\r\n", "#", "1e8", "-1e8", "1e9", "nan", "0x1p-1074", "\x1b[2J"};
    std::size_t accepted = 0, refused = 0;
    run_target("points", corpus("points"), words, [&](const std::string& text) {
        std::istringstream in(text);
        try {
            for (const glm::dvec3& p : read_points(in, "fuzz.txt"))
                for (int a = 0; a < 3; ++a) EXPECT_TRUE(std::isfinite(p[a]) && std::fabs(p[a]) <= kCoordinateLimit_m);
            ++accepted;
        } catch (const PointsError& e) {
            ++refused;
            expect_clean_message(e.what(), 200, text);
        }
    });
    std::printf("points: %zu accepted, %zu refused\n", accepted, refused);
    EXPECT_GT(accepted, 10u);
    EXPECT_GT(refused, 10u);
}

TEST(Fuzz, delta_decoder) {
    std::size_t accepted = 0, refused = 0;
    run_target("delta", corpus("delta"), {"ITD1", std::string("\x00\x80\x00\x00", 4), std::string("\x28\xb5\x2f\xfd", 4)},
               [&](const std::string& bytes) {
                   // Its own copy of exactly that size: a read past it shows under AddressSanitizer.
                   std::unique_ptr<std::uint8_t[]> copy(new std::uint8_t[bytes.size()]);
                   std::copy(bytes.begin(), bytes.end(), copy.get());
                   try {
                       const DeltaChunk c = decode_delta_chunk(copy.get(), bytes.size());
                       float lo = c.values[0], hi = c.values[0];
                       for (const float v : c.values) {
                           ASSERT_TRUE(std::isfinite(v));
                           lo = std::min(lo, v);
                           hi = std::max(hi, v);
                       }
                       EXPECT_EQ(c.lo, lo);
                       EXPECT_EQ(c.hi, hi);
                       ++accepted;
                   } catch (const std::runtime_error& e) {
                       ++refused;
                       expect_clean_message(e.what(), 200, bytes);
                   }
               });
    std::printf("delta chunks: %zu decoded, %zu refused\n", accepted, refused);
    EXPECT_GT(accepted + refused, 100u);
}

// World files mutated two ways: their bytes, and their rows through SQL (values of every
// type in every column, rows deleted and added, blobs mutated with their checksums made to
// match, so the delta decoder is reached through the file).
TEST(Fuzz, world_file_reader) {
    const std::string path = test::fresh_path("fuzz_world.db");
    const auto run_sql = [&](const std::string& sql, const std::string& blob = {}) {
        sqlite3* db = nullptr;
        if (sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
            sqlite3_stmt* s = nullptr;
            if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK) {
                if (!blob.empty()) {
                    sqlite3_bind_blob(s, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
                    sqlite3_bind_int64(
                        s, 2, static_cast<std::int64_t>(blob_checksum(reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size())));
                }
                sqlite3_step(s);
            }
            sqlite3_finalize(s);
        }
        sqlite3_close(db);
    };
    const std::vector<std::string> values = {
        "0",  "-1",   "1",     "2147483648", "-9223372036854775808", "1e300",      "-1e300", "0.5", "NULL", "'abc'",
        "''", "'12'", "'1e3'", "X'00'",      "X'49544431'",          "4294967296", "33",     "-33"};
    const std::vector<std::string> op_columns = {"seq", "brush", "mode", "x", "y", "z", "radius", "strength"},
                                   delta_columns = {"cx", "cy", "cz", "blob", "checksum"};
    const std::vector<std::string> inputs = corpus("world");
    fuzz::Mutator sql_rng(base_seed() + 7, {});
    const auto pick = [&](const std::vector<std::string>& v) { return v[sql_rng.below(v.size())]; };
    std::size_t opened = 0, refused = 0, i = 0;
    run_target("world", inputs, {"SQLite format 3", "ITD1", "ISOT", "preset", "generation", "applied"}, [&](const std::string& bytes) {
        const bool by_rows = ++i % 2 == 0;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
        std::ofstream(path, std::ios::binary) << (by_rows ? inputs[i % inputs.size()] : bytes);
        if (by_rows) {
            for (int n = 0, count = 1 + static_cast<int>(sql_rng.below(3)); n < count; ++n) {
                std::string sql;
                switch (sql_rng.below(7)) {
                    // clang-format off
                    case 0: sql = fmt::format("UPDATE operations SET {} = {} WHERE seq = {}", pick(op_columns), pick(values), sql_rng.below(5)); break;
                    case 1: sql = fmt::format("UPDATE deltas SET {} = {}", pick(delta_columns), pick(values)); break;
                    case 2: sql = fmt::format("UPDATE settings SET value = {} WHERE key = '{}'", pick(values), pick({"preset", "applied", "generation"})); break;
                    case 3: sql = fmt::format("DELETE FROM {} WHERE rowid % 3 = {}", pick({"operations", "deltas", "settings"}), sql_rng.below(3)); break;
                    case 4: sql = fmt::format("INSERT INTO operations VALUES ({}, 'sphere', 'add', {}, {}, {}, {}, {})", sql_rng.below(6), pick(values), pick(values), pick(values), pick(values), pick(values)); break;
                    case 5: sql = fmt::format("UPDATE settings SET value = value || '{}' WHERE key = 'preset'", pick({"\nx = [[[[", "\nhill_scale_m = 0", "\n[a.b]", "\ncaves = 1"})); break;
                    // clang-format on
                    default: {
                        // A delta blob mutated, its checksum made to match.
                        const std::string blob =
                            sql_rng.below(2) ? bytes.substr(0, 200)
                                             : test::read_bytes(std::string(ISOTERRA_SOURCE_DIR) + "/tests/fuzz/corpus/delta/brush.bin");
                        run_sql("UPDATE deltas SET blob = ?1, checksum = ?2 WHERE rowid IN (SELECT rowid FROM deltas LIMIT 1)",
                                fuzz::Mutator(sql_rng.rng()(), {}).mutate(blob, blob));
                        continue;
                    }
                }
                run_sql(sql);
            }
        }
        const std::string before = test::read_bytes(path);
        try {
            WorldFile file(path, nullptr);
            ++opened;
            EXPECT_LE(file.applied(), file.ops().size());
            for (const EditOp& op : file.ops()) EXPECT_EQ(validate_edit(op), "");
            for (const auto& [c, chunk] : file.deltas().chunks()) {
                EXPECT_LE(std::abs(c.x), kCoordinateLimit_m / kChunkSize);
                EXPECT_TRUE(std::isfinite(chunk->lo) && std::isfinite(chunk->hi));
            }
        } catch (const WorldFileError& e) {
            ++refused;
            expect_clean_message(e.what(), 2000, bytes);
            EXPECT_EQ(test::read_bytes(path), before) << "a refused file was changed";
        }
    });
    std::printf("world files: %zu opened, %zu refused\n", opened, refused);
    EXPECT_GT(opened, 10u);
    EXPECT_GT(refused, 10u);
}

// A raster's sidecar alone: the PNG stays whole, the JSON beside it is mutated (in the
// heightmap target most edits land in the PNG, the larger part).
TEST(Fuzz, raster_sidecar) {
    const std::string dir = test::fresh_folder("fuzz_sidecar");
    const std::string marker = "\n--sidecar--\n";
    std::vector<std::string> pngs, sidecars;
    for (const std::string& input : corpus("heightmap")) {
        const std::size_t at = input.find(marker);
        ASSERT_NE(at, std::string::npos);
        pngs.push_back(input.substr(0, at));
        sidecars.push_back(input.substr(at + marker.size()));
    }
    // clang-format off
    const std::vector<std::string> words = {"\"width\": ", "\"height\": ", "\"from_xz_m\": ", "\"to_xz_m\": ", "\"min_height_m\": ",
                                            "\"max_height_m\": ", "1e308", "-1e308", "-0", "[]", "[1, 2, 3]", "null", "true",
                                            "\"x\"", "{}", "1e-320", "4294967297", ",", "\\u0000"};
    // clang-format on
    std::size_t accepted = 0, refused = 0, i = 0;
    run_target("sidecar", sidecars, words, [&](const std::string& sidecar) {
        std::ofstream(dir + "/h.png", std::ios::binary) << pngs[i++ % pngs.size()];
        std::ofstream(dir + "/h.json", std::ios::binary) << sidecar;
        check_heightmap_files(dir, sidecar, accepted, refused);
    });
    std::printf("sidecars: %zu accepted, %zu refused\n", accepted, refused);
    EXPECT_GT(accepted, 2u);
    EXPECT_GT(refused, 10u);
}

// A bake's manifests as --verify reads them: bake.json (the settings, the plan) and a job's
// manifest, mutated in a small bake of a plane. Verified with problems named, or refused with
// BakeError or MemoryBudgetError in one clean line (a budget of 4 MiB: a plan edited to
// billions of jobs is refused before it is listed); nothing else.
TEST(Fuzz, bake_manifests) {
    const std::string dir = test::fresh_folder("fuzz_bake");
    BakeSettings s;
    s.terrain_name = "plane";
    s.levels = 2;
    s.job_levels = 1;
    s.x0 = 0, s.z0 = 0, s.x1 = 1, s.z1 = 1;
    const BakePlan plan(s);
    const auto plane = make_plane({0.0, 1.0, 0.0}, 3.0);
    start_bake(plan, *plane, nullptr, dir);
    for (std::size_t j = 0; j < plan.jobs().size(); ++j) run_bake_job(plan, *plane, nullptr, j, dir);
    ASSERT_EQ(finish_bake(plan, dir).size(), 64u);
    const std::string settings = test::read_bytes(dir + "/bake.json");
    const std::string job_path = dir + "/" + job_manifest_path(plan.jobs().back().root);
    const std::string manifest = test::read_bytes(job_path);
    ASSERT_FALSE(settings.empty());
    ASSERT_FALSE(manifest.empty());
    // The first byte says which file the rest replaces.
    const std::vector<std::string> inputs = {"B" + settings, "J" + manifest};
    // clang-format off
    const std::vector<std::string> words = {"\"levels\": ", "\"job_levels\": ", "\"root_columns\": ", "\"level\": ", "\"x\": ", "\"z\": ",
                                            "\"files\": ", "\"bake_json_sha256\": ", "2147483647", "-2147483649", "1e308", "16", "[0, 1000000]",
                                            "null", "\"../../../etc/passwd\"", "{}", "[]", "9223372036854775807"};
    // clang-format on
    const char* old_budget = std::getenv("ISOTERRA_MEMORY_BUDGET");
    const std::string kept = old_budget ? old_budget : "";
    setenv("ISOTERRA_MEMORY_BUDGET", "4M", 1);
    std::size_t verified = 0, refused = 0;
    run_target("bake", inputs, words, [&](const std::string& input) {
        const bool is_settings = !input.empty() && input[0] == 'B';
        std::ofstream(is_settings ? dir + "/bake.json" : job_path, std::ios::binary) << (input.empty() ? "" : input.substr(1));
        try {
            const BakeCheck check = verify_bake(dir);
            ++verified;
            EXPECT_EQ(check.digest.size(), 64u);
            for (const std::string& p : check.problems) expect_clean_message(p, 2000, input);
        } catch (const BakeError& e) {
            ++refused;
            expect_clean_message(e.what(), 2000, input);
        } catch (const MemoryBudgetError& e) {
            ++refused;
            expect_clean_message(e.what(), 2000, input);
        }
        std::ofstream(dir + "/bake.json", std::ios::binary) << settings;
        std::ofstream(job_path, std::ios::binary) << manifest;
    });
    if (old_budget) setenv("ISOTERRA_MEMORY_BUDGET", kept.c_str(), 1);
    else unsetenv("ISOTERRA_MEMORY_BUDGET");
    std::printf("bake manifests: %zu verified, %zu refused\n", verified, refused);
    EXPECT_GT(verified, 2u);
    EXPECT_GT(refused, 10u);
}
