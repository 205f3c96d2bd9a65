// Field graphs, node by node: each type against its formula at points, shapes and CSG
// against the library's own shapes bit for bit, curve, terrace and remap at their ends and
// knees, the lattice path against the point path.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "isoterra/graph.hpp"
#include "random_points.hpp"
#include "xyz_nodes.hpp"

using namespace isoterra;

namespace {

// A graph whose sdf is node `out`, with `body` the [node] lines.
std::unique_ptr<GraphField> node_graph(const std::string& body, const std::string& extra = "") {
    return parse_graph("format = 1\nseed = 7\n" + extra + "[node]\n" + body + "\n[output]\nsdf = \"out\"\n", "test.toml");
}

using test::random_points;

std::vector<double> values(const Field& f, const std::vector<glm::dvec3>& points) {
    std::vector<double> out(points.size());
    f.sample_points(points.data(), points.size(), out.data());
    return out;
}

using test::kXYZ;

// The positions of a lattice's samples, in its order (x fastest).
std::vector<glm::dvec3> lattice_points(const Lattice& lattice) {
    std::vector<glm::dvec3> points;
    for (int k = 0; k < lattice.size.z; ++k)
        for (int j = 0; j < lattice.size.y; ++j)
            for (int i = 0; i < lattice.size.x; ++i) points.push_back(lattice.position(i, j, k));
    return points;
}

}  // namespace

TEST(GraphNodes, arithmetic_nodes_follow_their_formulas_at_points) {
    struct Case {
        const char* node;
        double (*formula)(double x, double y, double z);
    };
    const Case cases[] = {
        {"{ type = \"add\", a = \"px\", b = \"py\" }", [](double x, double y, double) { return x + y; }},
        {"{ type = \"sub\", a = \"px\", b = \"py\" }", [](double x, double y, double) { return x - y; }},
        {"{ type = \"mul\", a = \"px\", b = \"py\" }", [](double x, double y, double) { return x * y; }},
        {"{ type = \"min\", a = \"px\", b = \"py\" }", [](double x, double y, double) { return std::min(x, y); }},
        {"{ type = \"max\", a = \"px\", b = \"py\" }", [](double x, double y, double) { return std::max(x, y); }},
        {"{ type = \"neg\", in = \"pz\" }", [](double, double, double z) { return -z; }},
        {"{ type = \"abs\", in = \"pz\" }", [](double, double, double z) { return std::fabs(z); }},
        {"{ type = \"clamp\", in = \"px\", lo = \"py\", hi = 3.5 }",
         [](double x, double y, double) { return std::min(std::max(x, y), 3.5); }},
        {"{ type = \"lerp\", a = \"px\", b = \"py\", t = \"pz\" }", [](double x, double y, double z) { return x + (y - x) * z; }},
        {"{ type = \"smoothstep\", in = \"px\", from = -2.0, to = 6.0 }",
         [](double x, double, double) {
             const double t = std::min(std::max((x + 2.0) / 8.0, 0.0), 1.0);
             return t * t * (3 - 2 * t);
         }},
        {"{ type = \"pow\", in = \"px\", exponent = 2.5 }", [](double x, double, double) { return std::pow(std::max(x, 0.0), 2.5); }},
        {"{ type = \"remap\", in = \"px\", from = [-1.0, 1.0], to = [10.0, 20.0] }",
         [](double x, double, double) { return 10.0 + (x + 1.0) * (10.0 / 2.0); }},
        {"{ type = \"hypot\", a = \"px\", b = \"pz\" }", [](double x, double, double z) { return js_hypot(x, z); }},
        {"{ type = \"plane\", height = \"px\" }", [](double x, double y, double) { return y - x; }},
        {"{ type = \"union\", a = \"px\", b = \"pz\" }", [](double x, double, double z) { return std::min(x, z); }},
        {"{ type = \"intersect\", a = \"px\", b = \"pz\" }", [](double x, double, double z) { return std::max(x, z); }},
        {"{ type = \"subtract\", a = \"px\", b = \"pz\" }", [](double x, double, double z) { return std::max(x, -z); }},
        {"{ type = \"smooth_union\", a = \"px\", b = \"pz\", k = 3.0 }", [](double x, double, double z) { return smooth_min(x, z, 3.0); }},
        {"{ type = \"smooth_subtract\", a = \"px\", b = \"pz\", k = 3.0 }",
         [](double x, double, double z) { return -smooth_min(-x, z, 3.0); }},
        {"{ type = \"ridge_profile\", in = \"px\", sharpness = 1.6, crest = 0.15, exponent = 3.0 }",
         [](double x, double, double) { return ridge_profile(x, 1.6, 0.15, 3.0); }},
    };
    const auto points = random_points(11, 300, 8.0);
    for (const Case& c : cases) {
        const auto g = node_graph(std::string(kXYZ) + "out = " + c.node);
        const auto got = values(*g, points);
        for (std::size_t i = 0; i < points.size(); ++i)
            ASSERT_EQ(got[i], c.formula(points[i].x, points[i].y, points[i].z)) << c.node << " at " << i;
    }
}

TEST(GraphNodes, shapes_and_csg_equal_the_librarys_shapes_bit_for_bit) {
    const auto g = node_graph(
        "ball = { type = \"sphere\", center = [1.0, 2.0, -3.0], radius = 5.5 }\n"
        "brick = { type = \"box\", center = [2.0, 0.0, 1.0], half_extent = [3.0, 1.5, 2.0] }\n"
        "ground = { type = \"plane\", height = 1.25 }\n"
        "cut = { type = \"smooth_subtract\", a = \"ground\", b = \"ball\", k = 2.0 }\n"
        "out = { type = \"smooth_union\", a = \"cut\", b = \"brick\", k = 1.5 }\n");
    std::shared_ptr<const Field> ball = make_sphere({1, 2, -3}, 5.5);
    std::shared_ptr<const Field> brick = make_box({2, 0, 1}, {3, 1.5, 2});
    std::shared_ptr<const Field> ground = make_plane({0, 1, 0}, 1.25);
    std::shared_ptr<const Field> cut = make_csg(CsgOp::smooth_subtract, ground, ball, 2.0);
    const auto expected = make_csg(CsgOp::smooth_union, cut, brick, 1.5);
    const auto points = random_points(5, 2000, 10.0);
    const auto got = values(*g, points);
    const auto want = values(*expected, points);
    for (std::size_t i = 0; i < points.size(); ++i) ASSERT_EQ(got[i], want[i]) << i;
    // Known values: the ball's centre is 5.5 m inside it, 0.75 m above the plane.
    const auto only_ball = node_graph("out = { type = \"sphere\", center = [1.0, 2.0, -3.0], radius = 5.5 }");
    EXPECT_EQ(only_ball->value({1, 2, -3}), -5.5);
    EXPECT_EQ(only_ball->value({1, 2, 7}), 4.5);
    const auto only_box = node_graph("out = { type = \"box\", half_extent = [1.0, 2.0, 3.0] }");
    EXPECT_EQ(only_box->value({4, 6, 0}), 5.0);
    EXPECT_EQ(only_box->value({0, 0, 0}), -1.0);
}

TEST(GraphNodes, curve_terrace_and_remap_at_their_ends_and_knees) {
    const auto curve =
        node_graph(std::string(kXYZ) + "out = { type = \"curve\", in = \"px\", points = [[-1.0, 5.0], [0.0, 0.0], [2.0, 4.0]] }");
    const auto at = [&](const Field& f, double x) { return f.value({x, 0.0, 0.0}); };
    EXPECT_EQ(at(*curve, -100.0), 5.0);  // flat before the first knot
    EXPECT_EQ(at(*curve, -1.0), 5.0);
    EXPECT_EQ(at(*curve, -0.5), 2.5);
    EXPECT_EQ(at(*curve, 0.0), 0.0);  // the knee
    EXPECT_EQ(at(*curve, 1.0), 2.0);
    EXPECT_EQ(at(*curve, 2.0), 4.0);
    EXPECT_EQ(at(*curve, 1e6), 4.0);  // flat after the last
    const auto hard = node_graph(std::string(kXYZ) + "out = { type = \"terrace\", in = \"px\", step = 10.0 }");
    EXPECT_EQ(at(*hard, 0.0), 0.0);
    EXPECT_EQ(at(*hard, 9.99), 0.0);
    EXPECT_EQ(at(*hard, 10.0), 10.0);
    EXPECT_EQ(at(*hard, -0.5), -10.0);
    const auto soft = node_graph(std::string(kXYZ) + "out = { type = \"terrace\", in = \"px\", step = 10.0, smoothness = 0.5 }");
    EXPECT_EQ(at(*soft, 2.0), 0.0);  // flat for the first half of the step
    EXPECT_EQ(at(*soft, 5.0), 0.0);  // the knee
    EXPECT_EQ(at(*soft, 7.5), 5.0);  // half way up the smooth rise
    EXPECT_NEAR(at(*soft, 9.999999), 10.0, 1e-6);
    EXPECT_EQ(at(*soft, 10.0), 10.0);
    const auto full = node_graph(std::string(kXYZ) + "out = { type = \"terrace\", in = \"px\", step = 4.0, smoothness = 1.0 }");
    EXPECT_EQ(at(*full, 2.0), 2.0);  // smoothness 1: a smoothstep over the whole step
    const auto remap = node_graph(std::string(kXYZ) + "out = { type = \"remap\", in = \"px\", from = [2.0, 4.0], to = [1.0, -1.0] }");
    EXPECT_EQ(at(*remap, 2.0), 1.0);
    EXPECT_EQ(at(*remap, 4.0), -1.0);
    EXPECT_EQ(at(*remap, 3.0), 0.0);
    EXPECT_EQ(at(*remap, 6.0), -3.0);  // not clamped
}

TEST(GraphNodes, noises_follow_the_library_noises) {
    const NoiseSet noise(7);
    const auto g2 = node_graph("out = { type = \"fbm2\", scale_m = 300.0, offset = [40.0, -70.0], octaves = 4, gain = 0.45 }");
    const auto g3 = node_graph("out = { type = \"simplex3\", scale_m = 50.0, vertical_scale_m = 35.0, offset = [43.7, -11.3, 7.9] }");
    const auto r2 = node_graph("out = { type = \"ridged2\", scale_m = 500.0, octaves = 3, sharpness = 1.6, crest = 0.15, exponent = 3.0 }");
    const auto f3 = node_graph("out = { type = \"fbm3\", scale_m = 80.0, octaves = 3 }");
    const auto w = node_graph(
        "w = { type = \"warp2\", scale_m = 600.0, distance_m = 40.0 }\n"
        "out = { type = \"simplex2\", x = \"w.x\", z = \"w.z\", scale_m = 200.0 }");
    const FbmShape fbm{4, 2.0, 0.45, 0.5};
    for (const glm::dvec3& p : random_points(3, 200, 5000.0)) {
        EXPECT_EQ(g2->value(p), fbm2(noise.noise2, p.x / 300.0 + 40.0, p.z / 300.0 - 70.0, fbm));
        EXPECT_EQ(g3->value(p), noise.noise3(p.x / 50.0 + 43.7, p.y / 35.0 - 11.3, p.z / 50.0 + 7.9));
        EXPECT_EQ(r2->value(p), ridge_profile(fbm2(noise.noise2, p.x / 500.0, p.z / 500.0, FbmShape{3, 2.0, 0.5, 0.5}), 1.6, 0.15, 3.0));
        EXPECT_EQ(f3->value(p), fbm3(noise.noise3, p.x / 80.0, p.y / 80.0, p.z / 80.0, FbmShape{3, 2.0, 0.5, 0.5}));
        double x = p.x, z = p.z;
        warp2(noise.noise2, 600.0, 40.0, x, z);
        EXPECT_EQ(w->value(p), noise.noise2(x / 200.0, z / 200.0));
    }
}

TEST(GraphNodes, the_lattice_path_matches_the_point_path) {
    const auto g = node_graph(
        "h = { type = \"fbm2\", scale_m = 120.0, octaves = 3 }\n"
        "ground = { type = \"mul\", a = \"h\", b = 30.0 }\n"
        "py = { type = \"y\" }\n"
        "d = { type = \"sub\", a = \"py\", b = \"ground\" }\n"
        "bend = { type = \"simplex3\", scale_m = 40.0 }\n"
        "wobble = { type = \"mul\", a = \"bend\", b = 4.0 }\n"
        "terrain = { type = \"add\", a = \"d\", b = \"wobble\" }\n"
        "ball = { type = \"sphere\", center = [10.0, 0.0, 10.0], radius = 12.0 }\n"
        "out = { type = \"smooth_subtract\", a = \"terrain\", b = \"ball\", k = 3.0 }\n");
    Lattice lattice{{-7, -20, 3}, {19, 23, 17}, 2.0};
    std::vector<float> lattice_values(lattice.count());
    g->sample_lattice(lattice, lattice_values.data());
    const std::vector<glm::dvec3> points = lattice_points(lattice);
    const auto point_values = values(*g, points);
    for (std::size_t n = 0; n < points.size(); ++n)  // single-precision 3D noise times 4 m
        ASSERT_NEAR(lattice_values[n], point_values[n], 1e-4 + 1e-6 * std::fabs(point_values[n])) << n;
}

// Every pointwise node type in one graph without noise or hypot (whose lattice formula
// differs): the lattice path runs them fused, over blocks of 256 lanes with scratch slots
// reused, the point path node by node; the same formulas give the same bits.
TEST(GraphNodes, fused_pointwise_nodes_give_the_point_paths_bits) {
    const auto g = node_graph(std::string(kXYZ) +
                              "s = { type = \"sphere\", center = [3.0, 1.0, -2.0], radius = 9.0 }\n"
                              "b = { type = \"box\", center = [-4.0, 0.0, 5.0], half_extent = [6.0, 3.0, 4.0] }\n"
                              "u = { type = \"union\", a = \"s\", b = \"b\" }\n"
                              "i = { type = \"intersect\", a = \"u\", b = \"pz\" }\n"
                              "su = { type = \"smooth_union\", a = \"i\", b = \"px\", k = 2.5 }\n"
                              "ss = { type = \"smooth_subtract\", a = \"su\", b = \"s\", k = 1.5 }\n"
                              "sub = { type = \"subtract\", a = \"ss\", b = \"b\" }\n"
                              "r = { type = \"remap\", in = \"sub\", from = [-10.0, 10.0], to = [-1.0, 1.0] }\n"
                              "c = { type = \"clamp\", in = \"r\", lo = -0.8, hi = 0.9 }\n"
                              "sm = { type = \"smoothstep\", in = \"c\", from = -0.5, to = 0.5 }\n"
                              "pw = { type = \"pow\", in = \"sm\", exponent = 1.7 }\n"
                              "cv = { type = \"curve\", in = \"r\", points = [[-1.0, 0.0], [0.0, 3.0], [1.0, 2.0]] }\n"
                              "tr = { type = \"terrace\", in = \"sub\", step = 2.0, smoothness = 0.3 }\n"
                              "rp = { type = \"ridge_profile\", in = \"c\", sharpness = 1.5, crest = 0.2, exponent = 2.0 }\n"
                              "fo = { type = \"fold\", in = \"c\" }\n"
                              "ab = { type = \"abs\", in = \"fo\" }\n"
                              "ng = { type = \"neg\", in = \"ab\" }\n"
                              "lp = { type = \"lerp\", a = \"pw\", b = \"cv\", t = \"rp\" }\n"
                              "mx = { type = \"max\", a = \"lp\", b = \"ng\" }\n"
                              "mn = { type = \"min\", a = \"mx\", b = \"tr\" }\n"
                              "ml = { type = \"mul\", a = \"mn\", b = 3.0 }\n"
                              "pl = { type = \"plane\", height = \"ml\" }\n"
                              "out = { type = \"add\", a = \"pl\", b = \"sub\" }\n");
    const Lattice lattice{{-20, -9, -13}, {33, 21, 29}, 0.75};
    std::vector<float> lattice_values(lattice.count());
    g->sample_lattice(lattice, lattice_values.data());
    const std::vector<glm::dvec3> points = lattice_points(lattice);
    const auto point_values = values(*g, points);
    for (std::size_t n = 0; n < points.size(); ++n) ASSERT_EQ(lattice_values[n], static_cast<float>(point_values[n])) << n;
}

// A node that depends on nothing but reads a noise of constant coordinates is not folded
// into a number before the noise has a value (it once read the noise as 0).
TEST(GraphNodes, arithmetic_on_a_noise_at_a_fixed_point_reads_the_noise) {
    const auto noise = node_graph("out = { type = \"simplex2\", scale_m = 50.0, x = 30.0, z = -70.0 }");
    const auto doubled =
        node_graph("n = { type = \"simplex2\", scale_m = 50.0, x = 30.0, z = -70.0 }\nout = { type = \"mul\", a = \"n\", b = 2.0 }");
    const std::vector<glm::dvec3> points = {{0, 0, 0}, {100, -5, 3}};
    const double n = values(*noise, points)[0];
    ASSERT_NE(n, 0.0);
    EXPECT_EQ(values(*noise, points)[1], n);
    EXPECT_EQ(values(*doubled, points)[0], 2.0 * n);
    const Lattice lattice{{0, 0, 0}, {3, 3, 3}, 1.0};
    std::vector<float> grid(lattice.count());
    doubled->sample_lattice(lattice, grid.data());
    for (const float v : grid) EXPECT_EQ(v, static_cast<float>(2.0 * n));
}
