// The sign convention on analytic shapes, and CSG identities.
#include <gtest/gtest.h>

#include <cmath>

#include "isoterra/field.hpp"

using namespace isoterra;

TEST(SignConvention, plane_is_negative_below_positive_above_gradient_up) {
    const auto plane = make_plane({0, 1, 0}, 2.5);
    EXPECT_LT(plane->value({3, 0, 4}), 0.0);
    EXPECT_GT(plane->value({3, 5, 4}), 0.0);
    EXPECT_DOUBLE_EQ(plane->value({3, 2.5, 4}), 0.0);
    const glm::dvec3 g = plane->gradient({1, 1, 1});
    EXPECT_NEAR(g.y, 1.0, 1e-9);
    EXPECT_NEAR(g.x, 0.0, 1e-9);
}

TEST(SignConvention, sphere_is_solid_inside_with_outward_gradient) {
    const auto s = make_sphere({1, 2, 3}, 10);
    EXPECT_DOUBLE_EQ(s->value({1, 2, 3}), -10.0);
    EXPECT_DOUBLE_EQ(s->value({1, 2, 23}), 10.0);
    EXPECT_NEAR(s->value({1 + 10, 2, 3}), 0.0, 1e-12);
    const glm::dvec3 g = s->gradient({1 + 5, 2, 3});
    EXPECT_NEAR(g.x, 1.0, 1e-6);
}

TEST(SignConvention, terrain_is_solid_deep_down_and_air_high_up_gradient_out) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const double h = t->surface_height(0, 0);
    EXPECT_GT(t->value({0, h + 60, 0}), 0.0);
    const glm::dvec3 g = t->gradient({0, h + 30, 0});
    EXPECT_GT(g.y, 0.5);  // up, out of the ground
}

TEST(BoxShape, is_the_exact_box_distance) {
    const auto b = make_box({0, 0, 0}, {1, 2, 3});
    EXPECT_DOUBLE_EQ(b->value({0, 0, 0}), -1.0);
    EXPECT_DOUBLE_EQ(b->value({4, 0, 0}), 3.0);
    EXPECT_DOUBLE_EQ(b->value({4, 6, 0}), 5.0);
}

TEST(Csg, identities_hold_on_shapes) {
    std::shared_ptr<const Field> a = make_sphere({0, 0, 0}, 5);
    std::shared_ptr<const Field> b = make_box({3, 0, 0}, {2, 2, 2});
    const auto u = make_csg(CsgOp::union_, a, b);
    const auto u2 = make_csg(CsgOp::union_, b, a);
    const auto i = make_csg(CsgOp::intersect, a, b);
    const auto s = make_csg(CsgOp::subtract, a, b);
    const auto sa = make_csg(CsgOp::subtract, a, a);
    const auto su = make_csg(CsgOp::smooth_union, a, b, 2.0);
    const auto ss = make_csg(CsgOp::smooth_subtract, a, b, 2.0);
    Mulberry32 r(1);
    for (int n = 0; n < 2000; ++n) {
        const glm::dvec3 p(r.next() * 16 - 8, r.next() * 16 - 8, r.next() * 16 - 8);
        const double va = a->value(p), vb = b->value(p);
        EXPECT_EQ(u->value(p), u2->value(p));  // union commutes
        EXPECT_EQ(u->value(p), std::min(va, vb));
        EXPECT_EQ(i->value(p), -std::min(-va, -vb));  // De Morgan
        EXPECT_EQ(s->value(p), std::max(va, -vb));
        EXPECT_GE(sa->value(p), 0.0 - 1e-12);                     // a minus a is empty
        EXPECT_LE(su->value(p), std::min(va, vb) + 1e-12);        // smooth union: at most min...
        EXPECT_GE(su->value(p), std::min(va, vb) - 0.5 - 1e-12);  // ...and at most k/4 below
        if (std::fabs(va - vb) >= 2.0) EXPECT_NEAR(su->value(p), std::min(va, vb), 1e-12);
        EXPECT_GE(ss->value(p), std::max(va, -vb) - 1e-12);
        EXPECT_LE(ss->value(p), std::max(va, -vb) + 0.5 + 1e-12);
    }
    EXPECT_THROW(make_csg(CsgOp::smooth_union, a, b, 0.0), std::invalid_argument);
}

TEST(Materials, slope_height_and_depth_pick_the_material) {
    const MaterialRules rules;
    const glm::dvec3 up(0, 1, 0), cliff(1, 0, 0);
    EXPECT_EQ(rules.classify(10, up, 0).primary, Material::grass);
    EXPECT_EQ(rules.classify(10, cliff, 0).primary, Material::rock);
    EXPECT_EQ(rules.classify(200, up, 0).primary, Material::snow);
    EXPECT_EQ(rules.classify(10, up, 5).primary, Material::soil);
    EXPECT_EQ(rules.classify(10, up, 40).primary, Material::rock);
    // At the grass/rock threshold the two blend evenly.
    const glm::dvec3 at40(std::sin(40 * M_PI / 180), std::cos(40 * M_PI / 180), 0);
    const MaterialSample s = rules.classify(10, at40, 0);
    EXPECT_NEAR(s.blend, 0.5, 1e-6);
    EXPECT_TRUE((s.primary == Material::grass && s.secondary == Material::rock) ||
                (s.primary == Material::rock && s.secondary == Material::grass));
}

// The rules written out plainly (acos, divisions), as the reference for the classifier.
MaterialSample reference_material(const MaterialRules& r, double y, const glm::dvec3& n, double depth) {
    const auto step = [](double from, double to, double v) {
        const double t = std::clamp((v - from) / (to - from), 0.0, 1.0);
        return t * t * (3.0 - 2.0 * t);
    };
    const double slope = std::acos(std::clamp(n.y, -1.0, 1.0)) * 180.0 / M_PI;
    const double steep = step(r.rock_slope_deg - r.slope_blend_deg, r.rock_slope_deg + r.slope_blend_deg, slope);
    const double snowy = step(r.snow_line_m - r.snow_blend_m, r.snow_line_m + r.snow_blend_m, y) *
                         (1.0 - step(r.snow_max_slope_deg - r.slope_blend_deg, r.snow_max_slope_deg + r.slope_blend_deg, slope));
    const double below = depth - r.surface_reach_m;
    const double under = std::max(step(1.0, 3.0, below), step(-0.2, -0.6, n.y));
    const double deep = step(r.soil_depth_m - 2.0, r.soil_depth_m + 2.0, below);
    const double open = 1.0 - under;
    const double w[4] = {open * (1.0 - snowy) * (1.0 - steep), under * (1.0 - deep), open * (1.0 - snowy) * steep + under * deep,
                         open * snowy};  // grass, soil, rock, snow
    int first = 0;
    for (int m = 1; m < 4; ++m)
        if (w[m] > w[first]) first = m;
    int second = first == 0 ? 1 : 0;
    for (int m = 0; m < 4; ++m)
        if (m != first && w[m] > w[second]) second = m;
    MaterialSample out;
    out.primary = static_cast<Material>(first);
    out.secondary = static_cast<Material>(second);
    out.blend = w[first] + w[second] > 0.0 ? static_cast<float>(w[second] / (w[first] + w[second])) : 0.0f;
    return out;
}

// The classifier (no acos where the slope cannot matter, multiplies for divisions) agrees
// with the plain rules at random normals and right at the edges of the slope bands, for the
// default rules and for rules whose bands reach below 0 or above 180 degrees.
TEST(Materials, classifier_agrees_with_the_plain_rules) {
    MaterialRules wide;
    wide.rock_slope_deg = 5.0;
    wide.slope_blend_deg = 10.0;  // a band from -5 degrees
    wide.snow_max_slope_deg = 175.0;
    for (const MaterialRules& rules : {MaterialRules{}, wide}) {
        const MaterialClassifier classifier(rules);
        Mulberry32 rng(99);
        std::vector<double> slopes;
        for (double edge : {rules.rock_slope_deg - rules.slope_blend_deg, rules.rock_slope_deg + rules.slope_blend_deg,
                            rules.snow_max_slope_deg - rules.slope_blend_deg, rules.snow_max_slope_deg + rules.slope_blend_deg})
            for (double d : {-1e-3, -1e-9, 0.0, 1e-9, 1e-3}) slopes.push_back(edge + d);
        for (int i = 0; i < 2000; ++i) slopes.push_back(rng.next() * 180.0);
        std::size_t mixed = 0;
        for (const double slope : slopes) {
            const double a = slope * M_PI / 180.0, turn = rng.next() * 2.0 * M_PI;
            const glm::dvec3 n(std::sin(a) * std::cos(turn), std::cos(a), std::sin(a) * std::sin(turn));
            for (const double y : {0.0, 110.0, 125.0, 200.0})
                for (const double depth : {0.0, 2.0, 20.0}) {
                    const MaterialSample x = reference_material(rules, y, n, depth), z = classifier(y, n, depth);
                    const bool swapped = x.primary == z.secondary && x.secondary == z.primary && std::fabs(x.blend - 0.5f) < 1e-6f;
                    if (swapped) continue;  // an even mix: which one is "first" is a rounding tie
                    ASSERT_EQ(x.primary, z.primary) << slope;
                    if (x.blend > 1e-6f) ASSERT_EQ(x.secondary, z.secondary) << slope;
                    ASSERT_NEAR(x.blend, z.blend, 1e-6) << slope << " y " << y;
                    mixed += x.blend > 0.01f;
                }
        }
        EXPECT_GT(mixed, 1000u);
    }
}
