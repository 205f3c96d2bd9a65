// `isoterra edit|undo|redo|history` and `--world` on the commands that read a world.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "run_cli.hpp"
#include "temp_files.hpp"

using isoterra::test::count_lines;
using isoterra::test::run_cli;

using isoterra::test::read_bytes;
const auto fresh_world = isoterra::test::fresh_path;

TEST(EditCli, edit_undo_redo_and_history_walk_the_log_of_a_world_file) {
    const std::string w = fresh_world("walk.db");
    EXPECT_EQ(run_cli("edit --world " + w + " --preset islands --seed 9 sphere --at 16,12,16 --radius 6").out,
              "1: sphere carve at 16,12,16 radius 6 m\n");
    EXPECT_EQ(run_cli("edit --world " + w + " smooth --at 16,12,16 --radius 8 --strength 0.5").code, 0);
    EXPECT_EQ(run_cli("edit --world " + w + " flatten --at 0,10,0 --radius 5").code, 0);
    EXPECT_EQ(run_cli("undo --world " + w + " --steps 2").out,
              "undid 3: flatten at 0,10,0 radius 5 m\nundid 2: smooth at 16,12,16 radius 8 m strength 0.5 m\n");
    EXPECT_EQ(run_cli("history --world " + w).out,
              "1 sphere carve at 16,12,16 radius 6 m\n2 (undone) smooth at 16,12,16 radius 8 m strength 0.5 m\n"
              "3 (undone) flatten at 0,10,0 radius 5 m\n");
    EXPECT_EQ(run_cli("redo --world " + w).out, "redid 2: smooth at 16,12,16 radius 8 m strength 0.5 m\n");
    // A new edit drops what is still undone.
    EXPECT_EQ(run_cli("edit --world " + w + " sphere --at 5,5,5 --radius 2 --mode add").out, "3: sphere add at 5,5,5 radius 2 m\n");
    EXPECT_EQ(count_lines(run_cli("history --world " + w).out), 3);
    const auto r = run_cli("undo --world " + w + " --steps 10");
    EXPECT_EQ(count_lines(r.out), 3);
    EXPECT_EQ(run_cli("undo --world " + w).err, "nothing to undo\n");
    // The file keeps its own preset; a different one on the command line is noted.
    EXPECT_NE(
        run_cli("edit --world " + w + " --preset alpine sphere --at 1,1,1 --radius 1").err.find("keeps its own graph 'islands' (seed 9)"),
        std::string::npos);
}

TEST(EditCli, sample_and_mesh_see_the_edits_of_a_world_file) {
    const std::string w = fresh_world("see.db");
    ASSERT_EQ(run_cli("edit --world " + w + " sphere --at 16,12,16 --radius 6").code, 0);
    // The carve leaves max(f, 6 - d): 6 at the centre, 4.5 a sample and a half above it
    // (between samples: the double-precision base plus trilinear deltas of the float lattice).
    const auto edited_values = run_cli("sample --world " + w, "16 12 16\n16 13.5 16\n");
    double centre = 0, above = 0;
    ASSERT_EQ(std::sscanf(edited_values.out.c_str(), "%lf %lf", &centre, &above), 2);
    EXPECT_NEAR(centre, 6.0, 1e-5);
    EXPECT_NEAR(above, 4.5, 1e-4);
    const auto plain = run_cli("sample", "16 12 16\n");
    EXPECT_LT(std::stod(plain.out), 0.0);  // rock before the edit
    const std::string edited = fresh_world("edited.obj"), base = fresh_world("base.obj");
    ASSERT_EQ(run_cli("mesh --world " + w + " --from 0,0,0 --to 31,31,31 --quiet -o " + edited).code, 0);
    ASSERT_EQ(run_cli("mesh --from 0,0,0 --to 31,31,31 --quiet -o " + base).code, 0);
    EXPECT_NE(read_bytes(edited), read_bytes(base));
}

TEST(EditCli, bad_edits_and_bad_world_files_get_one_line_and_exit_2) {
    const std::string w = fresh_world("bad.db");
    const auto expect = [](const isoterra::test::CliResult& r, const std::string& text) {
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
    };
    expect(run_cli("edit --world " + w + " sphere --at 1,2 --radius 3"), "--at: expected 3 finite numbers");
    expect(run_cli("edit --world " + w + " sphere --at 1,2,3 --radius 0"), "sphere: radius 0 must be in (0, 64] m");
    expect(run_cli("edit --world " + w + " sphere --at 1,2,3 --mode dig"), "--mode: expected carve or add, got 'dig'");
    expect(run_cli("edit --world " + w + " flatten --at 1,2,3 --strength -2"),
           "--strength: expected a number from 0 to 1000000000, got '-2'");
    EXPECT_TRUE(read_bytes(w).empty());  // nothing created for a refused edit
    expect(run_cli("undo --world " + w), "no such world file");
    const std::string text = fresh_world("text.db");
    std::ofstream(text) << "not a database at all, just words on a line\n";
    for (const char* cmd : {"history", "undo", "redo"})
        expect(run_cli(std::string(cmd) + " --world " + text), "not an isoterra world file");
    expect(run_cli("edit --world " + text + " sphere --at 1,2,3"), "not an isoterra world file");
    expect(run_cli("sample --world " + text, "1 2 3\n"), "not an isoterra world file");
    EXPECT_EQ(read_bytes(text), "not a database at all, just words on a line\n");
}

TEST(EditCli, fly_and_render_stream_the_world_of_a_world_file) {
    const std::string w = fresh_world("stream.db");
    ASSERT_EQ(run_cli("edit --world " + w + " --preset islands sphere --at 0,30,0 --radius 8 --mode add").code, 0);
    const auto fly = run_cli("fly --world " + w + " --radius 2 --seconds 0 --json --quiet");
    ASSERT_EQ(fly.code, 0) << fly.err;
    EXPECT_NE(fly.out.find("\"preset\": \"islands\""), std::string::npos) << fly.out;
    const std::string png = fresh_world("stream.png");
    const auto render = run_cli("render --world " + w + " --radius 2 --eye 0,60,40 --target 0,30,0 --size 64x48 -o " + png);
    EXPECT_EQ(render.code, 0) << render.err;
    EXPECT_GT(read_bytes(png).size(), 100u);
}

// Inspecting an edited world: a carve lowers the solid fraction stats reports, by the
// carved samples, and shows in a slice through it.
TEST(EditCli, stats_and_slice_inspect_the_edited_world) {
    const std::string w = fresh_world("inspect.db");
    ASSERT_EQ(run_cli("edit --world " + w + " sphere --at 16,-20,16 --radius 8").code, 0);  // deep in rock
    const auto solid = [](const std::string& json) {
        const auto at = json.find("\"solid_fraction\": ");
        return std::stod(json.substr(at + 18));
    };
    const double before = solid(run_cli("stats --from 0,-32,0 --to 31,-1,31 --quiet --json").out);
    const double after = solid(run_cli("stats --world " + w + " --from 0,-32,0 --to 31,-1,31 --quiet --json").out);
    // Every lattice sample with d <= 8 stops being rock: 2,103 inside the ball and the 6 on
    // it at (+-8, 0, 0) and so on, whose value becomes 0 (the box had no cave there).
    EXPECT_EQ(std::lround((before - after) * 32768.0), 2109) << before << " " << after;
    const std::string a = fresh_world("a.png"), b = fresh_world("b.png");
    ASSERT_EQ(run_cli("slice --world " + w + " --axis z --at 16 --from 0,-32 --to 32,0 --quiet -o " + a).code, 0);
    ASSERT_EQ(run_cli("slice --axis z --at 16 --from 0,-32 --to 32,0 --quiet -o " + b).code, 0);
    EXPECT_NE(read_bytes(a), read_bytes(b));
}
