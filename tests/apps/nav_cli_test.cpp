// `isoterra navmesh` and `isoterra path`: the same bytes for 1 and 2 threads, waypoints and
// length as text and JSON, and bad input as one line, exit 2 (3 for no path), no file left.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_cli.hpp"
#include "temp_files.hpp"

namespace isoterra::test {
namespace {

TEST(NavCli, navmesh_writes_the_same_bytes_with_1_and_2_threads_as_bin_and_obj) {
    const std::string one = fresh_path("nav1.bin"), two = fresh_path("nav2.bin"), obj = fresh_path("nav.obj");
    const std::string region = "navmesh --preset tutorial --from -100,40 --to -60,80 --quiet ";
    ASSERT_EQ(run_cli(region + "--threads 1 -o " + one).code, 0);
    ASSERT_EQ(run_cli(region + "--threads 2 -o " + two).code, 0);
    const std::string bytes = read_bytes(one);
    EXPECT_EQ(bytes.substr(0, 8), "ISONAVMS");
    EXPECT_GT(bytes.size(), 10000u);
    EXPECT_TRUE(bytes == read_bytes(two));
    const CliResult r = run_cli("navmesh --preset tutorial --from -100,40 --to -60,80 --threads 2 -o " + obj);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "wrote " + obj + ": 6 tiles, 6 with walkable ground\n");
    EXPECT_NE(read_bytes(obj).find("\nf "), std::string::npos);
}

TEST(NavCli, path_prints_waypoints_and_length_as_text_and_json) {
    const std::string args = "path --preset tutorial --from -115,2.5,45 --to -78,-3.9,82 --margin 8 --threads 2";
    const CliResult text = run_cli(args);
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("\nlength "), std::string::npos);
    const CliResult json = run_cli(args + " --json");
    ASSERT_EQ(json.code, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_GE(j["waypoints"].size(), 26u);  // two metres apart at most, over 53 m
    EXPECT_NEAR(j["waypoints"][0][0].get<double>(), -115.0, 0.5);
    EXPECT_NEAR(j["waypoints"].back()[2].get<double>(), 82.0, 0.5);
    EXPECT_GT(j["length_m"].get<double>(), 52.0);
    EXPECT_LT(j["length_m"].get<double>(), 60.0);
    EXPECT_EQ(count_lines(text.out), static_cast<int>(j["waypoints"].size()) + 1);
}

TEST(NavCli, bad_points_agents_regions_and_no_path_are_one_line_with_their_exit_codes) {
    const std::string path = "path --preset tutorial --margin 16 --threads 2 ";
    const struct {
        std::string args, err;
        int code;
    } cases[] = {
        {path + "--from -122,-5,51 --to -122,4.7,51",
         "isoterra: --from -122,-5,51 lies inside rock, 9.7 m under the ground at -122.00,4.65,51.00\n", 2},
        {path + "--from -122,4.7,51 --to -122,35,51",
         "isoterra: --to -122,35,51 lies in the air, 30.3 m above the ground at -122.00,4.65,51.00\n", 2},
        {path + "--from -122,4.7,51 --to -72,-17.25,88", "isoterra: no path from -122,4.7,51 to -72,-17.25,88\n", 3},
        {path + "--from 0,0,0 --to 1,0,1 --agent-radius 9",
         "isoterra: --agent-radius: expected a number from 0 to 5, got '9' (see isoterra --help)\n", 2},
        {path + "--from 0,0,0 --to 1,0,1 --max-climb 3", "isoterra: agent: max climb 3 m must not exceed height 2 m\n", 2},
        {path + "--from 0,0,0 --to 1,0,1 --cell-size 0.3",
         "isoterra: agent: cell size 0.3 m must divide 32 m (0.125, 0.25, 0.5, 1, or 32 / n)\n", 2},
        {path + "--from 0,0,0 --to 2000,0,2000", "isoterra: the region spans 4096 tiles of 32 m, more than 1024\n", 2},
    };
    for (const auto& c : cases) {
        const CliResult r = run_cli(c.args);
        EXPECT_EQ(r.code, c.code) << c.args;
        EXPECT_EQ(r.err, c.err) << c.args;
        EXPECT_EQ(r.out, "") << c.args;
    }
    // Refused before anything is written; a bad extension names the flag.
    const std::string out = fresh_path("refused.bin");
    CliResult r = run_cli("navmesh --preset tutorial --from 0,0 --to 64,64 --max-slope 90 -o " + out);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "isoterra: --max-slope: expected a number from 0 to 85, got '90' (see isoterra --help)\n");
    EXPECT_FALSE(std::filesystem::exists(out));
    r = run_cli("navmesh --preset tutorial --from 0,0 --to 64,64 -o " + fresh_path("nav.glb"));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("-o: '"), std::string::npos);
    r = run_cli("navmesh --preset tutorial --from 0,0 --to 64,64 -o " + out, "", "ISOTERRA_MEMORY_BUDGET=1M");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("a navigation mesh of 4 tiles needs about"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace isoterra::test
