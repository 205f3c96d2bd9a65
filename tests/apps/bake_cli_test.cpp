// `isoterra bake`: the same digest for one process and for shards, after a SIGKILL and
// --resume; a tileset whose structure holds (boxes hold their content, errors halve, every
// file referenced exists); edits in every level; heightmap tiles with shared edges; bad input.
#include <spng.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "isoterra/bake.hpp"
#include "run_cli.hpp"
#include "temp_files.hpp"
#include "test_pace.hpp"

namespace isoterra::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSmall = "--preset tutorial --from 0,0 --to 512,512 --levels 5 --quiet";
// The same 65 jobs over a quarter of the area (85 tiles, 8 x 8 at level 0): half the time,
// for the tests of how a bake is split, killed, resumed and verified.
const std::string kQuickRegion = "--preset tutorial --from 0,0 --to 256,256 --levels 4";
const std::string kQuick = kQuickRegion + " --quiet";

std::string last_line(const std::string& s) {
    const std::size_t end = s.find_last_not_of('\n');
    if (end == std::string::npos) return "";
    const std::size_t start = s.rfind('\n', end);
    return s.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::string digest_of(const std::string& dir) {
    const std::string d = read_bytes(dir + "/bake.digest");
    return d.empty() ? "" : d.substr(0, d.size() - 1);
}

// The digest of a reference bake of kQuick, one process, all cores (made once).
const std::string& reference_digest() {
    static const std::string digest = [] {
        const std::string dir = fresh_folder("bake_reference");
        const CliResult r = run_cli("bake " + kQuick + " --out " + dir);
        EXPECT_EQ(r.code, 0) << r.err;
        return digest_of(dir);
    }();
    return digest;
}

// A glb's JSON chunk and its binary chunk.
struct Glb {
    json doc;
    std::string bin;
};
Glb read_glb(const std::string& path) {
    const std::string b = read_bytes(path);
    Glb g;
    if (b.size() < 20) return g;
    std::uint32_t json_length = 0;
    std::memcpy(&json_length, b.data() + 12, 4);
    g.doc = json::parse(b.substr(20, json_length));
    if (b.size() > 28 + json_length) g.bin = b.substr(28 + json_length);
    return g;
}

// The positions of a glb's first mesh in world metres (translation added).
std::vector<glm::dvec3> glb_positions(const Glb& g) {
    const json& node = g.doc["nodes"][0];
    const glm::dvec3 t(node["translation"][0], node["translation"][1], node["translation"][2]);
    const json& acc = g.doc["accessors"][g.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"].get<int>()];
    const json& view = g.doc["bufferViews"][acc["bufferView"].get<int>()];
    std::vector<glm::dvec3> out(acc["count"].get<std::size_t>());
    const char* p = g.bin.data() + view["byteOffset"].get<std::size_t>();
    for (std::size_t i = 0; i < out.size(); ++i) {
        float v[3];
        std::memcpy(v, p + 12 * i, 12);
        out[i] = t + glm::dvec3(v[0], v[1], v[2]);
    }
    return out;
}

TEST(Bake, gives_one_digest_for_one_process_and_for_three_shards_writing_one_folder_at_once) {
    const std::string& whole = reference_digest();
    ASSERT_EQ(whole.size(), 64u);
    const std::string dir = fresh_folder("bake_shards");
    const std::string bake = std::string(ISOTERRA_BINARY) + " bake " + kQuick + " --threads 1 --out " + dir;
    ASSERT_EQ(std::system(("(" + bake + " --shard 0/3 & " + bake + " --shard 1/3 & " + bake + " --shard 2/3 & wait) >/dev/null").c_str()),
              0);
    EXPECT_EQ(digest_of(dir), whole);
    // --verify recomputes it from the files and prints it last.
    const CliResult v = run_cli("bake --verify --out " + dir);
    EXPECT_EQ(v.code, 0) << v.err;
    EXPECT_EQ(last_line(v.out), whole);
    // One shard alone leaves the bake incomplete, without a digest.
    const std::string part = fresh_folder("bake_one_shard");
    const CliResult r = run_cli("bake " + kQuick + " --shard 1/3 --out " + part);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("of 65 jobs complete"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(part + "/bake.digest"));
}

TEST(Bake, killed_with_sigkill_part_way_then_resumed_gives_the_same_digest_and_leaves_no_temporary_file) {
    const std::string dir = fresh_folder("bake_killed");
    const std::string bake = std::string(ISOTERRA_BINARY) + " bake " + kQuick + " --threads 1 --out " + dir;
    // Kill it once ten jobs are complete (at most 60 s of waiting).
    const std::string script =
        "(" + bake + ") & pid=$!; for i in $(seq 6000); do n=$(find " + dir +
        "/jobs -name '*.json' 2>/dev/null | wc -l); [ \"$n\" -ge 10 ] && break; sleep 0.01; done; kill -9 $pid; wait $pid; exit 0";
    const std::string file = fresh_path("bake_kill.sh");
    std::ofstream(file) << script << "\n";
    ASSERT_EQ(std::system(("bash " + file).c_str()), 0);
    EXPECT_FALSE(fs::exists(dir + "/bake.digest")) << "the bake finished before it was killed";
    const CliResult partial = run_cli("bake --verify --out " + dir);
    EXPECT_EQ(partial.code, 1);
    EXPECT_NE(partial.err.find("not done"), std::string::npos);
    const CliResult r = run_cli("bake " + kQuick + " --resume --out " + dir, "", "");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(digest_of(dir), reference_digest());
    std::size_t temporaries = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().filename().string().find(".tmp") != std::string::npos) ++temporaries;
    EXPECT_EQ(temporaries, 0u);
    // Resumed with --verbose output: the finished jobs were skipped.
    const CliResult again = run_cli("bake " + kQuickRegion + " --resume --out " + dir);
    EXPECT_NE(again.err.find("0 jobs baked, 65 skipped"), std::string::npos) << again.err;
    EXPECT_EQ(last_line(again.out), reference_digest());
}

// Walks a tile of a tileset file; checks it and its children; collects content files.
struct TilesetWalk {
    std::string root;
    std::map<std::string, int> contents;  // glb path -> times referenced
    int tiles = 0, checked_boxes = 0;

    static bool box_holds(const json& outer, const json& inner, double slack) {
        for (int a = 0; a < 3; ++a) {
            const double oc = outer[a], oh = outer[3 + 4 * a], ic = inner[a], ih = inner[3 + 4 * a];
            if (ic - ih < oc - oh - slack || ic + ih > oc + oh + slack) return false;
        }
        return true;
    }

    void tile(const json& t, const fs::path& file, double parent_error, const json* parent_box) {
        ++tiles;
        const double error = t.at("geometricError");
        EXPECT_LE(error, parent_error) << file;
        const json& box = t.at("boundingVolume").at("box");
        if (parent_box) EXPECT_TRUE(box_holds(*parent_box, box, 1e-6)) << file << ": a child's box outside its parent's";
        EXPECT_FALSE(t.contains("children") && t["children"].empty()) << file << ": an empty children array";
        if (t.contains("content")) {
            const fs::path target = (file.parent_path() / t["content"]["uri"].get<std::string>()).lexically_normal();
            EXPECT_TRUE(fs::exists(target)) << target;
            if (target.extension() == ".json") {
                const json sub = json::parse(read_bytes(target.string()));
                EXPECT_EQ(sub["asset"]["version"], "1.1");
                EXPECT_EQ(sub["root"]["refine"], "REPLACE") << target;
                EXPECT_DOUBLE_EQ(sub["root"]["geometricError"].get<double>(), error) << target;
                EXPECT_TRUE(box_holds(box, sub["root"]["boundingVolume"]["box"], 1e-6)) << target;
                this->tile(sub["root"], target, error, &box);
            } else {
                contents[fs::relative(target, root).string()] += 1;
                // The content's vertices (Y up, turned Z up as a client does) lie in the box.
                const Glb g = read_glb(target.string());
                for (const glm::dvec3& p : glb_positions(g)) {
                    const double z_up[3] = {p.x, -p.z, p.y};
                    for (int a = 0; a < 3; ++a) {
                        const double c = box[a], h = box[3 + 4 * a];
                        ASSERT_LE(std::fabs(z_up[a] - c), h + 1e-6) << target << " axis " << a;
                    }
                }
                ++checked_boxes;
            }
        }
        if (!t.contains("children")) return;
        for (const json& c : t["children"]) {
            const double ce = c.at("geometricError");
            // Errors halve level by level down to the finest, whose error is 0.
            EXPECT_TRUE(ce == error / 2 || (ce == 0.0 && error == 2.0) ||
                        (ce == error && c.contains("content") && c["content"]["uri"].get<std::string>().ends_with(".json")))
                << file << ": " << error << " -> " << ce;
            this->tile(c, file, error, &box);
        }
    }
};

TEST(Bake, writes_a_tileset_whose_boxes_hold_their_content_whose_errors_halve_and_whose_files_all_exist) {
    const std::string dir = fresh_folder("bake_structure");
    ASSERT_EQ(run_cli("bake " + kSmall + " --out " + dir).code, 0);
    const json ts = json::parse(read_bytes(dir + "/tileset.json"));
    EXPECT_EQ(ts["asset"]["version"], "1.1");
    EXPECT_EQ(ts["root"]["refine"], "REPLACE");
    EXPECT_EQ(ts["root"]["transform"].size(), 16u);
    TilesetWalk walk;
    walk.root = dir;
    walk.tile(ts["root"], fs::path(dir) / "tileset.json", ts["geometricError"], nullptr);
    // The root, then 1 + 4 + 16 + 64 + 256 tiles, each listed once, plus 1 + 64 references to jobs' tileset files.
    EXPECT_EQ(walk.tiles, 1 + 341 + 1 + 64);
    std::size_t on_disk = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir + "/content"))
        if (e.is_regular_file()) {
            ++on_disk;
            EXPECT_EQ(walk.contents[fs::relative(e.path(), dir).string()], 1) << e.path();
        }
    EXPECT_EQ(on_disk, walk.contents.size());
    EXPECT_EQ(walk.checked_boxes, 341);  // tutorial has ground in every tile of this square
}

TEST(Bake, bakes_an_edited_world_with_its_crater_in_the_finest_tile_and_the_coarser_ones_over_it) {
    const std::string world = fresh_path("bake_crater.db");
    ASSERT_EQ(run_cli("edit --world " + world + " --preset tutorial sphere --at 80,8,80 --radius 24").code, 0);
    // Deep enough to be seen at every level: the crater's floor is well below the ground.
    const std::string plain = fresh_folder("bake_plain"), edited = fresh_folder("bake_edited");
    // The quick region's four levels: the crater's tile at the coarsest is the whole region.
    ASSERT_EQ(run_cli("bake " + kQuick + " --out " + plain).code, 0);
    const CliResult r = run_cli("bake --world " + world + " --from 0,0 --to 256,256 --levels 4 --quiet --out " + edited);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(json::parse(read_bytes(edited + "/bake.json"))["world_edits_sha256"], "");
    // The top of the ground near the crater's centre (caves below it aside).
    const auto top_near = [](const std::string& glb) {
        double top = -1e9;
        for (const glm::dvec3& p : glb_positions(read_glb(glb)))
            if (std::hypot(p.x - 80.0, p.z - 80.0) < 6.0) top = std::max(top, p.y);
        return top;
    };
    // Level L's tile over (80, 80): x = z = floor(80 / (32 * 2^L)).
    for (int level = 0; level <= 3; ++level) {
        const int c = static_cast<int>(std::floor(80.0 / (32.0 * (1 << level))));
        const std::string tile = fmt::format("/content/{}/{}/{}.glb", level, c, c);
        const double before = top_near(plain + tile), after = top_near(edited + tile);
        EXPECT_LT(after, before - 8.0) << "level " << level << ": the crater is not in the tile";
    }
    // Far from the edit the tiles are the same bytes.
    EXPECT_EQ(read_bytes(plain + "/content/0/7/7.glb"), read_bytes(edited + "/content/0/7/7.glb"));
}

// A 16-bit grey PNG's samples.
std::vector<std::uint16_t> read_png16(const std::string& path, int& size) {
    const std::string bytes = read_bytes(path);
    spng_ctx* ctx = spng_ctx_new(0);
    spng_set_png_buffer(ctx, bytes.data(), bytes.size());
    spng_ihdr ihdr{};
    std::vector<std::uint16_t> pixels;
    if (spng_get_ihdr(ctx, &ihdr) == 0 && ihdr.bit_depth == 16 && ihdr.width == ihdr.height) {
        pixels.resize(static_cast<std::size_t>(ihdr.width) * ihdr.height);
        spng_decode_image(ctx, pixels.data(), pixels.size() * 2, SPNG_FMT_PNG, 0);
        size = static_cast<int>(ihdr.width);
    }
    spng_ctx_free(ctx);
    return pixels;
}

TEST(Bake, writes_heightmap_tiles_with_shared_edges_that_hold_the_ground_height) {
    const std::string dir = fresh_folder("bake_heights");
    ASSERT_EQ(run_cli("bake --preset alpine --from -64,-64 --to 64,64 --levels 2 --heightmaps --quiet --out " + dir).code, 0);
    const json h = json::parse(read_bytes(dir + "/height/heights.json"));
    EXPECT_EQ(h["samples"], 33);
    const double offset = h["offset_m"], scale = h["scale_m"];
    int n = 0;
    const auto a = read_png16(dir + "/height/0/-1/0.png", n), b = read_png16(dir + "/height/0/0/0.png", n);
    ASSERT_EQ(n, 33);
    ASSERT_EQ(a.size(), 33u * 33u);
    for (int k = 0; k < 33; ++k) EXPECT_EQ(a[k * 33 + 32], b[k * 33]) << "row " << k;
    // Pixel (i, k) of tile (0, 0, 0) is the ground at (i, k) metres.
    const auto field = builtin_terrain("alpine").make_field();
    for (int k : {0, 7, 32})
        for (int i : {0, 19, 32})
            EXPECT_NEAR(offset + b[k * 33 + i] * scale, field->ground_height(i, k), 0.5 * scale + 1e-9) << i << "," << k;
    // A coarser level's tile holds the same ground every second sample.
    const auto c = read_png16(dir + "/height/1/0/0.png", n);
    for (int k = 0; k <= 16; ++k)
        for (int i = 0; i <= 16; ++i) EXPECT_EQ(c[k * 33 + i], b[2 * k * 33 + 2 * i]);
}

TEST(Bake, verify_names_a_changed_or_missing_file_exits_1_and_still_prints_the_digest_last) {
    const std::string dir = fresh_folder("bake_verify");
    ASSERT_EQ(run_cli("bake " + kQuick + " --out " + dir).code, 0);
    {
        std::ofstream f(dir + "/content/0/3/5.glb", std::ios::app | std::ios::binary);
        f << 'x';
    }
    fs::remove(dir + "/content/2/1/1.glb");
    const CliResult v = run_cli("bake --verify --out " + dir);
    EXPECT_EQ(v.code, 1);
    EXPECT_NE(v.err.find("content/0/3/5.glb: differs from its manifest"), std::string::npos) << v.err;
    EXPECT_NE(v.err.find("content/2/1/1.glb: missing"), std::string::npos) << v.err;
    EXPECT_EQ(last_line(v.out).size(), 64u);
    EXPECT_NE(last_line(v.out), reference_digest());
    EXPECT_EQ(run_cli("bake --verify --out " + fresh_folder("bake_nothing")).code, 2);
}

void expect_refused(const std::string& args, int code, const std::string& says) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.code, code) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << args << "\n" << r.err;
}

TEST(Bake, refuses_bad_regions_folders_and_settings_in_one_line) {
    const std::string dir = fresh_folder("bake_bad");
    expect_refused("bake --from 0,0 --to 0,512 --out " + dir, 2, "empty region");
    expect_refused("bake --from 512,0 --to 0,512 --out " + dir, 2, "must grow");
    expect_refused("bake --from 0,0 --to 100000,100000 --out " + dir, 2, "add --force");
    expect_refused("bake --from 0,0 --to 512,512 --out " + dir + "/no/such", 2, "does not exist");
    expect_refused("bake --from 0,0 --to 512,512 --shard 3/3 --out " + dir, 2, "--shard");
    expect_refused("bake --from 0,0 --to 512,512 --levels 0 --out " + dir, 2, "--levels");
    expect_refused("bake --from 0,0 --to 512,512 --world " + dir + "/missing.db --out " + dir, 2, "missing.db");
    EXPECT_TRUE(files_in(dir).empty());
    // A folder that holds a bake of other settings.
    ASSERT_EQ(run_cli("bake --preset tutorial --from 0,0 --to 64,64 --levels 2 --quiet --out " + dir).code, 0);
    expect_refused("bake --preset tutorial --seed 7 --from 0,0 --to 64,64 --levels 2 --out " + dir, 2, "other settings");
    EXPECT_EQ(run_cli("bake --verify --out " + dir).code, 0);
    // A read-only folder (as an unprivileged user when the tests run as root).
    const std::string ro = fresh_folder("bake_read_only");
    ::chmod(ro.c_str(), 0555);
    const std::string as = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups" : "";
    const CliResult r = run_cli("bake --from 0,0 --to 64,64 --levels 2 --out " + ro, "", as);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("cannot be written"), std::string::npos) << r.err;
    EXPECT_TRUE(files_in(ro).empty());
}

TEST(Bake, fails_on_a_full_disk_with_one_line_and_exit_1_leaving_only_whole_files) {
    // A 300 KB file system (tmpfs, when the tests may mount one): the bake needs megabytes.
    const std::string mount = fresh_folder("bake_full_disk");
    if (std::system(("mount -t tmpfs -o size=300k tmpfs " + mount + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "cannot mount a small file system here (not root)";
    const CliResult r = run_cli("bake " + kSmall + " --threads 1 --out " + mount + "/bake");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("No space left"), std::string::npos) << r.err;
    // Every glb there is whole (its length field says its size), and no temporary is left.
    std::size_t glbs = 0;
    for (const auto& e : fs::recursive_directory_iterator(mount + "/bake")) {
        EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
        if (e.path().extension() != ".glb") continue;
        const std::string b = read_bytes(e.path().string());
        std::uint32_t length = 0;
        ASSERT_GE(b.size(), 12u);
        std::memcpy(&length, b.data() + 8, 4);
        EXPECT_EQ(length, b.size()) << e.path();
        ++glbs;
    }
    EXPECT_GT(glbs, 0u);
    std::system(("umount " + mount).c_str());
}

}  // namespace
}  // namespace isoterra::test

namespace isoterra::test {
namespace {

// The first bake claims a new folder by creating its bake.json (never replacing one): of
// bakes of other settings started together, those of the claimed settings bake and the others
// are refused in one line, so the folder holds one bake (two used to mix their files).
TEST(Bake, bakes_of_other_settings_started_together_into_one_new_folder_never_mix) {
    // Four races; two in a slow (sanitizer) build, where each bake takes several times longer.
    for (int round = 0; round < (slow_build() ? 2 : 4); ++round) {
        const std::string dir = fresh_folder("bake_race") + "/new";
        std::string script = "(";
        for (int i = 0; i < 8; ++i)
            script += fmt::format(
                "{} bake --preset tutorial --seed {} --from 0,0 --to 64,64 --levels 1 --threads 1 --quiet --out {} "
                ">/dev/null 2>{}.err{}; echo $? > {}.code{} & ",
                ISOTERRA_BINARY, 1 + i % 2, dir, dir, i, dir, i);
        script += "wait)";
        ASSERT_EQ(std::system(script.c_str()), 0);
        const json settings = json::parse(read_bytes(dir + "/bake.json"));
        const int winner = settings["terrain"]["seed"].get<int>();
        int baked = 0;
        for (int i = 0; i < 8; ++i) {
            const std::string code = read_bytes(fmt::format("{}.code{}", dir, i)), err = read_bytes(fmt::format("{}.err{}", dir, i));
            if (1 + i % 2 == winner) {
                EXPECT_EQ(code, "0\n") << err;
                ++baked;
            } else {
                EXPECT_EQ(code, "2\n") << err;
                EXPECT_NE(err.find("holds a bake of other settings (tutorial seed " + std::to_string(winner)), std::string::npos) << err;
                EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
            }
        }
        EXPECT_EQ(baked, 4);
        const CliResult v = run_cli("bake --verify --out " + dir);
        EXPECT_EQ(v.code, 0) << v.out << v.err;
    }
}

}  // namespace
}  // namespace isoterra::test
