// Water on the command line: `render` draws a graph's water where it is, `mesh --around`
// writes it as a mesh of its own, "water", with a translucent material.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>
#include "rgb_png.hpp"

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;

namespace {

// Flat ground at 0.5 m, water 1 m above it where x < 0 (dry beyond x = 0).
std::string half_flooded_graph() {
    const std::string path = fresh_path("half_flooded.toml");
    std::ofstream(path) << "format = 1\n[node]\n"
                           "ground = { type = \"const\", value = 0.5 }\n"
                           "out = { type = \"plane\", height = \"ground\" }\n"
                           "east = { type = \"x\" }\n"
                           "fall = { type = \"mul\", a = \"east\", b = -1000.0 }\n"
                           "water = { type = \"min\", a = 1.5, b = \"fall\" }\n"
                           "[output]\nsdf = \"out\"\nground = \"ground\"\nwater = \"water\"\n";
    return path;
}

using Rgb = isoterra::test::RgbImage;
Rgb read_rgb(const std::string& path) { return isoterra::test::read_rgb_png(path); }

}  // namespace

TEST(WaterCli, render_draws_the_water_over_the_wet_half_and_not_over_the_dry_half) {
    const std::string graph = half_flooded_graph(), png = fresh_path("water.png");
    unsetenv("DISPLAY");
    // From 60 m up and 50 m south of the shore's middle, looking at it: x < 0 (water) is the
    // left of the picture, x > 0 (grass) the right; no sky, no fog.
    const auto r = run_cli("render --config " + graph +
                           " --radius 3 --view-distance 200 --fog 0 --eye 0,60,50 --target 0,0,0 "
                           "--size 160x120 -o " +
                           png);
    ASSERT_EQ(r.code, 0) << r.err;
    const Rgb img = read_rgb(png);
    ASSERT_EQ(img.width, 160);
    // Water: the sea's blue over the grass, blue well over red. Grass: green over blue.
    std::size_t water[2] = {0, 0}, grass[2] = {0, 0}, pixels[2] = {0, 0};
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const int side = x < img.width / 3 ? 0 : x >= 2 * img.width / 3 ? 1 : -1;
            if (side < 0) continue;
            const std::uint8_t* p = &img.rgb[3 * (static_cast<std::size_t>(y) * img.width + x)];
            ++pixels[side];
            water[side] += p[2] > p[0] + 30;
            grass[side] += p[1] > p[2] + 20;
        }
    std::printf("left: water %zu grass %zu of %zu; right: water %zu grass %zu of %zu\n", water[0], grass[0], pixels[0], water[1], grass[1],
                pixels[1]);
    EXPECT_GT(water[0], pixels[0] * 9 / 10);
    EXPECT_LT(grass[0], pixels[0] / 20);
    EXPECT_LT(water[1], pixels[1] / 20);
    EXPECT_GT(grass[1], pixels[1] * 9 / 10);
}

TEST(WaterCli, mesh_around_writes_the_water_as_its_own_translucent_mesh) {
    const std::string graph = half_flooded_graph(), gltf = fresh_path("around_water.gltf"), obj = fresh_path("around_water.obj");
    const std::string around = " --around 0,10,0 --view-distance 64 --radius 2 --quiet -o ";
    ASSERT_EQ(run_cli("mesh --config " + graph + around + gltf).code, 0);
    std::ifstream in(gltf);
    const nlohmann::json doc = nlohmann::json::parse(in);
    ASSERT_EQ(doc["meshes"].size(), 2u);
    EXPECT_EQ(doc["meshes"][0]["name"], "terrain");
    const auto& water = doc["meshes"][1];
    EXPECT_EQ(water["name"], "water");
    EXPECT_EQ(doc["nodes"][1]["name"], "water");
    const auto& primitive = water["primitives"][0];
    const auto& material = doc["materials"][primitive["material"].get<int>()];
    EXPECT_EQ(material["name"], "water");
    EXPECT_EQ(material["alphaMode"], "BLEND");
    // At the water's height, west of the shore only.
    const auto& position = doc["accessors"][primitive["attributes"]["POSITION"].get<int>()];
    EXPECT_DOUBLE_EQ(position["min"][1].get<double>(), 1.5);
    EXPECT_DOUBLE_EQ(position["max"][1].get<double>(), 1.5);
    EXPECT_LE(position["max"][0].get<double>(), 0.0);
    EXPECT_LT(position["min"][0].get<double>(), -60.0);

    ASSERT_EQ(run_cli("mesh --config " + graph + around + obj).code, 0);
    std::ifstream o(obj);
    const std::string text((std::istreambuf_iterator<char>(o)), {});
    EXPECT_NE(text.find("\no water\n"), std::string::npos);

    // A preset without water: one mesh and one material, as before.
    ASSERT_EQ(run_cli("mesh --preset tutorial" + around + gltf).code, 0);
    std::ifstream again(gltf);
    const nlohmann::json plain = nlohmann::json::parse(again);
    EXPECT_EQ(plain["meshes"].size(), 1u);
    EXPECT_EQ(plain["materials"].size(), 1u);
}
