// The landform nodes of field graphs against their formulas at points: damped fBm (its
// value written out octave by octave, its gradient ports against differences of its value),
// monotone splines (through their knots, monotone, no overshoot, PCHIP's slopes, nested
// knot values), fold, slope, curvature and cellular distance (against a brute-force search).
// Their proven ranges are fuzzed with the other nodes' in graph_bounds_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "isoterra/graph.hpp"
#include "xyz_nodes.hpp"

using namespace isoterra;

namespace {

using test::kXYZ;

// A graph of seed 7 whose sdf is `output`, with `body` the [node] lines.
std::unique_ptr<GraphField> landform_graph(const std::string& body, const std::string& output = "out") {
    return parse_graph("format = 1\nseed = 7\n[node]\n" + std::string(kXYZ) + body + "\n[output]\nsdf = \"" + output + "\"\n", "test.toml");
}

double at(const GraphField& g, double x, double y, double z) {
    const glm::dvec3 p(x, y, z);
    double v = 0.0;
    g.sample_points(&p, 1, &v);
    return v;
}

ValueRange range_of(const GraphField& g, const std::string& id, const Box& box) {
    for (const GraphNodeRange& r : g.node_ranges(box))
        if (r.id == id) return r.range;
    ADD_FAILURE() << "no node " << id;
    return {};
}

// The octave rotation of dfbm2, applied as the docs write it: p' = L R p.
void next_octave(double lacunarity, double& u, double& v) {
    const double nu = lacunarity * (0.8 * u - 0.6 * v), nv = lacunarity * (0.6 * u + 0.8 * v);
    u = nu, v = nv;
}

constexpr const char* kDfbm =
    "{{ type = \"dfbm2\", scale_m = 250.0, offset = [3.5, -1.25], octaves = 6, lacunarity = 2.0, "
    "gain = 0.5, amplitude = 0.7, damping = {} }}";

}  // namespace

TEST(LandformNodes, dfbm2_without_damping_is_fbm_of_rotated_octaves) {
    const auto g = landform_graph("out = " + fmt::format(kDfbm, 0.0));
    const NoiseSet n(7);
    Mulberry32 r(3);
    for (int i = 0; i < 2000; ++i) {
        const double x = (r.next() * 2 - 1) * 5e4, z = (r.next() * 2 - 1) * 5e4;
        double u = x / 250.0 + 3.5, v = z / 250.0 - 1.25, a = 0.7, sum = 0.0;
        for (int o = 0; o < 6; ++o, a *= 0.5) {
            sum += a * n.noise2(u, v);
            next_octave(2.0, u, v);
        }
        ASSERT_NEAR(at(*g, x, 12.0, z), sum, 1e-12) << x << ", " << z;
    }
}

TEST(LandformNodes, dfbm2_damps_each_octave_by_the_gradients_summed_so_far) {
    for (const double k : {1.0, 3.5}) {
        const auto g = landform_graph("out = " + fmt::format(kDfbm, k));
        const NoiseSet n(7);
        Mulberry32 r(4);
        for (int i = 0; i < 2000; ++i) {
            const double x = (r.next() * 2 - 1) * 5e4, z = (r.next() * 2 - 1) * 5e4;
            double u = x / 250.0 + 3.5, v = z / 250.0 - 1.25, a = 0.7, sum = 0.0, du = 0.0, dv = 0.0;
            for (int o = 0; o < 6; ++o, a *= 0.5) {
                const Simplex2::Derivatives d = n.noise2.derivatives(u, v);
                du += d.dx, dv += d.dy;
                sum += a * d.value / (1.0 + k * (du * du + dv * dv));
                next_octave(2.0, u, v);
            }
            ASSERT_NEAR(at(*g, x, 0.0, z), sum, 1e-12) << x << ", " << z;
        }
    }
}

TEST(LandformNodes, dfbm2_gradient_ports_are_the_derivatives_of_its_value) {
    for (const double k : {0.0, 1.0, 6.0}) {
        const std::string node = fmt::format(
            "{{ type = \"dfbm2\", scale_m = 300.0, offset = [-7.0, 2.5], octaves = 7, lacunarity = 1.9, "
            "gain = 0.55, amplitude = 400.0, damping = {} }}",
            k);
        const auto value = landform_graph("h = " + node, "h");
        const auto dx = landform_graph("h = " + node, "h.dx");
        const auto dz = landform_graph("h = " + node, "h.dz");
        const auto plain = landform_graph("h = " + node, "h.value");
        Mulberry32 r(9);
        const double step = 0x1p-16;  // metres; x +- step is exact below 2^36
        double worst = 0.0, steepest = 0.0;
        for (int i = 0; i < 3000; ++i) {
            const double x = (r.next() * 2 - 1) * 2e4, z = (r.next() * 2 - 1) * 2e4;
            const double cx = (at(*value, x + step, 0, z) - at(*value, x - step, 0, z)) / (2 * step);
            const double cz = (at(*value, x, 0, z + step) - at(*value, x, 0, z - step)) / (2 * step);
            const double gx = at(*dx, x, 0, z), gz = at(*dz, x, 0, z);
            worst = std::max({worst, std::fabs(gx - cx), std::fabs(gz - cz)});
            steepest = std::max(steepest, std::hypot(gx, gz));
            ASSERT_EQ(at(*plain, x, 0, z), at(*value, x, 0, z));  // 'h.value' is plain 'h'
        }
        // Slopes of up to 30 m per metre; differences over 2^-15 m agree to 2e-5 (their error
        // falls as the step squared: the formula's, not rounding's).
        EXPECT_LT(worst, 2e-5) << "damping " << k;
        EXPECT_GT(steepest, 1.0) << "damping " << k;
    }
}

TEST(LandformNodes, dfbm2_gradient_follows_coordinates_given_as_nodes) {
    // With x = 2 px, the dx port is the derivative with respect to its x input: half the
    // derivative with respect to the sample's x.
    const std::string shape = "scale_m = 90.0, octaves = 4, damping = 1.0";
    const auto own = landform_graph("h = { type = \"dfbm2\", " + shape + " }", "h.dx");
    const auto doubled =
        landform_graph("twice = { type = \"mul\", a = \"px\", b = 2.0 }\nh = { type = \"dfbm2\", x = \"twice\", " + shape + " }", "h.dx");
    Mulberry32 r(2);
    for (int i = 0; i < 200; ++i) {
        const double x = (r.next() * 2 - 1) * 1e3, z = (r.next() * 2 - 1) * 1e3;
        ASSERT_EQ(at(*doubled, x, 0, z), at(*own, 2 * x, 0, z));
    }
}

TEST(LandformNodes, dfbm2_ranges_hold_its_values_and_narrow_over_small_boxes) {
    const std::string node = "{ type = \"dfbm2\", scale_m = 1000.0, octaves = 8, amplitude = 1.0, gain = 0.5, damping = 1.0 }";
    const auto g = landform_graph("h = " + node, "h");
    const auto dx = landform_graph("h = " + node, "h.dx");
    const double most = 1.0 + 0.5 + 0.25 + 0.125 + 0.0625 + 0.03125 + 0.015625 + 0.0078125;
    Mulberry32 r(12);
    double widest = 0.0;
    for (int b = 0; b < 40; ++b) {
        const double cx = (r.next() * 2 - 1) * 1e5, cz = (r.next() * 2 - 1) * 1e5;
        const Box box{{cx, 0, cz}, {cx + 4.0, 10, cz + 4.0}};
        const ValueRange value = range_of(*g, "h.value", box), slope = range_of(*g, "h.dx", box);
        widest = std::max(widest, value.hi - value.lo);
        for (int i = 0; i < 200; ++i) {
            const double x = cx + 4.0 * r.next(), z = cz + 4.0 * r.next();
            const double v = at(*g, x, 5, z), d = at(*dx, x, 5, z);
            ASSERT_TRUE(v >= value.lo && v <= value.hi) << v << " outside [" << value.lo << ", " << value.hi << "]";
            ASSERT_TRUE(d >= slope.lo && d <= slope.hi) << d << " outside [" << slope.lo << ", " << slope.hi << "]";
        }
    }
    // 4 m of a 1 km feature (and half the finest octave's): the widest range found is 0.14 of
    // the width of +-most (the damping's uncertainty, from the Hessian bound, keeps it wider).
    EXPECT_LT(widest, 0.2 * 2.0 * most);
    const ValueRange everywhere = range_of(*g, "h.value", Box{{-1e6, 0, -1e6}, {1e6, 0, 1e6}});
    EXPECT_NEAR(everywhere.hi, most, 1e-9);
    EXPECT_NEAR(everywhere.lo, -most, 1e-9);
}

TEST(LandformNodes, spline_passes_through_its_knots_and_is_flat_beyond_them) {
    const double xs[] = {-1.0, -0.2, 0.3, 0.7, 1.5}, ys[] = {-40.0, 5.0, 5.0, 80.0, 100.0};
    const auto g = landform_graph(
        "out = { type = \"spline\", in = \"px\", points = [[-1.0, -40.0], [-0.2, 5.0], [0.3, 5.0], [0.7, 80.0], [1.5, 100.0]] }");
    for (int i = 0; i < 5; ++i) EXPECT_EQ(at(*g, xs[i], 3.0, -2.0), ys[i]) << "knot " << i;
    EXPECT_EQ(at(*g, -1e6, 0, 0), -40.0);
    EXPECT_EQ(at(*g, -1.0000001, 0, 0), -40.0);
    EXPECT_EQ(at(*g, 1.5000001, 0, 0), 100.0);
    EXPECT_EQ(at(*g, 9e9, 0, 0), 100.0);
    // Between knots: monotone on each piece, within its two values (the flat piece stays flat).
    for (int k = 0; k < 4; ++k) {
        double previous = ys[k];
        for (int s = 1; s <= 400; ++s) {
            const double x = xs[k] + (xs[k + 1] - xs[k]) * s / 400.0;
            const double v = at(*g, x, 0, 0);
            ASSERT_GE(v, std::min(ys[k], ys[k + 1])) << x;
            ASSERT_LE(v, std::max(ys[k], ys[k + 1])) << x;
            ASSERT_GE(v, previous) << x;  // every piece rises or stays here
            if (k == 1) {
                ASSERT_EQ(v, 5.0) << x;
            }
            previous = v;
        }
    }
}

TEST(LandformNodes, spline_uses_pchip_slopes) {
    // Knots (0, 0), (1, 1), (2, 3): secants 1 and 2; the inner slope is their harmonic mean
    // 4/3, the ends' three-point estimates 1/2 and 5/2. At 0.5 the Hermite cubic gives
    // 0 + (1/8)(1/2) + (1/2)(1) - (1/8)(4/3) = 19/48; at 1.5, 1 + (1/8)(4/3) + (1/2)(2) - (1/8)(5/2) = 89/48.
    const auto g = landform_graph("out = { type = \"spline\", in = \"px\", points = [[0.0, 0.0], [1.0, 1.0], [2.0, 3.0]] }");
    EXPECT_NEAR(at(*g, 0.5, 0, 0), 19.0 / 48.0, 1e-15);
    EXPECT_NEAR(at(*g, 1.5, 0, 0), 89.0 / 48.0, 1e-15);
    // A turning point: the slope there is 0, so neither piece overshoots the peak.
    const auto peak =
        landform_graph("out = { type = \"spline\", in = \"px\", points = [[0.0, 0.0], [1.0, 10.0], [1.2, 0.0], [4.0, 1.0]] }");
    double highest = -1.0;
    for (int s = 0; s <= 4000; ++s) highest = std::max(highest, at(*peak, s / 1000.0, 0, 0));
    EXPECT_EQ(highest, 10.0);
    // Two knots: the straight line between them.
    const auto line = landform_graph("out = { type = \"spline\", in = \"px\", points = [[2.0, 10.0], [6.0, 30.0]] }");
    EXPECT_NEAR(at(*line, 3.0, 0, 0), 15.0, 1e-12);
    EXPECT_NEAR(at(*line, 5.5, 0, 0), 27.5, 1e-12);
}

TEST(LandformNodes, spline_knot_values_may_be_nodes) {
    // The middle knot's value is another spline of z: at each point the outer spline is the
    // one whose middle knot is that number.
    const std::string inner = "inner = { type = \"spline\", in = \"pz\", points = [[-10.0, 0.0], [10.0, 50.0]] }\n";
    const auto nested =
        landform_graph(inner + "out = { type = \"spline\", in = \"px\", points = [[0.0, 0.0], [1.0, \"inner\"], [2.0, 100.0]] }");
    for (const double z : {-20.0, -3.0, 0.0, 7.5}) {
        const double middle = 2.5 * (std::clamp(z, -10.0, 10.0) + 10.0);
        const auto fixed = landform_graph(
            fmt::format("out = {{ type = \"spline\", in = \"px\", points = [[0.0, 0.0], [1.0, {}], [2.0, 100.0]] }}", middle));
        for (const double x : {-1.0, 0.25, 0.5, 1.0, 1.3, 1.9, 3.0})
            EXPECT_NEAR(at(*nested, x, 0, z), at(*fixed, x, 0, z), 1e-12) << x << ", " << z;
        EXPECT_NEAR(at(*nested, 1.0, 0, z), middle, 1e-12);
    }
    // Its range over a box: the hull of the knots' ranges over the pieces the input reaches.
    const ValueRange r = range_of(*nested, "out", Box{{0.5, 0, -4}, {0.9, 0, 4}});  // inner in [15, 35]
    EXPECT_LE(r.lo, 0.0);
    EXPECT_GE(r.hi, 35.0);
    EXPECT_LT(r.hi, 35.0 + 1e-9);
    EXPECT_GT(r.lo, -1e-9);
}

TEST(LandformNodes, spline_range_narrows_to_the_values_at_the_inputs_ends) {
    const auto g = landform_graph(
        "out = { type = \"spline\", in = \"px\", points = [[-1.0, -40.0], [-0.2, 5.0], [0.3, 5.0], [0.7, 80.0], [1.5, 100.0]] }");
    const auto check = [&](double lo, double hi, double expect_lo, double expect_hi) {
        const ValueRange r = range_of(*g, "out", Box{{lo, 0, 0}, {hi, 1, 1}});
        EXPECT_NEAR(r.lo, expect_lo, 1e-9) << lo << ".." << hi;
        EXPECT_NEAR(r.hi, expect_hi, 1e-9) << lo << ".." << hi;
    };
    check(0.4, 0.6, at(*g, 0.4, 0, 0), at(*g, 0.6, 0, 0));  // inside one rising piece
    check(-0.1, 0.2, 5.0, 5.0);                             // the flat piece
    check(-5.0, -2.0, -40.0, -40.0);                        // before the first knot
    check(0.5, 9.0, at(*g, 0.5, 0, 0), 100.0);              // past the last
    check(-3.0, 3.0, -40.0, 100.0);
}

TEST(LandformNodes, fold_slope_and_curvature_follow_their_formulas) {
    const auto fold = landform_graph("out = { type = \"fold\", in = \"px\" }");
    for (const double x : {-2.0, -1.0, -2.0 / 3.0, -0.25, 0.0, 0.1, 2.0 / 3.0, 1.0, 4.0 / 3.0, 1.9})
        EXPECT_NEAR(at(*fold, x, 0, 0), 1.0 - std::fabs(3.0 * std::fabs(x) - 2.0), 1e-15) << x;
    EXPECT_EQ(at(*fold, 2.0 / 3.0, 0, 0), 1.0);
    EXPECT_EQ(at(*fold, 0.0, 0, 0), -1.0);

    const auto slope = landform_graph("out = { type = \"slope\", dx = \"px\", dz = \"pz\" }");
    EXPECT_NEAR(at(*slope, 1.0, 0, 0), 45.0, 1e-12);
    EXPECT_NEAR(at(*slope, 0.0, 0, -1.0), 45.0, 1e-12);
    EXPECT_NEAR(at(*slope, 0.6, 0, 0.8), 45.0, 1e-12);
    EXPECT_NEAR(at(*slope, std::sqrt(3.0), 0, 0), 60.0, 1e-12);
    EXPECT_EQ(at(*slope, 0.0, 0, 0), 0.0);
    EXPECT_NEAR(at(*slope, 1e300, 0, 0), 90.0, 1e-12);

    // h = x^2 + z^2: the four neighbours' mean is h + s^2, so the curvature is -s everywhere.
    const std::string bowl =
        "xx = { type = \"mul\", a = \"px\", b = \"px\" }\nzz = { type = \"mul\", a = \"pz\", b = \"pz\" }\n"
        "h = { type = \"add\", a = \"xx\", b = \"zz\" }\n";
    const auto curvature = landform_graph(bowl + "out = { type = \"curvature\", in = \"h\", step_m = 4.0 }");
    const auto ridge =
        landform_graph(bowl + "n = { type = \"neg\", in = \"h\" }\nout = { type = \"curvature\", in = \"n\", step_m = 0.5 }");
    Mulberry32 r(8);
    for (int i = 0; i < 100; ++i) {
        const double x = (r.next() * 2 - 1) * 300, z = (r.next() * 2 - 1) * 300;
        EXPECT_NEAR(at(*curvature, x, 7.0, z), -4.0, 1e-9);
        EXPECT_NEAR(at(*ridge, x, 7.0, z), 0.5, 1e-9);
    }
}

TEST(LandformNodes, cellular_finds_the_nearest_jittered_point_of_a_brute_force_search) {
    // The point of cell (i, j) (cellular.cpp): (i + 0.5 + jitter (r0 - 0.5), j + 0.5 + jitter
    // (r1 - 0.5)) cells from the hash of stream "cell", less the offset, times the cell size.
    for (const double jitter : {1.0, 0.6, 0.0}) {
        const double cell = 37.5, ox = 0.25, oz = -3.0;
        const std::string node =
            fmt::format("{{ type = \"cellular\", cell_m = {}, jitter = {}, offset = [{}, {}] }}", cell, jitter, ox, oz);
        const auto distance = landform_graph("c = " + node, "c");
        const auto px = landform_graph("c = " + node, "c.x");
        const auto pz = landform_graph("c = " + node, "c.z");
        Mulberry32 r(21);
        for (int i = 0; i < 3000; ++i) {
            const double x = (r.next() * 2 - 1) * 4e3, z = (r.next() * 2 - 1) * 4e3;
            const double u = x / cell + ox, v = z / cell + oz;
            double best = INFINITY, bx = 0.0, bz = 0.0;
            for (std::int64_t j = static_cast<std::int64_t>(std::floor(v)) - 5; j <= static_cast<std::int64_t>(std::floor(v)) + 5; ++j)
                for (std::int64_t k = static_cast<std::int64_t>(std::floor(u)) - 5; k <= static_cast<std::int64_t>(std::floor(u)) + 5;
                     ++k) {
                    const std::uint64_t h = cell_hash(7, k, j, 0x63656c6c);
                    const double cx = static_cast<double>(k) + 0.5 + jitter * (cell_random(h, 0) - 0.5);
                    const double cz = static_cast<double>(j) + 0.5 + jitter * (cell_random(h, 1) - 0.5);
                    const double d = std::hypot(cx - u, cz - v);
                    if (d < best) best = d, bx = (cx - ox) * cell, bz = (cz - oz) * cell;
                }
            ASSERT_NEAR(at(*distance, x, 0, z), best * cell, 1e-9) << x << ", " << z;
            ASSERT_NEAR(at(*px, x, 0, z), bx, 1e-9);
            ASSERT_NEAR(at(*pz, x, 0, z), bz, 1e-9);
            // The distance is the one to the point the ports name.
            ASSERT_NEAR(std::hypot(at(*px, x, 0, z) - x, at(*pz, x, 0, z) - z), at(*distance, x, 0, z), 1e-9);
        }
    }
}

TEST(LandformNodes, cellular_point_ranges_hold_where_its_coordinates_are_held) {
    // x past 1e12 cells reads as 1e12 cells (as the noises hold theirs): the point's range
    // follows the held coordinate, not the input (it once claimed [5e13, 1.5e14] m for a
    // point at 2e11 m).
    const auto g =
        landform_graph("big = { type = \"mul\", a = \"px\", b = 1e14 }\nc = { type = \"cellular\", cell_m = 0.2, x = \"big\" }", "c.x");
    const Box box{{0.5, 0, 0}, {1.5, 1, 1}};
    const ValueRange r = g->bounds(box);
    for (const double x : {0.5, 0.75, 1.0, 1.5}) {
        const double v = at(*g, x, 0.5, 0.5);
        EXPECT_NEAR(v, 2e11, 1.0);
        EXPECT_TRUE(v >= r.lo && v <= r.hi) << v << " outside [" << r.lo << ", " << r.hi << "]";
    }
}
