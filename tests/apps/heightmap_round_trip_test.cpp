// Real elevation data in: `isoterra heightmap` of a preset, read back through a `heightmap`
// node (the PNG with its sidecar, and a GeoTIFF GDAL makes from it), maps to the same
// heights within one 16-bit step; a world file keeps to the raster its edits were made on.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spng.h>
#include <sys/stat.h>

#include "run_cli.hpp"
#include "temp_files.hpp"

using namespace isoterra::test;
namespace fs = std::filesystem;

namespace {

// A heightmap `isoterra heightmap` wrote, in metres, with the size of its 16-bit step.
struct Heights {
    int width = 0, height = 0;
    std::vector<double> metres;
    double step = 0.0;
};

Heights read_heightmap(const std::string& png) {
    std::ifstream in(png, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    spng_ctx* ctx = spng_ctx_new(0);
    spng_set_png_buffer(ctx, bytes.data(), bytes.size());
    spng_ihdr ihdr{};
    Heights h;
    if (spng_get_ihdr(ctx, &ihdr) == 0 && ihdr.bit_depth == 16) {
        std::vector<std::uint8_t> raw(static_cast<std::size_t>(ihdr.width) * ihdr.height * 2);
        spng_decode_image(ctx, raw.data(), raw.size(), SPNG_FMT_PNG, 0);
        std::ifstream side(png.substr(0, png.size() - 4) + ".json");
        const nlohmann::json j = nlohmann::json::parse(side);
        const double lo = j["min_height_m"], hi = j["max_height_m"];
        h.width = static_cast<int>(ihdr.width), h.height = static_cast<int>(ihdr.height);
        h.step = (hi - lo) / 65535.0;
        // libspng gives 16-bit samples in the host's byte order.
        std::vector<std::uint16_t> pixels(raw.size() / 2);
        std::memcpy(pixels.data(), raw.data(), raw.size());
        for (const std::uint16_t p : pixels) h.metres.push_back(lo + p / 65535.0 * (hi - lo));
    }
    spng_ctx_free(ctx);
    return h;
}

void write_graph(const std::string& path, const std::string& raster) {
    std::ofstream(path) << "format = 1\nname = \"read back\"\n[node]\nground = { type = \"heightmap\", file = \"" << raster
                        << "\" }\nsolid = { type = \"plane\", height = \"ground\" }\n[output]\nsdf = \"solid\"\nground = \"ground\"\n";
}

void expect_within_one_step(const Heights& want, const Heights& got, const std::string& what) {
    ASSERT_EQ(got.width, want.width) << what;
    ASSERT_EQ(got.height, want.height) << what;
    ASSERT_GT(want.step, 0.0);
    double worst = 0.0;
    for (std::size_t i = 0; i < want.metres.size(); ++i) worst = std::max(worst, std::fabs(got.metres[i] - want.metres[i]));
    EXPECT_LE(worst, want.step) << what << ": worst difference " << worst << " m, one step " << want.step << " m";
}

const char* kGrid = "--from -300,-200 --to 200,300 --step 4";

}  // namespace

TEST(HeightmapRoundTrip, a_preset_heightmap_read_back_through_png_and_geotiff_is_the_same_within_one_step) {
    const std::string dir = fresh_folder("round_trip");
    ASSERT_EQ(run_cli(fmt::format("heightmap --preset alpine {} --quiet -o {}/ground.png", kGrid, dir)).code, 0);
    const Heights original = read_heightmap(dir + "/ground.png");
    ASSERT_EQ(original.width, 126);
    ASSERT_EQ(original.height, 126);

    write_graph(dir + "/from_png.toml", "ground.png");
    const auto png = run_cli(fmt::format("heightmap --config {}/from_png.toml {} --quiet -o {}/back.png", dir, kGrid, dir));
    ASSERT_EQ(png.code, 0) << png.err;
    expect_within_one_step(original, read_heightmap(dir + "/back.png"), "PNG");

    // The GeoTIFF: the same pixels in metres, north up (world z = -Y), corners half a pixel
    // out from the first and last pixel centres.
    std::ifstream side(dir + "/ground.json");
    const nlohmann::json j = nlohmann::json::parse(side);
    const double lo = j["min_height_m"], hi = j["max_height_m"];
    // Pixel centres x -300..200 and z -200..300: X -302..202, Y 202..-302.
    const std::string translate = fmt::format(
        "gdal_translate -q -of GTiff -ot Float32 -a_ullr -302 202 202 -302 -scale 0 65535 {:.17g} {:.17g} {}/ground.png {}/ground.tif", lo,
        hi, dir, dir);
    ASSERT_EQ(std::system(translate.c_str()), 0)
        << "gdal_translate (Debian's gdal-bin, installed by scripts/install-deps.sh): " << translate;
    write_graph(dir + "/from_tiff.toml", "ground.tif");
    const auto tiff = run_cli(fmt::format("heightmap --config {}/from_tiff.toml {} --quiet -o {}/back_tiff.png", dir, kGrid, dir));
    ASSERT_EQ(tiff.code, 0) << tiff.err;
    expect_within_one_step(original, read_heightmap(dir + "/back_tiff.png"), "GeoTIFF");

    const auto check = run_cli(fmt::format("graph check {}/from_tiff.toml --box -10,0,-10,10,1,10", dir));
    EXPECT_NE(check.out.find("reads " + dir + "/ground.tif (digest "), std::string::npos) << check.out;
}

TEST(HeightmapRoundTrip, a_world_file_keeps_to_the_raster_its_edits_were_made_on) {
    const std::string dir = fresh_folder("raster_world");
    ASSERT_EQ(run_cli(fmt::format("heightmap --preset tutorial --from 0,0 --to 63,63 --quiet -o {}/ground.png", dir)).code, 0);
    write_graph(dir + "/g.toml", "ground.png");
    const std::string world = dir + "/w.db";
    const auto edit = run_cli(fmt::format("edit --config {}/g.toml --world {} sphere --at 20,10,20 --radius 5 --mode carve", dir, world));
    ASSERT_EQ(edit.code, 0) << edit.err;
    // Opened without the graph file: the stored text finds the raster where the graph was.
    const auto history = run_cli("history --world " + world);
    ASSERT_EQ(history.code, 0) << history.err;
    EXPECT_NE(history.out.find("sphere carve at 20,10,20 radius 5 m"), std::string::npos) << history.out;
    const auto sample = run_cli("sample --world " + world, "20 10 20\n");
    EXPECT_EQ(sample.code, 0) << sample.err;

    // Another raster under the same name: refused, naming both digests.
    ASSERT_EQ(run_cli(fmt::format("heightmap --preset alpine --from 0,0 --to 63,63 --quiet -o {}/ground.png", dir)).code, 0);
    const auto changed = run_cli("history --world " + world);
    EXPECT_EQ(changed.code, 2);
    EXPECT_NE(changed.err.find("a raster its graph reads has changed since the world file was made"), std::string::npos) << changed.err;
    EXPECT_EQ(std::count(changed.err.begin(), changed.err.end(), '\n'), 1) << changed.err;
    std::remove((dir + "/ground.png").c_str());
    const auto gone = run_cli("history --world " + world);
    EXPECT_EQ(gone.code, 2);
    EXPECT_NE(gone.err.find("its graph's raster: "), std::string::npos) << gone.err;
    EXPECT_NE(gone.err.find("ground.png: cannot open the raster file"), std::string::npos) << gone.err;
}

// The digest a world file keeps is of the raster as read: size, placement and heights, so a
// sidecar that moves the raster, or a file under a VRT that changes, is noticed.
TEST(HeightmapRoundTrip, a_world_file_notices_a_changed_sidecar_or_a_changed_file_under_a_vrt) {
    const std::string dir = fresh_folder("raster_parts");
    ASSERT_EQ(run_cli(fmt::format("heightmap --preset tutorial --from 0,0 --to 63,63 --quiet -o {}/ground.png", dir)).code, 0);
    write_graph(dir + "/g.toml", "ground.png");
    const auto edit = [&](const std::string& graph, const std::string& world) {
        return run_cli(fmt::format("edit --config {} --world {} sphere --at 20,10,20 --radius 5 --mode carve", graph, world));
    };
    ASSERT_EQ(edit(dir + "/g.toml", dir + "/png.db").code, 0);
    ASSERT_EQ(run_cli("history --world " + dir + "/png.db").code, 0);
    // The sidecar alone moves the raster by a metre: the PNG's bytes are the same.
    std::ifstream in(dir + "/ground.json");
    nlohmann::json side = nlohmann::json::parse(in);
    side["from_xz_m"][0] = side["from_xz_m"][0].get<double>() + 1.0;
    std::ofstream(dir + "/ground.json") << side.dump();
    const auto moved = run_cli("history --world " + dir + "/png.db");
    EXPECT_EQ(moved.code, 2) << moved.err;
    EXPECT_NE(moved.err.find("a raster its graph reads has changed since the world file was made"), std::string::npos) << moved.err;

    // A VRT over a GeoTIFF: the VRT stays, the GeoTIFF under it changes.
    ASSERT_EQ(std::system(fmt::format("gdal_translate -q -of GTiff -ot Float32 -a_ullr -2 -2 66 66 {0}/ground.png {0}/a.tif", dir).c_str()),
              0);
    std::ofstream(dir + "/ground.vrt") << R"(<VRTDataset rasterXSize="64" rasterYSize="64">
  <GeoTransform>-2, 1.0625, 0, 66, 0, -1.0625</GeoTransform>
  <VRTRasterBand dataType="Float32" band="1">
    <SimpleSource><SourceFilename relativeToVRT="1">under.tif</SourceFilename><SourceBand>1</SourceBand></SimpleSource>
  </VRTRasterBand>
</VRTDataset>
)";
    fs::copy_file(dir + "/a.tif", dir + "/under.tif");
    write_graph(dir + "/v.toml", "ground.vrt");
    const auto made = edit(dir + "/v.toml", dir + "/vrt.db");
    ASSERT_EQ(made.code, 0) << made.err;
    ASSERT_EQ(run_cli("history --world " + dir + "/vrt.db").code, 0);
    ASSERT_EQ(
        std::system(
            fmt::format("gdal_translate -q -of GTiff -ot Float32 -a_ullr -2 -2 66 66 -scale 0 65535 0 1000 {0}/ground.png {0}/b.tif", dir)
                .c_str()),
        0);
    fs::copy_file(dir + "/b.tif", dir + "/under.tif", fs::copy_options::overwrite_existing);
    const auto under = run_cli("history --world " + dir + "/vrt.db");
    EXPECT_EQ(under.code, 2) << under.err;
    EXPECT_NE(under.err.find("a raster its graph reads has changed since the world file was made"), std::string::npos) << under.err;
}

// GDAL opens sidecars and a VRT's sources by name: a FIFO among them would block it forever
// and a device would never end, so each must be a regular file; raw bands are not read.
TEST(HeightmapRoundTrip, gdal_is_handed_only_regular_files_and_no_raw_bands) {
    const std::string dir = fresh_folder("raster_streams");
    ASSERT_EQ(run_cli(fmt::format("heightmap --preset tutorial --from 0,0 --to 63,63 --quiet -o {}/ground.png", dir)).code, 0);
    ASSERT_EQ(std::system(fmt::format("gdal_translate -q -of GTiff -ot Float32 -a_ullr -2 -2 66 66 {0}/ground.png {0}/a.tif", dir).c_str()),
              0);
    const auto vrt = [&](const std::string& name, const std::string& band) {
        std::ofstream(dir + "/" + name) << "<VRTDataset rasterXSize=\"64\" rasterYSize=\"64\">\n"
                                           "  <GeoTransform>-2, 1.0625, 0, 66, 0, -1.0625</GeoTransform>\n"
                                        << band << "</VRTDataset>\n";
    };
    ASSERT_EQ(mkfifo((dir + "/pipe.tif").c_str(), 0600), 0);
    vrt("fifo.vrt",
        "<VRTRasterBand dataType=\"Float32\" band=\"1\"><SimpleSource><SourceFilename relativeToVRT=\"1\">pipe.tif"
        "</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand>\n");
    vrt("raw.vrt",
        "<VRTRasterBand dataType=\"Float32\" band=\"1\" subClass=\"VRTRawRasterBand\">"
        "<SourceFilename relativeToVRT=\"0\">/dev/zero</SourceFilename><ImageOffset>0</ImageOffset>"
        "<PixelOffset>4</PixelOffset><LineOffset>256</LineOffset></VRTRasterBand>\n");
    vrt("inner.vrt",
        "<VRTRasterBand dataType=\"Float32\" band=\"1\"><SimpleSource><SourceFilename relativeToVRT=\"1\">fifo.vrt"
        "</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand>\n");
    vrt("self.vrt",
        "<VRTRasterBand dataType=\"Float32\" band=\"1\"><SimpleSource><SourceFilename relativeToVRT=\"1\">self.vrt"
        "</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand>\n");
    vrt("web.vrt",
        "<VRTRasterBand dataType=\"Float32\" band=\"1\"><SimpleSource><SourceFilename>/vsicurl/http://example.com/a.tif"
        "</SourceFilename><SourceBand>1</SourceBand></SimpleSource></VRTRasterBand>\n");
    fs::create_directory(dir + "/side");
    fs::copy_file(dir + "/a.tif", dir + "/side/b.tif");
    ASSERT_EQ(mkfifo((dir + "/side/b.tif.aux.xml").c_str(), 0600), 0);
    const std::pair<const char*, const char*> cases[] = {
        {"fifo.vrt", "pipe.tif, which is not a regular file"},
        {"inner.vrt", "pipe.tif, which is not a regular file"},
        {"raw.vrt", "has a raw band (VRTRawRasterBand), which isoterra does not read"},
        {"self.vrt", "VRTs nested more than 8 deep"},
        {"web.vrt", "names a source that is not a plain file: /vsicurl/http://example.com/a.tif"},
        {"side/b.tif", "b.tif.aux.xml lies beside it and is not a regular file (GDAL may read it)"},
    };
    for (const auto& [file, want] : cases) {
        write_graph(dir + "/g.toml", file);
        const auto r = run_cli(fmt::format("graph check {}/g.toml", dir), "", "timeout 60");
        EXPECT_EQ(r.code, 2) << file << ": " << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << file << ": " << r.err;
        EXPECT_EQ(count_lines(r.err), 1) << r.err;
    }
    write_graph(dir + "/g.toml", "a.tif");  // and a plain GeoTIFF still reads
    const auto fine = run_cli(fmt::format("graph check {}/g.toml", dir), "", "timeout 60");
    EXPECT_EQ(fine.code, 0) << fine.err;
}
