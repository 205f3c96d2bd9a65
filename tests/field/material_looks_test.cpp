// The column looks in the material rules: sand by the water, scree where the channel says,
// snow above a column's own snow line; and nothing changes without them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

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

TEST(MaterialLooks, the_new_materials_have_names) {
    EXPECT_STREQ(material_name(Material::sand), "sand");
    EXPECT_STREQ(material_name(Material::scree), "scree");
    EXPECT_EQ(kMaterialCount, 6);
}

}  // namespace
}  // namespace isoterra
