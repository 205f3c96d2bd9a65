// Simplex2::derivatives: the value is the noise's to the bit, the gradient and Hessian agree
// with central differences, and the bounds the landform nodes' ranges rest on (kLipschitz,
// kHessianBound, |n| <= 1) hold over every simplex the noise can have.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

#include "isoterra/noise.hpp"
#include "test_pace.hpp"

using namespace isoterra;

namespace {

// The spectral norm of a symmetric 2 x 2 matrix: its largest eigenvalue in size.
double norm_of(double xx, double xy, double yy) { return std::fabs(0.5 * (xx + yy)) + std::hypot(0.5 * (xx - yy), xy); }

const double kG2 = (3.0 - std::sqrt(3.0)) / 6.0;

// Skewed lattice coordinates (u, v) to the noise's input space.
std::array<double, 2> unskew(double u, double v) {
    const double t = (u + v) * kG2;
    return {u - t, v - t};
}

}  // namespace

TEST(Simplex2Derivatives, value_is_the_noise_to_the_bit) {
    for (const std::uint32_t seed : {20261114u, 7u}) {
        const NoiseSet n(seed);
        Mulberry32 r(seed + 3);
        for (int i = 0; i < 100000; ++i) {
            // Near the origin, far out, and on lattice lines (where the corner choice ties).
            const double reach = i % 3 == 0 ? 10.0 : i % 3 == 1 ? 1e6 : 1e9;
            double x = (r.next() * 2 - 1) * reach, y = (r.next() * 2 - 1) * reach;
            if (i % 7 == 0) x = std::round(x), y = std::round(y);
            const double expected = n.noise2(x, y);
            const double got = n.noise2.derivatives(x, y).value;
            ASSERT_LE(std::fabs(got - expected), 1e-12) << x << ", " << y;
            ASSERT_EQ(got, expected) << x << ", " << y;
        }
    }
}

TEST(Simplex2Derivatives, the_batch_gives_the_same_bits_as_one_point_at_a_time) {
    const NoiseSet n(20261114);
    Mulberry32 r(6);
    // Lengths that leave a remainder after the groups of four; points past 1e9 (one at a
    // time inside the batch) and on cell lines.
    for (const std::size_t count : {1u, 4u, 7u, 64u, 1001u}) {
        std::vector<double> x(count), y(count), cols(6 * count);
        for (std::size_t i = 0; i < count; ++i) {
            const double reach = i % 5 == 0 ? 5e9 : i % 5 == 1 ? 1e6 : 50.0;
            x[i] = (r.next() * 2 - 1) * reach, y[i] = (r.next() * 2 - 1) * reach;
            if (i % 11 == 3) x[i] = std::round(x[i]), y[i] = std::round(y[i]);
        }
        double* const out[6] = {&cols[0], &cols[count], &cols[2 * count], &cols[3 * count], &cols[4 * count], &cols[5 * count]};
        n.noise2.derivatives_batch(x.data(), y.data(), count, out);
        for (std::size_t i = 0; i < count; ++i) {
            const Simplex2::Derivatives d = n.noise2.derivatives(x[i], y[i]);
            const double one[6] = {d.value, d.dx, d.dy, d.dxx, d.dxy, d.dyy};
            for (int c = 0; c < 6; ++c)
                ASSERT_TRUE(std::memcmp(&one[c], &out[c][i], sizeof(double)) == 0)
                    << "column " << c << " point " << i << " of " << count << ": " << one[c] << " vs " << out[c][i];
        }
    }
}

TEST(Simplex2Derivatives, gradient_and_hessian_match_central_differences) {
    const NoiseSet n(99);
    Mulberry32 r(5);
    // Powers of two: x +- h is exact, so each difference spans exactly 2 h. Points near the
    // origin: a simplex's corner offsets round by an ulp of the coordinate, a step between
    // neighbouring simplices that second differences divide by h^2.
    const double hg = 0x1p-20, h = 0x1p-17, h2 = 0x1p-13;
    double worst_gradient = 0.0, worst_hessian = 0.0;
    for (int i = 0; i < 20000; ++i) {
        const double x = (r.next() * 2 - 1) * 16.0, y = (r.next() * 2 - 1) * 16.0;
        const Simplex2::Derivatives d = n.noise2.derivatives(x, y);
        const auto f = [&](double dx, double dy) { return n.noise2(x + dx, y + dy); };
        const double gx = (f(hg, 0) - f(-hg, 0)) / (2 * hg), gy = (f(0, hg) - f(0, -hg)) / (2 * hg);
        // Second differences of the value alone, so the Hessian is checked apart from the gradient.
        const double xx = (f(h2, 0) - 2 * f(0, 0) + f(-h2, 0)) / (h2 * h2);
        const double yy = (f(0, h2) - 2 * f(0, 0) + f(0, -h2)) / (h2 * h2);
        const double xy = (f(h2, h2) - f(h2, -h2) - f(-h2, h2) + f(-h2, -h2)) / (4 * h2 * h2);
        worst_gradient = std::max({worst_gradient, std::fabs(d.dx - gx), std::fabs(d.dy - gy)});
        worst_hessian = std::max({worst_hessian, std::fabs(d.dxx - xx), std::fabs(d.dxy - xy), std::fabs(d.dyy - yy)});
        // And the Hessian against differences of the analytic gradient, more closely.
        const Simplex2::Derivatives px = n.noise2.derivatives(x + h, y), mx = n.noise2.derivatives(x - h, y);
        const Simplex2::Derivatives py = n.noise2.derivatives(x, y + h), my = n.noise2.derivatives(x, y - h);
        ASSERT_NEAR(d.dxx, (px.dx - mx.dx) / (2 * h), 1e-6) << x << ", " << y;
        ASSERT_NEAR(d.dxy, (px.dy - mx.dy) / (2 * h), 1e-6) << x << ", " << y;
        ASSERT_NEAR(d.dxy, (py.dx - my.dx) / (2 * h), 1e-6) << x << ", " << y;
        ASSERT_NEAR(d.dyy, (py.dy - my.dy) / (2 * h), 1e-6) << x << ", " << y;
    }
    EXPECT_LT(worst_gradient, 1e-8);
    EXPECT_LT(worst_hessian, 1e-4);  // of values up to 56
}

// The bounds, over every simplex the noise can have. Inside a simplex only its three corners
// reach (their kernels end exactly at the opposite edge), so the noise there is fixed by the
// triangle's orientation and its corners' gradients: 2 x 8^3 cases, all of which seed 1's
// table holds (a corner's gradient g is read back as the noise's gradient there, 4.375 g).
// Each case is sampled on a grid of step h in skewed units; any point lies within h / sqrt(2)
// of a grid point (the unskew's norm is 1), and between them a quantity changes by at most
// that distance times a crude bound of the next derivative: per corner, with r^2 = 0.5 - t,
// |D^2| <= |g| r (48 t^2 r^2 + 24 t^3) and |D^3| <= |g| (192 t r^4 + 288 t^2 r^2 + 24 t^3),
// times 70 and three corners (the value by Taylor's second order: its maximum is flat). Grid
// maximum plus that gap, under each constant: a proof.
TEST(Simplex2Derivatives, value_gradient_and_hessian_bounds_hold_over_every_simplex) {
    double d2 = 0.0, d3 = 0.0;
    for (int i = 0; i <= 100000; ++i) {
        const double t = 0.5 * i / 100000.0, r2 = 0.5 - t, r = std::sqrt(r2);
        d2 = std::max(d2, r * (48 * t * t * r2 + 24 * t * t * t));
        d3 = std::max(d3, 192 * t * r2 * r2 + 288 * t * t * r2 + 24 * t * t * t);
    }
    // The maxima of these one-variable polynomials, sampled 2e5 times finer than they vary.
    const double per_corners = 3.0 * 70.0 * std::sqrt(2.0) * 1.001;
    const double second = d2 * per_corners, third = d3 * per_corners;

    const NoiseSet n(1);
    const double grads[8][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    const auto gradient_number = [&](int u, int v) {
        const auto p = unskew(u, v);
        const Simplex2::Derivatives d = n.noise2.derivatives(p[0], p[1]);
        for (int k = 0; k < 8; ++k)
            if (std::hypot(d.dx / 4.375 - grads[k][0], d.dy / 4.375 - grads[k][1]) < 1e-9) return k;
        ADD_FAILURE() << "no table gradient at corner " << u << ", " << v;
        return 0;
    };
    // Case (orientation, g0, g1, g2) -> a cell holding it. Negating every gradient negates the
    // noise, so cases whose first corner has the second of a +- pair are left out.
    std::map<std::array<int, 4>, std::array<int, 2>> cases;
    for (int i = 0; i < 256; ++i)
        for (int j = 0; j < 256; ++j) {
            const int c00 = gradient_number(i, j), c10 = gradient_number(i + 1, j), c01 = gradient_number(i, j + 1),
                      c11 = gradient_number(i + 1, j + 1);
            cases.emplace(std::array<int, 4>{1, c00, c10, c11}, std::array<int, 2>{i, j});  // below the diagonal
            cases.emplace(std::array<int, 4>{0, c00, c01, c11}, std::array<int, 2>{i, j});  // above it
        }
    ASSERT_EQ(cases.size(), 1024u) << "seed 1's table lacks some case";

    const int steps = 256;  // h = 1/256
    const double gap = 1.0 / steps / std::sqrt(2.0);
    const int every = isoterra::test::sweep_step(1, 8);
    double value = 0.0, slope = 0.0, bend = 0.0;
    int index = 0, checked = 0;
    for (const auto& [key, cell] : cases) {
        if (key[1] == 3 || key[1] == 1 || key[1] == 5 || key[1] == 7) continue;  // (-1,-1), (-1,1), (-1,0), (0,-1)
        if (index++ % every != 0) continue;
        ++checked;
        for (int a = 0; a <= steps; ++a)
            for (int b = 0; b <= a; ++b) {
                double u = static_cast<double>(a) / steps, v = static_cast<double>(b) / steps;
                if (key[0] == 0) std::swap(u, v);
                const auto p = unskew(cell[0] + u, cell[1] + v);
                const Simplex2::Derivatives d = n.noise2.derivatives(p[0], p[1]);
                value = std::max(value, std::fabs(d.value) + std::hypot(d.dx, d.dy) * gap + 0.5 * second * gap * gap);
                slope = std::max(slope, std::hypot(d.dx, d.dy));
                bend = std::max(bend, norm_of(d.dxx, d.dxy, d.dyy));
            }
    }
    EXPECT_EQ(checked, isoterra::test::slow_build() ? 64 : 512);
    std::printf("grid maxima: |n| (with its gap) %.4f, |gradient| %.4f, |Hessian| %.4f; gaps %.4f, %.4f\n", value, slope, bend,
                second * gap, third * gap);
    EXPECT_LE(value, 1.0);
    EXPECT_LE(slope + second * gap, Simplex2::kLipschitz);
    EXPECT_LE(bend + third * gap, Simplex2::kHessianBound);
    // The search finds what the noise reaches: the constants are not loose by much.
    EXPECT_GT(slope, 7.3);
    EXPECT_GT(bend, 0.8 * Simplex2::kHessianBound);
}

TEST(Simplex2Derivatives, random_search_stays_under_the_bounds) {
    double slope = 0.0, bend = 0.0;
    for (const std::uint32_t seed : {20261114u, 7u, 99u}) {
        const NoiseSet n(seed);
        Mulberry32 r(seed + 11);
        for (int i = 0; i < 200000; ++i) {
            const Simplex2::Derivatives d = n.noise2.derivatives(r.next() * 512 - 256, r.next() * 512 - 256);
            slope = std::max(slope, std::hypot(d.dx, d.dy));
            bend = std::max(bend, norm_of(d.dxx, d.dxy, d.dyy));
        }
    }
    EXPECT_LE(slope, Simplex2::kLipschitz);
    EXPECT_LE(bend, Simplex2::kHessianBound);
    EXPECT_GT(bend, 40.0);
}
