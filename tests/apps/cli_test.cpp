// The isoterra program as scripts use it: output, exit codes and one-line errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "classic_presets.hpp"
#include "isoterra/field.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/mesh.hpp"

using namespace isoterra;

#include "run_cli.hpp"
#include "temp_files.hpp"

using isoterra::test::run_cli;
using isoterra::test::count_lines;

TEST(Cli, presets_lists_one_line_each) {
    // The five built-ins in order, each with its description: the tutorial preset and the
    // four field graphs of issue 24.
    const auto r = run_cli("presets");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(count_lines(r.out), 5);
    std::string want;
    for (const char* name : {"alpine", "canyons", "islands", "rivers", "tutorial"}) {
        const TerrainSource t = builtin_terrain(name);
        const std::string description = t.is_graph() ? parse_graph(t.graph, name)->description() : t.knobs.description;
        EXPECT_FALSE(description.empty()) << name;
        want += fmt::format("{:<10} {}\n", name, description);
    }
    EXPECT_EQ(r.out, want);
    EXPECT_NE(r.out.find("tutorial   Rolling hills, ridged mountains, overhangs and tunnel caves (seed-000 tutorial)"), std::string::npos)
        << r.out;
}

// The built-in graphs work wherever a preset name does, and export as themselves.
TEST(Cli, the_builtin_graphs_sample_and_export_as_themselves) {
    for (const char* name : {"alpine", "canyons", "islands", "rivers"}) {
        const auto shown = run_cli(std::string("preset show ") + name);
        ASSERT_EQ(shown.code, 0) << name << shown.err;
        EXPECT_EQ(shown.out, builtin_preset_text(name)) << name;  // the graph file, comments and all
        EXPECT_EQ(run_cli(std::string("graph export ") + name).out, shown.out) << name;
        const std::string copy = isoterra::test::fresh_path(std::string(name) + "_copy.toml");
        std::ofstream(copy) << shown.out;
        const std::string points = "0 50 0\n120.5 80 -33\n-900 20 4000\n";
        const auto builtin = run_cli(std::string("sample --preset ") + name, points);
        ASSERT_EQ(builtin.code, 0) << name << builtin.err;
        EXPECT_EQ(count_lines(builtin.out), 3) << name;
        EXPECT_EQ(run_cli("sample --config " + copy, points).out, builtin.out) << name;
    }
}

TEST(Cli, preset_show_prints_toml_that_loads_back) {
    // A preset prints as a preset that reads back to the same values ...
    const auto r = run_cli("preset show tutorial");
    ASSERT_EQ(r.code, 0);
    EXPECT_EQ(knob_terrain_to_toml(parse_knob_terrain(r.out, "shown")), knob_terrain_to_toml(builtin_knob_terrain("tutorial")));
    // ... a graph as its graph, which compiles to the same terrain.
    const auto g = run_cli("preset show alpine");
    ASSERT_EQ(g.code, 0);
    EXPECT_TRUE(is_graph_text(g.out));
    const auto shown = parse_graph(g.out, "shown");
    EXPECT_EQ(shown->name(), "alpine");
    const auto builtin = builtin_terrain("alpine").make_field();
    for (const glm::dvec3 p : {glm::dvec3(0, 500, 0), glm::dvec3(-3210.5, 1200, 777.25)}) EXPECT_EQ(shown->value(p), builtin->value(p));
    const auto bad = run_cli("preset show nope");
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(count_lines(bad.err), 1);
    EXPECT_NE(bad.err.find("unknown preset 'nope'"), std::string::npos);
}

TEST(Cli, sample_prints_round_trippable_values_equal_to_the_library) {
    const auto r = run_cli("sample --preset tutorial", "0 10 0\n-1234.5 77.25 1e5\n\n# comment\n3,4,5\n");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const glm::dvec3 pts[] = {{0, 10, 0}, {-1234.5, 77.25, 1e5}, {3, 4, 5}};
    std::stringstream in(r.out);
    for (const auto& p : pts) {
        std::string line;
        std::getline(in, line);
        EXPECT_EQ(std::stod(line), t->value(p)) << line;  // 17 digits read back exactly
    }
    EXPECT_EQ(count_lines(r.out), 3);
}

TEST(Cli, sample_seed_changes_values_and_config_loads_a_file) {
    const auto a = run_cli("sample --seed 1", "5 5 5\n");
    const auto b = run_cli("sample --seed 2", "5 5 5\n");
    EXPECT_NE(a.out, b.out);
    // A built-in graph and a built-in preset, saved and read back with --config.
    for (const std::string name : {"islands", "tutorial"}) {
        const std::string path = ::testing::TempDir() + "/cli_config_" + name + ".toml";
        std::ofstream(path) << builtin_preset_text(name);
        const auto c = run_cli("sample --config " + path, "5 5 5\n");
        const auto d = run_cli("sample --preset " + name, "5 5 5\n");
        EXPECT_EQ(c.code, 0) << name;
        EXPECT_EQ(c.out, d.out) << name;
    }
    // A preset file as it stands (the classic islands, comments and all) gives the library's values.
    const auto e = run_cli("sample --config " + isoterra::test::classic_preset_path("islands"), "5 5 5\n");
    ASSERT_EQ(e.code, 0) << e.err;
    EXPECT_EQ(std::stod(e.out), make_terrain(isoterra::test::classic_preset("islands"), 20261114)->value({5, 5, 5}));
}

TEST(Cli, sample_refuses_a_bad_line_by_number_and_prints_nothing) {
    const auto r = run_cli("sample", "1 2 3\n4 five 6\n");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "isoterra: stdin:2: expected three finite numbers 'x y z', got '4 five 6'\n");
    EXPECT_EQ(run_cli("sample", "1 2 nan\n").code, 2);
    EXPECT_EQ(run_cli("sample", "1 2 3 4\n").code, 2);
    EXPECT_EQ(run_cli("sample", "1 2\n").code, 2);
}

TEST(Cli, bad_flags_and_preset_files_exit_2_with_one_line) {
    const std::string path = ::testing::TempDir() + "/cli_bad_preset.toml";
    std::ofstream(path) << "name = \"x\"\nhill_scale_m = -3\n";
    const auto r = run_cli("sample --config " + path, "1 2 3\n");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, "isoterra: " + path + ":2: key 'hill_scale_m': expected a number in [0.1, 10000000], got -3\n");
    const auto s = run_cli("sample --seed 99999999999", "1 2 3\n");
    EXPECT_EQ(s.code, 2);
    EXPECT_EQ(count_lines(s.err), 1);
    const auto u = run_cli("frobnicate");
    EXPECT_EQ(u.code, 2);
    EXPECT_EQ(count_lines(u.err), 1);
    const auto both = run_cli("sample --preset tutorial --config " + path, "");
    EXPECT_EQ(both.code, 2);
}

TEST(Cli, bench_json_has_the_documented_keys) {
    const auto r = run_cli("bench --json --repeats 1");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* key : {"noise2_ns", "noise3_ns", "fbm5_ns", "tutorial_sample_ns", "tutorial_chunk_sample_ms", "mesh_ms",
                            "mesh_mtris_per_s", "marching-cubes", "surface-nets", "blocks", "noise_path", "tutorial_chunk_surface_ms",
                            "tutorial_chunk_sample_cpu_ms", "tutorial_chunk_surface_cpu_ms", "mesh_cpu_ms"})
        EXPECT_NE(r.out.find(std::string("\"") + key + "\""), std::string::npos) << key;
    EXPECT_EQ(nlohmann::json::parse(r.out)["graph"], false);
}

// Field graphs whose surface lies far above y = 0, one with a ground output and one without:
// bench times them under their name and --seed, its chunks where the surface is (every mesher
// makes triangles there), its edits on that surface.
TEST(Cli, bench_times_a_field_graph_with_or_without_a_ground_output_at_its_surface) {
    const std::string dir = ::testing::TempDir();
    const std::string lumps = "lumps = { type = \"simplex3\", scale_m = 12.0 }\nrough = { type = \"mul\", a = \"lumps\", b = 2.0 }\n";
    const std::string no_ground = dir + "/bench_no_ground.toml", ground = dir + "/bench_ground.toml";
    std::ofstream(no_ground) << "format = 1\nname = \"high lumps\"\n[node]\nland = { type = \"plane\", height = 700.0 }\n"
                             << lumps << "out = { type = \"add\", a = \"land\", b = \"rough\" }\n[output]\nsdf = \"out\"\n";
    std::ofstream(ground) << "format = 1\nname = \"high hills\"\n[node]\nhills = { type = \"fbm2\", scale_m = 200.0, amplitude = 20.0 }\n"
                          << "height = { type = \"add\", a = \"hills\", b = 1500.0 }\nland = { type = \"plane\", height = \"height\" }\n"
                          << "[output]\nsdf = \"land\"\nground = \"height\"\n";
    for (const auto& [path, name] : {std::pair{no_ground, "high lumps"}, std::pair{ground, "high hills"}}) {
        const auto r = run_cli("bench --json --repeats 1 --seed 7 --config " + path);
        ASSERT_EQ(r.code, 0) << name << ": " << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["preset"], name);
        EXPECT_EQ(j["seed"], 7);
        EXPECT_EQ(j["graph"], true);
        for (const MesherInfo& m : meshers()) EXPECT_GT(j["mesh_mtris_per_s"][m.name].get<double>(), 0.0) << name << " " << m.name;
        EXPECT_GT(j["edits_committed_per_s"].get<double>(), 0.0) << name;
    }
}

TEST(CliRegion, mesh_writes_each_format_and_refuses_bad_input) {
    const std::string dir = ::testing::TempDir();
    for (const char* ext : {"glb", "gltf", "obj", "ply"}) {
        const auto r = run_cli(std::string("mesh --quiet --from 0,0,0 --to 32,40,32 -o ") + dir + "/cli_mesh." + ext);
        EXPECT_EQ(r.code, 0) << ext << r.err;
    }
    EXPECT_EQ(run_cli("mesh --from 0,0,0 --to 32,32,32 --mesher cubes -o " + dir + "/x.glb").code, 2);
    EXPECT_EQ(run_cli("mesh --from 0,0,0 --to 32,32,32 -o " + dir + "/x.stl").code, 2);
    EXPECT_EQ(run_cli("mesh --from 0,0,0 --to 0,32,32 -o " + dir + "/x.glb").code, 2);
    EXPECT_EQ(run_cli("mesh --from 0,nan,0 --to 32,32,32 -o " + dir + "/x.glb").code, 2);
    const auto big = run_cli("mesh --from 0,0,0 --to 10000,320,10000 -o " + dir + "/x.glb");
    EXPECT_EQ(big.code, 2);
    EXPECT_NE(big.err.find("--force"), std::string::npos);
    const auto unwritable = run_cli("mesh --quiet --from 0,0,0 --to 32,32,32 -o /nonexistent-dir/x.glb");
    EXPECT_EQ(unwritable.code, 2);
    EXPECT_EQ(count_lines(unwritable.err), 1);
}

TEST(CliRegion, same_command_twice_gives_identical_bytes_whatever_the_threads) {
    const std::string dir = ::testing::TempDir();
    ASSERT_EQ(run_cli("mesh --quiet --threads 1 --from -32,0,0 --to 64,64,64 -o " + dir + "/same1.glb").code, 0);
    ASSERT_EQ(run_cli("mesh --quiet --threads 4 --from -32,0,0 --to 64,64,64 -o " + dir + "/same2.glb").code, 0);
    std::ifstream a(dir + "/same1.glb", std::ios::binary), b(dir + "/same2.glb", std::ios::binary);
    const std::string sa((std::istreambuf_iterator<char>(a)), {}), sb((std::istreambuf_iterator<char>(b)), {});
    EXPECT_GT(sa.size(), 1000u);
    EXPECT_EQ(sa, sb);
}

// The lattice noise's paths (AVX-512, AVX2, baseline: as many as this CPU has) give the
// same file to the byte, caves and overhangs included: the terrain function's classic
// alpine (warped ridges, overhangs, caves), and the built-in alpine graph at its ground.
TEST(CliRegion, every_noise_path_writes_the_same_bytes) {
    const std::string dir = ::testing::TempDir();
    const double ground = parse_graph(builtin_preset_text("alpine"), "alpine")->ground_height(16.0, 32.0);
    const int y = static_cast<int>(std::floor(ground / 32.0)) * 32;
    const std::string regions[] = {"--config " + isoterra::test::classic_preset_path("alpine") + " --from -32,-64,0 --to 64,96,64",
                                   fmt::format("--preset alpine --from -32,{},0 --to 64,{},64", y - 64, y + 96)};
    for (const std::string& region : regions) {
        std::string first;
        for (const char* path : {"avx512", "avx2", "baseline"}) {
            const std::string file = dir + "/noise_path_" + path + ".glb";
            ASSERT_EQ(run_cli("mesh --quiet " + region + " -o " + file, "", std::string("ISOTERRA_NOISE_PATH=") + path).code, 0) << path;
            std::ifstream f(file, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(f)), {});
            EXPECT_GT(bytes.size(), 1000u) << region << " " << path;
            if (first.empty()) first = bytes;
            else EXPECT_TRUE(bytes == first) << region << " " << path << ": the file differs from the widest path's";
        }
    }
}

TEST(Cli, an_unknown_noise_path_is_refused_in_one_line) {
    const auto r = run_cli("presets", "", "ISOTERRA_NOISE_PATH=avx3");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("expected baseline, avx2 or avx512"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliRegion, stats_json_matches_a_plane_with_known_answers) {
    // The islands preset is not a plane; use a preset file whose ground is flat: no hills,
    // no ridges, no overhangs, no caves, ground at 10 m.
    const std::string path = ::testing::TempDir() + "/flat.toml";
    std::ofstream(path) << "name = \"flat\"\nbase_height_m = 10.0\nhill_height_m = 0.0\nridge_height_m = 0.0\n"
                           "overhang_plains_m = 0.0\novergang = 1\n";
    EXPECT_EQ(run_cli("stats --config " + path + " --from 0,0,0 --to 4,4,4").code, 2);  // the typo is refused
    std::ofstream(path) << "name = \"flat\"\nbase_height_m = 10.5\nhill_height_m = 0.0\nridge_height_m = 0.0\n"
                           "overhang_plains_m = 0.0\noverhang_mountains_m = 0.0\ncaves = false\n";
    const auto r = run_cli("stats --json --config " + path + " --from 0,0,0 --to 10,20,10");
    ASSERT_EQ(r.code, 0) << r.err;
    // y = 0..20 at 1 m: 11 of 21 layers are below 10.5 m.
    EXPECT_NE(r.out.find("\"solid_fraction\": 0.5238095238095238"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"min\": -10.5"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"max\": 9.5"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"p50\": 1.0"), std::string::npos) << r.out;  // f = y - 10.5: |grad| = 1
}

TEST(CliRegion, slice_and_heightmap_write_pngs_and_refuse_bad_regions) {
    const std::string dir = ::testing::TempDir();
    const auto s = run_cli("slice --axis z --at 0 --from -50,-20 --to 50,80 -o " + dir + "/slice.png");
    EXPECT_EQ(s.code, 0) << s.err;
    EXPECT_EQ(run_cli("slice --axis w --at 0 --from 0,0 --to 5,5 -o " + dir + "/x.png").code, 2);
    const auto h = run_cli("heightmap --from 0,0 --to 64,32 --step 2 -o " + dir + "/hm.png");
    EXPECT_EQ(h.code, 0) << h.err;
    std::ifstream side(dir + "/hm.json");
    const std::string json((std::istreambuf_iterator<char>(side)), {});
    EXPECT_NE(json.find("\"width\": 33"), std::string::npos) << json;
    EXPECT_NE(json.find("\"height\": 17"), std::string::npos) << json;
    EXPECT_EQ(run_cli("heightmap --from 0,0 --to 64,32 -o " + dir + "/hm.jpg").code, 2);
    EXPECT_EQ(run_cli("heightmap --from 9,0 --to 1,32 -o " + dir + "/hm2.png").code, 2);
}

TEST(CliFly, json_report_has_the_documented_keys_and_fills_the_first_view) {
    const auto r = run_cli("fly --radius 2 --threads 2 --seconds 1 --speed 40 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* key :
         {"first_view_s", "chunks_built", "chunks_per_s", "max_waiting", "max_loaded", "final_loaded", "peak_rss_mb", "loaded_over_time"})
        EXPECT_NE(r.out.find(std::string("\"") + key + "\""), std::string::npos) << key;
    EXPECT_EQ(r.out.find("\"first_view_s\": -1"), std::string::npos);  // it did fill
}

// Alpine rises 200 m over the 3 km north of the start (a camera held at its height
// went 180 m into the rock): the line keeps the start's 40 m over the ground, climbing before
// a rise; a file of waypoints is flown as written.
TEST(CliFly, a_line_over_alpine_keeps_the_camera_over_the_ground_and_waypoints_keep_their_heights) {
    const auto line = run_cli("fly --preset alpine --radius 2 --view-distance 600 --threads 2 --seconds 3 --speed 1000 --json");
    ASSERT_EQ(line.code, 0) << line.err;
    const auto above = nlohmann::json::parse(line.out)["camera_above_ground_m"];
    EXPECT_GT(above["lowest"].get<double>(), 35.0) << above;
    EXPECT_GT(above["highest"].get<double>(), 100.0) << above;  // over the valleys, before the next rise
    const std::string path = ::testing::TempDir() + "/level_waypoints.txt";
    std::ofstream(path) << "0 1223 40\n0 1223 -3000\n";
    const auto file =
        run_cli("fly --preset alpine --radius 2 --view-distance 600 --threads 2 --seconds 3 --speed 1000 --json --path " + path);
    ASSERT_EQ(file.code, 0) << file.err;
    EXPECT_LT(nlohmann::json::parse(file.out)["camera_above_ground_m"]["lowest"].get<double>(), 0.0);  // through the rock
}

// On the CPU clock the workers are played on one thread, a frame every 1/60 s of their CPU
// time: a second of flight is 60 frames however loaded the machine is (the wall clock's
// flight gets fewer when starved), and the first view falls on a frame.
TEST(CliFly, the_cpu_clock_flies_60_frames_a_second_whatever_the_load) {
    const auto r = run_cli("fly --radius 2 --view-distance 600 --threads 2 --seconds 1 --speed 50 --clock cpu --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["clock"], "cpu");
    EXPECT_EQ(j["threads"], 2);
    EXPECT_EQ(j["flight_frames"], 59);  // the frame that filled the first view is the flight's start
    EXPECT_NEAR(j["flight_s"].get<double>(), 1.0, 1e-9);
    const double frame = j["first_view_s"].get<double>() * 60.0;
    EXPECT_GT(frame, 0.5);
    EXPECT_NEAR(frame, std::round(frame), 1e-6);
    EXPECT_GT(j["jobs_cpu_s"].get<double>(), 0.0);
    EXPECT_GT(j["frames_cpu_s"].get<double>(), 0.0);
    EXPECT_GT(j["chunks_built"].get<int>(), 0);
    const auto bad = run_cli("fly --seconds 0 --clock sundial");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--clock"), std::string::npos) << bad.err;
    EXPECT_TRUE(
        nlohmann::json::parse(run_cli("fly --seconds 0 --radius 2 --view-distance 300 --json --quiet").out)["jobs_cpu_s"].is_null());
}

TEST(CliFly, bad_paths_and_meshers_are_refused) {
    EXPECT_EQ(run_cli("fly --seconds 0 --path circle:-5").code, 2);
    EXPECT_EQ(run_cli("fly --seconds 0 --path /nonexistent/waypoints.txt").code, 2);
    EXPECT_EQ(run_cli("fly --seconds 0 --mesher voxels").code, 2);
    const std::string path = ::testing::TempDir() + "/one_waypoint.txt";
    std::ofstream(path) << "0 50 0\n";
    const auto one = run_cli("fly --seconds 0 --path " + path);
    EXPECT_EQ(one.code, 2);
    EXPECT_NE(one.err.find("at least two waypoints"), std::string::npos);
}

TEST(CliFly, follows_a_file_of_waypoints) {
    const std::string path = ::testing::TempDir() + "/waypoints.txt";
    std::ofstream(path) << "# x y z\n0 60 40\n200 60 40\n200 60 -200\n";
    const auto r = run_cli("fly --radius 2 --threads 2 --seconds 1 --speed 100 --json --path " + path);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("\"path\": \"" + path + "\""), std::string::npos);
}
