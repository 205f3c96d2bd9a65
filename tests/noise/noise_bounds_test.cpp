// The value and slope bounds the field's box bounds are built on.
#include <gtest/gtest.h>

#include <cmath>

#include "isoterra/noise.hpp"

using namespace isoterra;

// Finite differences over many random points: the noise never exceeds 1 in size, and the
// 2D noise (continuous, unlike the 3D one) never changes faster than its Lipschitz constant.
TEST(NoiseBounds, simplex_values_stay_in_unit_range_and_2d_slope_under_lipschitz) {
    for (const std::uint32_t seed : {20261114u, 7u, 99u}) {
        const NoiseSet n(seed);
        Mulberry32 r(seed + 1);
        double max2 = 0, max3 = 0, slope2 = 0, slope3 = 0;
        const double h = 1e-4;
        for (int i = 0; i < 200000; ++i) {
            const double x = r.next() * 512 - 256, y = r.next() * 512 - 256, z = r.next() * 512 - 256;
            const double v2 = n.noise2(x, y), v3 = n.noise3(x, y, z);
            max2 = std::max(max2, std::fabs(v2));
            max3 = std::max(max3, std::fabs(v3));
            const double gx2 = (n.noise2(x + h, y) - n.noise2(x - h, y)) / (2 * h);
            const double gy2 = (n.noise2(x, y + h) - n.noise2(x, y - h)) / (2 * h);
            slope2 = std::max(slope2, std::hypot(gx2, gy2));
            const double gx3 = (n.noise3(x + h, y, z) - n.noise3(x - h, y, z)) / (2 * h);
            const double gy3 = (n.noise3(x, y + h, z) - n.noise3(x, y - h, z)) / (2 * h);
            const double gz3 = (n.noise3(x, y, z + h) - n.noise3(x, y, z - h)) / (2 * h);
            slope3 = std::max(slope3, std::sqrt(gx3 * gx3 + gy3 * gy3 + gz3 * gz3));
        }
        EXPECT_LE(max2, 1.0);
        EXPECT_LE(max3, 1.0);
        EXPECT_GT(max2, 0.7);  // and the range is used: the bound is not vacuous
        EXPECT_LE(slope2, Simplex2::kLipschitz) << "seed " << seed;
        RecordProperty("max_slope2", std::to_string(slope2));
        RecordProperty("max_slope3", std::to_string(slope3));
        std::printf("seed %u: |n2| <= %.4f, |n3| <= %.4f, slope2 %.4f, slope3 %.4f\n", seed, max2, max3, slope2, slope3);
    }
}

TEST(Fbm, sums_octaves_as_the_tutorial_does) {
    const NoiseSet n(20261114);
    const FbmShape shape{5, 2.0, 0.5, 0.5};
    double x = 1.25, z = -3.5, expected = 0, a = 0.5;
    for (int i = 0; i < 5; ++i, x *= 2, z *= 2, a /= 2) expected += n.noise2(x, z) * a;
    EXPECT_EQ(fbm2(n.noise2, 1.25, -3.5, shape), expected);
    EXPECT_DOUBLE_EQ(shape.max_abs(), 0.96875);
    // Close points: each octave adds amplitude * frequency = 0.5 per unit of distance.
    EXPECT_DOUBLE_EQ(shape.variation(1.0, 0.01), 0.025);
    // Far points: no octave changes by more than twice its amplitude.
    EXPECT_DOUBLE_EQ(shape.variation(1.0, 1000.0), 2 * 0.96875);
}

TEST(Ridge, peaks_at_zero_noise_and_stays_in_unit_range) {
    EXPECT_NEAR(ridge_profile(0.0, 1.6, 0.15, 3.0), std::pow(0.85, 3.0), 1e-15);
    EXPECT_EQ(ridge_profile(0.9, 1.6, 0.15, 3.0), 0.0);
    for (double n = -1; n <= 1; n += 0.01) {
        const double r = ridge_profile(n, 1.6, 0.15, 3.0);
        EXPECT_GE(r, 0.0);
        EXPECT_LE(r, 1.0);
    }
}

TEST(JsHypot, agrees_with_std_hypot_to_an_ulp) {
    Mulberry32 r(3);
    for (int i = 0; i < 10000; ++i) {
        const double a = r.next() * 4 - 2, b = r.next() * 4 - 2;
        EXPECT_NEAR(js_hypot(a, b), std::hypot(a, b), 4e-16 * std::hypot(a, b));
    }
    EXPECT_EQ(js_hypot(0, 0), 0.0);
    EXPECT_EQ(js_hypot(3, 4), 5.0);
}

TEST(DomainWarp, moves_points_by_at_most_the_distance) {
    const NoiseSet n(5);
    for (int i = 0; i < 1000; ++i) {
        double x = i * 3.7, z = -i * 1.3;
        warp2(n.noise2, 100.0, 20.0, x, z);
        EXPECT_LE(std::fabs(x - i * 3.7), 20.0);
        EXPECT_LE(std::fabs(z + i * 1.3), 20.0);
    }
}
