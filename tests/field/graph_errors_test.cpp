// Bad graph files: one line each, "file:line: node 'ID': ...", naming what is wrong.
#include <chrono>
#include <cstring>
#include <gtest/gtest.h>

#include <pthread.h>
#include <string>
#include <vector>

#include "classic_presets.hpp"
#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

// The message parse_graph throws for `text`, or "" when it is accepted.
std::string graph_error_of(const std::string& text) {
    try {
        parse_graph(text, "g.toml");
    } catch (const GraphError& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        return e.what();
    }
    return "";
}

std::string with_nodes(const std::string& nodes, const std::string& output = "sdf = \"out\"") {
    return "format = 1\n[node]\n" + nodes + "\n[output]\n" + output + "\n";
}

void expect_error(const std::string& text, const std::string& expected) {
    const std::string e = graph_error_of(text);
    EXPECT_NE(e.find(expected), std::string::npos) << "got: " << e << "\nexpected: " << expected;
}

}  // namespace

TEST(GraphErrors, each_kind_names_the_file_line_node_and_problem) {
    // line 3: the first node after "format" and "[node]"
    expect_error(with_nodes("out = { type = \"blend\" }"), "g.toml:3: node 'out': unknown type 'blend' (known: x, y, z, const, add,");
    expect_error(with_nodes("out = { type = \"add\", a = 1.0 }"), "g.toml:3: node 'out': missing input 'b'");
    expect_error(with_nodes("out = { type = \"add\", a = 1.0, b = 2.0, c = 3.0 }"),
                 "g.toml:3: node 'out': unknown input 'c' for a add node (a, b)");
    expect_error(with_nodes("cave_b = { type = \"x\" }\nout = { type = \"neg\", in = \"cave_bb\" }"),
                 "g.toml:4: node 'out': input 'in': unknown node 'cave_bb' (did you mean 'cave_b'?)");
    expect_error(with_nodes("a = { type = \"neg\", in = \"b\" }\nb = { type = \"neg\", in = \"c\" }\nc = { type = \"neg\", in = \"a\" }\n"
                            "out = { type = \"neg\", in = \"a\" }"),
                 "node 'a': is part of a cycle: a -> b -> c -> a");
    expect_error(with_nodes("h = { type = \"simplex3\", scale_m = 10.0 }\ng = { type = \"mul\", a = \"h\", b = 4.0 }\n"
                            "out = { type = \"y\" }",
                            "sdf = \"out\"\nground = \"g\""),
                 "g.toml:3: node 'g': output 'ground' depends on y through node 'h' (g -> h)");
    expect_error(with_nodes("out = { type = \"fbm2\", octaves = 40 }"),
                 "g.toml:3: node 'out': input 'octaves': expected an integer in [1, 12], got 40");
    expect_error(with_nodes("out = { type = \"simplex2\", scale_m = 0.0 }"),
                 "node 'out': input 'scale_m': expected a number in [0.1, 10000000], got 0");
    expect_error(with_nodes("out = { type = \"add\", a = nan, b = 1.0 }"), "input 'a': expected a node id or a finite number, got nan");
    expect_error(with_nodes("out = { type = \"smoothstep\", in = 1.0, from = 2.0, to = 2.0 }"), "input 'to': must differ from 'from'");
    expect_error(with_nodes("out = { type = \"curve\", in = 1.0, points = [[1.0, 0.0], [0.0, 1.0]] }"),
                 "input 'points': expected a list of 2 to 256 [x, y] pairs of numbers within 1e12, x increasing");
    std::string points;  // one pair over the limit the message names
    for (int i = 0; i < 257; ++i) points += (i ? ", [" : "[") + std::to_string(i) + ".0, 0.0]";
    expect_error(with_nodes("out = { type = \"curve\", in = 1.0, points = [" + points + "] }"), "expected a list of 2 to 256 [x, y] pairs");
    EXPECT_EQ(graph_error_of(with_nodes("out = { type = \"curve\", in = 1.0, points = [" + points.substr(0, points.rfind(", [")) + "] }")),
              "");
    expect_error(with_nodes("w = { type = \"warp2\", distance_m = 5.0 }\nout = { type = \"neg\", in = \"w\" }"),
                 "input 'in': node 'w' has outputs x and z; name one ('w.x')");
    expect_error(with_nodes("w = { type = \"x\" }\nout = { type = \"neg\", in = \"w.z\" }"), "node 'w' has one output");
    expect_error(with_nodes("out = { type = \"x\" }", "sdf = \"nothing\""), "output 'sdf': unknown node 'nothing'");
    expect_error(with_nodes("out = { type = \"x\" }", "ground = \"out\""), "g.toml: output 'sdf': missing");
    expect_error("[node]\nout = { type = \"x\" }\n[output]\nsdf = \"out\"\n", "g.toml: key 'format': missing (format = 1)");
    expect_error("format = 2\n[node]\nout = { type = \"x\" }\n[output]\nsdf = \"out\"\n",
                 "g.toml:1: key 'format': this isoterra reads graph format 1, got 2");
    expect_error(with_nodes("out = 3.0"), "g.toml:3: node 'out': expected a table with a type, got 3");
    expect_error(with_nodes("out = { type = \"x\" }") + "[material]\nsnow_line = 3.0\n", "unknown material key 'snow_line'");
    expect_error(with_nodes("out = { type = \"x\" }") + "[material]\nsnow_line_m = \"high\"\n", "key 'snow_line_m': expected a number");
    expect_error(with_nodes("out = { type = \"x\" \n"), "g.toml:3:");  // TOML itself
    expect_error(with_nodes("out = { type = \"x\" }") + "rivers = true\n",
                 "unknown output 'rivers' (sdf, ground, water, snow_line, scree)");
    // The landform nodes' outputs, knots and inputs read at other points.
    expect_error(with_nodes("e = { type = \"erosion\", in = 1.0, dx = 0.0, dz = 0.0 }\nout = { type = \"neg\", in = \"e.slope\" }"),
                 "node 'e' has outputs height, dx, dz and ridge; name one ('e.height')");
    expect_error(with_nodes("h = { type = \"simplex3\" }\nout = { type = \"curvature\", in = \"h\" }"),
                 "g.toml:4: node 'out': input 'in': node 'h' depends on y; this input is read at other points");
    expect_error(with_nodes("h = { type = \"simplex3\" }\nout = { type = \"y\" }", "sdf = \"out\"\nwater = \"h\""),
                 "output 'water' depends on y through node 'h'");
    expect_error(with_nodes("out = { type = \"spline\", in = 1.0, points = [[0.0, 1.0], [0.0, \"out\"]] }"),
                 "input 'points': expected a list of 2 to 32 [x, y] pairs");
    expect_error(with_nodes("out = { type = \"spline\", in = 1.0, points = [[0.0, 1.0], [1.0, \"hill\"]] }"),
                 "node 'out': input 'points[1]': unknown node 'hill'");
    expect_error("format = 1\nsea_level = \"low\"\n[node]\nout = { type = \"x\" }\n[output]\nsdf = \"out\"\n",
                 "g.toml:2: key 'sea_level': expected a number in [-10000, 10000] (metres), got \"low\"");
    // Deep nesting is refused before the TOML parser sees it.
    expect_error(with_nodes("out = { type = \"x\", v = " + std::string(20000, '[') + std::string(20000, ']') + " }"), "nest");
}

TEST(GraphErrors, a_good_graph_is_accepted_with_its_header) {
    const auto g = parse_graph(
        "format = 1\nname = \"dunes\"\ndescription = \"sand\"\nseed = 99\n"
        "[node.h]\ntype = \"fbm2\"\nscale_m = 80.0\n"
        "[node.g]\ntype = \"mul\"\na = \"h\"\nb = 6.0\n"
        "[node.out]\ntype = \"plane\"\nheight = \"g\"\n"
        "[node.unused]\ntype = \"z\"\n"
        "[output]\nsdf = \"out\"\nground = \"g\"\n"
        "[material]\nsnow_line_m = 500.0\n",
        "dunes.toml");
    EXPECT_EQ(g->name(), "dunes");
    EXPECT_EQ(g->description(), "sand");
    EXPECT_EQ(g->file_seed(), 99u);
    EXPECT_EQ(g->seed(), 99u);
    EXPECT_EQ(g->node_count(), 3u);  // the unused node is not compiled
    EXPECT_TRUE(g->has_ground());
    EXPECT_EQ(g->material_rules().snow_line_m, 500.0);
    // The ground output is the height where the plane's sdf is 0.
    const double h = g->ground_height(12.0, -40.0);
    EXPECT_NEAR(g->value({12.0, h, -40.0}), 0.0, 1e-12);
    EXPECT_TRUE(is_graph_text("format = 1\n[node]\nout = { type = \"x\" }\n"));
    EXPECT_TRUE(is_graph_text("format = 1\n[node.out]\ntype = \"x\"\n"));
    EXPECT_FALSE(is_graph_text(builtin_preset_text("tutorial")));
    EXPECT_FALSE(is_graph_text(test::classic_preset_text("alpine")));  // a commented preset
    EXPECT_TRUE(is_graph_text(builtin_preset_text("alpine")));         // a graph since issue 24
    EXPECT_TRUE(is_graph_text(test::classic_preset_text("canyons")));
}

TEST(GraphErrors, load_graph_file_names_the_file) {
    try {
        load_graph_file("/nonexistent/g.toml");
        FAIL();
    } catch (const GraphError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/g.toml: cannot open the graph file"), std::string::npos) << e.what();
    }
    try {
        load_graph_file("/tmp");
        FAIL();
    } catch (const GraphError& e) {
        EXPECT_NE(std::string(e.what()).find("not a graph file"), std::string::npos) << e.what();
    }
}

namespace {

// The same graph in other valid TOML spellings: a quoted table header and keys, a byte-order
// mark, a description holding lines that look like a table and a seed, a seed with a comment.
const char* kPlainGraph = "format = 1\nname = \"q\"\n[node]\na = { type = \"y\" }\n[output]\nsdf = \"a\"\n";
const char* kSpelledGraphs[] = {
    "format = 1\nname = \"q\"\n[\"node\"]\na = { type = \"y\" }\n[output]\nsdf = \"a\"\n",
    "\"format\" = 1\n'name' = \"q\"\n[node]\n\"a\" = { \"type\" = \"y\" }\n[output]\n\"sdf\" = \"a\"\n",
    "\xef\xbb\xbf"
    "format = 1\nname = \"q\"\n[node]\na = { type = \"y\" }\n[output]\nsdf = \"a\"\n",
    "format = 1\nname = \"q\"\ndescription = \"\"\"\nseed = 3\n[x]\n[node]\"\"\"\n[node]\na = { type = \"y\" }\n[output]\nsdf = \"a\"\n",
    "format = 1\n\"seed\" = 9 # the file's seed\nname = \"q\"\nnode.a = { type = \"y\" }\n[output]\nsdf = \"a\"\n",
};

}  // namespace

// Case 5 of the third sweep: valid spellings were taken for a preset, or broke the seed's
// rewrite (the text a world file and a bake keep) into "internal error".
TEST(GraphSpellings, every_valid_toml_spelling_is_a_graph_and_keeps_a_new_seed) {
    const TerrainSource plain = parse_terrain_source(kPlainGraph, "plain.toml");
    for (const char* text : kSpelledGraphs) {
        SCOPED_TRACE(text);
        EXPECT_TRUE(is_graph_text(text));
        TerrainSource t = parse_terrain_source(text, "spelled.toml");
        ASSERT_TRUE(t.is_graph());
        EXPECT_EQ(t.graph.rfind("\xef\xbb\xbf", 0), std::string::npos) << "no byte-order mark kept";
        t.seed = 77;
        const std::string stored = t.to_text();
        const TerrainSource again = parse_terrain_source(stored, "stored.toml");
        EXPECT_EQ(again.seed, 77u);
        EXPECT_EQ(again.name, "q");
        EXPECT_EQ(again.make_field()->value({1.0, 2.5, 3.0}), plain.make_field()->value({1.0, 2.5, 3.0}));
    }
    // The seed's own comment and the look-alike lines in the description stay as they were.
    TerrainSource t = parse_terrain_source(kSpelledGraphs[4], "spelled.toml");
    t.seed = 123;
    EXPECT_NE(t.to_text().find("\"seed\" = 123 # the file's seed\n"), std::string::npos) << t.to_text();
    t = parse_terrain_source(kSpelledGraphs[3], "spelled.toml");
    t.seed = 5;
    EXPECT_EQ(t.to_text().rfind("seed = 5\nformat = 1\n", 0), 0u) << t.to_text();
    EXPECT_NE(t.to_text().find("\nseed = 3\n[x]\n[node]\"\"\""), std::string::npos);
}

TEST(GraphSpellings, a_preset_whose_strings_hold_graph_like_lines_stays_a_preset) {
    const std::string preset = "name = \"p\"\ndescription = \"\"\"\n[node]\nnode.a = 1\n\"\"\"\nseed = 5\n";
    EXPECT_FALSE(is_graph_text(preset));
    const TerrainSource t = parse_terrain_source(preset, "p.toml");
    EXPECT_FALSE(t.is_graph());
    EXPECT_EQ(t.seed, 5u);
    // One line with a quarter of a million "node"s: read in one pass (it took minutes when
    // each one looked back to the start of its line).
    std::string one_line = "description = \"";
    for (int i = 0; i < 250000; ++i) one_line += "node ";
    EXPECT_FALSE(is_graph_text(one_line + "\"\n"));
    EXPECT_FALSE(is_graph_text(one_line));        // not TOML (the string is open): the look at the lines
    EXPECT_TRUE(is_graph_text("[node]\na = {"));  // not TOML, but a graph's parser should say why
}

// Case 1 of the third sweep: shapes of graphs under the size limit that recursed or searched
// without bound.
TEST(GraphShapes, a_chain_of_thirty_thousand_nodes_compiles_on_a_two_megabyte_stack) {
    std::string nodes = "a0 = { type = \"y\" }\n";
    for (int i = 1; i < 30000; ++i) nodes += "a" + std::to_string(i) + "={type=\"neg\",in=\"a" + std::to_string(i - 1) + "\"}\n";
    struct Job {
        std::string text;
        std::size_t nodes = 0;
        double value = 0;
    } job{with_nodes(nodes, "sdf = \"a29999\""), 0, 0};
    // The compiler on a thread with a 2 MiB stack (room for the sanitizers; the recursion over
    // the chain crashed on 512 KiB, `ulimit -s 512`).
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, std::size_t{2} << 20);
    pthread_t thread;
    ASSERT_EQ(pthread_create(
                  &thread, &attr,
                  [](void* p) -> void* {
                      auto& j = *static_cast<Job*>(p);
                      const auto g = parse_graph(j.text, "chain.toml");
                      j.nodes = g->node_count();
                      j.value = g->value({0.0, 2.0, 0.0});
                      return nullptr;
                  },
                  &job),
              0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    EXPECT_EQ(job.nodes, 30000u);
    EXPECT_EQ(job.value, -2.0);  // y negated 29,999 times
}

TEST(GraphShapes, a_long_cycle_is_named_by_its_ends_and_length) {
    std::string nodes;
    for (int i = 0; i < 30000; ++i) nodes += "a" + std::to_string(i) + "={type=\"neg\",in=\"a" + std::to_string((i + 1) % 30000) + "\"}\n";
    const std::string e = graph_error_of(with_nodes(nodes, "sdf = \"a0\""));
    EXPECT_EQ(e,
              "g.toml:3: node 'a0': is part of a cycle of 30000 nodes: a0 -> a1 -> a2 -> a3 -> ... (29993 nodes) -> a29997 -> "
              "a29998 -> a29999 -> a0");
}

TEST(GraphShapes, ids_are_what_the_message_says_and_suggestions_stay_cheap) {
    for (const std::string& id : std::vector<std::string>{"\"a b\"", "\"a+b\"", "\"\u00e9t\u00e9\"", "\"a'b\"", std::string(61, 'a')})
        expect_error(with_nodes(id + " = { type = \"y\" }\nout = { type = \"y\" }"), "an id is 1 to 60 ASCII letters, digits, '_' or '-'");
    EXPECT_EQ(graph_error_of(with_nodes(std::string(60, 'a') + " = { type = \"y\" }\nout-1_B = { type = \"y\" }", "sdf = \"out-1_B\"")),
              "");
    // An unknown reference of 200,000 bytes among 20,000 ids: only ids within two edits in
    // length are compared (every one of them took minutes).
    std::string many;
    for (int i = 0; i < 20000; ++i) many += "node_" + std::to_string(i) + " = { type = \"y\" }\n";
    expect_error(with_nodes(many + "out = { type = \"neg\", in = \"" + std::string(200000, 'n') + "\" }"), "unknown node 'nnnnn");
    expect_error(with_nodes(many + "out = { type = \"neg\", in = \"node_1234x\" }"),
                 "unknown node 'node_1234x' (did you mean 'node_1234'?)");
}

// Case 1: a graph of many guards. Looking for the noises each guard lets the lattice skip
// walked the graph twice per guard (8,000 guards compiled in 3.3 s, each time); the search
// now stops at a budget of node visits, and the gates it found still change no bit: the
// lattice gives the bits of a twin whose noises all have a second path to the output (so
// nothing can be skipped).
TEST(GraphShapes, a_graph_of_eight_thousand_guards_compiles_within_the_gate_search_budget) {
    const auto chain = [](bool ungated) {
        std::string nodes = "m0={type=\"simplex3\",scale_m=40}\ny={type=\"y\"}\n";
        for (int i = 1; i < 8000; ++i) {
            const std::string n = std::to_string(i), prev = std::to_string(i - 1);
            nodes += "n" + n + "={type=\"simplex3\",scale_m=" + std::to_string(9 + i % 50) + "}\n";
            nodes += "m" + n + "={type=\"" + (i % 3 ? "min" : "max") + "\",a=\"m" + prev + "\",b=\"n" + n + "\"}\n";
            if (ungated) nodes += "s" + n + "={type=\"add\",a=\"" + (i == 1 ? "m0" : "s" + prev) + "\",b=\"n" + n + "\"}\n";
        }
        nodes += "out={type=\"add\",a=\"m7999\",b=\"y\"}\n";
        if (!ungated) return with_nodes(nodes, "sdf = \"out\"");
        nodes += "low={type=\"sub\",a=\"s7999\",b=1e12}\nsafe={type=\"max\",a=\"out\",b=\"low\"}\n";
        return with_nodes(nodes, "sdf = \"safe\"");
    };
    const std::string text = chain(false), twin = chain(true);
    ASSERT_LT(twin.size(), std::size_t{1} << 20);
    const auto start = std::chrono::steady_clock::now();
    const auto gated = parse_graph(text, "guards.toml");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 10.0) << "a hang guard, not a speed goal: about 0.2 s at -O2";
    EXPECT_EQ(gated->node_count(), 16001u);
    const auto ungated = parse_graph(twin, "twin.toml");
    const Lattice lattice{{-3, -2, 5}, {8, 8, 8}, 2.0};
    std::vector<float> with(lattice.count()), without(lattice.count());
    gated->sample_lattice(lattice, with.data());
    ungated->sample_lattice(lattice, without.data());
    EXPECT_EQ(std::memcmp(with.data(), without.data(), with.size() * sizeof(float)), 0);
    EXPECT_EQ(ungated->count_skipped(lattice).skipped, 0u);
}
