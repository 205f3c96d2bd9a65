// Levels of detail from the command line: `mesh --around` writes what the World shows, every
// level with its transitions, closed; `fly --json` reports the levels; bad values are refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <thread>
#include <tuple>

#include <nlohmann/json.hpp>

#include "isoterra/world.hpp"
#include "run_cli.hpp"

using namespace isoterra;
using isoterra::test::count_lines;
using isoterra::test::run_cli;

namespace {

struct Ply {
    std::vector<std::array<float, 3>> points;
    std::vector<std::array<std::uint32_t, 3>> faces;
};

// Reads the binary PLY that `isoterra mesh` writes (position, normal, colour; triangles).
Ply read_ply(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    Ply ply;
    std::size_t vertices = 0, faces = 0;
    std::sscanf(bytes.c_str() + bytes.find("element vertex"), "element vertex %zu", &vertices);
    std::sscanf(bytes.c_str() + bytes.find("element face"), "element face %zu", &faces);
    std::size_t at = bytes.find("end_header\n") + 11;
    for (std::size_t v = 0; v < vertices; ++v, at += 27) {
        std::array<float, 3> p;
        std::memcpy(p.data(), bytes.data() + at, 12);
        ply.points.push_back(p);
    }
    for (std::size_t f = 0; f < faces; ++f, at += 13) {
        std::array<std::uint32_t, 3> t;
        std::memcpy(t.data(), bytes.data() + at + 1, 12);
        ply.faces.push_back(t);
    }
    return ply;
}

}  // namespace

// The file holds exactly the triangles the World draws there, and welded they close up but
// for the rim of the view.
TEST(LodCli, mesh_around_writes_what_the_world_shows_every_level_closed) {
    const std::string out = ::testing::TempDir() + "/around.ply";
    const auto r = run_cli("mesh --around 10,40,-20 --view-distance 400 --radius 2 --quiet -o " + out);
    ASSERT_EQ(r.code, 0) << r.err;
    const Ply ply = read_ply(out);

    // The same World in this process.
    WorldSettings s;
    s.view_radius = 2;
    s.view_distance_m = 400;
    World w(make_terrain(builtin_knob_terrain("tutorial"), 20261114), s);
    ShownChunks shown;
    while (true) {
        w.set_focus({10, 40, -20});
        w.deliver(1e9, [&](const ChunkUpdate& u) { shown.apply(u); });
        if (w.settled()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_GE(shown.visible_columns().size(), 20u);
    EXPECT_EQ(ply.faces.size(), shown.triangles_drawn());
    EXPECT_GE(w.levels(), 3);

    // Welded by position, every edge is used once each way, except on the rim.
    std::map<std::tuple<float, float, float>, std::uint32_t> ids;
    std::vector<std::uint32_t> id(ply.points.size());
    for (std::size_t v = 0; v < ply.points.size(); ++v)
        id[v] = ids.emplace(std::make_tuple(ply.points[v][0], ply.points[v][1], ply.points[v][2]), static_cast<std::uint32_t>(ids.size()))
                    .first->second;
    std::vector<std::array<float, 3>> at(ids.size());
    for (std::size_t v = 0; v < ply.points.size(); ++v) at[id[v]] = ply.points[v];
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
    for (const auto& f : ply.faces) {
        const std::uint32_t a = id[f[0]], b = id[f[1]], c = id[f[2]];
        if (a == b || b == c || a == c) continue;
        ++count[{a, b}], ++count[{b, c}], ++count[{c, a}];
    }
    const LodColumnSet columns = shown.visible_columns();
    const auto on_rim = [&](const std::array<float, 3>& p) {
        for (const double dx : {-0.01, 0.01})
            for (const double dz : {-0.01, 0.01})
                if (covering(columns, {0, static_cast<int>(std::floor((p[0] + dx) / 32)), static_cast<int>(std::floor((p[2] + dz) / 32))},
                             w.levels())
                        .level < 0)
                    return true;
        return false;
    };
    int open = 0;
    for (const auto& [e, n] : count) {
        const auto back = count.find({e.second, e.first});
        if ((back == count.end() || back->second != 1 || n != 1) && !(on_rim(at[e.first]) && on_rim(at[e.second]))) ++open;
    }
    EXPECT_EQ(open, 0);
    std::printf("mesh --around: %zu triangles on %zu columns, %d open edges inside the rim\n", ply.faces.size(), columns.size(), open);
}

TEST(LodCli, fly_json_reports_the_levels_and_fills_every_level_first) {
    const auto r = run_cli("fly --radius 2 --view-distance 600 --threads 2 --seconds 1 --speed 50 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["view_distance_m"].get<double>(), 600.0);
    EXPECT_EQ(j["lod_levels"].get<int>(), 5);  // 2 * 32 * 2^4 = 1024 >= 600
    ASSERT_EQ(j["chunks_per_lod"].size(), 5u);
    for (const auto& n : j["chunks_per_lod"]) EXPECT_GT(n.get<int>(), 0);
    EXPECT_GT(j["max_triangles_shown"].get<double>(), 10000.0);
    EXPECT_GT(j["first_view_s"].get<double>(), 0.0);
    EXPECT_EQ(j["frames_outside_finest_ring"].get<int>(), 0);
}

TEST(LodCli, bad_view_distances_and_radii_are_refused_with_one_line) {
    for (const std::string args :
         {"fly --view-distance 0", "fly --view-distance -5", "render --eye 0,50,0 --target 0,0,-9 --view-distance nan -o x.png",
          "mesh --around 0,0,0 --view-distance 1e9 -o x.glb", "mesh --around 0,0 -o x.glb", "fly --radius 0",
          "mesh --from 0,0,0 --to 32,32,32 --around 0,0,0 -o x.glb", "mesh -o x.glb",
          "render --eye 0,50,0 --target 0,0,-9 --fog -1 -o x.png"}) {
        const auto r = run_cli(args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
    }
}
