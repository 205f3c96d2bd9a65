// The fast noise flavour (FastSimplex3): the same bits on every path and in every lattice,
// its precision far out, its range and continuity, and golden bits that files will rely on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <random>
#include <vector>

#include "isoterra/noise.hpp"

using namespace isoterra;

namespace {

// Restores the lattice path's cap when a test ends.
struct PathCap {
    explicit PathCap(NoisePath p) { limit_noise_path(p); }
    ~PathCap() { limit_noise_path(NoisePath::avx512); }
};

std::vector<float> run(const FastSimplex3& n, const NoiseLattice& l, const FbmShape* fbm) {
    std::vector<float> out(static_cast<std::size_t>(l.size.x) * l.size.y * l.size.z, -7.0f);
    fbm ? n.fbm_lattice(l, *fbm, out.data()) : n.lattice(l, out.data());
    return out;
}

std::uint64_t fnv1a(const std::vector<float>& v) {
    std::uint64_t h = 1469598103934665603ull;
    for (const float f : v) {
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        for (int b = 0; b < 4; ++b) h = (h ^ (bits >> (8 * b) & 255u)) * 1099511628211ull;
    }
    return h;
}

NoiseLattice lattice(glm::ivec3 size, glm::i64vec3 origin, double spacing, glm::dvec3 feature, glm::dvec3 offset = {}) {
    NoiseLattice l;
    l.size = size;
    l.origin = origin;
    l.spacing = spacing;
    l.feature = feature;
    l.offset = offset;
    return l;
}

// The same function in double from the unsplit point: the skew of the textbook, the same
// hash and gradients. Its cell is exact and its arithmetic 29 bits finer than the flavour's.
double reference(std::uint32_t seed, double x, double y, double z) {
    const auto gradient = [](int g, int axis) { return g >> 3 == axis ? 0.0 : (g >> axis & 1) ? -1.0 : 1.0; };
    const double s = (x + y + z) / 3.0;
    const double fi = std::floor(x + s), fj = std::floor(y + s), fk = std::floor(z + s);
    const double t = (fi + fj + fk) / 6.0;
    const double x0 = x - (fi - t), y0 = y - (fj - t), z0 = z - (fk - t);
    const auto i = static_cast<std::uint32_t>(static_cast<std::int64_t>(fi));
    const auto j = static_cast<std::uint32_t>(static_cast<std::int64_t>(fj));
    const auto k = static_cast<std::uint32_t>(static_cast<std::int64_t>(fk));
    const int i1 = x0 >= y0 && x0 >= z0, j1 = !(x0 >= y0) && y0 >= z0, k1 = !(y0 >= z0 || x0 >= z0);
    const int i2 = x0 >= y0 || x0 >= z0, j2 = !(x0 >= y0) || y0 >= z0, k2 = !(y0 >= z0 && x0 >= z0);
    double sum = 0.0;
    const auto corner = [&](int di, int dj, int dk, double unskew) {
        const double cx = x0 - di + unskew, cy = y0 - dj + unskew, cz = z0 - dk + unskew;
        const std::uint32_t h = (((i + di) * 501125321u) ^ ((j + dj) * 1136930381u) ^ ((k + dk) * 1720413743u + seed)) * 0x27d4eb2du;
        const int g = static_cast<int>(h >> 27);
        const double tt = std::max(0.5 - (cx * cx + cy * cy + cz * cz), 0.0);
        sum += tt * tt * tt * tt * (gradient(g, 0) * cx + gradient(g, 1) * cy + gradient(g, 2) * cz);
    };
    corner(0, 0, 0, 0.0);
    corner(i1, j1, k1, 1.0 / 6.0);
    corner(i2, j2, k2, 2.0 / 6.0);
    corner(1, 1, 1, 3.0 / 6.0);
    return sum * 62.0;
}

}  // namespace

TEST(FastSimplex, every_path_and_the_one_point_path_give_the_same_bits) {
    const FastSimplex3 noise(1337);
    const FbmShape fbm{5, 2.0, 0.5, 1.0 / 1.9375};
    // Rows longer and shorter than every path's lanes, a lattice of fewer points than lanes,
    // one 1,000 km out with an offset.
    const NoiseLattice shapes[] = {lattice({33, 33, 33}, {10, -20, 10}, 1.0, {50, 35, 50}), lattice({5, 7, 3}, {-3, 4, 9}, 2.0, {7, 9, 11}),
                                   lattice({17, 2, 2}, {0, 0, 0}, 0.37, {1, 1, 1}), lattice({2, 1, 1}, {1, 2, 3}, 1.0, {3, 3, 3}),
                                   lattice({40, 3, 2}, {31250, 0, -31250}, 32.0, {100, 50, 100}, {0.25, 3.5, -7.0})};
    for (const FbmShape* shape : {static_cast<const FbmShape*>(nullptr), &fbm}) {
        for (const NoiseLattice& l : shapes) {
            std::vector<float> by_path[3];
            for (const NoisePath p : {NoisePath::baseline, NoisePath::avx2, NoisePath::avx512}) {
                const PathCap cap(p);
                by_path[static_cast<int>(p)] = run(noise, l, shape);
            }
            EXPECT_EQ(by_path[0], by_path[1]) << l.size.x << "x" << l.size.y << "x" << l.size.z;
            EXPECT_EQ(by_path[0], by_path[2]) << l.size.x << "x" << l.size.y << "x" << l.size.z;
            std::size_t n = 0, differ = 0;
            for (int k = 0; k < l.size.z; ++k)
                for (int j = 0; j < l.size.y; ++j)
                    for (int i = 0; i < l.size.x; ++i, ++n) {
                        const double x = l.coordinate(0, i), y = l.coordinate(1, j), z = l.coordinate(2, k);
                        const float one = shape ? noise.fbm(x, y, z, *shape) : noise(x, y, z);
                        differ += std::memcmp(&one, &by_path[2][n], 4) != 0;
                    }
            EXPECT_EQ(differ, 0u) << l.size.x << "x" << l.size.y << "x" << l.size.z;
        }
    }
}

TEST(FastSimplex, points_in_a_batch_give_the_bits_of_each_point_alone) {
    const FastSimplex3 noise(5);
    const FbmShape fbm{4, 2.1, 0.45, 0.8};
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-3e4, 3e4);
    std::vector<double> x(11), y(11), z(11);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = u(rng), y[i] = u(rng) * 1e-3, z[i] = u(rng);
    std::vector<float> out(11, -7.0f);
    noise.fbm_points(x.data(), y.data(), z.data(), x.size(), fbm, out.data());
    for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(out[i], noise.fbm(x[i], y[i], z[i], fbm)) << i;
    // And a lattice row of the same points' kind: lattice and points agree.
    const NoiseLattice row = lattice({11, 1, 1}, {-5, 2, 7}, 1.5, {3.0, 4.0, 5.0});
    const std::vector<float> on_lattice = run(noise, row, &fbm);
    std::vector<double> lx(11), ly(11, row.coordinate(1, 0)), lz(11, row.coordinate(2, 0));
    for (int i = 0; i < 11; ++i) lx[static_cast<std::size_t>(i)] = row.coordinate(0, i);
    noise.fbm_points(lx.data(), ly.data(), lz.data(), 11, fbm, out.data());
    EXPECT_EQ(out, on_lattice);
}

TEST(FastSimplex, a_point_has_the_same_value_in_every_lattice_that_holds_it) {
    // Chunks sample their borders twice: the overlap must agree bit for bit, wherever the
    // lattice starts.
    const FastSimplex3 noise(99);
    const NoiseLattice big = lattice({40, 20, 20}, {-1000000, 3, 500000}, 0.5, {20, 20, 20});
    const NoiseLattice part = lattice({9, 5, 6}, {-1000000 + 13, 3 + 7, 500000 + 11}, 0.5, {20, 20, 20});
    const std::vector<float> a = run(noise, big, nullptr), b = run(noise, part, nullptr);
    std::size_t n = 0;
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 5; ++j)
            for (int i = 0; i < 9; ++i, ++n) {
                const std::size_t m = (static_cast<std::size_t>(k + 11) * 20 + (j + 7)) * 40 + (i + 13);
                ASSERT_EQ(std::memcmp(&a[m], &b[n], 4), 0) << i << "," << j << "," << k;
            }
}

TEST(FastSimplex, keeps_its_precision_1000_km_out) {
    // The flavour against the same formula in double, near the origin and 1,000 km out
    // (feature 50 m: 20,000 noise units): the float parts stay in [0, 3) wherever the point
    // is, so the error does not grow with distance. 1e-4 m at a feature of 50 m is 2e-6
    // noise units, over which the noise moves up to 7.2 x 2e-6 = 1.44e-5 (its slope bound,
    // below): the float error stays under what a tenth of a millimetre would change.
    const FastSimplex3 noise(7);
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> near(-5.0, 5.0);
    double worst_near = 0.0, worst_far = 0.0;
    for (int n = 0; n < 200000; ++n) {
        const double x = near(rng), y = near(rng), z = near(rng);
        worst_near = std::max(worst_near, std::fabs(noise(x, y, z) - reference(7, x, y, z)));
        const double fx = x + 20000.0, fy = y - 20000.0, fz = z + 20000.0;
        worst_far = std::max(worst_far, std::fabs(noise(fx, fy, fz) - reference(7, fx, fy, fz)));
    }
    EXPECT_LT(worst_near, 1.44e-5);
    EXPECT_LT(worst_far, 1.44e-5);
    RecordProperty("worst_near", std::to_string(worst_near));
    RecordProperty("worst_far", std::to_string(worst_far));
    std::printf("float against double: worst %.3g near the origin, %.3g 1,000 km out\n", worst_near, worst_far);
    EXPECT_LT(worst_far, 4.0 * worst_near + 1e-7);
}

TEST(FastSimplex, lies_within_minus_one_and_one_reaches_near_both_and_is_continuous) {
    const FastSimplex3 noise(2026);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-200.0, 200.0);
    double lo = 0.0, hi = 0.0, mean = 0.0, steepest = 0.0;
    const int count = 300000;
    const double step = 1e-4;
    for (int n = 0; n < count; ++n) {
        const double x = u(rng), y = u(rng), z = u(rng);
        const double v = noise(x, y, z);
        lo = std::min(lo, v), hi = std::max(hi, v), mean += v / count;
        for (const glm::dvec3 d : {glm::dvec3(step, 0, 0), glm::dvec3(0, step, 0), glm::dvec3(0, 0, step)})
            steepest = std::max(steepest, std::fabs(noise(x + d.x, y + d.y, z + d.z) - v) / step);
    }
    EXPECT_GE(lo, -1.0);
    EXPECT_LE(hi, 1.0);
    EXPECT_LT(lo, -0.8);
    EXPECT_GT(hi, 0.8);
    EXPECT_LT(std::fabs(mean), 0.01);
    // A kernel radius of sqrt(0.5) ends each corner's reach inside its neighbours' simplices:
    // no jumps, so finite differences stay under the slope bound. The steepest slope is at a
    // corner: |gradient| sqrt(3) x 0.5^4 x 62 = 6.71; the other corners add little there.
    EXPECT_GT(steepest, 4.0);
    EXPECT_LT(steepest, 7.2);
    // fBm normalised by its weights stays within [-1, 1] too.
    const FbmShape fbm{5, 2.0, 0.5, 1.0 / 1.9375};
    for (int n = 0; n < 20000; ++n) {
        const float v = noise.fbm(u(rng), u(rng), u(rng), fbm);
        ASSERT_LE(std::fabs(v), 1.0f);
    }
}

TEST(FastSimplex, golden_bits_that_files_asking_for_the_flavour_rely_on) {
    // A change here changes every world that says noise = "fast": a new flavour, not an edit.
    const FastSimplex3 noise(1337);
    const NoiseLattice l = lattice({33, 33, 33}, {10, -20, 10}, 1.0, {50, 35, 50});
    EXPECT_EQ(fnv1a(run(noise, l, nullptr)), 17130746255017104593ull);
    const FbmShape fbm{5, 2.0, 0.5, 1.0 / 1.9375};
    EXPECT_EQ(fnv1a(run(noise, l, &fbm)), 12555411273433530754ull);
    EXPECT_EQ(noise(0.0, 0.0, 0.0), 0.0f);
    EXPECT_EQ(noise(0.3, -1.7, 2.2), -0x1.ec245cp-6f);
    EXPECT_NE(fnv1a(run(FastSimplex3(1338), l, nullptr)), fnv1a(run(noise, l, nullptr)));
}

namespace {

// FastSimplex2's formula in double from the same point.
double reference2(std::uint32_t seed, double x, double y) {
    const double f2 = 0.36602540378443864676, g2 = 0.21132486540518711775;
    const double s = (x + y) * f2;
    const double fi = std::floor(x + s), fj = std::floor(y + s);
    const double t = (fi + fj) * g2;
    const double x0 = x - (fi - t), y0 = y - (fj - t);
    const auto i = static_cast<std::uint32_t>(static_cast<std::int64_t>(fi));
    const auto j = static_cast<std::uint32_t>(static_cast<std::int64_t>(fj));
    const int i1 = x0 > y0, j1 = 1 - i1;
    double sum = 0.0;
    const auto corner = [&](int di, int dj, double cx, double cy) {
        const std::uint32_t h = (((i + di) * 501125321u) ^ ((j + dj) * 1136930381u + seed)) * 0x27d4eb2du;
        const unsigned g = h >> 29;
        const double sign0 = (g & 1) ? -1.0 : 1.0, sign1 = (g & 2) ? -1.0 : 1.0, d = 0.70710678;
        const double gx = (g & 4) ? ((g & 2) ? 0.0 : sign0) : sign0 * d;
        const double gy = (g & 4) ? ((g & 2) ? sign0 : 0.0) : sign1 * d;
        const double tt = std::max(0.5 - (cx * cx + cy * cy), 0.0);
        sum += tt * tt * tt * tt * (gx * cx + gy * cy);
    };
    corner(0, 0, x0, y0);
    corner(i1, j1, x0 - i1 + g2, y0 - j1 + g2);
    corner(1, 1, x0 - 1 + 2 * g2, y0 - 1 + 2 * g2);
    return sum * 99.0;
}

}  // namespace

TEST(FastSimplex2, lies_within_minus_one_and_one_under_its_slope_bound_and_keeps_its_precision_far_out) {
    const FastSimplex2 noise(2026);
    std::mt19937_64 rng(12);
    std::uniform_real_distribution<double> u(-300.0, 300.0);
    double lo = 0.0, hi = 0.0, steepest = 0.0, worst_near = 0.0, worst_far = 0.0;
    const double step = 1e-4;
    for (int n = 0; n < 300000; ++n) {
        const double x = u(rng), y = u(rng);
        const double v = noise(x, y);
        lo = std::min(lo, v), hi = std::max(hi, v);
        steepest = std::max(steepest, std::hypot(noise(x + step, y) - v, noise(x, y + step) - v) / step);
        worst_near = std::max(worst_near, std::fabs(v - reference2(2026, x, y)));
        worst_far = std::max(worst_far, std::fabs(noise(x + 2e4, y - 2e4) - reference2(2026, x + 2e4, y - 2e4)));
    }
    EXPECT_GE(lo, -1.0);
    EXPECT_LE(hi, 1.0);
    EXPECT_LT(lo, -0.8);
    EXPECT_GT(hi, 0.8);
    // The proven bound (13.4) holds with room; the steepest found is about 7.3.
    EXPECT_GT(steepest, 6.0);
    EXPECT_LT(steepest, FastSimplex2::kLipschitz);
    // Skew in double: the float offsets are as fine 1,000 km out (2e4 units at 50 m) as here.
    EXPECT_LT(worst_near, 1e-5);
    EXPECT_LT(worst_far, 1e-5);
    std::printf("2D: steepest %.3f, float against double %.3g near, %.3g far\n", steepest, worst_near, worst_far);
}

TEST(FastSimplex2, a_batch_gives_the_bits_of_each_point_and_golden_values) {
    const FastSimplex2 noise(1337);
    const FbmShape fbm{5, 2.0, 0.5, 1.0 / 1.9375};
    std::vector<double> x, y;
    for (int i = 0; i < 1001; ++i) x.push_back(-40.0 + 0.083 * i), y.push_back(17.0 - 0.031 * i);
    std::vector<float> batch(x.size());
    noise.fbm_points(x.data(), y.data(), x.size(), fbm, batch.data());
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(batch[i], noise.fbm(x[i], y[i], fbm)) << i;
    EXPECT_EQ(fnv1a(batch), 17414880157385511045ull);
    EXPECT_EQ(noise(0.3, -1.7), 0x1.2dda02p-1f);
    EXPECT_EQ(noise(0.0, 0.0), 0.0f);
}
