// Where every front end starts without an eye (the viewer, `fly`, `render`, the page's core):
// in the air just above the ground or the sea, looking down at ground in clear sight.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "isoterra/graph.hpp"
#include "isoterra/session.hpp"

using namespace isoterra;

namespace {

// The lowest value on the 60 m below `p`, 1 m apart: below 0 when solid ground is there.
double lowest_below(const Field& field, const glm::dvec3& p) {
    double lowest = 1e300;
    for (double d = 0.0; d <= 60.0; d += 1.0) lowest = std::min(lowest, field.value(p - glm::dvec3{0.0, d, 0.0}));
    return lowest;
}

}  // namespace

TEST(StartingView, every_preset_starts_in_the_air_near_the_ground_looking_down_at_ground_in_clear_sight) {
    for (const std::string& name : builtin_terrain_names()) {
        const std::shared_ptr<const Field> field = builtin_terrain(name).make_field();
        const StartingView start = starting_view(*field);
        EXPECT_GT(field->value(start.eye), 0.0) << name << ": the eye is in the ground";
        const bool sea_below = start.eye.y - field->sea_level_m() <= 60.0;
        EXPECT_TRUE(lowest_below(*field, start.eye) < 0.0 || sea_below) << name << ": nothing within 60 m below the eye";
        const glm::dvec3 look = glm::normalize(start.target - start.eye);
        EXPECT_LE(look.y, -std::sin(0.03) + 1e-9) << name << ": not looking down";
        EXPECT_GE(look.y, -std::sin(0.3) - 1e-9) << name << ": looking too steeply down";
        // The first 200 m of the line of sight are air: no slope in the face.
        for (double d = 0.0; d <= 200.0; d += 5.0)
            EXPECT_GT(field->value(start.eye + look * d), 0.0) << name << ": ground " << d << " m along the line of sight";
        EXPECT_GT(glm::dot(start.camera().forward(), look), 1.0 - 1e-12) << name;
        EXPECT_EQ(start.camera().position, start.eye) << name;
    }
}

TEST(StartingView, alpine_starts_above_its_mountain_where_a_fixed_eye_at_120_m_was_inside_it) {
    const std::shared_ptr<const Field> field = builtin_terrain("alpine").make_field();
    ASSERT_LT(field->value({0.0, 120.0, 0.0}), 0.0);
    const StartingView start = starting_view(*field);
    EXPECT_NEAR(start.eye.y, field->ground_height(0.0, 40.0) + 40.0, 1e-9);
    EXPECT_GT(start.eye.y, 500.0);
}

TEST(StartingView, a_field_without_a_ground_height_starts_40_m_above_its_highest_solid_sample) {
    // Solid below y = 100.5 m, with no ground height of its own: the column is searched 8 m apart.
    struct Slab final : Field {
        void sample_points(const glm::dvec3* p, std::size_t n, double* out) const override {
            for (std::size_t i = 0; i < n; ++i) out[i] = p[i].y - 100.5;
        }
        ValueRange bounds(const Box&) const override { return {-1e9, 1e9}; }
    } slab;
    const StartingView start = starting_view(slab);
    EXPECT_EQ(start.eye, glm::dvec3(0.0, 96.0 + 40.0, 40.0));
    EXPECT_LT(start.target.y, start.eye.y);
}
