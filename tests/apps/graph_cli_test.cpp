// `isoterra graph check` and `graph types`: what a user sees of a graph file.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "classic_presets.hpp"
#include "isoterra/graph.hpp"
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
    // Every type of the node table, in its order (math, shapes, noise, raster, landform...).
    std::string known;
    for (const std::string& type : isoterra::graph_node_types()) known += (known.empty() ? "" : ", ") + type;
    EXPECT_EQ(known.find("x, y, z, const, add, sub, mul, min, max, neg, abs, clamp, lerp, "), 0u);
    EXPECT_NE(known.find("smooth_subtract, simplex2, fbm2, ridged2, simplex3, fbm3, ridge_profile, warp2, warp3, heightmap, "
                         "dfbm2, erosion, spline, fold, slope, curvature, cellular, drainage"),
              std::string::npos);
    EXPECT_EQ(r.err, "isoterra: " + path + ":3: node 'out': unknown type 'ad' (known: " + known + ")\n");
    EXPECT_EQ(run_cli("graph check " + kCorpus + "sphere_caves.toml --box 1,1,1,0,0,0").code, 2);
}

TEST(GraphCli, types_lists_every_node_type_with_its_inputs) {
    const auto r = run_cli("graph types");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* line :
         {"smooth_subtract  (a, b, k): -smooth_min(-a, b, k)", "warp2            (x?, z?, scale_m?, distance_m)",
          "curve            (in, points)", "may take lod = true", "may take detail_m = D and far = F", "may also take depth_m = H"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}

// `--config` takes a graph on every command: an exported preset gives exactly what the
// preset gives (sample's text, mesh and heightmap bytes).
TEST(GraphCli, an_exported_preset_samples_meshes_and_maps_exactly_as_the_preset) {
    // The terrain function's presets: the tutorial, and alpine and islands as they were before
    // issue 24 (the built-in alpine and islands are graphs since, and export as themselves).
    const std::string points = "0 0 0\n3.5 12.25 -8\n-1234.5 40 987.25\n250000 -30 -125000.5\n1e7 300 -2e7\n";
    for (const std::string name : {"tutorial", "alpine", "islands"}) {
        const std::string source = name == "tutorial" ? "--preset tutorial" : "--config " + isoterra::test::classic_preset_path(name);
        const auto exported = run_cli("graph export " + (name == "tutorial" ? name : source));
        ASSERT_EQ(exported.code, 0) << exported.err;
        const std::string graph = fresh_path("exported_" + name + ".toml");
        std::ofstream(graph) << exported.out;
        const auto want = run_cli("sample " + source, points);
        ASSERT_EQ(want.code, 0) << want.err;
        const auto got = run_cli("sample --config " + graph, points);
        ASSERT_EQ(got.code, 0) << got.err;
        EXPECT_EQ(got.out, want.out) << name;
        const std::string a = fresh_path("preset_" + name + ".glb"), b = fresh_path("graph_" + name + ".glb");
        ASSERT_EQ(run_cli("mesh " + source + " --from -40,-40,-40 --to 40,60,40 --quiet -o " + a).code, 0);
        ASSERT_EQ(run_cli("mesh --config " + graph + " --from -40,-40,-40 --to 40,60,40 --quiet -o " + b).code, 0);
        EXPECT_EQ(read_bytes(a), read_bytes(b)) << name;
        EXPECT_GT(read_bytes(a).size(), 10000u);
        const std::string ha = fresh_path("preset_" + name + ".png"), hb = fresh_path("graph_" + name + ".png");
        ASSERT_EQ(run_cli("heightmap " + source + " --from 0,0 --to 100,100 --step 2 -o " + ha).code, 0);
        ASSERT_EQ(run_cli("heightmap --config " + graph + " --from 0,0 --to 100,100 --step 2 -o " + hb).code, 0);
        EXPECT_EQ(read_bytes(ha), read_bytes(hb)) << name;
    }
}

// A world file made from a graph stores the graph with its seed; edits, history and
// sampling work on it, and a render of a user's graph shows terrain.
TEST(GraphCli, a_world_file_keeps_a_graph_and_its_seed_and_graphs_render) {
    const std::string world = fresh_path("graph_world.db");
    std::remove(world.c_str());
    ASSERT_EQ(run_cli("edit --world " + world + " --config " + kCorpus + "sphere_caves.toml --seed 5 sphere --at 0,20,0 --radius 6").code,
              0);
    const auto inside = run_cli("sample --world " + world, "0 20 0\n");
    ASSERT_EQ(inside.code, 0) << inside.err;
    EXPECT_NEAR(std::stod(inside.out), 6.0, 1e-6);  // the carve's centre: 6 m into the air it made
    const auto note = run_cli("sample --world " + world + " --preset alpine", "0 20 0\n");
    EXPECT_NE(note.err.find("keeps its own graph 'sphere caves' (seed 5)"), std::string::npos) << note.err;
    const auto fly = run_cli("fly --world " + world + " --radius 2 --view-distance 200 --seconds 0 --json --quiet");
    ASSERT_EQ(fly.code, 0) << fly.err;
    EXPECT_NE(fly.out.find("\"preset\": \"sphere caves\""), std::string::npos) << fly.out;
    const std::string png = fresh_path("plateau.png");
    const auto render = run_cli("render --config " + kCorpus +
                                "terraced_plateau.toml --eye 0,120,200 --target 0,20,0 --size 96x64 "
                                "--view-distance 1000 -o " +
                                png);
    ASSERT_EQ(render.code, 0) << render.err;
    EXPECT_NE(render.err.find("triangles"), std::string::npos) << render.err;
    EXPECT_GT(read_bytes(png).size(), 1000u);
    // A graph without a ground output has no heightmap.
    const auto map =
        run_cli("heightmap --config " + kCorpus + "sphere_caves.toml --from 0,0 --to 10,10 --step 1 -o " + fresh_path("h.png"));
    EXPECT_EQ(map.code, 2);
    EXPECT_NE(map.err.find("no ground output"), std::string::npos) << map.err;
}

// `graph types --json` is the node table itself (the node reference is generated from it).
TEST(GraphCli, types_json_gives_each_inputs_kind_default_range_unit_and_the_outputs) {
    const auto r = run_cli("graph types --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto table = nlohmann::json::parse(r.out);
    const auto& types = table.at("node_types");
    ASSERT_EQ(types.size(), isoterra::graph_node_types().size());
    EXPECT_EQ(types.front().at("name"), "x");
    const auto type = [&](const std::string& name) {
        for (const auto& t : types)
            if (t.at("name") == name) return t;
        ADD_FAILURE() << name;
        return nlohmann::json::object();
    };
    const auto input = [&](const std::string& node, const std::string& name) {
        const auto t = type(node);  // kept: the loop reads into it
        for (const auto& i : t.at("inputs"))
            if (i.at("name") == name) return i;
        ADD_FAILURE() << node << "." << name;
        return nlohmann::json::object();
    };
    const auto octaves = input("fbm2", "octaves");
    EXPECT_EQ(octaves.at("kind"), "integer");
    EXPECT_FALSE(octaves.at("required"));
    EXPECT_EQ(octaves.at("default"), 5.0);
    EXPECT_EQ(octaves.at("min"), 1.0);
    EXPECT_EQ(octaves.at("max"), 12.0);
    const auto gain = input("fbm2", "gain");  // (0, 1): both ends left out
    EXPECT_TRUE(gain.at("min_open"));
    EXPECT_TRUE(gain.at("max_open"));
    EXPECT_EQ(input("drainage", "cell_m").at("unit"), "m");
    EXPECT_EQ(input("drainage", "cell_m").at("default"), 6000.0);
    EXPECT_EQ(input("drainage", "jitter").at("unit"), "");
    EXPECT_TRUE(input("const", "value").at("required"));
    EXPECT_TRUE(input("const", "value").at("default").is_null());
    EXPECT_EQ(input("plane", "height").at("default"), 0.0);  // an optional node input's number
    EXPECT_TRUE(input("add", "a").at("default").is_null());
    EXPECT_FALSE(input("add", "a").contains("min"));  // a node input has no range of its own
    EXPECT_EQ(type("drainage").at("outputs"), nlohmann::json({"height", "dx", "dz", "distance", "water", "order", "river"}));
    EXPECT_EQ(type("add").at("outputs"), nlohmann::json::array());
    EXPECT_EQ(type("smooth_subtract").at("formula"), "-smooth_min(-a, b, k): a with b cut away, rounded over k metres");
    EXPECT_NE(table.at("keys_any_node_takes").get<std::string>().find("may also take depth_m = H"), std::string::npos);
    // Every input says what it does, a type's own reading before the name's.
    for (const auto& t : types)
        for (const auto& i : t.at("inputs")) EXPECT_FALSE(i.at("doc").get<std::string>().empty()) << t.at("name") << "." << i.at("name");
    EXPECT_EQ(input("drainage", "cell_m").at("doc"), "level 0's cell; level k's is cell_m / 2^k");
    EXPECT_EQ(input("cellular", "cell_m").at("doc"), "the cells' size: one jittered point per square of this side");
    EXPECT_EQ(input("fbm2", "gain").at("doc"), "each octave's amplitude over the one before");
}
