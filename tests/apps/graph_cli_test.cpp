// `isoterra graph check` and `graph types`: what a user sees of a graph file.
#include <gtest/gtest.h>

#include <fstream>

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;

namespace {
const std::string kCorpus = std::string(ISOTERRA_SOURCE_DIR) + "/tests/fuzz/corpus/graph/";
}

TEST(GraphCli, check_prints_the_node_count_and_the_proven_range) {
    const auto r = run_cli("graph check " + kCorpus + "terraced_plateau.toml --box 0,200,0,32,232,32 --nodes");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("graph 'terraced plateau', 5 nodes, seed 4242, ground output: yes"), std::string::npos) << r.out;
    // The plateau's ground lies within [0, 45] m (the curve's ends): 200 m up is all air.
    EXPECT_NE(r.out.find("(all air)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  steps            terrace"), std::string::npos) << r.out;
    const auto low = run_cli("graph check " + kCorpus + "terraced_plateau.toml --box 0,-80,0,32,-60,32");
    EXPECT_NE(low.out.find("(all solid)"), std::string::npos) << low.out;
}

TEST(GraphCli, a_bad_graph_is_one_line_and_exit_2) {
    const std::string path = fresh_path("bad_graph.toml");
    std::ofstream(path) << "format = 1\n[node]\nout = { type = \"ad\", a = 1.0, b = 2.0 }\n[output]\nsdf = \"out\"\n";
    const auto r = run_cli("graph check " + path);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "isoterra: " + path + ":3: node 'out': unknown type 'ad' (known: x, y, z, const, add, sub, mul, min, max, neg, abs, "
                     "clamp, lerp, smoothstep, pow, remap, curve, terrace, hypot, plane, sphere, box, union, intersect, subtract, "
                     "smooth_union, smooth_subtract, simplex2, fbm2, ridged2, simplex3, fbm3, ridge_profile, warp2, warp3)\n");
    EXPECT_EQ(run_cli("graph check " + kCorpus + "sphere_caves.toml --box 1,1,1,0,0,0").code, 2);
}

TEST(GraphCli, types_lists_every_node_type_with_its_inputs) {
    const auto r = run_cli("graph types");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* line : {"smooth_subtract  (a, b, k): -smooth_min(-a, b, k)", "warp2            (x?, z?, scale_m?, distance_m)",
                             "curve            (in, points)"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}
