// World files made before the landform presets (at commit ea97c59, with that build's
// alpine, islands and canyons: two presets and a graph) keep their stored terrain text: they
// open, list their edit and sample exactly as they did then, whatever the built-in presets
// of that name have become since.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "run_cli.hpp"
#include "temp_files.hpp"

using isoterra::test::run_cli;

namespace {

const std::string kDir = ISOTERRA_REFERENCE_DIR "/world_files/";

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

class OldWorldFile : public ::testing::TestWithParam<const char*> {};

TEST_P(OldWorldFile, opens_lists_its_edit_and_samples_as_it_did_when_it_was_made) {
    const std::string name = GetParam();
    // A copy: opening a world file may write beside it (its journal).
    const std::string world = isoterra::test::fresh_path(name + "_old.db");
    ASSERT_EQ(std::system(("cp '" + kDir + name + "_ea97c59.db' '" + world + "'").c_str()), 0);
    EXPECT_EQ(run_cli("history --world " + world).out, "1 sphere carve at 10,40,-20 radius 6 m\n");
    // Each line: x y z and the value `isoterra sample --world` printed at ea97c59.
    std::istringstream expected(read_text(kDir + name + "_ea97c59.values"));
    std::string points, values;
    for (std::string line; std::getline(expected, line);) {
        const auto last = line.find_last_of(' ');
        points += line.substr(0, last) + "\n";
        values += line.substr(last + 1) + "\n";
    }
    ASSERT_FALSE(values.empty());
    const auto r = run_cli("sample --world " + world, points);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, values);
}

INSTANTIATE_TEST_SUITE_P(MadeAtEa97c59, OldWorldFile, ::testing::Values("alpine", "islands", "canyons"));
