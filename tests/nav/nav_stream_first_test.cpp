// A navigation tile never waits for the whole view: the tile under the focus is in the mesh
// while the World has built only a small part of what its view needs.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "isoterra/nav.hpp"
#include "nav_checks.hpp"

namespace isoterra::test {
namespace {

TEST(NavStreamFirst, the_tile_under_the_focus_is_ready_before_a_tenth_of_the_view_is_built) {
    WorldSettings ws;  // 2 km around the focus, four levels
    ws.view_radius = 4;
    ws.view_distance_m = 2048;
    ws.threads = 2;
    World world(nav_tutorial(), ws);
    world.set_focus({16.0, 10.0, 16.0});
    NavStreamSettings s;
    s.radius_m = 32.0;
    NavStream nav(world, s);
    std::size_t built_at_first = 0;
    bool first = false, settled_at_first = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (!world.settled() && std::chrono::steady_clock::now() < deadline) {
        world.deliver(5.0, [](const ChunkUpdate&) {});
        for (const glm::ivec2& c : nav.update())
            if (!first && c.x == 0 && c.y == 0) {
                first = true;
                built_at_first = world.counts().built;
                settled_at_first = world.settled();
            }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_TRUE(world.settled()) << "the view never settled";
    ASSERT_TRUE(first) << "the tile under the focus came only after the view settled";
    EXPECT_FALSE(settled_at_first);
    const std::size_t built = world.counts().built;
    EXPECT_LT(built_at_first * 10, built) << built_at_first << " chunks built at the first tile, " << built << " for the view";
    EXPECT_EQ(nav.error(), "");
    // The tile is usable at once: a path across it on the ground.
    const NavPath p = nav.mesh().path(top_ground(*nav_tutorial(), 8.0, 16.0), top_ground(*nav_tutorial(), 24.0, 16.0));
    expect_walkable_path(*nav_tutorial(), {}, p, s.agent.max_slope_deg);
}

}  // namespace
}  // namespace isoterra::test
