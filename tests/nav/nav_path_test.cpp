// Paths on the tutorial terrain: long ones over the ground, into a cave through its mouth,
// and the points refused (in rock, in the air, off the region) or joined by no path.
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "isoterra/nav.hpp"
#include "nav_checks.hpp"

namespace isoterra::test {
namespace {

TEST(NavPath, tutorial_ground_points_500_m_apart_are_joined_on_the_ground_and_within_the_slope) {
    const auto field = nav_tutorial();
    const glm::dvec3 a = top_ground(*field, 0.0, 100.0), b = top_ground(*field, 500.0, 100.0);
    const NavMesh nav(field, nullptr, AgentSettings{}, nav_tiles_covering({-32.0, 68.0}, {532.0, 132.0}), 2);
    const NavPath path = nav.path(a, b);
    expect_walkable_path(*field, {}, path, AgentSettings{}.max_slope_deg);
    EXPECT_NEAR(path.points.front().x, a.x, 0.5);
    EXPECT_NEAR(path.points.back().x, b.x, 0.5);
    EXPECT_GE(path.length_m, glm::distance(a, b));
    EXPECT_LT(path.length_m, 1.2 * glm::distance(a, b));
}

TEST(NavPath, reaches_a_point_deep_in_a_tutorial_cave_through_its_mouth) {
    // The cave floor lies 11 m under the ground above it; the start is under the open sky.
    const auto field = nav_tutorial();
    const glm::dvec3 start = top_ground(*field, -122.0, 51.0), deep(-82.08, -13.33, 50.96);
    const glm::dvec3 above = top_ground(*field, deep.x, deep.z);
    ASSERT_GT(above.y - deep.y, 10.0);
    const NavMesh nav(field, nullptr, AgentSettings{}, nav_tiles_covering({-160.0, 0.0}, {-40.0, 100.0}), 2);
    const NavPath path = nav.path(start, deep);
    expect_walkable_path(*field, {}, path, AgentSettings{}.max_slope_deg);
    EXPECT_NEAR(path.points.back().y, deep.y, 0.5);
    // Out of the open and under rock: some waypoint has ground above it, and the path
    // goes down to the floor without passing through rock (every waypoint on the ground).
    int under_rock = 0;
    for (const glm::dvec3& p : path.points) under_rock += top_ground(*field, p.x, p.z).y > p.y + 3.0 ? 1 : 0;
    EXPECT_GE(under_rock, 1);
    EXPECT_LT(top_ground(*field, start.x, start.z).y, start.y + 0.5);
}

TEST(NavPath, a_cave_point_under_walkable_ground_is_refused_not_moved_up_to_that_ground) {
    // A cave floor 11 m under the ground, too cramped to walk: Detour's nearest polygon is
    // the ground above it, whose bounds meet the query's box. Before, the path ended there.
    const auto field = nav_tutorial();
    glm::dvec3 floor;
    ASSERT_TRUE(ray_cast(*field, ChunkDeltas{}, {-544.0, 29.0, -1260.0}, {0.0, -1.0, 0.0}, 3.0, floor, 0.05));
    const glm::dvec3 deep = floor + glm::dvec3(0.0, 0.1, 0.0);
    ASSERT_GT(top_ground(*field, deep.x, deep.z).y - deep.y, 10.0);
    const NavMesh nav(field, nullptr, AgentSettings{}, nav_tiles_covering({-600.0, -1300.0}, {-490.0, -1220.0}), 2);
    try {
        const NavPath p = nav.path(top_ground(*field, -519.0, -1260.0), deep, "--from", "--to");
        FAIL() << "a path ending " << p.points.back().y - deep.y << " m above the point asked for";
    } catch (const NavError& e) {
        EXPECT_NE(std::string(e.what()).find("is not on walkable ground"), std::string::npos) << e.what();
    }
}

TEST(NavPath, points_in_rock_in_the_air_or_off_the_region_are_refused_and_no_path_is_its_own_error) {
    const auto field = nav_tutorial();
    const NavMesh nav(field, nullptr, AgentSettings{}, nav_tiles_covering({-160.0, 0.0}, {-40.0, 100.0}), 1);
    const glm::dvec3 ground = top_ground(*field, -122.0, 51.0);
    const auto message = [&](const glm::dvec3& a, const glm::dvec3& b) {
        try {
            nav.path(a, b, "--from", "--to");
        } catch (const NavError& e) {
            return std::string(e.what());
        } catch (const NoPathError& e) {
            return "no path: " + std::string(e.what());
        }
        return std::string("a path");
    };
    EXPECT_EQ(message({-122.0, -5.0, 51.0}, ground), "--from -122,-5,51 lies inside rock, 9.7 m under the ground at -122.00,4.65,51.00");
    EXPECT_EQ(message(ground, {-122.0, 35.0, 51.0}), "--to -122,35,51 lies in the air, 30.3 m above the ground at -122.00,4.65,51.00");
    EXPECT_EQ(message(ground, glm::dvec3(500, 10, 51)), "--to 500,10,51 lies outside the navigation mesh's region");
    // A cave floor with no way out inside this region.
    EXPECT_EQ(message({-122.0, 4.7, 51.0}, {-72.0, -17.25, 88.0}), "no path: no path from -122,4.7,51 to -72,-17.25,88");
}

TEST(NavPath, a_point_a_hair_inside_steep_ground_is_told_the_nearest_walkable_ground_which_a_path_then_reaches) {
    // The ground a ray from above meets lies a millimetre inside rock; here it is a slope
    // steeper than the agent walks. Before, the point was refused as "inside rock".
    const auto field = nav_tutorial();
    const glm::dvec3 steep = top_ground(*field, 1885.14, -444.771);
    ASSERT_LT(field->value(steep), 0.0);
    const NavMesh nav(field, nullptr, AgentSettings{}, nav_tiles_covering({1850.0, -480.0}, {1920.0, -410.0}), 2);
    std::string said;
    try {
        nav.path(steep, top_ground(*field, 1870.0, -440.0), "--from", "--to");
    } catch (const NavError& e) {
        said = e.what();
    }
    const std::string expected = fmt::format(
        "--from {:g},{:g},{:g} is not on walkable ground (steeper than 45 degrees, too low or too narrow "
        "for the agent); the nearest walkable ground is ",
        steep.x, steep.y, steep.z);
    ASSERT_EQ(said.substr(0, expected.size()), expected) << said;
    glm::dvec3 near;
    double away = 0.0;
    ASSERT_EQ(std::sscanf(said.c_str() + expected.size(), "%lf,%lf,%lf, %lf m away", &near.x, &near.y, &near.z, &away), 4) << said;
    EXPECT_NEAR(glm::distance(near, steep), away, 0.06);
    EXPECT_LE(std::hypot(near.x - steep.x, near.z - steep.z), 8.0 * std::sqrt(2.0));
    // The point it names, as printed, is on walkable ground: a path may start and end there.
    EXPECT_NO_THROW(nav.path(near, near, "--from", "--to"));
}

}  // namespace
}  // namespace isoterra::test
