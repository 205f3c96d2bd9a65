// A command that fails leaves no new world file behind: what can be checked (a display, the
// output's folder, the points) is checked before the file is made, and a file the failing
// command made itself is removed again. A file that was there before is kept as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;

namespace {

void expect_failed_without_world(const CliResult& r, int code, const std::string& expected, const std::string& world) {
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(world)) << r.err;
    for (const char* suffix : {"-journal", "-wal", "-shm"}) EXPECT_FALSE(std::filesystem::exists(world + suffix)) << suffix;
}

}  // namespace

TEST(NoWorldFileLeft, view_without_a_display_makes_no_world_file) {
    const std::string world = fresh_path("view_no_display.db");
    expect_failed_without_world(run_cli("view --world " + world + " --frames 1", "", "env -u DISPLAY -u WAYLAND_DISPLAY"), 1, "no display",
                                world);
}

TEST(NoWorldFileLeft, render_or_mesh_into_a_missing_folder_makes_no_world_file) {
    const std::string world = fresh_path("render_missing_folder.db"), missing = fresh_path("no_such_folder") + "/out";
    expect_failed_without_world(run_cli("render --world " + world + " --eye 0,60,0 --target 10,50,10 --size 16x16 -o " + missing + ".png"),
                                2, "out.png: cannot create a file there (No such file or directory)", world);
    expect_failed_without_world(run_cli("mesh --quiet --world " + world + " --from 0,0,0 --to 32,32,32 -o " + missing + ".glb"), 2,
                                "out.glb: cannot create a file there", world);
    expect_failed_without_world(run_cli("slice --quiet --world " + world + " --axis y --at 0 --from 0,0 --to 8,8 -o " + missing + ".png"),
                                2, "out.png: cannot create a file there", world);
}

TEST(NoWorldFileLeft, sample_with_a_bad_line_makes_no_world_file) {
    const std::string world = fresh_path("sample_bad_line.db");
    expect_failed_without_world(run_cli("sample --world " + world, "1 2 3\n4 five 6\n"), 2, "stdin:2: expected three finite numbers",
                                world);
}

// A failure found after the file was made (fly reads its --path with the terrain in hand):
// the file the command made is removed again.
TEST(NoWorldFileLeft, a_world_file_the_failing_command_made_is_removed) {
    const std::string world = fresh_path("fly_bad_path.db"), path = fresh_path("one_waypoint.txt");
    std::ofstream(path) << "0 50 0\n";
    expect_failed_without_world(run_cli("fly --seconds 0 --world " + world + " --path " + path), 2, "at least two waypoints", world);
}

TEST(NoWorldFileLeft, a_world_file_that_was_there_is_kept_when_a_command_fails) {
    const std::string world = fresh_path("kept.db"), path = fresh_path("kept_one_waypoint.txt");
    ASSERT_EQ(run_cli("edit --world " + world + " sphere --at 0,10,0 --radius 2").code, 0);
    const std::string before = read_bytes(world);
    std::ofstream(path) << "0 50 0\n";
    EXPECT_EQ(run_cli("fly --seconds 0 --world " + world + " --path " + path).code, 2);
    EXPECT_EQ(run_cli("sample --world " + world, "x\n").code, 2);
    ASSERT_TRUE(std::filesystem::exists(world));
    EXPECT_EQ(read_bytes(world), before);
    EXPECT_EQ(run_cli("history --world " + world).out, "1 sphere carve at 0,10,0 radius 2 m\n");
}
