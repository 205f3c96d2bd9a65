// Files whose read fails part way (an I/O error: /proc/self/mem is a regular file whose read
// at offset 0 fails with EIO) are refused by name, one line, exit 2: never "internal error:
// basic_filebuf::underflow", never taken for an empty file (a --config read as empty was the
// default terrain, and `edit` stored it in a new world file for good).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;

namespace {

void expect_read_refused(const CliResult& r, const std::string& expected) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
}

}  // namespace

TEST(FailedReads, a_points_or_path_file_whose_read_fails_is_refused_by_name) {
    expect_read_refused(run_cli("sample --points /proc/self/mem"),
                        "--points: /proc/self/mem: cannot read the points file (Input/output error)");
    expect_read_refused(run_cli("fly --seconds 1 --path /proc/self/mem"), "/proc/self/mem: cannot read the points file");
    expect_read_refused(run_cli("sample --points /tmp"), "--points: /tmp: not a points file (not a regular file)");
}

TEST(FailedReads, a_config_whose_read_fails_is_refused_not_taken_for_the_default_terrain) {
    expect_read_refused(run_cli("sample --config /proc/self/mem", "1 2 3\n"),
                        "/proc/self/mem: cannot read the preset or graph file (Input/output error)");
    expect_read_refused(run_cli("graph check /proc/self/mem"), "/proc/self/mem: cannot read the");
}

TEST(FailedReads, edit_with_a_config_whose_read_fails_creates_no_world_file) {
    const std::string world = fresh_path("unread_config.db");
    expect_read_refused(run_cli("edit --world " + world + " --config /proc/self/mem sphere --at 0,0,0 --radius 2"),
                        "/proc/self/mem: cannot read the preset or graph file");
    EXPECT_FALSE(std::filesystem::exists(world));
}
