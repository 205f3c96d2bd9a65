// The program's limits, shared with the library's other doors (the C API and Python test the
// same ones): a graph whose one sample would cost months is refused by `graph check` at
// once; landform grids, views and rasters past the memory budget are refused before they
// are made; a heightmap `file` of kilobytes is shown cut. One line, exit 2, never a crash.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;

namespace {

void expect_refused(const CliResult& r, const std::string& expected) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(LimitsCli, graph_check_refuses_twenty_chained_curvature_nodes_at_once_and_prints_a_presets_cost) {
    const std::string path = fresh_path("chain.toml");
    std::string text = "format = 1\n[node]\nc0 = { type = \"fbm2\", scale_m = 500.0 }\n";
    for (int i = 1; i <= 20; ++i) text += fmt::format("c{} = {{ type = \"curvature\", in = \"c{}\", step_m = 4.0 }}\n", i, i - 1);
    text += "y = { type = \"y\" }\nout = { type = \"sub\", a = \"y\", b = \"c20\" }\n[output]\nsdf = \"out\"\n";
    std::ofstream(path) << text;
    const auto start = std::chrono::steady_clock::now();
    for (const char* command : {"graph check", "sample --config"}) {
        const CliResult r = run_cli(fmt::format("{} {}", command, path), "0 0 0\n");
        expect_refused(r, path + ":15: node 'c12': one sample costs at least ");
        EXPECT_NE(r.err.find("more than the 1e+08 a graph may cost"), std::string::npos) << r.err;
    }
    EXPECT_LT(seconds_since(start), 5.0);
    const CliResult alpine = run_cli(fmt::format("graph check {}/presets/alpine.toml", ISOTERRA_SOURCE_DIR));
    EXPECT_EQ(alpine.code, 0) << alpine.err;
    EXPECT_NE(alpine.out.find("one sample costs "), std::string::npos) << alpine.out;
    EXPECT_NE(alpine.out.find(" (ground) from a cold start; a graph may cost 1e+08"), std::string::npos) << alpine.out;
}

TEST(LimitsCli, landform_with_force_past_the_memory_budget_is_refused_before_sampling) {
    // 26667 x 26667 cells: 7.1e8, under the 1e9 pixels --force allows, far past 4 GiB.
    const auto start = std::chrono::steady_clock::now();
    const CliResult r = run_cli("landform --preset tutorial --from -1000000,-1000000 --to 1000000,1000000 --step 75 --force", "",
                                "ISOTERRA_MEMORY_BUDGET=4G");
    expect_refused(r, "landform of 26667x26667 cells needs about 106.0 GiB, more than the memory budget of 4.0 GiB");
    EXPECT_LT(seconds_since(start), 5.0);
}

TEST(LimitsCli, a_view_past_the_memory_budget_is_refused_by_every_command_that_starts_a_world) {
    for (const char* command : {"fly --seconds 0", "render --eye 0,100,0 --target 100,90,100 --size 64x64 -o never.png"}) {
        const CliResult r =
            run_cli(fmt::format("{} --view-distance 200000 --radius 32 --triangle-budget 0", command), "", "ISOTERRA_MEMORY_BUDGET=64M");
        expect_refused(r, "more than the memory budget of 64.0 MiB (ISOTERRA_MEMORY_BUDGET=64M)");
    }
}

TEST(LimitsCli, a_vrt_declaring_two_to_the_28_pixels_is_refused_before_it_is_read) {
    const std::string dir = fresh_folder("vrt");
    // No sources: GDAL would read 16384 x 16384 zeros, 3 GiB as doubles and floats.
    std::ofstream(dir + "/big.vrt") << R"(<VRTDataset rasterXSize="16384" rasterYSize="16384">
  <GeoTransform>0, 1, 0, 0, 0, -1</GeoTransform>
  <VRTRasterBand dataType="Float32" band="1"></VRTRasterBand>
</VRTDataset>
)";
    std::ofstream(dir + "/g.toml")
        << "format = 1\n[node]\nh = { type = \"heightmap\", file = \"big.vrt\", from = [0.0, 0.0], to = [1000.0, "
           "1000.0] }\ny = { type = \"y\" }\nout = { type = \"sub\", a = \"y\", b = \"h\" }\n[output]\nsdf = \"out\"\n";
    const CliResult graph = run_cli(fmt::format("graph check {}/g.toml", dir), "", "ISOTERRA_MEMORY_BUDGET=1G");
    expect_refused(graph, "big.vrt: reading 16384x16384 pixels needs about 3.0 GiB, more than the memory budget of 1.0 GiB");
    // Reading it fits 4 GiB (3 GiB); measuring it (160 bytes a cell) does not: refused before
    // a pixel is read, where it used to be read and end in bad_alloc.
    const auto start = std::chrono::steady_clock::now();
    const CliResult landform = run_cli(fmt::format("landform --raster {}/big.vrt --force", dir), "", "ISOTERRA_MEMORY_BUDGET=4G");
    expect_refused(landform, "big.vrt: reading 16384x16384 pixels needs about 44.");
    EXPECT_NE(landform.err.find(" GiB, more than the memory budget of 4.0 GiB"), std::string::npos) << landform.err;
    EXPECT_LT(seconds_since(start), 5.0);
}

TEST(LimitsCli, a_heightmap_file_of_4000_bytes_is_shown_cut_in_a_short_line) {
    const std::string dir = fresh_folder("long_file");
    const std::string name = std::string(4000, 'a') + ".png";
    std::ofstream(dir + "/g.toml")
        << "format = 1\n[node]\nh = { type = \"heightmap\", file = \"" + name +
               "\" }\ny = { type = \"y\" }\nout = { type = \"sub\", a = \"y\", b = \"h\" }\n[output]\nsdf = \"out\"\n";
    const CliResult r = run_cli(fmt::format("graph check {}/g.toml", dir));
    expect_refused(r, "/g.toml:3: node 'h': ");
    EXPECT_LT(r.err.size(), 700u) << r.err.size();
    EXPECT_NE(r.err.find("...(4"), std::string::npos) << r.err;     // printable()'s cut, with the length
    EXPECT_NE(r.err.find("aaaa.png"), std::string::npos) << r.err;  // the name's end kept
}
