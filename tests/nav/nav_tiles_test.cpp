// Navigation tiles: agent settings and regions checked, the same bytes for any thread count
// and build order, and tiles that join along their borders.
#include <algorithm>

#include <gtest/gtest.h>

#include "isoterra/nav.hpp"
#include "nav_checks.hpp"

namespace isoterra::test {
namespace {

TEST(NavAgent, settings_out_of_range_are_named_with_their_range) {
    EXPECT_EQ(validate_agent(AgentSettings{}), "");
    AgentSettings a;
    a.radius_m = 9;
    EXPECT_EQ(validate_agent(a), "radius 9 m must be in [0, 5]");
    a = {};
    a.max_slope_deg = 90;
    EXPECT_EQ(validate_agent(a), "max slope 90 degrees must be in [0, 85]");
    a = {};
    a.height_m = std::nan("");
    EXPECT_EQ(validate_agent(a), "height nan m must be in [0.5, 10]");
    a = {};
    a.cell_size_m = 0.3;  // 32 m is not a whole number of cells
    EXPECT_EQ(validate_agent(a), "cell size 0.3 m must divide 32 m (0.125, 0.25, 0.5, 1, or 32 / n)");
    a = {};
    a.max_climb_m = 3;
    EXPECT_EQ(validate_agent(a), "max climb 3 m must not exceed height 2 m");
    a = {};
    a.cell_size_m = 0.5;
    EXPECT_EQ(validate_agent(a), "");
}

TEST(NavRegion, columns_cover_the_rectangle_and_bad_regions_are_refused) {
    const TileRange r = nav_tiles_covering({-1.0, 0.0}, {64.0, 33.0});
    EXPECT_EQ(r.lo, glm::ivec2(-1, 0));
    EXPECT_EQ(r.hi, glm::ivec2(1, 1));
    EXPECT_EQ(r.count(), 6);
    EXPECT_THROW(nav_tiles_covering({0.0, 0.0}, {0.0, 10.0}), NavError);
    EXPECT_THROW(nav_tiles_covering({0.0, 0.0}, {std::nan(""), 10.0}), NavError);
    EXPECT_THROW(nav_tiles_covering({2e5, 0.0}, {2e5 + 10.0, 10.0}), NavError);
    try {
        nav_tiles_covering({0.0, 0.0}, {33 * 32.0, 32 * 32.0});
        FAIL() << "a region of 1056 tiles was accepted";
    } catch (const NavError& e) {
        EXPECT_STREQ(e.what(), "the region spans 1056 tiles of 32 m, more than 1024");
    }
}

TEST(NavRegion, an_edit_reaches_the_tiles_whose_border_it_touches) {
    // A box well inside column (1, 1) touches that tile alone; one a metre from its edge
    // touches the neighbour's border too.
    const AgentSettings agent;
    EXPECT_EQ(nav_tiles_touching({{44.0, 0.0, 44.0}, {50.0, 10.0, 50.0}}, agent), std::vector<glm::ivec2>{glm::ivec2(1, 1)});
    const auto near_edge = nav_tiles_touching({{33.0, 0.0, 44.0}, {40.0, 10.0, 50.0}}, agent);
    EXPECT_EQ(near_edge, (std::vector<glm::ivec2>{glm::ivec2(0, 1), glm::ivec2(1, 1)}));
}

TEST(NavTiles, are_the_same_bytes_for_1_and_2_threads_and_any_build_order) {
    const auto field = nav_tutorial();
    std::vector<glm::ivec2> columns;
    for (int z = 0; z < 2; ++z)
        for (int x = -1; x < 1; ++x) columns.emplace_back(x, z);
    const auto one = build_nav_tiles(*field, nullptr, AgentSettings{}, columns, 1);
    std::vector<glm::ivec2> reversed(columns.rbegin(), columns.rend());
    const auto two = build_nav_tiles(*field, nullptr, AgentSettings{}, reversed, 2);
    ASSERT_EQ(one.size(), 4u);
    for (std::size_t i = 0; i < one.size(); ++i) {
        const NavTile& other = two[one.size() - 1 - i];
        EXPECT_EQ(other.x, one[i].x);
        EXPECT_EQ(other.z, one[i].z);
        EXPECT_GT(one[i].data.size(), 1000u) << "tile " << one[i].x << "," << one[i].z << " has no walkable ground";
        EXPECT_TRUE(one[i].data == other.data) << "tile " << one[i].x << "," << one[i].z;
    }
    // The whole mesh's file too, built in one region.
    const TileRange range{{-1, 0}, {0, 1}};
    const NavMesh a(field, nullptr, AgentSettings{}, range, 1), b(field, nullptr, AgentSettings{}, range, 2);
    EXPECT_TRUE(a.serialize() == b.serialize());
}

TEST(NavTiles, join_along_their_borders_so_a_path_across_four_tiles_runs_straight) {
    // Gentle ground; the points lie in tiles (-4, 1) and (-3, 2), the path crosses the
    // corner (-96, 64) where four tiles meet. Without links between tiles there would be
    // no path; with a gap or a misfit edge, a detour.
    const auto field = nav_tutorial();
    const NavMesh nav(field, nullptr, AgentSettings{}, TileRange{{-4, 1}, {-3, 2}}, 2);
    const glm::dvec3 a = top_ground(*field, -115.0, 45.0), b = top_ground(*field, -78.0, 82.0);
    const NavPath path = nav.path(a, b);
    expect_walkable_path(*field, {}, path, AgentSettings{}.max_slope_deg);
    // Along the ground the straight line between them is at least its chord.
    double along_ground = 0.0;
    glm::dvec3 prev = a;
    for (int i = 1; i <= 40; ++i) {
        const glm::dvec3 q = top_ground(*field, a.x + (b.x - a.x) * i / 40.0, a.z + (b.z - a.z) * i / 40.0);
        along_ground += glm::distance(prev, q);
        prev = q;
    }
    EXPECT_LT(path.length_m, 1.02 * along_ground) << "a detour at the tiles' border";
    EXPECT_GT(path.length_m, 0.98 * glm::distance(a, b));
}

}  // namespace
}  // namespace isoterra::test
