// The `heightmap` node: a raster read once, placed by its sidecar or the node, bilinear
// between pixel centres and held at the edges; its proven range; its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "isoterra/graph.hpp"
#include "isoterra/io.hpp"
#include "temp_files.hpp"

using namespace isoterra;
using namespace isoterra::test;

namespace {

// A 3 x 2 raster, 16 bits: pixel values chosen so that heights 0..65535 m map to themselves
// with the sidecar's range [0, 65535].
const std::vector<std::uint16_t> kPixels = {0,    100,  400,  //
                                            1000, 3000, 65535};

class HeightmapNode : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fresh_folder("heightmap_node");
        write_png(dir_ + "/small.png", 3, 2, 1, 16, kPixels.data());
        // Pixel (0, 0) at x = 10, z = 20; pixel (2, 1) at x = 30, z = 25: 10 m by 5 m apart.
        std::ofstream(dir_ + "/small.json") << R"({"width": 3, "height": 2, "from_xz_m": [10, 20], "to_xz_m": [30, 25],
                                                  "min_height_m": 0, "max_height_m": 65535})";
    }
    std::unique_ptr<GraphField> graph(const std::string& inputs, const std::string& dir = "") {
        return parse_graph("format = 1\n[node]\nh = { type = \"heightmap\", " + inputs + " }\n[output]\nsdf = \"h\"\nground = \"h\"\n",
                           "h.toml", dir.empty() ? dir_ : dir);
    }
    double at(const GraphField& g, double x, double z) {
        const glm::dvec3 p(x, 123.0, z);
        double v = 0.0;
        g.sample_points(&p, 1, &v);
        EXPECT_EQ(v, g.ground_height(x, z));
        return v;
    }
    std::string error_of(const std::string& inputs) {
        try {
            graph(inputs);
        } catch (const RasterError& e) {
            return e.what();
        } catch (const GraphError& e) {
            return std::string("(not a RasterError) ") + e.what();
        }
        return "";
    }
    std::string dir_;
};

}  // namespace

TEST_F(HeightmapNode, pixel_centres_give_the_pixels_and_between_them_bilinear) {
    const auto g = graph("file = \"small.png\"");
    EXPECT_EQ(at(*g, 10, 20), 0.0);
    EXPECT_EQ(at(*g, 20, 20), 100.0);
    EXPECT_EQ(at(*g, 30, 20), 400.0);
    EXPECT_EQ(at(*g, 10, 25), 1000.0);
    EXPECT_EQ(at(*g, 30, 25), 65535.0);
    EXPECT_DOUBLE_EQ(at(*g, 15, 20), 50.0);                                      // halfway along a row
    EXPECT_DOUBLE_EQ(at(*g, 20, 22.5), 1550.0);                                  // halfway down a column
    EXPECT_DOUBLE_EQ(at(*g, 25, 22.5), (100.0 + 400.0 + 3000.0 + 65535.0) / 4);  // a cell's middle
    EXPECT_DOUBLE_EQ(at(*g, 12, 21), 0.8 * 0.8 * 0 + 0.2 * 0.8 * 100 + 0.8 * 0.2 * 1000 + 0.2 * 0.2 * 3000);
    // Beyond the edges the edge pixels hold.
    EXPECT_EQ(at(*g, -1e6, -1e6), 0.0);
    EXPECT_EQ(at(*g, 1e6, 1e6), 65535.0);
    EXPECT_DOUBLE_EQ(at(*g, 25, -500), 250.0);
}

TEST_F(HeightmapNode, the_node_places_and_scales_the_raster_over_the_sidecar) {
    const auto g = graph("file = \"small.png\", from = [0, 0], to = [2, -1], heights = [-10, 10]");
    EXPECT_EQ(at(*g, 0, 0), -10.0);
    EXPECT_EQ(at(*g, 2, -1), 10.0);
    EXPECT_NEAR(at(*g, 1, 0), -10.0 + 20.0 * 100 / 65535, 1e-5);  // stored as floats
    // Its own coordinates: a raster read at (z, x).
    const auto swapped = graph("file = \"small.png\", x = \"zz\", z = \"xx\" }\nxx = { type = \"x\" }\nzz = { type = \"z\"");
    EXPECT_EQ(at(*swapped, 20, 30), 400.0);
}

TEST_F(HeightmapNode, the_proven_range_holds_the_pixels_under_the_box_and_no_more) {
    const auto g = graph("file = \"small.png\"");
    const ValueRange left = g->bounds({{9, 0, 19}, {14, 1, 21}});  // pixels (0..1, 0..1)
    EXPECT_LE(left.lo, 0.0);
    EXPECT_GE(left.hi, 3000.0);
    EXPECT_LT(left.hi, 3000.1);
    const ValueRange all = g->bounds({{-1e3, 0, -1e3}, {1e3, 1, 1e3}});
    EXPECT_LE(all.lo, 0.0);
    EXPECT_GE(all.hi, 65535.0);
    EXPECT_LT(all.hi, 65535.1);
}

TEST_F(HeightmapNode, a_graph_file_finds_its_raster_beside_it_and_reports_its_digest) {
    const std::string graph_path = dir_ + "/g.toml";
    std::ofstream(graph_path) << "format = 1\n[node]\nh = { type = \"heightmap\", file = \"small.png\" }\n"
                                 "p = { type = \"plane\", height = \"h\" }\n[output]\nsdf = \"p\"\nground = \"h\"\n";
    const auto g = load_graph_file(graph_path);  // the working directory is elsewhere
    ASSERT_EQ(g->rasters().size(), 1u);
    EXPECT_EQ(g->rasters()[0].path.substr(g->rasters()[0].path.size() - 10), "/small.png");
    EXPECT_EQ(g->rasters()[0].digest.size(), 64u);
    const TerrainSource t = load_terrain_file(graph_path);
    ASSERT_EQ(t.rasters.size(), 1u);
    EXPECT_EQ(t.rasters[0].digest, g->rasters()[0].digest);
    EXPECT_EQ(t.make_field()->ground_height(30, 25), 65535.0);
    // Another pixel, another digest.
    std::vector<std::uint16_t> changed = kPixels;
    changed[0] = 1;
    write_png(dir_ + "/small.png", 3, 2, 1, 16, changed.data());
    EXPECT_NE(load_graph_file(graph_path)->rasters()[0].digest, g->rasters()[0].digest);
}

TEST_F(HeightmapNode, bad_rasters_are_one_line_errors_naming_node_and_file) {
    EXPECT_EQ(error_of("file = \"missing.png\"").rfind("h.toml:3: node 'h': " + dir_ + "/missing.png: cannot open the raster file", 0), 0u)
        << error_of("file = \"missing.png\"");
    std::remove((dir_ + "/small.json").c_str());
    EXPECT_NE(error_of("file = \"small.png\"").find("small.json: cannot open the heightmap sidecar file"), std::string::npos)
        << error_of("file = \"small.png\"");
    std::ofstream(dir_ + "/small.json") << R"({"width": 4, "height": 2, "from_xz_m": [10, 20], "to_xz_m": [30, 25],
                                               "min_height_m": 0, "max_height_m": 1})";
    EXPECT_NE(error_of("file = \"small.png\"").find("says 4x2 pixels, the PNG has 3x2"), std::string::npos);
    std::ofstream(dir_ + "/small.json") << R"({"width": 3, "height": 2, "from_xz_m": [10, 20], "min_height_m": 0, "max_height_m": 1})";
    EXPECT_NE(error_of("file = \"small.png\"").find("key 'to_xz_m': missing or not a pair of numbers"), std::string::npos);
    const std::uint8_t rgb[12] = {};
    write_png(dir_ + "/colour.png", 2, 2, 3, 8, rgb);
    EXPECT_NE(error_of("file = \"colour.png\", from = [0, 0], to = [1, 1], heights = [0, 1]").find("expected a greyscale PNG"),
              std::string::npos);
    std::ofstream(dir_ + "/text.png") << "not a png";
    EXPECT_NE(error_of("file = \"text.png\", from = [0, 0], to = [1, 1], heights = [0, 1]").find("not a readable PNG"), std::string::npos);
    EXPECT_NE(error_of("file = \"small.png\", from = [0, 0]").find("inputs 'from' and 'to' go together"), std::string::npos);
    EXPECT_NE(error_of("file = \"small.png\", from = [0, 0], to = [0, 5], heights = [0, 1]").find("its extent has no width"),
              std::string::npos);
    EXPECT_NE(error_of("file = 3").find("input 'file': expected a file name"), std::string::npos);
    EXPECT_NE(error_of("file = \"/dev/zero\"").find("not a raster file (not a regular file)"), std::string::npos);
    std::ofstream(dir_ + "/plain.tif") << "not a tiff";
    EXPECT_NE(error_of("file = \"plain.tif\"").find("plain.tif: "), std::string::npos);
}

// GDAL's hundred libraries are loaded by the first raster that needs them (a GeoTIFF, here one
// it refuses), not with the library: a PNG heightmap, like any other field, leaves them out.
TEST_F(HeightmapNode, gdal_is_loaded_by_the_first_raster_that_needs_it_and_no_sooner) {
    const auto gdal_mapped = [] {
        std::ifstream maps("/proc/self/maps");
        const std::string text((std::istreambuf_iterator<char>(maps)), {});
        return text.find("libgdal") != std::string::npos;
    };
    // Run alone (as ctest runs each test), nothing else can have loaded it.
    if (gdal_mapped() && ::testing::UnitTest::GetInstance()->test_to_run_count() > 1)
        GTEST_SKIP() << "an earlier test of this process read a raster through GDAL";
    EXPECT_FALSE(gdal_mapped()) << "loaded with the library";
    EXPECT_EQ(at(*graph("file = \"small.png\""), 30, 25), 65535.0);
    EXPECT_FALSE(gdal_mapped());
    std::ofstream(dir_ + "/plain.tif") << "not a tiff";
    const std::string error = error_of("file = \"plain.tif\"");
    if (error.find("built without GDAL") != std::string::npos) GTEST_SKIP() << error;
    EXPECT_NE(error.find("GDAL cannot read it as a raster"), std::string::npos) << error;
    EXPECT_TRUE(gdal_mapped());
}
