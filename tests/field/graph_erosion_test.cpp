// The erosion node (gullies over a height and its gradient) against its formula: gullies
// run down a tilted plane, the height's gradient is the dx/dz it carries, flats and zero
// strength change nothing, the ridge map marks crests and troughs, a point's value does not
// depend on its batch, seeds differ. DISABLED_..._timing prints ns per column and octave.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

// A plane h = a x + b z with its gradient, eroded by `settings` (TOML keys of the node).
std::string plane_body(double a, double b, const std::string& settings) {
    return fmt::format(
        "px = {{ type = \"x\" }}\npz = {{ type = \"z\" }}\n"
        "hx = {{ type = \"mul\", a = \"px\", b = {} }}\nhz = {{ type = \"mul\", a = \"pz\", b = {} }}\n"
        "h = {{ type = \"add\", a = \"hx\", b = \"hz\" }}\n"
        "e = {{ type = \"erosion\", in = \"h\", dx = {}, dz = {}{} }}\n",
        a, b, a, b, settings.empty() ? "" : ", " + settings);
}

// A dome h = 400 - c (x^2 + z^2) with its gradient -2 c (x, z).
std::string dome_body(double c, const std::string& settings) {
    return fmt::format(
        "px = {{ type = \"x\" }}\npz = {{ type = \"z\" }}\n"
        "xx = {{ type = \"mul\", a = \"px\", b = \"px\" }}\nzz = {{ type = \"mul\", a = \"pz\", b = \"pz\" }}\n"
        "r2 = {{ type = \"add\", a = \"xx\", b = \"zz\" }}\nh = {{ type = \"remap\", in = \"r2\", from = [0, 1], to = [400, {}] }}\n"
        "gx = {{ type = \"mul\", a = \"px\", b = {} }}\ngz = {{ type = \"mul\", a = \"pz\", b = {} }}\n"
        "e = {{ type = \"erosion\", in = \"h\", dx = \"gx\", dz = \"gz\"{} }}\n",
        400.0 - c, -2.0 * c, -2.0 * c, settings.empty() ? "" : ", " + settings);
}

std::unique_ptr<GraphField> eroded(const std::string& body, const std::string& output, std::uint32_t seed = 7) {
    return parse_graph(fmt::format("format = 1\nseed = {}\n[node]\n{}[output]\nsdf = \"{}\"\n", seed, body, output), "erosion.toml");
}

std::vector<double> at(const GraphField& f, const std::vector<glm::dvec3>& points) {
    std::vector<double> out(points.size());
    f.sample_points(points.data(), points.size(), out.data());
    return out;
}

std::vector<glm::dvec3> random_ground_points(std::uint32_t seed, int count, double reach) {
    Mulberry32 r(seed);
    std::vector<glm::dvec3> p;
    for (int i = 0; i < count; ++i) p.emplace_back((r.next() * 2 - 1) * reach, 0.0, (r.next() * 2 - 1) * reach);
    return p;
}

double rms(const std::vector<double>& v) {
    double s = 0.0;
    for (const double x : v) s += x * x;
    return std::sqrt(s / static_cast<double>(v.size()));
}

// The share of points where the central differences of the height (step h) match the
// node's dx and dz within `tolerance` (relative to the slope), among those where the height
// is smooth (differences over h and 2h agree to 1e-3 of the slope).
struct GradientMatch {
    int smooth = 0, matched = 0;
    double worst = 0.0;
};
GradientMatch match_gradient(const std::string& body, const std::vector<glm::dvec3>& points, double tolerance) {
    const auto height = eroded(body, "e"), dx = eroded(body, "e.dx"), dz = eroded(body, "e.dz");
    const double h = 0.01;
    std::vector<glm::dvec3> shifted;
    for (const glm::dvec3& p : points)
        for (const glm::dvec3 d : {glm::dvec3(h, 0, 0), glm::dvec3(-h, 0, 0), glm::dvec3(0, 0, h), glm::dvec3(0, 0, -h),
                                   glm::dvec3(2 * h, 0, 0), glm::dvec3(-2 * h, 0, 0), glm::dvec3(0, 0, 2 * h), glm::dvec3(0, 0, -2 * h)})
            shifted.push_back(p + d);
    const std::vector<double> v = at(*height, shifted), gx = at(*dx, points), gz = at(*dz, points);
    GradientMatch m;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double* s = &v[8 * i];
        const double cx = (s[0] - s[1]) / (2 * h), cz = (s[2] - s[3]) / (2 * h);
        const double cx2 = (s[4] - s[5]) / (4 * h), cz2 = (s[6] - s[7]) / (4 * h);
        const double size = std::max(std::hypot(gx[i], gz[i]), 0.05);
        if (std::hypot(cx - cx2, cz - cz2) > 1e-3 * size) continue;  // a crease within 2h
        ++m.smooth;
        const double error = std::hypot(cx - gx[i], cz - gz[i]) / size;
        m.worst = std::max(m.worst, error);
        if (error <= tolerance) ++m.matched;
    }
    return m;
}

}  // namespace

TEST(ErosionNode, gullies_run_down_a_tilted_plane) {
    // The plane falls along -x (slope 0.4): the eroded part varies across the slope (z) and
    // hardly along it, for one octave and for four (the finer ones run down the coarser
    // gullies' sides, at an angle, yet mostly downhill).
    for (const int octaves : {1, 4}) {
        const std::string body = plane_body(0.4, 0.0, fmt::format("scale_m = 200, strength_m = 20, octaves = {}", octaves));
        const auto dx = eroded(body, "e.dx"), dz = eroded(body, "e.dz");
        const std::vector<glm::dvec3> points = random_ground_points(3, 4000, 5000);
        std::vector<double> along = at(*dx, points), across = at(*dz, points);
        for (double& v : along) v -= 0.4;
        const double ratio = rms(across) / rms(along);
        EXPECT_GT(ratio, octaves == 1 ? 4.0 : 1.5) << octaves << " octaves: rms across " << rms(across) << ", along " << rms(along);
        // The stripes are deep: their slope across is near 2 pi strength / wavelength.
        EXPECT_GT(rms(across), 0.3 * 2 * M_PI * 20 / 200) << octaves;
        // Measured on the height itself: over 200 m along the slope the eroded part changes
        // far less than over 50 m across it.
        const auto height = eroded(body, "e");
        std::vector<glm::dvec3> a, b, c;
        for (const glm::dvec3& p : points) a.push_back(p), b.push_back(p + glm::dvec3(200, 0, 0)), c.push_back(p + glm::dvec3(0, 0, 50));
        const std::vector<double> va = at(*height, a), vb = at(*height, b), vc = at(*height, c);
        std::vector<double> d_along, d_across;
        for (std::size_t i = 0; i < points.size(); ++i) {
            d_along.push_back(vb[i] - 0.4 * 200 - va[i]);
            d_across.push_back(vc[i] - va[i]);
        }
        EXPECT_GT(rms(d_across), 1.5 * rms(d_along))
            << octaves << " octaves: across 50 m " << rms(d_across) << ", along 200 m " << rms(d_along);
    }
}

TEST(ErosionNode, the_heights_gradient_is_the_dx_dz_it_carries) {
    // One octave on a plane: exact wherever the height is smooth (the blend's weights
    // included). Four octaves on a plane: the finer octaves' direction is constant between
    // the coarser stripes' crests and troughs, so exact there too.
    const std::vector<glm::dvec3> points = random_ground_points(5, 3000, 4000);
    for (const int octaves : {1, 4}) {
        for (const std::string& extra : {std::string(), std::string(", heights = [-1500.0, 1500.0]")}) {
            const GradientMatch m = match_gradient(
                plane_body(0.3, -0.2, fmt::format("scale_m = 250, strength_m = 25, octaves = {}{}", octaves, extra)), points, 1e-3);
            EXPECT_GT(m.smooth, 2700) << octaves;
            EXPECT_EQ(m.matched, m.smooth) << octaves << extra << ": worst relative error " << m.worst;
        }
    }
    // On a curved input the node does not know the input's curvature (its mask and the
    // gullies' direction turn with it): close, not exact.
    const GradientMatch dome = match_gradient(dome_body(1e-4, "scale_m = 250, strength_m = 25, octaves = 4"), points, 0.1);
    EXPECT_GT(dome.matched, 0.9 * dome.smooth) << "worst " << dome.worst;
}

TEST(ErosionNode, zero_strength_or_a_flat_input_leaves_the_height) {
    const std::vector<glm::dvec3> points = random_ground_points(9, 500, 3000);
    for (const std::string& output : {"e", "e.dx", "e.dz"}) {
        const auto input = eroded(plane_body(0.5, 0.1, ""), "h");
        // Zero strength: the input, bit for bit.
        const auto none = eroded(plane_body(0.5, 0.1, "strength_m = 0.0"), output);
        const std::vector<double> v = at(*none, points);
        const std::vector<double> h = at(*input, points);
        for (std::size_t i = 0; i < points.size(); ++i) {
            const double expected = output == "e" ? h[i] : output == "e.dx" ? 0.5 : 0.1;
            ASSERT_EQ(v[i], expected) << output << " at " << points[i].x << ", " << points[i].z;
        }
        // A flat input (slope 0): the gullies fade out entirely, with or without a target.
        for (const std::string& extra : {std::string(), std::string(", heights = [-100.0, 200.0]")}) {
            const auto flat = eroded(plane_body(0.0, 0.0, "strength_m = 40" + extra), output);
            for (const double value : at(*flat, points)) ASSERT_NEAR(value, 0.0, 1e-12) << output << extra;
        }
    }
}

TEST(ErosionNode, the_ridge_map_is_one_on_crests_and_minus_one_in_troughs) {
    // One octave on a steep plane falling along x: along a line across it (z), the eroded
    // part's local maxima are crests (ridge map near +1), its minima troughs (near -1), and
    // halfway down their flanks the map is near 0.
    const std::string body = plane_body(0.5, 0.0, "scale_m = 100, strength_m = 10, octaves = 1");
    const auto height = eroded(body, "e"), ridge = eroded(body, "e.ridge");
    std::vector<glm::dvec3> line;
    for (int i = 0; i < 8000; ++i) line.emplace_back(137.0, 0.0, -2000.0 + 0.5 * i);
    const std::vector<double> h = at(*height, line), r = at(*ridge, line);
    int crests = 0, troughs = 0;
    double flank_most = 0.0;
    // Extrema of the full depth, each the highest (lowest) within a quarter wave: where the
    // cells disagree on the phase the stripes are shallower and their extrema move off the
    // phase's crests (a trough can be W-shaped).
    const auto extreme = [&](std::size_t i, double sign) {
        for (std::size_t k = i > 50 ? i - 50 : 0; k < std::min(line.size(), i + 51); ++k)
            if (sign * h[k] > sign * h[i]) return false;
        return true;
    };
    for (std::size_t i = 1; i + 1 < line.size(); ++i) {
        const double d = h[i] - 0.5 * 137.0;
        if (d > 8.0 && extreme(i, 1.0)) {
            ++crests;
            EXPECT_GT(r[i], 0.9) << "crest at z = " << line[i].z;
        }
        if (d < -8.0 && extreme(i, -1.0)) {
            ++troughs;
            EXPECT_LT(r[i], -0.9) << "trough at z = " << line[i].z;
        }
        if (std::fabs(d) < 0.5) flank_most = std::max(flank_most, std::fabs(r[i]));
    }
    EXPECT_GT(crests, 25);  // about one every 100 m over 4 km
    EXPECT_GT(troughs, 25);
    EXPECT_LT(flank_most, 0.2);
    EXPECT_GE(*std::max_element(r.begin(), r.end()), 0.999);
    EXPECT_LE(*std::min_element(r.begin(), r.end()), -0.999);
}

TEST(ErosionNode, a_point_has_the_same_value_in_any_batch_and_on_the_lattice) {
    const std::string body = dome_body(2e-5, "scale_m = 180, strength_m = 20, octaves = 5");
    for (const std::string& output : {"e", "e.dx", "e.dz", "e.ridge"}) {
        const auto f = eroded(body, output);
        const std::vector<glm::dvec3> points = random_ground_points(11, 700, 3000);
        const std::vector<double> all = at(*f, points);
        std::vector<glm::dvec3> reversed(points.rbegin(), points.rend());
        const std::vector<double> back = at(*f, reversed);
        for (std::size_t i = 0; i < points.size(); i += 7) {
            double one = 0.0;
            f->sample_points(&points[i], 1, &one);
            ASSERT_EQ(std::memcmp(&one, &all[i], sizeof one), 0) << output << " point " << i;
            ASSERT_EQ(std::memcmp(&back[points.size() - 1 - i], &all[i], sizeof one), 0) << output << " point " << i;
        }
    }
    // The lattice's columns (a chunk's ground at 4 m) give the float of the point path's value.
    const std::string text = fmt::format(
        "format = 1\nseed = 7\n[node]\n{}out = {{ type = \"plane\", height = \"e\" }}\n"
        "[output]\nsdf = \"out\"\nground = \"e\"\n",
        body);
    const auto f = parse_graph(text, "erosion.toml");
    const Lattice lattice{{-40, -2, 17}, {33, 3, 33}, 4.0};
    std::vector<float> ground(33 * 33);
    ASSERT_TRUE(f->ground_heights(lattice, ground.data()));
    std::vector<glm::dvec3> columns;
    for (int k = 0; k < 33; ++k)
        for (int i = 0; i < 33; ++i) columns.emplace_back((-40 + i) * 4.0, 0.0, (17 + k) * 4.0);
    const auto e = eroded(body, "e");
    const std::vector<double> v = at(*e, columns);
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(ground[i], static_cast<float>(v[i])) << i;
}

TEST(ErosionNode, seeds_move_the_gullies) {
    const std::string body = plane_body(0.3, 0.3, "scale_m = 150, strength_m = 15");
    const std::vector<glm::dvec3> points = random_ground_points(13, 400, 2000);
    const std::vector<double> a = at(*eroded(body, "e", 7), points), b = at(*eroded(body, "e", 7), points),
                              c = at(*eroded(body, "e", 8), points);
    int differ = 0;
    double diff = 0.0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        ASSERT_EQ(a[i], b[i]);
        differ += std::fabs(a[i] - c[i]) > 0.1;
        diff += std::fabs(a[i] - c[i]);
    }
    EXPECT_GT(differ, 360);
    EXPECT_GT(diff / points.size(), 5.0);  // of strengths 15 + 6 + 2.4 + 1 m
}

TEST(ErosionNode, values_lie_within_the_proven_range) {
    // The height within the strengths' sum of the input, the slope within the proven bound,
    // the ridge map within [-1, 1], over a box that holds the points.
    for (const std::string& extra : {std::string(), std::string(", heights = [-300.0, 300.0]")}) {
        const std::string body = dome_body(1e-4, "scale_m = 120, strength_m = 12, octaves = 6" + extra);
        const auto f = eroded(body, "e");
        const Box box{{-1000, -10, -1000}, {1000, 10, 1000}};
        const std::vector<glm::dvec3> points = random_ground_points(17, 3000, 1000);
        std::vector<GraphNodeRange> ranges = f->node_ranges(box);
        const auto find = [&](const std::string& id) {
            for (const GraphNodeRange& r : ranges)
                if (r.id == id) return r;
            ADD_FAILURE() << "no range for " << id;
            return GraphNodeRange{};
        };
        for (const std::string& port : {"e", "e.dx", "e.dz", "e.ridge"}) {
            const ValueRange range = find(port == "e" ? "e.height" : port).range;
            double lo = INFINITY, hi = -INFINITY;
            for (const double v : at(*eroded(body, port), points)) lo = std::min(lo, v), hi = std::max(hi, v);
            EXPECT_GE(lo, range.lo) << port << extra;
            EXPECT_LE(hi, range.hi) << port << extra;
            // The input's range is [200, 600] by interval arithmetic (x x is taken as x y);
            // the strengths sum to 12 (1 - 0.4^6) / 0.6: twice that (four times with a target).
            const double total = 12 * (1 - std::pow(0.4, 6)) / 0.6;
            if (port == "e") EXPECT_LE(range.hi - range.lo, 400.0 + (extra.empty() ? 2 : 4) * total + 1e-6) << extra;
            std::printf("%s%s: values [%.4g, %.4g], proven [%.4g, %.4g]\n", port.c_str(), extra.c_str(), lo, hi, range.lo, range.hi);
        }
    }
}

TEST(ErosionNode, DISABLED_timing) {
    // ns per column per octave, as the World asks: the ground of 400 chunk-sized lattices of
    // 37 x 37 columns at 1 m, eroded over 1 and 8 octaves, minus the same graph's ground
    // without erosion (the best of five rounds each).
    const auto time = [](const std::string& body, const char* ground) {
        const auto f = parse_graph(fmt::format("format = 1\nseed = 7\n[node]\n{}out = {{ type = \"plane\", height = \"{}\" }}\n"
                                               "[output]\nsdf = \"out\"\nground = \"{}\"\n",
                                               body, ground, ground),
                                   "t.toml");
        std::vector<float> out(37 * 37);
        double best = INFINITY;
        for (int round = 0; round < 5; ++round) {
            const auto start = std::chrono::steady_clock::now();
            for (int c = 0; c < 400; ++c) {
                const Lattice lattice{{32 * (c % 20) - 2, 0, 32 * (c / 20) - 2}, {37, 1, 37}, 1.0};
                f->ground_heights(lattice, out.data());
            }
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        return best * 1e9 / (400.0 * 37 * 37);
    };
    const double base = time(dome_body(1e-5, "octaves = 1"), "h");
    const double one = time(dome_body(1e-5, "octaves = 1"), "e");
    const double four = time(dome_body(1e-5, "octaves = 4"), "e");
    const double eight = time(dome_body(1e-5, "octaves = 8, lacunarity = 1.5"), "e");
    std::printf(
        "input alone %.1f ns/column; erosion: 1 octave %.1f, 4 octaves %.1f, 8 octaves %.1f ns/column; "
        "%.1f ns/column/octave (8 octaves)\n",
        base, one - base, four - base, eight - base, (eight - base) / 8.0);
}
