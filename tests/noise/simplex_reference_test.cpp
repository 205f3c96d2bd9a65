// Our noise against vectors made by npm simplex-noise 4.0.3 (tools/reference/generate.mjs).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "csv.hpp"
#include "isoterra/noise.hpp"

using namespace isoterra;

TEST(Mulberry32, matches_the_javascript_stream) {
    Mulberry32 r(20261114);
    EXPECT_EQ(r.next(), 0.12950722174718976);
    EXPECT_EQ(r.next(), 0.38213343149982393);
    EXPECT_EQ(r.next(), 0.75720453262329102);
    EXPECT_EQ(Mulberry32(0).next(), 0.26642920868471265);
}

TEST(Simplex, noise2_and_noise3_equal_simplex_noise_4_0_3_within_1e_12) {
    const auto rows = test::read_csv(ISOTERRA_REFERENCE_DIR "/simplex.csv");
    ASSERT_EQ(rows.size(), 12000u);
    std::map<std::int64_t, std::unique_ptr<NoiseSet>> sets;
    double worst = 0.0;
    int exact = 0;
    for (const auto& r : rows) {
        const auto seed = static_cast<std::int64_t>(r[0]);
        auto& set = sets[seed];
        if (!set) set = std::make_unique<NoiseSet>(static_cast<std::uint32_t>(seed));
        const double ours = r[1] == 2 ? set->noise2(r[2], r[3]) : set->noise3(r[2], r[3], r[4]);
        const double diff = std::fabs(ours - r[5]);
        worst = std::max(worst, diff);
        exact += diff == 0.0;
        ASSERT_LE(diff, 1e-12) << "seed " << seed << " dims " << r[1] << " at " << r[2] << "," << r[3] << "," << r[4];
    }
    EXPECT_EQ(sets.size(), 6u);
    // The arithmetic is the same IEEE sequence as the JavaScript: every value is bit-exact.
    EXPECT_EQ(exact, 12000) << "worst difference " << worst;
}

TEST(Simplex, different_seeds_give_different_noise) {
    const NoiseSet a(1), b(2);
    int differ = 0;
    for (int i = 0; i < 100; ++i) differ += a.noise3(i * 0.37, i * 0.11, -i * 0.23) != b.noise3(i * 0.37, i * 0.11, -i * 0.23);
    EXPECT_GT(differ, 95);
}

TEST(Simplex, batch_noise3_equals_the_scalar_noise_bit_for_bit) {
    const NoiseSet n(20261114);
    Mulberry32 r(4);
    std::vector<double> x(1003), y(1003), z(1003), out(1003);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double scale = i % 3 == 0 ? 1e4 : 50.0;
        x[i] = (r.next() * 2 - 1) * scale;
        y[i] = (r.next() * 2 - 1) * scale;
        z[i] = i % 7 == 0 ? std::round(x[i]) : (r.next() * 2 - 1) * scale;  // lattice points too
    }
    n.noise3.batch(x.data(), y.data(), z.data(), out.data(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(out[i], n.noise3(x[i], y[i], z[i])) << i;
}

// The single-precision noise of the chunk path (fast(), whose bits lattice_fast() gives on
// every CPU: see the lattice test below) against the double path.
TEST(Simplex, fast_noise3_agrees_with_the_double_path_within_2e_6_even_far_out) {
    const NoiseSet n(20261114);
    Mulberry32 r(8);
    const std::size_t count = 4099;
    std::vector<double> x(count), y(count), z(count);
    for (std::size_t i = 0; i < count; ++i) {
        const double far = i % 2 ? 2e4 : 20.0;  // 1,000 km at a 50 m feature scale is 2e4
        x[i] = (r.next() * 2 - 1) * far;
        y[i] = (r.next() * 2 - 1) * far;
        z[i] = (r.next() * 2 - 1) * far;
    }
    double worst = 0.0;
    for (std::size_t i = 0; i < count; ++i)
        worst = std::max(worst, std::fabs(n.noise3.fast(x[i], y[i], z[i]) - n.noise3(x[i], y[i], z[i])));
    EXPECT_LT(worst, 2e-6);
    std::printf("fast noise3: worst difference %.3g\n", worst);
}

TEST(Simplex, lattice_noise3_equals_fast_at_every_point_and_gates_whole_groups) {
    const NoiseSet n(7);
    // Features of 50 m put sixteen neighbours mostly in one skewed cell, 9 m often in two,
    // 1.5 m in several: each way the vector paths find the corners' hashes is taken. Rows
    // of 5 are too short for any vector path, 8 for AVX-512; every path this CPU has runs.
    const NoisePath widest = noise_path();
    for (int path = 0; path <= static_cast<int>(widest); ++path)
        for (const double feature : {50.0, 9.0, 1.5})
            for (const int nx : {5, 8, 16, 33, 37}) {
                limit_noise_path(static_cast<NoisePath>(path));
                SCOPED_TRACE(noise_path_name(noise_path()));
                NoiseLattice l{{-40, 3, 1000000}, {nx, 3, 2}, 1.0, {feature, 35.0, feature}, {0.0, 0.0, 0.0}};
                std::vector<float> out(static_cast<std::size_t>(nx) * 6);
                n.noise3.lattice_fast(l, out.data());
                std::size_t p = 0;
                for (int k = 0; k < 2; ++k)
                    for (int j = 0; j < 3; ++j)
                        for (int i = 0; i < nx; ++i, ++p)
                            ASSERT_EQ(out[p], n.noise3.fast(l.coordinate(0, i), l.coordinate(1, j), l.coordinate(2, k))) << nx;
                // A gate above every gate value skips everything; one below them skips nothing.
                std::vector<float> gate(out.size(), -5.0f), gated(out.size(), 9.0f);
                l.gate = gate.data();
                l.gate_below = 0.0f;
                n.noise3.lattice_fast(l, gated.data());
                for (const float v : gated) ASSERT_EQ(v, 0.0f);
                l.gate_below = -10.0f;
                n.noise3.lattice_fast(l, gated.data());
                ASSERT_EQ(gated, out);
            }
    limit_noise_path(widest);
    std::printf("lattice noise3 paths checked: baseline to %s\n", noise_path_name(widest));
}
