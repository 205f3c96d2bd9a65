// The column looks in the material rules: sand by the water, scree where the channel says,
// snow above a column's own snow line; and nothing changes without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "isoterra/field.hpp"

namespace isoterra {
namespace {

glm::dvec3 slope(double degrees) {
    const double a = degrees * M_PI / 180.0;
    return {std::sin(a), std::cos(a), 0.0};
}

PointLooks water_at(double level) {
    PointLooks l;
    l.water_m = level;
    return l;
}

TEST(MaterialLooks, sand_lies_on_gentle_ground_by_the_water_and_under_it) {
    MaterialRules rules;
    rules.sand_height_m = 2.0;
    const PointLooks lake = water_at(10.0);
    EXPECT_EQ(rules.classify(11.0, slope(5), 0, lake).primary, Material::sand);   // the beach
    EXPECT_EQ(rules.classify(4.0, slope(5), 0, lake).primary, Material::sand);    // the lake's bed
    EXPECT_EQ(rules.classify(15.0, slope(5), 0, lake).primary, Material::grass);  // 5 m up: past the sand
    EXPECT_EQ(rules.classify(11.0, slope(70), 0, lake).primary, Material::rock);  // a cliff by the water
    // The band ends smoothly: at the sand height above the water, half sand, half grass.
    const MaterialSample edge = rules.classify(12.0, slope(0), 0, lake);
    EXPECT_NEAR(edge.blend, 0.5, 1e-6);
    EXPECT_TRUE((edge.primary == Material::sand && edge.secondary == Material::grass) ||
                (edge.primary == Material::grass && edge.secondary == Material::sand));
    // No sand height (the default), or no water: no sand.
    EXPECT_EQ(MaterialRules{}.classify(11.0, slope(5), 0, lake).primary, Material::grass);
    EXPECT_EQ(rules.classify(11.0, slope(5), 0, PointLooks{}).primary, Material::grass);
}

TEST(MaterialLooks, scree_shows_where_the_channel_says_below_the_rock_slope) {
    const MaterialRules rules;  // rock from 40 degrees, blended over 8 either side
    PointLooks looks;
    looks.scree = 1.0;
    EXPECT_EQ(rules.classify(10, slope(25), 0, looks).primary, Material::scree);
    EXPECT_EQ(rules.classify(10, slope(0), 0, looks).primary, Material::scree);
    EXPECT_EQ(rules.classify(10, slope(60), 0, looks).primary, Material::rock);  // rock above the rock slope stays rock
    looks.scree = 0.5;                                                           // half of the gentle ground's grass
    const MaterialSample half = rules.classify(10, slope(10), 0, looks);
    EXPECT_NEAR(half.blend, 0.5, 1e-6);
    EXPECT_TRUE((half.primary == Material::grass && half.secondary == Material::scree) ||
                (half.primary == Material::scree && half.secondary == Material::grass));
    looks.scree = 0.0;
    EXPECT_EQ(rules.classify(10, slope(25), 0, looks).primary, Material::grass);
    looks.scree = std::nan("");  // no number: none
    EXPECT_EQ(rules.classify(10, slope(25), 0, looks).primary, Material::grass);
    // Underground (soil, rock) is not the surface's: scree does not reach it.
    looks.scree = 1.0;
    EXPECT_EQ(rules.classify(10, slope(0), 5, looks).primary, Material::soil);
}

TEST(MaterialLooks, snow_lies_above_the_columns_snow_line_and_not_on_steep_faces) {
    const MaterialRules rules;  // snow line 120 m, blend 15 m, no snow past 50 degrees
    PointLooks low;
    low.snow_line_m = 30.0;
    EXPECT_EQ(rules.classify(60, slope(10), 0, low).primary, Material::snow);
    EXPECT_EQ(rules.classify(60, slope(10), 0, PointLooks{}).primary, Material::grass);  // the rules' line is higher
    EXPECT_EQ(rules.classify(10, slope(10), 0, low).primary, Material::grass);
    EXPECT_EQ(rules.classify(60, slope(70), 0, low).primary, Material::rock);
    // The band keeps the rules' width around the column's line: half snow at the line.
    EXPECT_NEAR(rules.classify(30, slope(0), 0, low).blend, 0.5, 1e-6);
    PointLooks high;
    high.snow_line_m = 500.0;
    EXPECT_EQ(rules.classify(200, slope(10), 0, high).primary, Material::grass);
    EXPECT_EQ(rules.classify(200, slope(10), 0, PointLooks{}).primary, Material::snow);
}

// Without looks (and with a sand height but no water) every result is classify()'s of
// before, bit for bit: meshes of fields without looks do not change.
TEST(MaterialLooks, without_looks_the_results_are_unchanged) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const MaterialRules plain;
    MaterialRules sandy;
    sandy.sand_height_m = 3.0;
    const MaterialClassifier a(plain), b(sandy);
    for (int i = 0; i < 20000; ++i) {
        const glm::dvec3 n = glm::dvec3(u(rng), u(rng), u(rng));
        const double len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
        if (len < 1e-3) continue;
        const double y = 200.0 * u(rng), depth = std::max(0.0, 20.0 * u(rng));
        const MaterialSample want = plain.classify(y, n / len, depth);
        for (const MaterialSample got : {a(y, n / len, depth, PointLooks{}), b(y, n / len, depth), b(y, n / len, depth, PointLooks{})}) {
            EXPECT_EQ(got.primary, want.primary);
            EXPECT_EQ(got.secondary, want.secondary);
            EXPECT_EQ(got.blend, want.blend);
        }
    }
    EXPECT_TRUE(PointLooks{}.none());
    EXPECT_FALSE(water_at(0.0).none());
}

// The classifier one point at a time as it was written before it took four points at once
// (scalar, acos everywhere: where it was skipped the slope's steps are 0 or 1 either way).
MaterialSample scalar_material(const MaterialRules& r, double y, double ny, double depth, const PointLooks& looks) {
    const auto step = [](double from, double to, double v) {
        const double t = std::clamp((v - from) * (1.0 / (to - from)), 0.0, 1.0);
        return t * t * (3.0 - 2.0 * t);
    };
    const double slope = std::acos(std::clamp(ny, -1.0, 1.0)) * (180.0 / 3.14159265358979323846);
    const double steep = step(r.rock_slope_deg - r.slope_blend_deg, r.rock_slope_deg + r.slope_blend_deg, slope);
    // A column's own snow line moves the band, whose width stays the rules'.
    const double band = 1.0 / ((r.snow_line_m + r.snow_blend_m) - (r.snow_line_m - r.snow_blend_m));
    const double t = std::clamp((y - (looks.snow_line_m - r.snow_blend_m)) * band, 0.0, 1.0);
    const double line =
        std::isnan(looks.snow_line_m) ? step(r.snow_line_m - r.snow_blend_m, r.snow_line_m + r.snow_blend_m, y) : t * t * (3.0 - 2.0 * t);
    const double snowy = line * (1.0 - step(r.snow_max_slope_deg - r.slope_blend_deg, r.snow_max_slope_deg + r.slope_blend_deg, slope));
    const double below = depth - r.surface_reach_m;
    const double under = std::max(step(1.0, 3.0, below), step(-0.2, -0.6, ny));
    const double deep = step(r.soil_depth_m - 2.0, r.soil_depth_m + 2.0, below);
    double shore = 0.0;
    if (r.sand_height_m > 0.0 && looks.water_m > -1e299) {
        const double t = std::clamp((y - looks.water_m - 0.75 * r.sand_height_m) / (0.5 * r.sand_height_m), 0.0, 1.0);
        shore = 1.0 - t * t * (3.0 - 2.0 * t);
    }
    const double scree = looks.scree > 0.0 ? std::min(looks.scree, 1.0) : 0.0;
    double w[kMaterialCount] = {};
    const double open = 1.0 - under, gentle = open * (1.0 - snowy) * (1.0 - steep);
    w[3] = open * snowy;
    w[2] = open * (1.0 - snowy) * steep + under * deep;
    w[1] = under * (1.0 - deep);
    w[4] = shore > 0.0 || scree > 0.0 ? gentle * shore : 0.0;
    w[5] = shore > 0.0 || scree > 0.0 ? gentle * (1.0 - shore) * scree : 0.0;
    w[0] = shore > 0.0 || scree > 0.0 ? gentle * (1.0 - shore) * (1.0 - scree) : gentle;
    int first = 0;
    for (int m = 1; m < kMaterialCount; ++m)
        if (w[m] > w[first]) first = m;
    int second = first == 0 ? 1 : 0;
    for (int m = 0; m < kMaterialCount; ++m)
        if (m != first && w[m] > w[second]) second = m;
    MaterialSample out;
    out.primary = static_cast<Material>(first);
    out.secondary = static_cast<Material>(second);
    out.blend = w[first] + w[second] > 0.0 ? static_cast<float>(w[second] / (w[first] + w[second])) : 0.0f;
    return out;
}

// Many points at once (four to a vector, the last group short) give what the scalar rules
// give one at a time, to the bit: neighbouring lanes in and out of every band, with and
// without looks (water, the column's own snow line, scree), under overhangs and in caves.
TEST(MaterialLooks, many_points_at_once_match_the_scalar_rules_bit_for_bit) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    MaterialRules rules;
    rules.sand_height_m = 2.0;
    rules.surface_reach_m = 3.0;
    const MaterialClassifier classify(rules);
    constexpr std::size_t kCount = 4003;
    std::vector<double> y(kCount), ny(kCount), depth(kCount);
    std::vector<PointLooks> looks(kCount);
    for (std::size_t v = 0; v < kCount; ++v) {
        y[v] = 160.0 * u(rng) - 20.0, ny[v] = 2.0 * u(rng) - 1.0, depth[v] = u(rng) < 0.7 ? 0.0 : 25.0 * u(rng);
        if (u(rng) < 0.3) looks[v].water_m = 10.0 * u(rng);
        if (u(rng) < 0.3) looks[v].snow_line_m = 60.0 + 60.0 * u(rng);
        if (u(rng) < 0.3) looks[v].scree = 1.5 * u(rng) - 0.25;
    }
    std::vector<MaterialSample> got(kCount);
    classify.classify(MaterialPoints{y.data(), ny.data(), depth.data(), looks.data()}, kCount, got.data());
    std::size_t blended = 0, looked = 0;
    for (std::size_t v = 0; v < kCount; ++v) {
        const MaterialSample want = scalar_material(rules, y[v], ny[v], depth[v], looks[v]);
        ASSERT_EQ(got[v].primary, want.primary) << v;
        ASSERT_EQ(got[v].secondary, want.secondary) << v;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(got[v].blend), std::bit_cast<std::uint32_t>(want.blend)) << v;
        blended += want.blend > 0.01f;
        looked += want.primary == Material::sand || want.primary == Material::scree;
    }
    EXPECT_GT(blended, 1000u);
    EXPECT_GT(looked, 40u);
    // Without looks (a null array) the same as the defaults.
    classify.classify(MaterialPoints{y.data(), ny.data(), depth.data(), nullptr}, 7, got.data());
    for (std::size_t v = 0; v < 7; ++v) EXPECT_EQ(got[v].blend, scalar_material(rules, y[v], ny[v], depth[v], PointLooks{}).blend);
}

TEST(MaterialLooks, the_new_materials_have_names) {
    EXPECT_STREQ(material_name(Material::sand), "sand");
    EXPECT_STREQ(material_name(Material::scree), "scree");
    EXPECT_EQ(kMaterialCount, 6);
}

}  // namespace
}  // namespace isoterra
