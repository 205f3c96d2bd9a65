// `isoterra render --path`: the path an agent walks drawn into the picture, in its colour
// along the waypoints as the camera sees them (projected here with glm's own matrices), none
// of that colour without it; bad ends are one line, exit 2, and no picture.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>

#include "isoterra/field.hpp"
#include "isoterra/nav.hpp"
#include "rgb_png.hpp"
#include "run_cli.hpp"

using isoterra::test::run_cli;

namespace {

constexpr int kPathWidth = 320, kPathHeight = 240;

bool magenta(const isoterra::test::RgbImage& img, int x, int y) {
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return false;
    const std::uint8_t* p = &img.rgb[(static_cast<std::size_t>(y) * img.width + x) * 3];
    return p[0] == 255 && p[1] == 0 && p[2] == 255;
}

std::size_t magenta_pixels(const isoterra::test::RgbImage& img) {
    std::size_t n = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) n += magenta(img, x, y);
    return n;
}

}  // namespace

TEST(RenderPath, draws_the_path_in_its_colour_along_the_projected_waypoints) {
    const std::string dir = ::testing::TempDir();
    // Over the tutorial's hill along z = 100 (NavEdit's), from 110 m above its south side.
    const std::shared_ptr<const isoterra::Field> t = isoterra::make_terrain(isoterra::builtin_knob_terrain("tutorial"), 20261114);
    const glm::dvec3 a(40.0, t->surface_height(40.0, 100.0) + 0.2, 100.0), b(160.0, t->surface_height(160.0, 100.0) + 0.2, 100.0);
    const glm::dvec3 eye(100.0, t->surface_height(100.0, 100.0) + 110.0, 230.0), target(100.0, t->surface_height(100.0, 100.0), 100.0);
    const auto v3 = [](const glm::dvec3& p) { return fmt::format("{},{},{}", p.x, p.y, p.z); };
    const std::string view = fmt::format("render --radius 4 --view-distance 600 --size {}x{} --eye {} --target {} ", kPathWidth,
                                         kPathHeight, v3(eye), v3(target));
    unsetenv("DISPLAY");
    const auto plain = run_cli(view + "-o " + dir + "/plain.png");
    ASSERT_EQ(plain.code, 0) << plain.err;
    const auto drawn = run_cli(view + "--path " + v3(a) + "," + v3(b) + " -o " + dir + "/path.png");
    ASSERT_EQ(drawn.code, 0) << drawn.err;
    EXPECT_NE(drawn.err.find("path: "), std::string::npos) << drawn.err;
    const auto without = isoterra::test::read_rgb_png(dir + "/plain.png"), with = isoterra::test::read_rgb_png(dir + "/path.png");
    EXPECT_EQ(magenta_pixels(without), 0u);
    EXPECT_GT(magenta_pixels(with), 100u);

    // The same path as the program's (the tiles 64 m around both ends), each waypoint within
    // two pixels of the line where the renderer's camera (60 degrees, the sky up) puts it.
    const isoterra::TileRange range = isoterra::nav_tiles_covering({40.0 - 64.0, 100.0 - 64.0}, {160.0 + 64.0, 100.0 + 64.0});
    const isoterra::NavMesh nav(t, nullptr, isoterra::AgentSettings{}, range, 2);
    const isoterra::NavPath path = nav.path(a, b);
    const glm::dmat4 vp = glm::perspective(glm::radians(60.0), double(kPathWidth) / kPathHeight, 0.5, 1000.0) *
                          glm::lookAt(eye, target, glm::dvec3(0.0, 1.0, 0.0));
    int seen = 0, near_line = 0;
    for (const glm::dvec3& p : path.points) {
        const glm::dvec4 c = vp * glm::dvec4(p, 1.0);
        const int x = static_cast<int>(std::floor((c.x / c.w + 1.0) * 0.5 * kPathWidth));
        const int y = static_cast<int>(std::floor((1.0 - c.y / c.w) * 0.5 * kPathHeight));
        if (c.w <= 0.0 || x < 2 || y < 2 || x >= kPathWidth - 2 || y >= kPathHeight - 2) continue;
        ++seen;
        bool found = false;
        for (int dy = -2; dy <= 2 && !found; ++dy)
            for (int dx = -2; dx <= 2 && !found; ++dx) found = magenta(with, x + dx, y + dy);
        near_line += found;
        EXPECT_TRUE(found) << "no path colour near waypoint " << p.x << "," << p.y << "," << p.z << " at pixel " << x << "," << y;
    }
    EXPECT_GT(seen, 20);
    EXPECT_EQ(near_line, seen);
}

TEST(RenderPath, bad_ends_are_one_line_exit_2_and_no_picture) {
    const std::string dir = ::testing::TempDir();
    unsetenv("DISPLAY");
    const std::string base = "render --radius 2 --view-distance 200 --size 64x64 --eye 0,60,0 --target 0,0,-50 ";
    const std::string out = dir + "/bad_path.png";
    const std::pair<std::string, std::string> cases[] = {
        {"1,2,3", "--path: expected X,Y,Z,X,Y,Z"},
        {"0,500,0,10,500,0", "--path's first point 0,500,0 lies in the air"},
        {"0,-200,0,10,-200,0", "lies inside rock"},
    };
    for (const auto& [value, message] : cases) {
        const auto r = run_cli(base + "--path " + value + " -o " + out);
        EXPECT_EQ(r.code, 2) << value;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_FALSE(std::filesystem::exists(out)) << value;
    }
}
