// The program under a hostile user: deeply nested and extreme presets, exports killed while
// they write, regions past the world's edge, flags that are not numbers, huge and raw points
// lines, output paths that are not files. Every refusal is one line with exit 2 (bad input)
// or 1 (a failure), never a crash, and nothing half-written is left.
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <csignal>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "run_cli.hpp"
#include "temp_files.hpp"
#include "test_pace.hpp"

using namespace isoterra::test;
namespace fs = std::filesystem;

namespace {

// Exit `code` with one line on stderr that contains `expected`, nothing on stdout.
void expect_one_line(const CliResult& r, int code, const std::string& expected) {
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("isoterra: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
}

// True when process `pid` has a file open in `dir` (its export being written).
bool writes_into(pid_t pid, const std::string& folder) {
    char resolved[PATH_MAX];
    if (!::realpath(folder.c_str(), resolved)) return false;
    const std::string dir = resolved;
    const std::string fds = "/proc/" + std::to_string(pid) + "/fd";
    DIR* d = ::opendir(fds.c_str());
    if (!d) return false;
    bool found = false;
    while (const dirent* e = ::readdir(d)) {
        char target[4096];
        const ssize_t n = ::readlink((fds + "/" + e->d_name).c_str(), target, sizeof target - 1);
        if (n > 0 && std::string(target, static_cast<std::size_t>(n)).rfind(dir + "/", 0) == 0) found = true;
    }
    ::closedir(d);
    return found;
}

}  // namespace

// Case 1: nesting of every kind, tens of thousands of levels deep, in a --config file.
TEST(HostileInput, deeply_nested_preset_files_are_refused_by_every_command) {
    const std::string dir = fresh_folder("nested");
    const int n = 50000;
    const std::string files[][2] = {
        {"x = " + std::string(n, '[') + std::string(n, ']') + "\n", "arrays and inline tables nest more than 8 levels deep"},
        {"[a" + std::string() +
             [&] {
                 std::string s;
                 for (int i = 0; i < n; ++i) s += ".a";
                 return s;
             }() +
             "]\n",
         "dotted keys nest more than 8 levels deep"},
    };
    for (const auto& [text, expected] : files) {
        const std::string path = dir + "/nested.toml";
        std::ofstream(path) << text;
        expect_one_line(run_cli("sample --config " + path, "1 2 3\n"), 2, expected);
        expect_one_line(run_cli("stats --config " + path + " --from 0,0,0 --to 8,8,8"), 2, expected);
        expect_one_line(run_cli("mesh --config " + path + " --from 0,0,0 --to 32,32,32 -o " + dir + "/m.glb"), 2, expected);
        expect_one_line(run_cli("edit --world " + dir + "/w.db --config " + path + " sphere --at 0,0,0 --radius 3 --mode carve"), 2,
                        expected);
    }
    EXPECT_EQ(files_in(dir), (std::set<std::string>{"nested.toml"}));
}

// Case 2: the wildest preset the ranges allow, streamed and meshed by every mesher.
TEST(HostileInput, the_far_ends_of_the_preset_ranges_mesh_with_every_mesher) {
    const std::string dir = fresh_folder("extreme");
    const std::string path = dir + "/extreme.toml";
    std::ofstream(path) << "name = \"extreme\"\nbase_height_m = 1e4\nhill_height_m = 1e4\nridge_height_m = 1e4\n"
                           "hill_scale_m = 0.1\nridge_scale_m = 0.1\nwarp_scale_m = 0.1\nwarp_distance_m = 1e4\n"
                           "overhang_scale_m = 0.1\noverhang_mountains_m = 1e3\noverhang_plains_m = 1e3\n"
                           "cave_scale_m = 0.1\ncave_blend_m = 1e3\nhill_octaves = 12\nridge_octaves = 12\n";
    // A slow (sanitizer) build meshes it with surface nets alone: the world's extreme-presets
    // test streams such fields with every mesher (the Release tree sweeps them whole), and a
    // Release tree with -DISOTERRA_ALL_SUITES=ON runs all three here.
    for (const char* mesher : {"marching-cubes", "surface-nets", "blocks"}) {
        if (slow_build() && std::string(mesher) != "surface-nets") continue;
        const auto r = run_cli(std::string("mesh --quiet --config ") + path + " --mesher " + mesher +
                               " --around 0,3000,0 --view-distance 300 --radius 1 -o " + dir + "/around.glb");
        EXPECT_EQ(r.code, 0) << mesher << r.err;
    }
    // White noise at 10 cm under 10 km hills makes millions of triangles near the camera:
    // one flight is enough to show the streamed world takes it. Under the sanitizers it
    // would add a minute; there the extreme-presets test streams such fields into a world.
    if (slow_build()) return;
    const auto f = run_cli("fly --config " + path + " --seconds 0.5 --view-distance 300 --radius 1 --json");
    EXPECT_EQ(f.code, 0) << f.err;
}

// Case 4: an export killed while it writes leaves nothing, whatever the signal.
TEST(HostileInput, an_export_killed_while_it_writes_leaves_nothing) {
    for (const int sig : {SIGKILL, SIGTERM, SIGINT}) {
        const std::string dir = fresh_folder("killed_" + std::to_string(sig));
        const std::string out = dir + "/big.obj";
        const pid_t pid = fork();
        if (pid == 0) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::dup2(null, 2);
            ::signal(SIGINT, SIG_DFL);
            ::execl(ISOTERRA_BINARY, "isoterra", "mesh", "--quiet", "--from", "-160,-64,-160", "--to", "160,64,160", "-o", out.c_str(),
                    static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // Wait for the moment it has the file open, then stop it.
        bool caught = false;
        const auto start = std::chrono::steady_clock::now();
        while (!caught && std::chrono::steady_clock::now() - start < std::chrono::seconds(120)) {
            if (writes_into(pid, dir)) caught = true;
            else if (waitpid(pid, nullptr, WNOHANG) == pid) break;
            else std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
        ASSERT_TRUE(caught) << "the export finished before it was seen writing";
        ::kill(pid, sig);
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
        EXPECT_EQ(files_in(dir), std::set<std::string>{}) << "signal " << sig;
    }
}

// Case 9 (second half): -o onto something that is not a regular file leaves it as it was.
TEST(HostileInput, an_output_path_that_is_not_a_file_is_left_alone) {
    const std::string dir = fresh_folder("nodes");
    const std::string fifo = dir + "/pipe.glb", node = dir + "/null.ply", folder = dir + "/folder.obj";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    ::mkdir(folder.c_str(), 0755);
    const bool have_node = ::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;  // /dev/null's numbers; root only
    for (const std::string& path : {fifo, folder, have_node ? node : fifo}) {
        expect_one_line(run_cli("mesh --quiet --from 0,0,0 --to 32,32,32 -o " + path), 2, "is not a regular file; not replacing it");
        struct stat st;
        ASSERT_EQ(::lstat(path.c_str(), &st), 0);
        EXPECT_FALSE(S_ISREG(st.st_mode)) << path;
    }
    const std::string png_fifo = dir + "/pipe.png";
    ASSERT_EQ(::mkfifo(png_fifo.c_str(), 0644), 0);
    expect_one_line(run_cli("heightmap --from 0,0 --to 10,10 -o " + png_fifo), 2, "is not a regular file; not replacing it");
    std::set<std::string> expected{"pipe.glb", "folder.obj", "pipe.png"};
    if (have_node) expected.insert("null.ply");
    EXPECT_EQ(files_in(dir), expected);
}

// Case 5: a small region far from the origin is refused, not allocated.
TEST(HostileInput, regions_and_points_past_the_worlds_edge_are_refused) {
    const std::string dir = fresh_folder("far");
    for (const std::string& args :
         {"mesh --from 1e11,0,0 --to 1.00000001e11,32,32 -o " + dir + "/far.glb",
          "mesh --from 68719476736,0,0 --to 68719476768,32,32 -o " + dir + "/far.glb", "mesh --around 0,0,-2e8 -o " + dir + "/far.glb",
          std::string("stats --from 0,0,3e9 --to 1,1,3000000001"), "heightmap --from -1e300,0 --to 0,1 -o " + dir + "/h.png",
          "render --eye 0,1e9,0 --target 0,0,0 -o " + dir + "/r.png",
          "edit --world " + dir + "/w.db sphere --at 5e8,0,0 --radius 3 --mode carve"})
        expect_one_line(run_cli(args), 2, "within +-1e8 m");
    expect_one_line(run_cli("sample", "1 2 3\n0 0 1.5e8\n"), 2, "stdin:2: coordinates must lie within +-1e8 m, got '0 0 1.5e8'");
    // At the edge itself the world is still there.
    const auto edge = run_cli("mesh --quiet --from 99999936,-32,99999936 --to 99999968,32,99999968 -o " + dir + "/edge.glb");
    EXPECT_EQ(edge.code, 0) << edge.err;
    EXPECT_EQ(files_in(dir), std::set<std::string>{"edge.glb"});
}

// Case 6: flags that are not what they should be are named.
TEST(HostileInput, bad_flag_values_name_the_flag) {
    const std::string dir = fresh_folder("flags");
    expect_one_line(run_cli("sample --config " + dir, "1 2 3\n"), 2, dir + ": not a preset or graph file (not a regular file)");
    for (const char* step : {"nan", "-inf", "0", "1e-300", "abc"}) {
        expect_one_line(run_cli(std::string("heightmap --from 0,0 --to 10,10 --step ") + step + " -o " + dir + "/h.png"), 2, "--step");
        expect_one_line(run_cli(std::string("slice --at 0 --from 0,0 --to 10,10 --step ") + step + " -o " + dir + "/s.png"), 2, "--step");
        expect_one_line(run_cli(std::string("stats --from 0,0,0 --to 10,10,10 --step ") + step), 2, "--step");
    }
    expect_one_line(run_cli("slice --at nan --from 0,0 --to 10,10 -o " + dir + "/s.png"), 2, "--at");
    expect_one_line(run_cli("slice --at 0 --range inf --from 0,0 --to 10,10 -o " + dir + "/s.png"), 2, "--range");
    expect_one_line(run_cli("stats --from -1e6,-1e6,-1e6 --to 1e6,1e6,1e6 --force"), 2, "too many even with --force");
    expect_one_line(run_cli("stats --from 0,0,0 --to 1e7,1e3,1e7 --force"), 2, "too many even with --force");
    expect_one_line(run_cli("sample --points " + dir, ""), 2, "--points: " + dir + ": not a points file (not a regular file)");
    expect_one_line(run_cli("fly --path " + dir + " --seconds 1"), 2, "--path");
    // Numbers are decimal and whole: no hex (strtod's "0x10"), no trailing junk.
    expect_one_line(run_cli("fly --view-distance 0x10 --seconds 0"), 2, "--view-distance");
    expect_one_line(run_cli("heightmap --from 0,0 --to 10,10 --step 0x1 -o " + dir + "/h.png"), 2, "--step");
    expect_one_line(run_cli("mesh --from 0x10,0,0 --to 64,64,64 -o " + dir + "/m.glb"), 2, "--from");
    expect_one_line(run_cli("mesh --from 0,0,0 --to '64,64,64 junk' -o " + dir + "/m.glb"), 2, "--to");
    expect_one_line(run_cli("render --eye 0,60,0 --target 0,0,-9 --size 16x16junk -o " + dir + "/r.png"), 2, "--size");
    EXPECT_EQ(run_cli("mesh --quiet --from ' 0, 0, 0' --to '32,32 ,32' -o " + dir + "/blanks.glb").code, 0);  // blanks are fine
    std::remove((dir + "/blanks.glb").c_str());
    EXPECT_EQ(files_in(dir), std::set<std::string>{});
}

// Case 8: a bad points line is quoted short and escaped, however long or raw it is.
TEST(HostileInput, a_bad_points_line_is_quoted_short_and_escaped) {
    const auto huge = run_cli("sample", "1 2 3\n" + std::string(1 << 20, '7') + " x\n");
    expect_one_line(huge, 2, "stdin:2: a line longer than 4096 bytes, got '7777777");
    EXPECT_LT(huge.err.size(), 200u) << huge.err.size();
    const auto raw = run_cli("sample", "1 2 \x1b[31mred\x1b[0m\x07\n");
    expect_one_line(raw, 2, "stdin:1: expected three finite numbers 'x y z', got '1 2 \\x1b[31mred\\x1b[0m\\x07'");
    for (const char c : raw.err) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << int(c);
    const auto nul = run_cli("sample --points /proc/self/cmdline", "");  // NUL bytes inside a line
    EXPECT_EQ(nul.code, 2);
    EXPECT_EQ(nul.err.find('\0'), std::string::npos);
    const auto long_flag = run_cli("mesh --from " + std::string(100000, '9') + ",0,0 --to 1,1,1 -o x.glb");
    expect_one_line(long_flag, 2, "--from");
    EXPECT_LT(long_flag.err.size(), 300u);
    const auto waypoints = fresh_path("waypoints.txt");
    std::ofstream(waypoints) << "0 0 0\n1 1 \x1b]0;title\x07\n";
    expect_one_line(run_cli("fly --path " + waypoints + " --seconds 1"), 2,
                    "expected three finite numbers 'x y z', got '1 1 \\x1b]0;title\\x07'");
}

// Case 6 of the third sweep: an export on a full disk is a failure (exit 1), not bad input,
// and leaves nothing; a heightmap's PNG and sidecar appear together or not at all.
TEST(HostileInput, exports_on_a_full_disk_fail_with_exit_1_and_leave_nothing) {
    const std::string mount = fresh_folder("full_disk");
    if (std::system(("mount -t tmpfs -o size=64k tmpfs " + mount + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "cannot mount a small file system here (not root)";
    expect_one_line(run_cli("mesh --quiet --from 0,0,0 --to 128,64,128 -o " + mount + "/m.glb"), 1, "No space left");
    expect_one_line(run_cli("mesh --quiet --from 0,0,0 --to 128,64,128 --compress -o " + mount + "/m.glb"), 1, "No space left");
    expect_one_line(run_cli("slice --at 0 --from -500,-100 --to 500,400 --step 0.5 -o " + mount + "/s.png"), 1, "No space left");
    expect_one_line(run_cli("heightmap --from -500,-500 --to 500,500 --step 2 -o " + mount + "/h.png"), 1, "No space left");
    EXPECT_EQ(files_in(mount), std::set<std::string>{});
    // Room for the PNG (its pages exactly) but not for the sidecar too: neither is kept.
    const std::string elsewhere = fresh_folder("full_disk_png");
    ASSERT_EQ(run_cli("heightmap --from 0,0 --to 90,90 --step 1 -o " + elsewhere + "/h.png").code, 0);
    struct stat png;
    ASSERT_EQ(::stat((elsewhere + "/h.png").c_str(), &png), 0);
    const long pages = (static_cast<long>(png.st_size) + 4095) / 4096;
    std::ofstream(mount + "/filler") << std::string(static_cast<std::size_t>(65536 - pages * 4096), 'x');
    expect_one_line(run_cli("heightmap --from 0,0 --to 90,90 --step 1 -o " + mount + "/h.png"), 1, "h.json");
    EXPECT_EQ(files_in(mount), std::set<std::string>{"filler"});
    // A bad path is still bad input (exit 2).
    expect_one_line(run_cli("mesh --quiet --from 0,0,0 --to 32,32,32 -o " + mount + "/no/such/folder/m.glb"), 2, "m.glb");
    std::system(("umount " + mount).c_str());
}

// Case 7 of the third sweep: what the program echoes of a path, an environment value or a
// graph's name reaches the terminal escaped and shortened, on one line, in errors and in
// reports alike.
TEST(HostileInput, echoed_paths_environment_values_and_names_are_escaped_and_shortened) {
    const auto no_control_bytes = [](const std::string& text) {
        for (const char c : text)
            if (static_cast<unsigned char>(c) < 0x20 && c != '\n') return false;
        return true;
    };
    const auto config = run_cli("sample --config \"$(printf '/nonexistent/a\\nb\\033[31mred.toml')\"", "0 0 0\n");
    expect_one_line(config, 2, "/nonexistent/a\\nb\\x1b[31mred.toml: cannot open");
    EXPECT_TRUE(no_control_bytes(config.err)) << config.err;

    const auto world = run_cli("history --world \"$(printf '/nonexistent/\\033]0;title\\007.db')\"");
    EXPECT_NE(world.code, 0);
    EXPECT_EQ(count_lines(world.err), 1) << world.err;
    EXPECT_NE(world.err.find("/nonexistent/\\x1b]0;title\\x07.db"), std::string::npos) << world.err;
    EXPECT_TRUE(no_control_bytes(world.err)) << world.err;

    // A path of thousands of bytes: its start and end, and the reason after it.
    std::string long_name = "/nonexistent";
    for (int i = 0; i < 18; ++i) long_name += "/" + std::string(199, 'a');  // 3,600 bytes, under PATH_MAX
    long_name += "/x.glb";
    const auto output = run_cli("mesh --preset tutorial --from 0,0,0 --to 1,1,1 --quiet -o " + long_name);
    expect_one_line(output, 2, "aaaa...(");
    EXPECT_NE(output.err.find("aaaa/x.glb: cannot create a file there (No such file or directory)"), std::string::npos) << output.err;
    EXPECT_LT(output.err.size(), 700u);

    const auto env = run_cli("presets", "", "ISOTERRA_NOISE_PATH=\"$(printf 'x\\033[2J')\"");
    expect_one_line(env, 2, "ISOTERRA_NOISE_PATH=x\\x1b[2J: expected");

    // A graph's name and a node's file name, from the graph's own text.
    const auto graph = fresh_path("named.toml");
    std::ofstream(graph) << "format = 1\nname = \"x\\u001b[31mevil\\nline\\u202e\"\n[node]\na = { type = \"const\", value = -1.0 }\n"
                            "[output]\nsdf = \"a\"\n";
    const auto check = run_cli("graph check " + graph);
    EXPECT_EQ(check.code, 0) << check.err;
    EXPECT_NE(check.out.find("graph 'x\\x1b[31mevil\\nline\\u{202e}'"), std::string::npos) << check.out;
    EXPECT_TRUE(no_control_bytes(check.out)) << check.out;
    std::ofstream(graph) << "format = 1\nname = \"h\"\n[node]\nd = { type = \"heightmap\", file = \"\\u001b[31mdem.png\" }\n"
                            "[output]\nsdf = \"d\"\n";
    expect_one_line(run_cli("graph check " + graph), 2, "\\x1b[31mdem.png: cannot open the raster file");
}

// Case 5 of the third sweep, through the program: valid spellings of a graph reach `bake`
// and `edit` as the graph they spell; names a bake writes that are taken by folders are
// refused before the work, in one line; ground that is not a number somewhere makes no
// heightmap (a sidecar with null in it, which isoterra itself then refused).
TEST(HostileInput, ordinary_inputs_never_reach_an_internal_error) {
    const auto graph = fresh_path("bom.toml");
    std::ofstream(graph) << "\xef\xbb\xbf"
                            "format = 1\n\"name\" = \"q\"\n'seed' = 4 # the seed\n[\"node\"]\n"
                            "y = { type = \"y\" }\ng = { type = \"const\", value = 0.0 }\n[output]\nsdf = \"y\"\nground = \"g\"\n";
    const auto bake_dir = fresh_path("spelled-bake");
    const auto baked = run_cli("bake --config " + graph + " --seed 9 --from 0,0 --to 64,64 --levels 1 --quiet --out " + bake_dir);
    EXPECT_EQ(baked.code, 0) << baked.err;
    EXPECT_NE(read_bytes(bake_dir + "/bake.json").find("\"seed\": 9"), std::string::npos);
    const auto world = fresh_path("spelled.db");
    const auto edited = run_cli("edit --world " + world + " --config " + graph + " sphere --at 0,0,0 --radius 2");
    EXPECT_EQ(edited.code, 0) << edited.err;
    const auto sampled = run_cli("sample --world " + world, "10 0.5 10\n");
    EXPECT_EQ(sampled.code, 0) << sampled.err;
    EXPECT_EQ(sampled.out, "0.5\n");

    for (const std::string name : {"tileset.json", "bake.digest", "bake.json"}) {
        const auto dir = fresh_folder("taken-" + name);
        ASSERT_EQ(::mkdir((dir + "/" + name).c_str(), 0755), 0);
        const auto r = run_cli("bake --preset tutorial --from 0,0 --to 64,64 --levels 1 --quiet --out " + dir);
        expect_one_line(r, 2, name + ": ");
        EXPECT_EQ(r.err.find("jobs"), std::string::npos) << "refused before the work: " << r.err;
    }

    // x * x * 1e300 is infinite past |x| = 1.34e4; and minus itself, NaN there.
    const auto infinite = fresh_path("infinite.toml");
    std::ofstream(infinite) << "format = 1\nname = \"inf\"\n[node]\nx = { type = \"x\" }\ny = { type = \"y\" }\n"
                               "xx = { type = \"mul\", a = \"x\", b = \"x\" }\nbig = { type = \"mul\", a = \"xx\", b = 1e300 }\n"
                               "nan = { type = \"sub\", a = \"big\", b = \"big\" }\ns = { type = \"sub\", a = \"y\", b = \"big\" }\n"
                               "[output]\nsdf = \"s\"\nground = \"big\"\n";
    const auto png = fresh_path("infinite.png");
    expect_one_line(run_cli("heightmap --config " + infinite + " --from -30000,0 --to 30000,1000 --step 1000 -o " + png), 2,
                    "heightmap: the ground is inf at -30000,0; a heightmap needs a finite height everywhere");
    std::string text = read_bytes(infinite);
    text.replace(text.find("ground = \"big\""), 14, "ground = \"nan\"");
    std::ofstream(infinite) << text;
    expect_one_line(run_cli("heightmap --config " + infinite + " --from -30000,0 --to 30000,1000 --step 1000 -o " + png), 2,
                    "heightmap: the ground is NaN at -30000,0");
    EXPECT_FALSE(std::ifstream(png).good());
    // Within the finite part the same graph makes a heightmap.
    const auto fine = run_cli("heightmap --config " + infinite + " --from -100,0 --to 100,100 --step 10 --quiet -o " + png);
    EXPECT_EQ(fine.code, 0) << fine.err;
}

// Case 9 of the third sweep, the messages: a world file in a folder that cannot be written is
// the path's fault and says so (SQLite said "No such file or directory", exit 1); a bake.json
// edited to root columns past an int is refused by range, not wrapped into "0 jobs".
TEST(HostileInput, misleading_messages_say_what_is_wrong) {
    expect_one_line(run_cli("edit --world /nonexistent/w.db --preset tutorial sphere --at 0,0,0 --radius 2"), 2,
                    "/nonexistent/w.db: cannot create: /nonexistent is not a folder (No such file or directory)");
    const std::string source = fresh_folder("read-only-source"), folder = fresh_folder("read-only");
    if (std::system(("mount --bind " + source + " " + folder + " && mount -o remount,bind,ro " + folder + " 2>/dev/null").c_str()) == 0) {
        expect_one_line(run_cli("edit --world " + folder + "/w.db --preset tutorial sphere --at 0,0,0 --radius 2"), 2,
                        "cannot create: " + folder + " cannot be written (Read-only file system)");
        std::system(("umount " + folder).c_str());
    }

    const std::string bake = fresh_path("edited-bake");
    ASSERT_EQ(run_cli("bake --preset tutorial --from 0,0 --to 64,64 --levels 1 --quiet --out " + bake).code, 0);
    const std::string settings = read_bytes(bake + "/bake.json");
    const auto with_x = [&](const std::string& x) {
        std::string edited = settings;
        const auto at = edited.find("\"x\": [");
        edited.replace(at, edited.find(']', at) + 1 - at, "\"x\": [" + x + "]");
        std::ofstream(bake + "/bake.json") << edited;
    };
    with_x("-2000000000, 2000000000");
    expect_one_line(run_cli("bake --verify --out " + bake), 2, "bake.json: -2000000000 is out of range");
    with_x("0, 5000000000");
    expect_one_line(run_cli("bake --verify --out " + bake), 2, "bake.json: 5000000000 is out of range");
    with_x("0, 1.5");
    expect_one_line(run_cli("bake --verify --out " + bake), 2, "bake.json: 1.5 is not a whole number");
    with_x("0, 1000000");
    expect_one_line(run_cli("bake --verify --out " + bake), 2, "root columns out of range (at most a million");
    std::ofstream(bake + "/bake.json") << settings;
    EXPECT_EQ(run_cli("bake --verify --out " + bake).code, 0);
}

// Case 3 of the third sweep: reading that never ends. A stream without a newline stops at the
// line bound; a FIFO or device where a file is meant is refused before it is opened.
TEST(HostileInput, endless_inputs_end_in_one_line) {
    expect_one_line(run_cli("sample", std::string(100000, '1')), 2, "stdin:1: a line longer than 4096 bytes");
    const auto fifo = fresh_path("points.fifo");
    std::remove(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expect_one_line(run_cli("sample --points " + fifo), 2, "--points: " + fifo + ": not a points file (not a regular file)");
    expect_one_line(run_cli("fly --seconds 1 --path " + fifo), 2, fifo + ": not a points file (not a regular file)");
    expect_one_line(run_cli("sample --points /dev/zero"), 2, "--points: /dev/zero: not a points file (not a regular file)");
    std::remove(fifo.c_str());
}

// Plans whose size a user chooses are checked against the memory budget before anything is
// allocated: regions, views, bakes (as asked, or as a bake.json edited to say), rasters.
TEST(HostileInput, plans_past_the_memory_budget_are_refused_before_they_allocate) {
    const auto budget = [](const std::string& args, const std::string& size = "64M") {
        return run_cli(args, "", "ISOTERRA_MEMORY_BUDGET=" + size + " timeout 120");
    };
    expect_one_line(run_cli("mesh --preset alpine --around 0,80,0 --radius 64 --view-distance 200000 -o " + fresh_path("a.glb")), 2,
                    "mesh --around with 8 levels of 64 chunks per ring needs about 66.0 GiB, more than the memory budget of ");
    expect_one_line(run_cli("render --eye 0,100,0 --target 100,50,100 --radius 32 --view-distance 200000 -o " + fresh_path("r.png")), 2,
                    "render with 9 levels of 32 chunks per ring needs about ");
    expect_one_line(budget("mesh --preset alpine --from -512,-100,-512 --to 512,1500,512 --force -o " + fresh_path("r.glb")), 2,
                    "meshing 52224 chunks (3 copies held) needs about 412.7 MiB, more than the memory budget of 64.0 MiB "
                    "(ISOTERRA_MEMORY_BUDGET=64M)");
    expect_one_line(budget("mesh --preset alpine --from 0,-100,0 --to 64,100,64 --per-chunk -o " + fresh_path("r.glb"), "1M"), 2,
                    "chunks (2 copies held) needs about");
    const std::string out = fresh_path("huge_bake");
    expect_one_line(run_cli("bake --preset tutorial --from -1e7,-1e7 --to 1e7,1e7 --levels 12 --force --quiet --out " + out), 2,
                    "a bake of 24935734980 jobs and 523650434580 tiles needs about 65 TiB, more than the memory budget of ");
    EXPECT_FALSE(fs::exists(out));

    // A bake.json edited to 16 levels over wide roots: refused when read back, not listed.
    const std::string bake = fresh_folder("edited_bake");
    ASSERT_EQ(run_cli("bake --preset tutorial --from 0,0 --to 100,100 --levels 1 --quiet --out " + bake).code, 0);
    std::ifstream in(bake + "/bake.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    const auto replace = [&](const std::string& from, const std::string& to) {
        const auto at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
    };
    replace("\"levels\": 1,", "\"levels\": 16,");
    replace("\"level\": 0,", "\"level\": 15,");
    replace("\"x\": [\n      0,\n      3\n    ]", "\"x\": [0, 40]");
    replace("\"z\": [\n      0,\n      3\n    ]", "\"z\": [0, 40]");
    std::ofstream(bake + "/bake.json") << text;
    expect_one_line(budget("bake --verify --out " + bake), 2,
                    "a bake of 1833610164945 jobs and 2406613340965 tiles needs about 574 TiB, more than the memory budget of 64.0 MiB");

    // A raster whose pixels are within the limit but whose decoding is not within the budget.
    const std::string dir = fresh_folder("budget_raster");
    ASSERT_EQ(run_cli("heightmap --preset tutorial --from 0,0 --to 511,511 --quiet -o " + dir + "/big.png").code, 0);
    std::ofstream(dir + "/g.toml") << "format = 1\n[node]\nh = { type = \"heightmap\", file = \"big.png\" }\n"
                                      "p = { type = \"plane\", height = \"h\" }\n[output]\nsdf = \"p\"\nground = \"h\"\n";
    expect_one_line(budget("graph check " + dir + "/g.toml", "1M"), 2, dir + "/big.png: decoding 512x512 pixels needs about");
    EXPECT_EQ(budget("graph check " + dir + "/g.toml", "16M").code, 0);
    expect_one_line(budget("graph check " + dir + "/g.toml", "16"), 2,
                    "ISOTERRA_MEMORY_BUDGET=16: expected bytes from 1M to 1024T, as 512M, 8G or 1.5T");
}

// Case 6 of the third sweep: `edit` creating a world file on a nearly full disk. Room for
// the new file but not its first edit used to leave the file, whole and empty; at every size
// now either the edit is saved or nothing is left.
TEST(HostileInput, an_edit_that_cannot_save_into_the_world_file_it_created_leaves_nothing) {
    const std::string mount = fresh_folder("full_disk_world");
    if (std::system(("mount -t tmpfs -o size=64k tmpfs " + mount + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "cannot mount a small file system here (not root)";
    std::system(("umount " + mount).c_str());
    int removed = 0, saved = 0;
    // Every 8 KiB; every 16 in a slow (sanitizer) build (the edit is saved from 88 KiB on).
    for (int kib = 32; kib <= 160; kib += sweep_step(8, 2)) {
        ASSERT_EQ(std::system(fmt::format("mount -t tmpfs -o size={}k tmpfs {}", kib, mount).c_str()), 0);
        const auto r = run_cli("edit --world " + mount + "/w.db sphere --at 20,10,20 --radius 8 --mode carve");
        if (r.code == 0) {
            ++saved;
            const auto h = run_cli("history --world " + mount + "/w.db");
            EXPECT_NE(h.out.find("sphere carve at 20,10,20 radius 8 m"), std::string::npos) << kib << " KiB: " << h.out << h.err;
        } else {
            expect_one_line(r, 1, "w.db");
            EXPECT_EQ(files_in(mount), std::set<std::string>{}) << kib << " KiB: " << r.err;
            removed += r.err.find("the new world file was removed") != std::string::npos;
        }
        std::system(("umount " + mount).c_str());
    }
    EXPECT_GT(removed, 0);  // sizes where the file fitted and its edit did not
    EXPECT_GT(saved, 0);
}
