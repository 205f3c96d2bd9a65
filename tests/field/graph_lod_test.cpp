// `lod`: a noise node whose octaves a level's samples cannot show (wavelength under two
// samples) leaves them out inside a World column (Lattice::lod_column_samples). The samples
// two or fewer from a column's x or z face keep every octave, the same bits as without a
// level; from four in, the level's octaves alone, the same bits as a node with only those;
// half of each three in. Without a World column, or where every octave shows, nothing
// changes. The proven ranges hold the simplified values, and misuse is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isoterra/graph.hpp"

using namespace isoterra;

namespace lod_test {

std::unique_ptr<GraphField> graph(const std::string& body, const std::string& sdf = "out", const std::string& ground = "") {
    return parse_graph("format = 1\nseed = 5\n[node]\n" + body + "[output]\nsdf = \"" + sdf + "\"\n" +
                           (ground.empty() ? "" : "ground = \"" + ground + "\"\n"),
                       "lod.toml");
}

// A chunk-sized lattice of a World column at `spacing` (33 + 4 samples a side, two of padding
// below and one above, as surface nets' chunks), its origin `chunk` chunks from the origin.
Lattice column_lattice(double spacing, int cx, int cz, bool in_column) {
    Lattice lat;
    lat.origin = {std::int64_t{cx} * 32 - 2, -2, std::int64_t{cz} * 32 - 2};
    lat.size = {36, 36, 36};
    lat.spacing_m = spacing;
    lat.lod_column_samples = in_column ? 32 : 0;
    return lat;
}

struct Sampled {
    std::vector<float> values, ground;
};
Sampled sample(const GraphField& g, const Lattice& lat) {
    Sampled s;
    s.values.resize(lat.count());
    s.ground.resize(static_cast<std::size_t>(lat.size.x) * lat.size.z);
    g.sample_lattice_and_ground(lat, s.values.data(), s.ground.data());
    return s;
}

// Samples from the nearest x or z face of a 32-sample column.
int from_faces(const Lattice& lat, int i, int k) {
    const auto d = [](std::int64_t g) {
        const std::int64_t r = ((g % 32) + 32) % 32;
        return static_cast<int>(std::min(r, 32 - r));
    };
    return std::min(d(lat.origin.x + i), d(lat.origin.z + k));
}

// Counts of the samples that matched each expectation, by their distance from the faces.
struct Matched {
    int faces = 0, inside = 0, between = 0;
};

// Checks `lod` against `every` (the same graph without a World column) and `shown` (only the
// level's octaves) on `lat`: bit for bit at the faces and inside, between them halfway where
// the value follows the noise linearly (`linear`).
Matched check(const GraphField& lod, const GraphField& every, const GraphField& shown, const Lattice& lat, bool ground,
              bool linear = true) {
    Lattice plain = lat;
    plain.lod_column_samples = 0;
    const Sampled got = sample(lod, lat), all = sample(every, plain), part = sample(shown, plain);
    Matched m;
    for (int k = 0; k < lat.size.z; ++k)
        for (int j = 0; j < lat.size.y; ++j)
            for (int i = 0; i < lat.size.x; ++i) {
                const std::size_t at = ground ? static_cast<std::size_t>(k) * lat.size.x + i : lat.index(i, j, k);
                const float g = ground ? got.ground[at] : got.values[at];
                const float a = ground ? all.ground[at] : all.values[at];
                const float p = ground ? part.ground[at] : part.values[at];
                const int d = from_faces(lat, i, k);
                if (d <= 2) {
                    EXPECT_EQ(g, a) << "at " << i << "," << j << "," << k;
                    ++m.faces;
                } else if (d >= 4) {
                    EXPECT_EQ(g, p) << "at " << i << "," << j << "," << k;
                    ++m.inside;
                } else {
                    if (linear) EXPECT_NEAR(g, 0.5f * (a + p), 1e-4f * (1.0f + std::fabs(a))) << "at " << i << "," << j << "," << k;
                    ++m.between;
                }
            }
    return m;
}

// Tunnels 9 m wide carved out of node `rock` (defined by `rock_nodes`), `keys` added to the
// node of their size (`cave`).
std::unique_ptr<GraphField> tunnels_in(const std::string& rock_nodes, const std::string& keys, const std::string& ground = "") {
    return graph(rock_nodes +
                     "a = { type = \"simplex3\", scale_m = 60.0, vertical_scale_m = 30.0 }\n"
                     "b = { type = \"simplex3\", scale_m = 60.0, vertical_scale_m = 30.0, offset = [9.0, 1.0, -4.0] }\n"
                     "t = { type = \"hypot\", a = \"a\", b = \"b\" }\n"
                     "w = { type = \"sub\", a = \"t\", b = 0.09 }\n"
                     "cave = { type = \"mul\", a = \"w\", b = 50.0" +
                     keys +
                     " }\n"
                     "carved = { type = \"neg\", in = \"cave\" }\n"
                     "out = { type = \"max\", a = \"rock\", b = \"carved\" }\n",
                 "out", ground);
}

// The proven range of the lattice's box holds every value sampled there.
void expect_in_proven_range(const GraphField& g, const Lattice& lat, const Sampled& got) {
    const ValueRange r = g.bounds(lat.bounds());
    const auto [lo, hi] = std::minmax_element(got.values.begin(), got.values.end());
    EXPECT_LE(r.lo, *lo);
    EXPECT_GE(r.hi, *hi);
}

const std::string kHills =
    "hills = {{ type = \"fbm2\", scale_m = 64.0, octaves = {}, amplitude = 20.0{} }}\n"
    "out = {{ type = \"plane\", height = \"hills\" }}\n";

}  // namespace lod_test

using namespace lod_test;

// fBm of 2D noise, 64 m, six octaves (wavelengths 64 .. 2 m): at 4 m samples the level shows
// the four of 8 m and over. The ground (a column output) and the sdf both follow.
TEST(GraphLod, a_2d_fbm_keeps_every_octave_at_the_faces_and_the_levels_octaves_inside) {
    const auto lod = lod_test::graph(fmt::format(fmt::runtime(kHills), 6, ", lod = true"), "out", "hills");
    const auto every = lod_test::graph(fmt::format(fmt::runtime(kHills), 6, ""), "out", "hills");
    const auto shown = lod_test::graph(fmt::format(fmt::runtime(kHills), 4, ""), "out", "hills");
    for (const auto [cx, cz] : {std::pair{0, 0}, std::pair{-3, 7}, std::pair{40000, -25000}}) {
        const Lattice lat = column_lattice(4.0, cx, cz, true);
        const Matched ground = check(*lod, *every, *shown, lat, true);
        const Matched values = check(*lod, *every, *shown, lat, false);
        // 36 columns a side (-2 .. 33): 9 two or fewer from a face, 2 three from it, 25 inside.
        EXPECT_EQ(ground.faces + ground.inside + ground.between, 36 * 36 * 36);
        EXPECT_EQ(values.inside, 36 * 25 * 25);
        EXPECT_GT(values.between, 0);
    }
    // Not in a World column, or at a level that shows every octave (1 m: 2 m octave kept):
    // every octave everywhere.
    for (const Lattice& lat : {column_lattice(4.0, 1, 1, false), column_lattice(1.0, 1, 1, true)}) {
        const Matched m = check(*lod, *every, *every, lat, false);
        EXPECT_GT(m.inside, 0);
    }
}

// A ridged 2D noise and the fast flavour's 3D fBm (on the lattice kernel, over the boxes of
// columns that need each part) the same way; at 4 m samples the ridges' 90 m, 5 octaves keep the four of 11 m and over.
TEST(GraphLod, ridged_noise_and_a_3d_fbm_of_the_fast_flavour_as_well) {
    const char* ridged =
        "r = {{ type = \"ridged2\", scale_m = 90.0, octaves = {}, offset = [4.0, -2.0]{} }}\n"
        "out = {{ type = \"plane\", height = \"r\" }}\n";
    // (The ridge's profile bends the blend: halfway is not checked.)
    check(*lod_test::graph(fmt::format(fmt::runtime(ridged), 5, ", lod = true")),
          *lod_test::graph(fmt::format(fmt::runtime(ridged), 5, "")), *lod_test::graph(fmt::format(fmt::runtime(ridged), 4, "")),
          column_lattice(4.0, 3, -1, true), false, false);
    const char* rough =
        "r = {{ type = \"fbm3\", scale_m = 20.0, octaves = {}, noise = \"fast\"{} }}\n"
        "h = {{ type = \"mul\", a = \"r\", b = 3.0 }}\n"
        "out = {{ type = \"plane\", height = \"h\" }}\n";
    // 20 m at 4 m samples: octaves of 20 and 10 m shown.
    const auto lod = lod_test::graph(fmt::format(fmt::runtime(rough), 3, ", lod = true"));
    const Matched m = check(*lod, *lod_test::graph(fmt::format(fmt::runtime(rough), 3, "")),
                            *lod_test::graph(fmt::format(fmt::runtime(rough), 2, "")), column_lattice(4.0, 2, 2, true), false);
    EXPECT_GT(m.inside, 0);
}

// A 3D noise smaller than two samples (the overhangs' 14 by 10 m at 8 m samples) is left out
// inside: there the sdf is the plane's alone; at 4 m samples it shows and nothing changes.
// With a gate on it (a subtract whose other side decides alone far from the surface) too.
TEST(GraphLod, a_3d_noise_smaller_than_two_samples_is_left_out_inside) {
    for (const char* guard :
         {"out = { type = \"add\", a = \"land\", b = \"b3\" }\n", "out = { type = \"subtract\", a = \"land\", b = \"b3\" }\n"}) {
        const std::string body = std::string(
                                     "land = { type = \"plane\", height = 3.0 }\n"
                                     "b = { type = \"simplex3\", scale_m = 14.0, vertical_scale_m = 10.0LOD }\n"
                                     "b3 = { type = \"mul\", a = \"b\", b = 4.0 }\n") +
                                 guard;
        const auto with = [&](const char* lod) {
            std::string text = body;
            text.replace(text.find("LOD"), 3, lod);
            return lod_test::graph(text);
        };
        const auto lod = with(", lod = true");
        const auto every = with("");
        const auto none = lod_test::graph(std::string("land = { type = \"plane\", height = 3.0 }\n"
                                                      "b3 = { type = \"mul\", a = 0.0, b = 4.0 }\n") +
                                          guard);
        SCOPED_TRACE(guard);
        const bool linear = std::string(guard).find("add") != std::string::npos;  // a subtract bends the blend
        const Matched m = check(*lod, *every, *none, column_lattice(8.0, -1, 0, true), false, linear);
        EXPECT_EQ(m.inside, 36 * 25 * 25) << guard;
        check(*lod, *every, *every, column_lattice(4.0, -1, 0, true), false);
    }
}

// Any node may say how small what it adds is (`detail_m`) and what it is where a level cannot
// show it (`far`): tunnels 9 m wide (detail_m = 12) are closed inside columns of 8 m samples
// (the sdf is the rock's alone there, bit for bit), kept at the faces and at 4 m samples.
TEST(GraphLod, a_node_under_two_samples_is_its_far_value_inside) {
    const std::string rock =
        "up = { type = \"y\" }\n"
        "rock = { type = \"sub\", a = \"up\", b = 2.0 }\n";
    const auto lod = tunnels_in(rock, ", detail_m = 12.0, far = 1000.0");
    const auto every = tunnels_in(rock, "");
    const auto none = lod_test::graph(rock + "out = { type = \"max\", a = \"rock\", b = -1000.0 }\n");
    const Matched m = check(*lod, *every, *none, column_lattice(8.0, 0, -1, true), false, false);
    EXPECT_EQ(m.inside, 36 * 25 * 25);
    check(*lod, *every, *every, column_lattice(4.0, 0, -1, true), false);
    // The proven range holds the values (the far value taken into the node's range).
    const Lattice lat = column_lattice(8.0, 0, -1, true);
    expect_in_proven_range(*lod, lat, sample(*lod, lat));
}

// A node left out only deep under the ground (`depth_m`): tunnels (detail_m = 12) at 8 m
// samples, inside the columns, kept down to 40 m under the hills' ground and closed two
// samples (16 m) deeper, bit for bit each; at the faces and at 4 m samples kept everywhere.
TEST(GraphLod, a_node_with_a_depth_is_left_out_only_deep_under_the_ground) {
    const std::string hills =
        "hills = { type = \"fbm2\", scale_m = 200.0, octaves = 3, amplitude = 20.0 }\n"
        "rock = { type = \"plane\", height = \"hills\" }\n";
    const auto deep = tunnels_in(hills, ", detail_m = 12.0, far = 1000.0, depth_m = 40.0", "hills");
    const auto every = tunnels_in(hills, "", "hills");
    const auto none = tunnels_in(hills, ", detail_m = 12.0, far = 1000.0", "hills");  // inside a column: the rock alone
    for (const double spacing : {8.0, 4.0}) {
        Lattice lat = column_lattice(spacing, 1, -2, true);
        lat.origin.y = -20;  // -160 .. 120 m at 8 m samples
        Lattice plain = lat;
        plain.lod_column_samples = 0;
        const Sampled got = sample(*deep, lat), all = sample(*every, plain), closed = sample(*none, lat);
        int kept = 0, left_out = 0, faces = 0;
        for (int k = 0; k < lat.size.z; ++k)
            for (int j = 0; j < lat.size.y; ++j)
                for (int i = 0; i < lat.size.x; ++i) {
                    const std::size_t at = lat.index(i, j, k);
                    const double depth = got.ground[static_cast<std::size_t>(k) * lat.size.x + i] - lat.position(i, j, k).y;
                    SCOPED_TRACE(fmt::format("{} m samples, at {},{},{}, {:.2f} m deep", spacing, i, j, k, depth));
                    if (spacing == 4.0 || from_faces(lat, i, k) <= 2) {
                        EXPECT_EQ(got.values[at], all.values[at]);
                        ++faces;
                    } else if (from_faces(lat, i, k) >= 4 && depth < 40.0 - 0.01) {
                        EXPECT_EQ(got.values[at], all.values[at]);
                        ++kept;
                    } else if (from_faces(lat, i, k) >= 4 && depth > 40.0 + 2.0 * spacing + 0.01) {
                        EXPECT_EQ(got.values[at], closed.values[at]);
                        ++left_out;
                    }
                }
        if (spacing == 8.0) {
            EXPECT_GT(kept, 36 * 25 * 5);
            EXPECT_GT(left_out, 36 * 25 * 5);
        } else {
            EXPECT_EQ(faces, 36 * 36 * 36);
        }
        expect_in_proven_range(*deep, lat, got);
    }
}

// Every simplified value lies in the proven range of the lattice's box.
TEST(GraphLod, the_proven_range_holds_the_simplified_values) {
    const auto lod = lod_test::graph(fmt::format(fmt::runtime(kHills), 6, ", lod = true"), "out", "hills");
    for (const double spacing : {2.0, 4.0, 16.0, 64.0}) {
        const Lattice lat = column_lattice(spacing, 1, -2, true);
        SCOPED_TRACE(spacing);
        expect_in_proven_range(*lod, lat, sample(*lod, lat));
    }
}

TEST(GraphLod, misuse_is_refused_with_the_line) {
    // The node on line 4 of the file (the header takes three), and what the message says.
    const std::pair<const char*, const char*> cases[] = {
        {"n = { type = \"plane\", height = 1.0, lod = true }", "only the noises"},
        {"n = { type = \"fbm2\", scale_m = 9.0, lod = 1 }", "expected true or false"},
        {"n = { type = \"fbm2\", scale_m = 9.0, lod = true, grid_m = 2.0 }", "'grid_m' does not go with 'lod'"},
        {"n = { type = \"add\", a = 1.0, b = 2.0, far = 3.0 }", "goes with 'detail_m'"},
        {"n = { type = \"add\", a = 1.0, b = 2.0, detail_m = 0.0 }", "expected a number in (0, 100000]"},
        {"n = { type = \"warp2\", scale_m = 9.0, distance_m = 2.0, detail_m = 4.0 }", "several outputs"},
        {"n = { type = \"y\", depth_m = 4.0 }", "'depth_m': goes with 'detail_m'"},
        {"n = { type = \"y\", detail_m = 4.0, depth_m = 4.0 }", "no 'ground' output"},
        {"n = { type = \"add\", a = \"h\", b = 1.0, detail_m = 4.0, depth_m = 4.0 }", "x and z only"},
        {"n = { type = \"simplex3\", scale_m = 9.0, detail_m = 4.0, depth_m = 4.0 }", "a 3D noise runs over the whole lattice"},
    };
    for (const auto& [node, says] : cases) {
        std::string error = "compiled";
        try {
            // (A ground for the depth, but not for the one that asks for it.)
            const bool ground =
                std::string(node).find("depth_m") != std::string::npos && std::string(node).find("type = \"y\"") == std::string::npos;
            lod_test::graph(std::string(node) + "\nh = { type = \"x\" }\nout = { type = \"add\", a = \"n\", b = \"h\" }\n", "out",
                            ground ? "h" : "");
        } catch (const GraphError& e) {
            error = e.what();
        }
        EXPECT_EQ(error.rfind("lod.toml:4: node 'n': ", 0), 0u) << node << ": " << error;
        EXPECT_NE(error.find(says), std::string::npos) << node << ": " << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

// drainage with far_bed_samples (issue 53: dashed rivers from afar): inside a World column a
// far level's river beds are at least that many samples wide (1.5 x 8 m here, the node's own
// 4 m), so the ground only sinks, and by metres where a sample falls in the widened bed; at
// the faces, at level 0 and outside World columns it keeps every bit. Its channels are the
// node's own: sampled far first (tiles built by the widened lanes), the points' ground is the same.
TEST(GraphLod, far_levels_widen_narrow_river_beds_inside_and_keep_every_bit_at_the_faces) {
    const char* rivers =
        "hills = {{ type = \"fbm2\", scale_m = 2000.0, octaves = 2, amplitude = 150.0 }}\n"
        "control = {{ type = \"add\", a = \"hills\", b = 200.0 }}\n"
        "out = {{ type = \"drainage\", control = \"control\", relief = 80.0, cell_m = 500.0, levels = 2, slope = 0.3, "
        "floor_m = 30.0, bed_width_m = 4.0, bed_depth_m = 2.0, water_levels = 1, sea_level = 0.0{} }}\n"
        "land = {{ type = \"plane\", height = \"out\" }}\n";
    const auto far = lod_test::graph(fmt::format(fmt::runtime(rivers), ", far_bed_samples = 1.5"), "land", "out");
    const auto every = lod_test::graph(fmt::format(fmt::runtime(rivers), ""), "land", "out");
    // Chunks of 256 m over 2 km, 36 x 36 columns each.
    int faces = 0, inside = 0, sunk = 0;
    for (int cx = -4; cx < 4; ++cx)
        for (int cz = -4; cz < 4; ++cz) {
            const Lattice lat = column_lattice(8.0, cx, cz, true);
            Lattice plain = lat;
            plain.lod_column_samples = 0;
            const Sampled got = sample(*far, lat), all = sample(*every, plain);
            for (int k = 0; k < lat.size.z; ++k)
                for (int i = 0; i < lat.size.x; ++i) {
                    const std::size_t at = static_cast<std::size_t>(k) * lat.size.x + i;
                    const float g = got.ground[at], a = all.ground[at];
                    if (from_faces(lat, i, k) <= 2) {
                        EXPECT_EQ(g, a) << "at " << i << "," << k;
                        ++faces;
                        continue;
                    }
                    EXPECT_LE(g, a + 1e-3f) << "at " << i << "," << k;
                    inside += from_faces(lat, i, k) >= 4;
                    sunk += g < a - 0.5f;
                }
        }
    EXPECT_EQ(faces, 64 * (36 * 36 - 27 * 27));
    EXPECT_EQ(inside, 64 * 25 * 25);
    EXPECT_GT(sunk, 100);
    // At 1 m (level 0) the beds are wider than 1.5 samples already, and outside a World column
    // (a plain lattice, the points' path) nothing widens: the node's bits as without the key.
    for (const Lattice& lat : {column_lattice(1.0, 0, 0, true), column_lattice(8.0, 0, 0, false)}) {
        const Matched m = check(*far, *every, *every, lat, true);
        EXPECT_GT(m.inside, 0);
    }
    for (int x = -1000; x < 1000; x += 40)
        for (int z = -1000; z < 1000; z += 40) ASSERT_EQ(far->ground_height(x, z), every->ground_height(x, z)) << x << "," << z;
}
