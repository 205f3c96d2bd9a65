// What one sample of a graph costs (node runs from a cold start), and the bound on it: nodes
// that read their input at other points multiply when chained or nested, and such a graph is
// refused when compiled, at once, naming the node; every built-in graph costs far less.
#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <string>

#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

std::string cost_error_of(const std::string& text) {
    try {
        parse_graph(text, "g.toml");
    } catch (const GraphError& e) {
        return e.what();
    }
    return "";
}

// `count` curvature nodes, each reading the one before, over a 2D noise (line 3 onwards).
std::string chained_curvature(int count) {
    std::string text = "format = 1\n[node]\nc0 = { type = \"fbm2\", scale_m = 500.0 }\n";
    for (int i = 1; i <= count; ++i) text += fmt::format("c{} = {{ type = \"curvature\", in = \"c{}\", step_m = 4.0 }}\n", i, i - 1);
    return text +
           fmt::format("out = {{ type = \"sub\", a = \"y\", b = \"c{}\" }}\ny = {{ type = \"y\" }}\n[output]\nsdf = \"out\"\n", count);
}

// `count` drainage nodes, each one's control the height of the one before (line 3 onwards).
std::string nested_drainage(int count) {
    std::string text = "format = 1\n[node]\nd0 = { type = \"fbm2\", scale_m = 5000.0, amplitude = 300.0 }\n";
    for (int i = 1; i <= count; ++i)
        text += fmt::format("d{} = {{ type = \"drainage\", control = \"d{}\", cell_m = {}.0, levels = 4 }}\n", i, i - 1, 4000 / i);
    return text +
           fmt::format("out = {{ type = \"sub\", a = \"y\", b = \"d{}\" }}\ny = {{ type = \"y\" }}\n[output]\nsdf = \"out\"\n", count);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(GraphCost, a_node_costs_one_run_and_a_resampling_node_its_input_cone_again_per_point) {
    // y - x: three nodes, one run each.
    EXPECT_EQ(parse_graph("format = 1\n[node]\nx = { type = \"x\" }\ny = { type = \"y\" }\nout = { type = \"sub\", a = \"y\", b = \"x\" }\n"
                          "[output]\nsdf = \"out\"\n",
                          "g.toml")
                  ->sample_cost()
                  .sdf,
              3.0);
    // One curvature over the noise: the noise at the sample (1), the curvature (1) and the noise
    // at its four neighbours (4), then y and the sub: 8.
    EXPECT_EQ(parse_graph(chained_curvature(1), "g.toml")->sample_cost().sdf, 8.0);
    // Two: c1 costs 1 + 4 x 1 and its cone 6; c2 costs 1 + 4 x 6 = 25; 25 + 6 + 2 = 33.
    EXPECT_EQ(parse_graph(chained_curvature(2), "g.toml")->sample_cost().sdf, 33.0);
    // On a grid a node runs with its inputs at four grid nodes: 4 x (1 + the noise's 1).
    const auto gridded = parse_graph(
        "format = 1\n[node]\nn = { type = \"fbm2\", scale_m = 500.0 }\ng = { type = \"mul\", a = \"n\", b = 2.0, grid_m = 4.0 }\n"
        "y = { type = \"y\" }\nout = { type = \"sub\", a = \"y\", b = \"g\" }\n[output]\nsdf = \"out\"\nground = \"g\"\n",
        "g.toml");
    EXPECT_EQ(gridded->sample_cost().ground, 9.0);  // the grid's 8 and the noise read at the sample
    EXPECT_EQ(gridded->sample_cost().sdf, 11.0);
    // Drainage of 4 levels reads its control (the noise) at 9 x (12 x 12 + 3 x 2 x 8 x 8) = 4752
    // points from a cold cache: 1 + 4752, with the noise at the sample 4754, then y and sub.
    EXPECT_EQ(parse_graph(nested_drainage(1), "g.toml")->sample_cost().sdf, 4756.0);
}

TEST(GraphCost, twenty_chained_curvature_nodes_are_refused_at_once_naming_the_node_past_the_limit) {
    // Each link multiplies by five: c11 costs 6.1e7 node runs with what it reads, c12 past 1e8.
    const auto start = std::chrono::steady_clock::now();
    const std::string e = cost_error_of(chained_curvature(20));
    EXPECT_LT(seconds_since(start), 1.0);
    EXPECT_EQ(e.rfind("g.toml:15: node 'c12': one sample costs at least ", 0), 0u) << e;
    EXPECT_NE(e.find("node runs (curvature reads its input at 4 points a sample), more than the 1e+08 a graph may cost"), std::string::npos)
        << e;
    EXPECT_EQ(e.find('\n'), std::string::npos);
    // Eleven pass, and say what they cost.
    EXPECT_EQ(parse_graph(chained_curvature(11), "g.toml")->sample_cost().sdf, 61035156.0 + 2.0);
}

TEST(GraphCost, three_nested_drainage_nodes_are_refused_at_once) {
    const auto start = std::chrono::steady_clock::now();
    const std::string e = cost_error_of(nested_drainage(3));
    EXPECT_LT(seconds_since(start), 1.0);
    EXPECT_EQ(e.rfind("g.toml:6: node 'd3': one sample costs at least ", 0), 0u) << e;
    EXPECT_NE(e.find("(drainage reads its input at 4752 points a sample)"), std::string::npos) << e;
    // Two nested: 1 + 4752 x 4754, the inner cone's 4754, y and sub.
    EXPECT_EQ(parse_graph(nested_drainage(2), "g.toml")->sample_cost().sdf, 1.0 + 4752.0 * 4754.0 + 4754.0 + 2.0);
}

TEST(GraphCost, many_cheap_resampling_nodes_over_one_wide_cone_are_refused_quickly) {
    // 5100 curvature nodes over one chain of 5100 adds: each cheap alone (1 + 4 x 5100 runs),
    // together past the limit (5100 x 20401 = 1.04e8), and 2.6e7 nodes visited to find it out:
    // seconds at most for a file of 15,000 nodes (most of it the compiler's other passes).
    constexpr int kWide = 5100;
    std::string text = "format = 1\n[node]\na0 = { type = \"x\" }\n";
    for (int i = 1; i < kWide; ++i) text += fmt::format("a{} = {{ type = \"add\", a = \"a{}\", b = 1.0 }}\n", i, i - 1);
    for (int i = 0; i < kWide; ++i) text += fmt::format("k{} = {{ type = \"curvature\", in = \"a{}\" }}\n", i, kWide - 1);
    text += "s1 = { type = \"add\", a = \"k0\", b = \"k1\" }\n";
    for (int i = 2; i < kWide; ++i) text += fmt::format("s{} = {{ type = \"add\", a = \"s{}\", b = \"k{}\" }}\n", i, i - 1, i);
    text += fmt::format("[output]\nground = \"s{}\"\nsdf = \"s{}\"\n", kWide - 1, kWide - 1);
    const auto start = std::chrono::steady_clock::now();
    const std::string e = cost_error_of(text);
    EXPECT_LT(seconds_since(start), 30.0);  // also under the sanitizers, several times slower
    EXPECT_NE(e.find(fmt::format(": node 's{}': one sample costs at least ", kWide - 1)), std::string::npos) << e;
    EXPECT_NE(e.find("(with the nodes it reads), more than the 1e+08 a graph may cost"), std::string::npos) << e;
}

TEST(GraphCost, every_preset_example_and_docs_graph_costs_a_fiftieth_of_the_limit_or_less) {
    namespace fs = std::filesystem;
    int graphs = 0;
    double most = 0.0;
    for (const char* folder : {"presets", "examples", "docs/graphs"})
        for (const auto& entry : fs::directory_iterator(fs::path(ISOTERRA_SOURCE_DIR) / folder)) {
            if (entry.path().extension() != ".toml") continue;
            std::unique_ptr<GraphField> g;
            try {
                g = load_graph_file(entry.path().string());
            } catch (const GraphError& e) {
                // Classic presets (not graphs) have no cost of this kind.
                EXPECT_EQ(std::string(e.what()).find("one sample costs"), std::string::npos) << e.what();
                continue;
            }
            const GraphCost c = g->sample_cost();
            std::printf("%-40s sdf %12.0f  ground %12.0f\n", entry.path().filename().c_str(), c.sdf, c.ground);
            EXPECT_GT(c.sdf, 0.0);
            // alpine, the most, 1.13e6: 88 times under the limit.
            EXPECT_LE(std::max(c.sdf, c.ground), kGraphCostLimit / 50.0) << entry.path();
            most = std::max({most, c.sdf, c.ground});
            ++graphs;
        }
    EXPECT_GE(graphs, 15);
    std::printf("most: %.0f node runs a sample, limit %.0e\n", most, kGraphCostLimit);
}
