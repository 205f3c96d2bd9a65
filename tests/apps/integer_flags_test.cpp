// Integer flags are decimal, as coordinates are: CLI11 alone read "010" as octal (`undo
// --steps 010` undid 8 edits, `--seed 010` was seed 8) and "0x10" as hex. And `heightmap`
// writes only files its own heightmap node reads back.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;

namespace {

// The subcommands `isoterra [PATH] --help` lists, as paths ("edit sphere").
std::vector<std::string> subcommands_of(const std::string& path) {
    const std::string help = run_cli(path + " --help").out;
    std::vector<std::string> out;
    const std::size_t at = help.find("Subcommands:");
    if (at == std::string::npos) return out;
    std::istringstream lines(help.substr(at));
    std::string line;
    std::getline(lines, line);
    const std::regex entry("^  ([a-z][a-z0-9-]*)( .*)?$");
    std::smatch m;
    while (std::getline(lines, line))
        if (std::regex_match(line, m, entry)) out.push_back((path.empty() ? "" : path + " ") + m[1].str());
    return out;
}

void expect_refused_as_not_decimal(const CliResult& r, const std::string& flag, const std::string& text) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("expected a decimal whole number"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'" + text + "'"), std::string::npos) << r.err;
}

}  // namespace

// Every option CLI11 types as an integer (INT, UINT in --help) carries the decimal check, and
// every FLOAT one the finite decimal range (CLI11 alone took `edit --radius 0x4`), in every
// subcommand at every depth: a flag added later without them fails here.
TEST(IntegerFlags, every_integer_flag_of_every_subcommand_takes_the_decimal_check) {
    std::vector<std::string> todo = subcommands_of(""), seen;
    ASSERT_GT(todo.size(), 10u);
    int integer_flags = 0, float_flags = 0;
    const std::regex typed("^ +(-[^ ]*)[^:]* (U?INT|FLOAT)\\b.*$");
    while (!todo.empty()) {
        const std::string path = todo.back();
        todo.pop_back();
        seen.push_back(path);
        for (const std::string& sub : subcommands_of(path)) todo.push_back(sub);
        std::istringstream lines(run_cli(path + " --help").out);
        std::smatch m;
        for (std::string line; std::getline(lines, line);)
            if (std::regex_match(line, m, typed)) {
                const bool integer = m[2].str() != "FLOAT";
                ++(integer ? integer_flags : float_flags);
                EXPECT_NE(line.find(integer ? "DECIMAL in [" : "NUMBER in ["), std::string::npos) << path << ": " << line;
            }
    }
    EXPECT_GE(seen.size(), 20u);
    EXPECT_GE(integer_flags, 20);  // --seed, --threads, --radius, --steps ... in every command that has them
    EXPECT_GE(float_flags, 20);    // --step, --view-distance, --fog, --speed, edit's --radius ...
}

TEST(IntegerFlags, leading_zeros_are_decimal_and_hex_binary_and_blanks_are_refused) {
    // --seed 010 is seed 10, not seed 8.
    const std::string ten = run_cli("sample --seed 10", "5 5 5\n").out, eight = run_cli("sample --seed 8", "5 5 5\n").out;
    ASSERT_NE(ten, eight);
    EXPECT_EQ(run_cli("sample --seed 010", "5 5 5\n").out, ten);
    EXPECT_EQ(run_cli("sample --seed +10", "5 5 5\n").out, ten);
    EXPECT_EQ(run_cli("sample --seed -0", "5 5 5\n").out, run_cli("sample --seed 0", "5 5 5\n").out);
    expect_refused_as_not_decimal(run_cli("sample --seed 0x10", "5 5 5\n"), "--seed", "0x10");
    expect_refused_as_not_decimal(run_cli("sample --seed 0b10", "5 5 5\n"), "--seed", "0b10");
    expect_refused_as_not_decimal(run_cli("sample --seed 1e3", "5 5 5\n"), "--seed", "1e3");
    expect_refused_as_not_decimal(run_cli("sample --seed 4294967296", "5 5 5\n"), "--seed", "4294967296");
    expect_refused_as_not_decimal(run_cli("sample --seed 99999999999999999999", "5 5 5\n"), "--seed", "99999999999999999999");
    expect_refused_as_not_decimal(run_cli("fly --threads 0x2 --seconds 0"), "--threads", "0x2");
    expect_refused_as_not_decimal(run_cli("stats --from 0,0,0 --to 4,4,4 --bins 1_0"), "--bins", "1_0");
    expect_refused_as_not_decimal(run_cli("stats --from 0,0,0 --to 4,4,4 --bins \"' 10'\""), "--bins", " 10");
    expect_refused_as_not_decimal(run_cli("stats --from 0,0,0 --to 4,4,4 --bins 0"), "--bins", "0");
    const std::string world = fresh_path("hex_radius.db");
    const CliResult hex = run_cli("edit --world " + world + " sphere --at 0,10,0 --radius 0x4");
    EXPECT_EQ(hex.code, 2) << hex.err;
    EXPECT_NE(hex.err.find("--radius: expected a number from 0 to 64, got '0x4'"), std::string::npos) << hex.err;
    EXPECT_FALSE(std::filesystem::exists(world));
}

TEST(IntegerFlags, undo_steps_010_takes_back_ten_edits_not_eight) {
    const std::string world = fresh_path("steps_010.db");
    for (int i = 0; i < 11; ++i)
        ASSERT_EQ(run_cli("edit --world " + world + " sphere --at " + std::to_string(4 * i) + ",10,0 --radius 1").code, 0);
    const CliResult undo = run_cli("undo --world " + world + " --steps 010");
    EXPECT_EQ(undo.code, 0) << undo.err;
    EXPECT_EQ(count_lines(undo.out), 10) << undo.out;
    EXPECT_EQ(undo.out.rfind("undid 11: ", 0), 0u) << undo.out;
    EXPECT_NE(undo.out.find("undid 2: "), std::string::npos) << undo.out;
    EXPECT_EQ(undo.out.find("undid 1: "), std::string::npos) << undo.out;
}

// 2e7 m is a finite ground the heightmap node refuses (+-1e7 m): heightmap wrote such a
// file with exit 0. Now it refuses to, naming the height and where, and writes nothing.
TEST(HeightmapLimits, heightmap_refuses_ground_its_own_heightmap_node_would_refuse) {
    for (const std::string value : {"2e7", "-1e300", "10000000.5"}) {
        const std::string graph = fresh_path("high_ground.toml"), png = fresh_path("high_ground.png");
        std::ofstream(graph) << "format = 1\n[node]\ny = { type = \"y\" }\ng = { type = \"const\", value = " << value
                             << " }\n[output]\nsdf = \"y\"\nground = \"g\"\n";
        const CliResult r = run_cli("heightmap --quiet --config " + graph + " --from 0,0 --to 8,8 -o " + png);
        EXPECT_EQ(r.code, 2) << value << ": " << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("a heightmap holds heights within +-1e7 m"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(" m at 0,0;"), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(png)) << value;
    }
    // 1e7 itself is inside: written, and the heightmap node reads it back.
    const std::string graph = fresh_path("edge_ground.toml"), png = fresh_path("edge_ground.png"), back = fresh_path("edge_back.toml");
    std::ofstream(graph) << "format = 1\n[node]\ny = { type = \"y\" }\ng = { type = \"const\", value = 1e7 }\n[output]\nsdf = \"y\"\n"
                            "ground = \"g\"\n";
    ASSERT_EQ(run_cli("heightmap --quiet --config " + graph + " --from 0,0 --to 8,8 -o " + png).code, 0);
    std::ofstream(back) << "format = 1\n[node]\nground = { type = \"heightmap\", file = \"" << png
                        << "\" }\n[output]\nsdf = \"ground\"\nground = \"ground\"\n";
    const CliResult read = run_cli("sample --config " + back, "4 0 4\n");
    EXPECT_EQ(read.code, 0) << read.err;
    EXPECT_EQ(read.out, "10000000\n");
}
