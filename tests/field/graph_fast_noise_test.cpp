// Graphs that ask for the fast noise flavour (`noise = "fast"` for the file, or on a noise
// node): their values are FastSimplex3's and FastSimplex2's bits on every path, their ranges
// hold, the seed flavour stays the default, and a bad flavour is a one-line error.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "isoterra/graph.hpp"
#include "random_points.hpp"

using namespace isoterra;

namespace {

std::unique_ptr<GraphField> flavoured_graph(const std::string& header, const std::string& body) {
    return parse_graph("format = 1\nseed = 7\n" + header + "[node]\n" + body + "\n[output]\nsdf = \"out\"\n", "test.toml");
}

using test::random_points;

const char* kSimplex = "out = { type = \"simplex3\", scale_m = 50.0, vertical_scale_m = 35.0, offset = [43.7, -11.3, 7.9] }";
const char* kFbm = "out = { type = \"fbm3\", scale_m = 80.0, octaves = 4, gain = 0.45 }";

}  // namespace

TEST(GraphFastNoise, the_files_flavour_gives_fast_simplex3s_bits_at_points) {
    const FastSimplex3 fast(7);
    const NoiseSet seed(7);
    const auto simplex = flavoured_graph("noise = \"fast\"\n", kSimplex);
    const auto fbm = flavoured_graph("noise = \"fast\"\n", kFbm);
    const auto by_node = flavoured_graph("",
                                         "out = { type = \"simplex3\", scale_m = 50.0, vertical_scale_m = 35.0, "
                                         "offset = [43.7, -11.3, 7.9], noise = \"fast\" }");
    const auto seed_by_node = flavoured_graph("noise = \"fast\"\n", "out = { type = \"simplex3\", scale_m = 50.0, noise = \"seed\" }");
    const auto plain = flavoured_graph("", "out = { type = \"simplex3\", scale_m = 50.0 }");
    const FbmShape shape{4, 2.0, 0.45, 0.5};
    for (const glm::dvec3& p : random_points(3, 300, 5000.0)) {
        const float n = fast(p.x / 50.0 + 43.7, p.y / 35.0 - 11.3, p.z / 50.0 + 7.9);
        EXPECT_EQ(simplex->value(p), static_cast<double>(n));
        EXPECT_EQ(by_node->value(p), static_cast<double>(n));
        EXPECT_EQ(fbm->value(p), static_cast<double>(fast.fbm(p.x / 80.0, p.y / 80.0, p.z / 80.0, shape)));
        EXPECT_EQ(seed_by_node->value(p), seed.noise3(p.x / 50.0, p.y / 50.0, p.z / 50.0));
        EXPECT_EQ(plain->value(p), seed.noise3(p.x / 50.0, p.y / 50.0, p.z / 50.0));  // absent: the seed flavour
    }
}

TEST(GraphFastNoise, two_d_nodes_of_the_fast_flavour_give_fast_simplex2s_bits) {
    const FastSimplex2 fast(7);
    const NoiseSet seed(7);
    const auto fbm = flavoured_graph("noise = \"fast\"\n",
                                     "out = { type = \"fbm2\", scale_m = 300.0, offset = [40.0, -70.0], octaves = 4, gain = 0.45 }");
    const auto simplex = flavoured_graph("", "out = { type = \"simplex2\", scale_m = 200.0, noise = \"fast\" }");
    const auto ridged = flavoured_graph(
        "noise = \"fast\"\n", "out = { type = \"ridged2\", scale_m = 500.0, octaves = 3, sharpness = 1.6, crest = 0.15, exponent = 3.0 }");
    const auto seed_fbm =
        flavoured_graph("noise = \"fast\"\n", "out = { type = \"fbm2\", scale_m = 300.0, octaves = 4, noise = \"seed\" }");
    for (const glm::dvec3& p : random_points(4, 300, 1e5)) {
        EXPECT_EQ(fbm->value(p), static_cast<double>(fast.fbm(p.x / 300.0 + 40.0, p.z / 300.0 - 70.0, FbmShape{4, 2.0, 0.45, 0.5})));
        EXPECT_EQ(simplex->value(p), static_cast<double>(fast(p.x / 200.0, p.z / 200.0)));
        EXPECT_EQ(ridged->value(p), ridge_profile(fast.fbm(p.x / 500.0, p.z / 500.0, FbmShape{3, 2.0, 0.5, 0.5}), 1.6, 0.15, 3.0));
        EXPECT_EQ(seed_fbm->value(p), fbm2(seed.noise2, p.x / 300.0, p.z / 300.0, FbmShape{4, 2.0, 0.5, 0.5}));
    }
}

TEST(GraphFastNoise, the_ranges_of_fast_noises_hold_what_they_sample) {
    // Ground of fast fBm (its range by the 2D slope bound), 3D fast noise on top: every value
    // sampled in a box lies in the graph's range over that box, for boxes small and large.
    const auto g = flavoured_graph("noise = \"fast\"\n",
                                   "hills = { type = \"fbm2\", scale_m = 150.0, octaves = 5 }\n"
                                   "ground = { type = \"mul\", a = \"hills\", b = 40.0 }\n"
                                   "land = { type = \"plane\", height = \"ground\" }\n"
                                   "n = { type = \"fbm3\", scale_m = 30.0, octaves = 3 }\n"
                                   "bumps = { type = \"mul\", a = \"n\", b = 6.0 }\n"
                                   "out = { type = \"add\", a = \"land\", b = \"bumps\" }");
    Mulberry32 r(9);
    std::size_t checked = 0;
    for (int b = 0; b < 200; ++b) {
        const double size = b % 4 == 0 ? 400.0 : b % 4 == 1 ? 40.0 : b % 4 == 2 ? 4.0 : 0.5;
        const glm::dvec3 lo((r.next() - 0.5) * 2e4, (r.next() - 0.5) * 80.0, (r.next() - 0.5) * 2e4);
        const Box box{lo, lo + glm::dvec3(size)};
        const ValueRange range = g->bounds(box);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 4; ++k) {
                    const glm::dvec3 p = lo + glm::dvec3(i, j, k) * (size / 3.0);
                    const double v = g->value(p);
                    ASSERT_GE(v, range.lo) << "box " << b;
                    ASSERT_LE(v, range.hi) << "box " << b;
                    ++checked;
                }
    }
    EXPECT_EQ(checked, 200u * 64u);
}

TEST(GraphFastNoise, lattice_and_points_give_the_same_bits_and_match_the_noises_lattice) {
    // The seed flavour's lattice kernel differs from its double path by up to 2e-6; the fast
    // flavour has one arithmetic, so a chunk and its points agree exactly.
    for (const char* body : {kSimplex, kFbm}) {
        const auto g = flavoured_graph("noise = \"fast\"\n", body);
        const Lattice lattice{{-7, -20, 3}, {19, 23, 17}, 2.0};
        std::vector<float> on_lattice(lattice.count());
        g->sample_lattice(lattice, on_lattice.data());
        std::vector<glm::dvec3> points;
        for (int k = 0; k < lattice.size.z; ++k)
            for (int j = 0; j < lattice.size.y; ++j)
                for (int i = 0; i < lattice.size.x; ++i) points.push_back(lattice.position(i, j, k));
        std::vector<double> at_points(points.size());
        g->sample_points(points.data(), points.size(), at_points.data());
        std::size_t differ = 0;
        for (std::size_t n = 0; n < points.size(); ++n) differ += on_lattice[n] != static_cast<float>(at_points[n]);
        EXPECT_EQ(differ, 0u) << body;
    }
    // And the lattice is FastSimplex3's own lattice over the same coordinates.
    const auto g = flavoured_graph("noise = \"fast\"\n", kSimplex);
    const Lattice lattice{{32, -64, 96}, {33, 33, 33}, 1.0};
    std::vector<float> graph_values(lattice.count()), noise_values(lattice.count());
    g->sample_lattice(lattice, graph_values.data());
    NoiseLattice nl{lattice.origin, lattice.size, lattice.spacing_m, {50.0, 35.0, 50.0}, {43.7, -11.3, 7.9}};
    FastSimplex3(7).lattice(nl, noise_values.data());
    EXPECT_EQ(std::memcmp(graph_values.data(), noise_values.data(), graph_values.size() * sizeof(float)), 0);
}

TEST(GraphFastNoise, a_guarded_fast_noise_is_computed_whole_and_changes_no_bit) {
    // A fast noise behind a max with the ground would be a gate for the seed flavour; the fast
    // kernel has no gate, so nothing is skipped and the values are those of the ungated twin.
    const std::string body =
        "hills = { type = \"fbm2\", scale_m = 120.0, octaves = 3 }\n"
        "height = { type = \"mul\", a = \"hills\", b = 20.0 }\n"
        "land = { type = \"plane\", height = \"height\" }\n"
        "n = { type = \"simplex3\", scale_m = 20.0 }\n"
        "blobs = { type = \"mul\", a = \"n\", b = 10.0 }\n"
        "guarded = { type = \"max\", a = \"land\", b = \"blobs\" }\n";
    const auto gated = flavoured_graph("noise = \"fast\"\n", body + "out = { type = \"add\", a = \"guarded\", b = 0.0 }");
    const auto twin = flavoured_graph("noise = \"fast\"\n", body +
                                                                "low = { type = \"sub\", a = \"n\", b = 1e12 }\n"
                                                                "out = { type = \"max\", a = \"guarded\", b = \"low\" }");
    const Lattice lattice{{-16, -32, 40}, {33, 33, 33}, 1.0};
    std::vector<float> a(lattice.count()), b(lattice.count());
    gated->sample_lattice(lattice, a.data());
    twin->sample_lattice(lattice, b.data());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
    EXPECT_EQ(gated->count_skipped(lattice).skipped, 0u);
}

TEST(GraphFastNoise, a_flavour_other_than_seed_or_fast_is_refused_in_one_line) {
    const auto message = [](const std::string& header, const std::string& body) {
        try {
            flavoured_graph(header, body);
        } catch (const GraphError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string file = message("noise = \"quick\"\n", kSimplex);
    EXPECT_NE(file.find("key 'noise': expected \"seed\" (the default) or \"fast\", got \"quick\""), std::string::npos) << file;
    EXPECT_EQ(file.find('\n'), std::string::npos);
    const std::string node = message("", "out = { type = \"fbm3\", scale_m = 80.0, noise = 3 }");
    EXPECT_NE(node.find("input 'noise': expected \"seed\" or \"fast\", got 3"), std::string::npos) << node;
    const std::string other = message("", "out = { type = \"warp2\", scale_m = 80.0, distance_m = 5.0, noise = \"fast\" }");
    EXPECT_NE(other.find("unknown input 'noise' for a warp2 node"), std::string::npos) << other;
}
