// The `tutorial` preset against the seed's own JavaScript terrain (tools/reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "classic_presets.hpp"
#include "csv.hpp"
#include "isoterra/field.hpp"

using namespace isoterra;

TEST(TutorialPreset, equals_minus_the_seed_density_at_6000_points) {
    const auto rows = test::read_csv(ISOTERRA_REFERENCE_DIR "/tutorial.csv");
    ASSERT_EQ(rows.size(), 6000u);
    const KnobTerrain preset = builtin_knob_terrain("tutorial");
    const auto a = make_terrain(preset, 20261114);
    const auto b = make_terrain(preset, 7);
    int exact = 0;
    double worst = 0.0;
    for (const auto& r : rows) {
        const Field& t = r[0] == 7 ? *b : *a;
        const glm::dvec3 p(r[1], r[2], r[3]);
        const double v = t.value(p);
        ASSERT_NEAR(v, -r[4], 1e-12 * std::max(1.0, std::fabs(r[4]))) << "at " << r[1] << "," << r[2] << "," << r[3];
        ASSERT_NEAR(t.surface_height(r[1], r[3]), r[5], 1e-12 * std::max(1.0, std::fabs(r[5])));
        exact += v == -r[4];
        worst = std::max(worst, std::fabs(v + r[4]));
    }
    // std::pow and V8's ** may differ in the last bit for the ridge cube; everything else
    // is the same IEEE sequence, so nearly all values are bit-exact.
    EXPECT_GT(exact, 5700);
    std::printf("%d of 6000 bit-exact, worst difference %.3g m\n", exact, worst);
}

TEST(TutorialPreset, highest_ground_follows_the_seed_003_rule) {
    // The seed-003 rule over the square from (x, z) to (x + size, z + size): the highest of
    // 5x5 ground heights + the most the overhangs bend + 16 m.
    const auto rows = test::read_csv(ISOTERRA_REFERENCE_DIR "/highest_ground.csv");
    ASSERT_EQ(rows.size(), 560u);
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    for (const auto& r : rows) {
        double highest = -INFINITY;
        for (int i = 0; i <= 4; ++i)
            for (int j = 0; j <= 4; ++j) highest = std::max(highest, t->ground_height(r[1] + (i * r[3]) / 4, r[2] + (j * r[3]) / 4));
        EXPECT_NEAR(highest + t->ground_bend() + 16, r[4], 1e-12 * r[4]);
    }
}

// Lattices take the single-precision vector path; points the double path that matches the
// JavaScript. They agree within 1e-4 m (float rounding of values up to a few hundred metres).
TEST(TutorialPreset, lattice_sampling_agrees_with_point_sampling_within_1e_4_m) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    for (const bool far : {false, true}) {
        Lattice lat;
        lat.origin = {-40, -5, 300};  // and far out, where float coordinates alone would fail:
        if (far) lat.origin = {1000000, -5, -1000000};
        lat.size = {9, 40, 7};
        std::vector<float> grid(lat.count());
        t->sample_lattice(lat, grid.data());
        for (int k = 0; k < lat.size.z; ++k)
            for (int j = 0; j < lat.size.y; ++j)
                for (int i = 0; i < lat.size.x; ++i) ASSERT_NEAR(grid[lat.index(i, j, k)], t->value(lat.position(i, j, k)), 1e-4);
    }
}

TEST(TutorialPreset, lattice_ground_heights_equal_surface_height_bit_for_bit) {
    for (const char* name : {"tutorial", "alpine", "islands"}) {
        const auto t = make_terrain(test::classic_preset(name), 20261114);
        Lattice lat{{-17, 0, 45}, {13, 2, 11}, 2.0};
        std::vector<float> values(lat.count()), ground(static_cast<std::size_t>(lat.size.x) * lat.size.z);
        ASSERT_TRUE(t->sample_lattice_and_ground(lat, values.data(), ground.data()));
        for (int k = 0; k < lat.size.z; ++k)
            for (int i = 0; i < lat.size.x; ++i) {
                const glm::dvec3 p = lat.position(i, 0, k);
                ASSERT_EQ(ground[k * lat.size.x + i], static_cast<float>(t->surface_height(p.x, p.z))) << name;
            }
    }
}

// The same on whole chunks of every preset of the terrain function (the tutorial and the
// classic alpine and islands), from above the ground down into the caves: the gates that
// skip cave noise where it cannot matter must never change a value.
TEST(Presets, chunk_lattices_agree_with_point_sampling_within_1e_4_m_caves_included) {
    for (const std::string& name : test::classic_preset_names()) {
        const KnobTerrain preset = test::classic_preset(name);
        const auto t = make_terrain(preset, preset.seed);
        std::size_t cave_points = 0;
        for (const glm::i64vec3 xz : {glm::i64vec3(0, 0, 0), glm::i64vec3(-700, 0, 260), glm::i64vec3(1500, 0, -90)}) {
            Lattice lat;
            const double ground = t->surface_height(double(xz.x) + 16, double(xz.z) + 16);
            lat.origin = {xz.x, static_cast<std::int64_t>(std::floor(ground)) - 70, xz.z};
            lat.size = {33, 80, 33};
            std::vector<float> grid(lat.count());
            t->sample_lattice(lat, grid.data());
            std::vector<glm::dvec3> points(lat.count());
            for (int k = 0; k < lat.size.z; ++k)
                for (int j = 0; j < lat.size.y; ++j)
                    for (int i = 0; i < lat.size.x; ++i) points[lat.index(i, j, k)] = lat.position(i, j, k);
            std::vector<double> exact(points.size());
            t->sample_points(points.data(), points.size(), exact.data());
            for (std::size_t n = 0; n < points.size(); ++n) {
                ASSERT_NEAR(grid[n], exact[n], 1e-4) << name << " at " << points[n].x << "," << points[n].y << "," << points[n].z;
                // Air below the ground column: a cave (or an overhang's underside).
                cave_points += exact[n] > 0.0 && points[n].y < t->surface_height(points[n].x, points[n].z) - t->ground_bend();
            }
        }
        EXPECT_GT(cave_points, 100u) << name;
        std::printf("%s: %zu cave points checked\n", name.c_str(), cave_points);
    }
}
