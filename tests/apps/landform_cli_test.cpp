// `isoterra landform`: the figures of a real elevation model (the Cumberland Mountains,
// Debian's matplotlib sample data) as the issue measured them; presets and graphs over a
// region, rasters, the flow map with its sidecar, and the bad inputs refused in one line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spng.h>

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;

namespace {

const char* kDem = "/usr/share/matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz";

nlohmann::json parse_json(const CliResult& r) {
    const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out;
    return j;
}

void expect_refused(const std::string& args, const std::string& words, int code = 2) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, code) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(words), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
}

// The 16-bit grey pixels of a PNG (empty when it is not one).
std::vector<std::uint16_t> read_png16(const std::string& path, int& width, int& height) {
    const std::string bytes = read_bytes(path);
    std::vector<std::uint16_t> pixels;
    spng_ctx* ctx = spng_ctx_new(0);
    spng_set_png_buffer(ctx, bytes.data(), bytes.size());
    spng_ihdr ihdr{};
    if (spng_get_ihdr(ctx, &ihdr) == 0 && ihdr.bit_depth == 16 && ihdr.color_type == SPNG_COLOR_TYPE_GRAYSCALE) {
        width = static_cast<int>(ihdr.width), height = static_cast<int>(ihdr.height);
        pixels.resize(static_cast<std::size_t>(width) * height);
        // libspng gives 16-bit samples in the host's byte order.
        spng_decode_image(ctx, pixels.data(), pixels.size() * 2, SPNG_FMT_PNG, 0);
    }
    spng_ctx_free(ctx);
    return pixels;
}

}  // namespace

// The figures the issue measured on the real DEM with this procedure. A GeoTIFF in metres
// made from the .npz (numpy writes it raw with a header, GDAL translates it): cells of
// 74.6 m (x) by 92.5 m (z).
TEST(LandformCli, the_real_dem_has_the_figures_the_issue_measured) {
    const std::string dir = fresh_folder("jacksboro");
    ASSERT_TRUE(std::ifstream(kDem).good()) << kDem << ": install python-matplotlib-data (scripts/install-deps.sh)";
    // Debian's own interpreter: another python3 earlier on PATH may have no numpy.
    const std::string convert =
        fmt::format("/usr/bin/python3 {}/tests/apps/dem_to_ehdr.py {} {}/dem > {}/dem.txt", ISOTERRA_SOURCE_DIR, kDem, dir, dir);
    ASSERT_EQ(std::system(convert.c_str()), 0) << "needs Debian's python3-numpy: " << convert;
    const std::string translate = fmt::format("gdal_translate -q -of GTiff {}/dem.bil {}/dem.tif", dir, dir);
    ASSERT_EQ(std::system(translate.c_str()), 0) << "needs gdal-bin: " << translate;

    const CliResult r = run_cli(fmt::format("landform --raster {}/dem.tif --json", dir));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = parse_json(r);
    EXPECT_EQ(j["cells"], 344 * 403);
    EXPECT_EQ(j["land_cells"], 344 * 403);
    EXPECT_EQ(j["sea_share"], 0.0);
    EXPECT_TRUE(j["sea_level_m"].is_null());
    EXPECT_NEAR(j["region"]["step_x"].get<double>(), 74.573, 0.01);
    EXPECT_NEAR(j["region"]["step_z"].get<double>(), 92.475, 0.01);
    EXPECT_EQ(j["relief_m"], 840.0);  // 236 .. 1076 m
    EXPECT_EQ(j["min_m"], 236.0);
    // Issue 24: pits 4.6 %, theta 0.34, hypsometric integral 0.35, mean slope 13.3 degrees,
    // 0.2 % over 30, none over 45. Ranges that a wrong fill, routing or spacing falls out of.
    EXPECT_GE(j["pit_share"].get<double>(), 0.040);
    EXPECT_LE(j["pit_share"].get<double>(), 0.055);
    EXPECT_GE(j["theta"].get<double>(), 0.30);
    EXPECT_LE(j["theta"].get<double>(), 0.38);
    EXPECT_GT(j["theta_cells"].get<int>(), 15000);
    EXPECT_NEAR(j["hypsometric_integral"].get<double>(), 0.35, 0.005);
    EXPECT_NEAR(j["mean_slope_deg"].get<double>(), 13.3, 0.2);
    EXPECT_GE(j["slope_share_over_30"].get<double>(), 0.001);
    EXPECT_LE(j["slope_share_over_30"].get<double>(), 0.004);
    EXPECT_EQ(j["slope_share_over_45"], 0.0);
    // Hack's exponent of real basins is near 0.5-0.6.
    EXPECT_GT(j["hack_h"].get<double>(), 0.4);
    EXPECT_LT(j["hack_h"].get<double>(), 0.7);

    // The lowest pixel (236 m, one of them) marked as no data: left out, the rest as before.
    const std::string nodata = fmt::format("gdal_translate -q -of GTiff -a_nodata 236 {}/dem.bil {}/nodata.tif", dir, dir);
    ASSERT_EQ(std::system(nodata.c_str()), 0);
    const nlohmann::json n = parse_json(run_cli(fmt::format("landform --raster {}/nodata.tif --json", dir)));
    EXPECT_EQ(n["land_cells"], 344 * 403 - 1);
    EXPECT_EQ(n["min_m"], 244.0);
    EXPECT_NEAR(n["pit_share"].get<double>(), j["pit_share"].get<double>(), 0.001);

    // The same pixels with square 75 m cells are measured differently: the spacing is used.
    const std::string square = fmt::format("gdal_translate -q -of GTiff -a_ullr 0 0 30225 -25800 {}/dem.bil {}/square.tif", dir, dir);
    ASSERT_EQ(std::system(square.c_str()), 0);
    const nlohmann::json s = parse_json(run_cli(fmt::format("landform --raster {}/square.tif --json", dir)));
    EXPECT_EQ(s["region"]["step_z"], 75.0);
    EXPECT_GT(s["mean_slope_deg"].get<double>(), j["mean_slope_deg"].get<double>() + 0.5);
}

TEST(LandformCli, a_preset_region_gives_every_key_with_sane_values) {
    const CliResult r = run_cli("landform --preset tutorial --from -1500,-1500 --to 1500,1500 --step 30 --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const nlohmann::json j = parse_json(r);
    // clang-format off
    for (const char* key : {"relief_m", "min_m", "max_m", "cells", "land_cells", "sea_share", "pit_share", "theta", "theta_intercept",
                            "theta_r2", "theta_cells", "hack_h", "hack_r2", "hypsometric_integral", "mean_slope_deg", "median_slope_deg",
                            "slope_share_over_30", "slope_share_over_45", "slope_histogram_deg", "region"})
        // clang-format on
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["cells"], 101 * 101);
    EXPECT_EQ(j["land_cells"], 101 * 101);  // the tutorial has no sea
    EXPECT_EQ(j["region"]["from"], nlohmann::json::array({-1500.0, -1500.0}));
    EXPECT_EQ(j["region"]["to"], nlohmann::json::array({1500.0, 1500.0}));
    EXPECT_EQ(j["region"]["step_x"], 30.0);
    EXPECT_EQ(j["region"]["step_z"], 30.0);
    EXPECT_EQ(j["source"]["kind"], "preset");
    EXPECT_EQ(j["source"]["seed"], 20261114);
    EXPECT_GT(j["relief_m"].get<double>(), 10.0);
    EXPECT_NEAR(j["relief_m"].get<double>(), j["max_m"].get<double>() - j["min_m"].get<double>(), 1e-9);
    EXPECT_GT(j["pit_share"].get<double>(), 0.0);
    EXPECT_LT(j["pit_share"].get<double>(), 1.0);
    EXPECT_TRUE(j["theta"].is_number());
    EXPECT_GT(j["hypsometric_integral"].get<double>(), 0.0);
    EXPECT_LT(j["hypsometric_integral"].get<double>(), 1.0);
    ASSERT_EQ(j["slope_histogram_deg"].size(), 18u);
    double total = 0.0;
    for (const auto& b : j["slope_histogram_deg"]) total += b["share"].get<double>();
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_EQ(j["slope_histogram_deg"][9]["from"], 45.0);
    EXPECT_EQ(j["slope_histogram_deg"][9]["to"], 50.0);

    // The same again, byte for byte; another seed, other ground.
    EXPECT_EQ(run_cli("landform --preset tutorial --from -1500,-1500 --to 1500,1500 --step 30 --json --quiet").out, r.out);
    const nlohmann::json other =
        parse_json(run_cli("landform --preset tutorial --seed 7 --from -1500,-1500 --to 1500,1500 --step 30 --json"));
    EXPECT_NE(other["max_m"], j["max_m"]);

    // The text summary names the figures.
    const CliResult text = run_cli("landform --preset tutorial --from -1500,-1500 --to 1500,1500 --step 30");
    ASSERT_EQ(text.code, 0) << text.err;
    for (const char* words : {"relief", "closed pits", "theta", "Hack", "hypsometry", "slopes"})
        EXPECT_NE(text.out.find(words), std::string::npos) << words << "\n" << text.out;
}

TEST(LandformCli, the_islands_sea_is_left_out_and_sea_level_moves_it) {
    const char* region = "--from -3000,-3000 --to 3000,3000 --step 60 --json";
    const nlohmann::json j = parse_json(run_cli(fmt::format("landform --preset islands {}", region)));
    EXPECT_EQ(j["sea_level_m"], 0.0);
    EXPECT_GT(j["sea_share"].get<double>(), 0.05);
    EXPECT_GE(j["min_m"].get<double>(), 0.0);
    EXPECT_EQ(j["land_cells"].get<double>(), std::round(j["cells"].get<double>() * (1.0 - j["sea_share"].get<double>())));
    const nlohmann::json higher = parse_json(run_cli(fmt::format("landform --preset islands {} --sea-level 10", region)));
    EXPECT_GT(higher["sea_share"].get<double>(), j["sea_share"].get<double>());
    EXPECT_GE(higher["min_m"].get<double>(), 10.0);
}

TEST(LandformCli, a_heightmap_png_measures_as_the_preset_it_was_made_from) {
    const std::string dir = fresh_folder("landform_png");
    const char* region = "--from -2000,-1000 --to 2000,1000 --step 40";
    ASSERT_EQ(run_cli(fmt::format("heightmap --preset alpine {} --quiet -o {}/g.png", region, dir)).code, 0);
    const nlohmann::json p = parse_json(run_cli(fmt::format("landform --preset alpine {} --json", region)));
    const CliResult r = run_cli(fmt::format("landform --raster {}/g.png --json", dir));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json g = parse_json(r);
    EXPECT_EQ(g["cells"], p["cells"]);
    EXPECT_EQ(g["region"], p["region"]);
    EXPECT_NEAR(g["relief_m"].get<double>(), p["relief_m"].get<double>(), 1e-3);
    // 16-bit steps of a few millimetres: the figures barely move.
    EXPECT_NEAR(g["pit_share"].get<double>(), p["pit_share"].get<double>(), 0.005);
    EXPECT_NEAR(g["mean_slope_deg"].get<double>(), p["mean_slope_deg"].get<double>(), 0.01);
    EXPECT_NEAR(g["hypsometric_integral"].get<double>(), p["hypsometric_integral"].get<double>(), 1e-4);
}

TEST(LandformCli, flow_writes_a_16_bit_map_and_a_sidecar_that_maps_pixels_to_square_metres) {
    const std::string dir = fresh_folder("landform_flow");
    const CliResult r =
        run_cli(fmt::format("landform --preset canyons --from 0,0 --to 2000,1000 --step 20 --flow {}/flow.png --json", dir));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(files_in(dir), (std::set<std::string>{"flow.png", "flow.json"}));
    int w = 0, h = 0;
    const std::vector<std::uint16_t> pixels = read_png16(dir + "/flow.png", w, h);
    ASSERT_EQ(w, 101);
    ASSERT_EQ(h, 51);
    std::uint16_t lo = 65535, hi = 0;
    for (const auto p : pixels) lo = std::min(lo, p), hi = std::max(hi, p);
    EXPECT_EQ(lo, 1);  // no sea: the smallest area is one cell's
    EXPECT_EQ(hi, 65535);
    std::ifstream in(dir + "/flow.json");
    const nlohmann::json side = nlohmann::json::parse(in);
    EXPECT_EQ(side["image"], "flow.png");
    EXPECT_EQ(side["width"], 101);
    EXPECT_EQ(side["step_x_m"], 20.0);
    EXPECT_NEAR(side["log10_min_area_m2"].get<double>(), std::log10(400.0), 1e-12);  // one 20 x 20 m cell
    // The largest area is at most the whole region's.
    EXPECT_LE(std::pow(10.0, side["log10_max_area_m2"].get<double>()), 101 * 51 * 400.0 * (1 + 1e-12));
    EXPECT_NE(side["pixel_to_area"].get<std::string>().find("65534"), std::string::npos);

    // A folder that is not there is bad input, as for every export: exit 2, nothing written.
    expect_refused(fmt::format("landform --preset canyons --from 0,0 --to 2000,1000 --step 20 --flow {}/no/such/flow.png", dir), "flow.png",
                   2);
}

TEST(LandformCli, bad_inputs_are_refused_in_one_line_with_exit_2) {
    const std::string dir = fresh_folder("landform_bad");
    const std::string small = "--from 0,0 --to 300,300 --step 30";
    expect_refused("landform --json", "give --preset NAME, --config FILE or --raster FILE");
    expect_refused("landform --preset tutorial --bogus", "--bogus");
    expect_refused("landform --preset nope " + small, "nope");
    expect_refused("landform --preset tutorial --from 10,10 --to 0,0", "--from/--to");
    expect_refused("landform --preset tutorial --from 0,0", "--from/--to: give both or neither");
    expect_refused("landform --preset tutorial --from 0,0 --to 40,40 --step 30", "at least 3x3");
    expect_refused("landform --preset tutorial --step 1", "add --force");
    expect_refused("landform --preset tutorial --from 0,0 --to 3e9,3e9 --step 1e6", "--to");
    expect_refused("landform --preset tutorial --step 0 " + small, "--step");
    expect_refused("landform --preset tutorial --step -5 " + small, "--step");
    expect_refused("landform --preset tutorial --step nan " + small, "--step");
    expect_refused("landform --preset tutorial --sea-level inf " + small, "--sea-level");
    expect_refused(fmt::format("landform --preset tutorial {} --flow {}/flow.txt", small, dir), "does not end in .png");
    expect_refused(fmt::format("landform --raster {}/missing.tif", dir), "missing.tif");
    expect_refused(fmt::format("landform --raster {}/missing.tif --preset tutorial", dir), "--raster");
    expect_refused(fmt::format("landform --raster {}/missing.tif --step 5", dir), "--raster");
    std::ofstream(dir + "/junk.tif") << "not a raster\n";
    expect_refused(fmt::format("landform --raster {}/junk.tif", dir), "junk.tif");
    std::ofstream(dir + "/lonely.png") << "\x89PNG\r\n";
    expect_refused(fmt::format("landform --raster {}/lonely.png", dir), "lonely.png");

    // A graph without a ground output.
    std::ofstream(dir + "/no_ground.toml") << "format = 1\n[node]\nball = { type = \"sphere\", center = [0.0, 0.0, 0.0], radius = 10.0 }\n"
                                              "[output]\nsdf = \"ball\"\n";
    expect_refused(fmt::format("landform --config {}/no_ground.toml {}", dir, small), "no ground output");
    // Nothing was written on the way.
    EXPECT_EQ(files_in(dir), (std::set<std::string>{"junk.tif", "lonely.png", "no_ground.toml"}));
}
