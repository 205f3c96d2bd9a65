// The isoterra program as scripts use it: output, exit codes and one-line errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "isoterra/field.hpp"

using namespace isoterra;

#include "run_cli.hpp"

using isoterra::test::run_cli;
using isoterra::test::count_lines;

TEST(Cli, presets_lists_one_line_each) {
    const auto r = run_cli("presets");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(count_lines(r.out), 3);
    EXPECT_NE(r.out.find("tutorial"), std::string::npos);
}

TEST(Cli, preset_show_prints_toml_that_loads_back) {
    const auto r = run_cli("preset show alpine");
    ASSERT_EQ(r.code, 0);
    EXPECT_EQ(preset_to_toml(parse_preset(r.out, "shown")), preset_to_toml(builtin_preset("alpine")));
    const auto bad = run_cli("preset show nope");
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(count_lines(bad.err), 1);
    EXPECT_NE(bad.err.find("unknown preset 'nope'"), std::string::npos);
}

TEST(Cli, sample_prints_round_trippable_values_equal_to_the_library) {
    const auto r = run_cli("sample --preset tutorial", "0 10 0\n-1234.5 77.25 1e5\n\n# comment\n3,4,5\n");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto t = make_terrain(builtin_preset("tutorial"), 20261114);
    const glm::dvec3 pts[] = {{0, 10, 0}, {-1234.5, 77.25, 1e5}, {3, 4, 5}};
    std::stringstream in(r.out);
    for (const auto& p : pts) {
        std::string line;
        std::getline(in, line);
        EXPECT_EQ(std::stod(line), t->value(p)) << line;  // 17 digits read back exactly
    }
    EXPECT_EQ(count_lines(r.out), 3);
}

TEST(Cli, sample_seed_changes_values_and_config_loads_a_file) {
    const auto a = run_cli("sample --seed 1", "5 5 5\n");
    const auto b = run_cli("sample --seed 2", "5 5 5\n");
    EXPECT_NE(a.out, b.out);
    const std::string path = ::testing::TempDir() + "/cli_config_islands.toml";
    std::ofstream(path) << builtin_preset_text("islands");
    const auto c = run_cli("sample --config " + path, "5 5 5\n");
    const auto d = run_cli("sample --preset islands", "5 5 5\n");
    EXPECT_EQ(c.code, 0);
    EXPECT_EQ(c.out, d.out);
}

TEST(Cli, sample_refuses_a_bad_line_by_number_and_prints_nothing) {
    const auto r = run_cli("sample", "1 2 3\n4 five 6\n");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "isoterra: stdin:2: expected three finite numbers 'x y z', got '4 five 6'\n");
    EXPECT_EQ(run_cli("sample", "1 2 nan\n").code, 2);
    EXPECT_EQ(run_cli("sample", "1 2 3 4\n").code, 2);
    EXPECT_EQ(run_cli("sample", "1 2\n").code, 2);
}

TEST(Cli, bad_flags_and_preset_files_exit_2_with_one_line) {
    const std::string path = ::testing::TempDir() + "/cli_bad_preset.toml";
    std::ofstream(path) << "name = \"x\"\nhill_scale_m = -3\n";
    const auto r = run_cli("sample --config " + path, "1 2 3\n");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "isoterra: " + path + ":2: key 'hill_scale_m': expected a number > 0, got -3\n");
    const auto s = run_cli("sample --seed 99999999999", "1 2 3\n");
    EXPECT_EQ(s.code, 2);
    EXPECT_EQ(count_lines(s.err), 1);
    const auto u = run_cli("frobnicate");
    EXPECT_EQ(u.code, 2);
    EXPECT_EQ(count_lines(u.err), 1);
    const auto both = run_cli("sample --preset tutorial --config " + path, "");
    EXPECT_EQ(both.code, 2);
}

TEST(Cli, bench_json_has_the_documented_keys) {
    const auto r = run_cli("bench --json --repeats 1");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* key : {"noise2_ns", "noise3_ns", "fbm5_ns", "tutorial_sample_ns", "tutorial_chunk_sample_ms"})
        EXPECT_NE(r.out.find(std::string("\"") + key + "\""), std::string::npos) << key;
}
