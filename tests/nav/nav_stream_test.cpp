// Navigation tiles kept around a World's focus (NavStream): the tiles within the radius and
// no others, each the bytes build_nav_tiles makes whatever the threads and the order they
// were built in; an edit rebuilds exactly the tiles it touches; undo gives the old ones back.
#include <chrono>
#include <map>
#include <thread>

#include <gtest/gtest.h>

#include "isoterra/edit.hpp"
#include "isoterra/nav.hpp"
#include "nav_checks.hpp"

namespace isoterra::test {
namespace {

WorldSettings small_world(int threads) {
    WorldSettings s;
    s.view_radius = 4;
    s.view_distance_m = 512;
    s.threads = threads;
    return s;
}

/// Delivers and updates until every tile kept is in the mesh; returns the columns update()
/// named on the way, each with how many times.
std::map<std::pair<int, int>, int> settle(World& world, NavStream& nav) {
    std::map<std::pair<int, int>, int> changed;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (std::chrono::steady_clock::now() < deadline) {
        world.deliver(5.0, [](const ChunkUpdate&) {});
        for (const glm::ivec2& c : nav.update()) ++changed[{c.x, c.y}];
        if (nav.settled()) return changed;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ADD_FAILURE() << "the tiles around the focus never settled";
    return changed;
}

std::vector<glm::ivec2> held_columns(const NavStream& nav) {
    std::vector<glm::ivec2> out;
    for (const NavTile& t : nav.mesh().tiles()) out.emplace_back(t.x, t.z);
    return out;
}

/// Checks the held tiles are exactly `expected` ((x, z), sorted by z then x) and each is the
/// bytes of a fresh build.
void expect_fresh_tiles(const NavStream& nav, const ChunkDeltas* deltas, const std::vector<glm::ivec2>& expected) {
    ASSERT_EQ(held_columns(nav), expected);
    const std::vector<NavTile> fresh = build_nav_tiles(*nav_tutorial(), deltas, nav.settings().agent, expected, 2);
    for (std::size_t i = 0; i < fresh.size(); ++i)
        EXPECT_TRUE(nav.mesh().tiles()[i].data == fresh[i].data) << "tile " << fresh[i].x << "," << fresh[i].z;
}

TEST(NavStream, keeps_the_tiles_within_its_radius_of_a_moved_focus_as_a_fresh_build_makes_them) {
    World world(nav_tutorial(), small_world(2));
    world.set_focus({16.0, 10.0, 16.0});
    NavStreamSettings s;
    s.radius_m = 48.0;
    NavStream nav(world, s);
    settle(world, nav);
    // Within 48 m of (16, 16): the 3 x 3 around tile (0, 0) and the four two tiles away.
    expect_fresh_tiles(nav, nullptr,
                       {{0, -2}, {-1, -1}, {0, -1}, {1, -1}, {-2, 0}, {-1, 0}, {0, 0}, {1, 0}, {2, 0}, {-1, 1}, {0, 1}, {1, 1}, {0, 2}});
    // 288 m east: all of those dropped (farther than the radius and a tile), the new ones in.
    world.set_focus({304.0, 10.0, 16.0});
    const auto changed = settle(world, nav);
    EXPECT_EQ(changed.size(), 26u);
    expect_fresh_tiles(nav, nullptr,
                       {{9, -2}, {8, -1}, {9, -1}, {10, -1}, {7, 0}, {8, 0}, {9, 0}, {10, 0}, {11, 0}, {8, 1}, {9, 1}, {10, 1}, {9, 2}});
    const NavPath p = nav.mesh().path(top_ground(*nav_tutorial(), 290.0, 10.0), top_ground(*nav_tutorial(), 340.0, 20.0));
    expect_walkable_path(*nav_tutorial(), {}, p, s.agent.max_slope_deg);
    EXPECT_EQ(nav.error(), "");
}

TEST(NavStream, tiles_are_the_same_bytes_for_1_and_2_threads_the_owners_workers_and_any_approach) {
    // Three Worlds reach (16, 16) from different places: the tiles are built in different
    // orders on different threads, and each is the bytes of a fresh build.
    NavStreamSettings s;
    s.radius_m = 32.0;
    const std::vector<glm::ivec2> around{{0, -1}, {-1, 0}, {0, 0}, {1, 0}, {0, 1}};
    const std::pair<int, glm::dvec3> runs[] = {{1, {16.0, 10.0, 16.0}}, {2, {-80.0, 10.0, 90.0}}, {-1, {60.0, 10.0, -40.0}}};
    for (const auto& [threads, start] : runs) {
        World world(nav_tutorial(), small_world(threads));
        world.set_focus(start);
        NavStream nav(world, s);
        if (threads < 0) {  // the owner's workers: the owner runs the World's jobs and the tiles
            WorldJob job;
            while (world.take_job(job)) {
                WorldJobResult r;
                run_world_job(*nav_tutorial(), nullptr, job, r);
                world.finish_job(job, std::move(r));
            }
        }
        settle(world, nav);
        world.set_focus({16.0, 10.0, 16.0});
        settle(world, nav);
        SCOPED_TRACE(threads);
        std::vector<glm::ivec2> held;
        for (const glm::ivec2& c : held_columns(nav))
            if (std::abs(c.x) + std::abs(c.y) <= 1) held.push_back(c);
        ASSERT_EQ(held, around);
        const std::vector<NavTile> fresh = build_nav_tiles(*nav_tutorial(), nullptr, s.agent, around, 1);
        for (const NavTile& t : nav.mesh().tiles())
            for (const NavTile& f : fresh)
                if (t.x == f.x && t.z == f.z) EXPECT_TRUE(t.data == f.data) << "tile " << t.x << "," << t.z;
    }
}

TEST(NavStream, refuses_a_radius_out_of_range_and_bad_agents_in_one_line) {
    World world(nav_tutorial(), small_world(1));
    NavStreamSettings s;
    s.radius_m = 1000.0;
    try {
        NavStream nav(world, s);
        FAIL() << "a radius of 1000 m was accepted";
    } catch (const NavError& e) {
        EXPECT_STREQ(e.what(), "navigation radius 1000 m must be in [32, 384]");
    }
    s = {};
    s.agent.radius_m = -1.0;
    EXPECT_THROW(NavStream(world, s), NavError);
}

}  // namespace
}  // namespace isoterra::test
