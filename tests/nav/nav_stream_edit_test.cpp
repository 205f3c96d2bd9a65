// Edits and streamed navigation tiles: a tunnel carved through a tutorial hill around the
// World's focus rebuilds exactly the tiles nav_tiles_touching names, the path goes through
// it, and undo gives the old tiles and the old path back.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "isoterra/edit.hpp"
#include "isoterra/nav.hpp"
#include "nav_checks.hpp"

namespace isoterra::test {
namespace {

/// Delivers and updates until every tile kept is in the mesh; returns the columns update()
/// named on the way, sorted by z then x, each once.
std::vector<glm::ivec2> settle_stream(World& world, NavStream& nav) {
    std::vector<glm::ivec2> changed;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (!nav.settled() && std::chrono::steady_clock::now() < deadline) {
        world.deliver(5.0, [](const ChunkUpdate&) {});
        for (const glm::ivec2& c : nav.update()) changed.push_back(c);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    EXPECT_TRUE(nav.settled()) << "the tiles around the focus never settled";
    const auto by_z = [](const glm::ivec2& a, const glm::ivec2& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; };
    std::sort(changed.begin(), changed.end(), by_z);
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    return changed;
}

TEST(NavStreamEdit, a_tunnel_rebuilds_exactly_the_tiles_it_touches_and_undo_gives_the_old_tiles_and_path_back) {
    // The hill along z = 100 between feet at x = 50 and x = 150 (NavEdit's), inside the
    // tiles kept within 64 m of (100, 100).
    const auto field = nav_tutorial();
    WorldSettings ws;
    ws.view_radius = 4;
    ws.view_distance_m = 512;
    ws.threads = 2;
    World world(field, ws);
    world.set_focus({100.0, 20.0, 100.0});
    NavStreamSettings s;
    s.radius_m = 64.0;
    NavStream nav(world, s);
    settle_stream(world, nav);
    const std::vector<NavTile> before_tiles = nav.mesh().tiles();
    const glm::dvec3 a = top_ground(*field, 40.0, 100.0), b = top_ground(*field, 160.0, 100.0);
    const glm::dvec3 foot_a = top_ground(*field, 50.0, 100.0), foot_b = top_ground(*field, 150.0, 100.0);
    const NavPath before = nav.mesh().path(a, b);

    EditHistory history(field);
    const Box changed = carve_tunnel(history, foot_a, foot_b);
    const std::uint64_t built = nav.counts().tiles_built;
    auto deltas = std::make_shared<const ChunkDeltas>(history.deltas());
    world.set_edits(deltas, changed);
    // Exactly the kept tiles whose area or border reaches the edit's box, each built once.
    std::vector<glm::ivec2> touched;
    for (const glm::ivec2& c : nav_tiles_touching(changed, s.agent))
        for (const NavTile& t : before_tiles)
            if (t.x == c.x && t.z == c.y) touched.push_back(c);
    ASSERT_LT(touched.size(), before_tiles.size());
    const auto by_z = [](const glm::ivec2& a, const glm::ivec2& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; };
    std::sort(touched.begin(), touched.end(), by_z);
    EXPECT_EQ(settle_stream(world, nav), touched);
    EXPECT_EQ(nav.counts().tiles_built - built, touched.size());
    const std::vector<NavTile> fresh = build_nav_tiles(*field, deltas.get(), s.agent, touched, 2);
    for (const NavTile& f : fresh)
        for (const NavTile& t : nav.mesh().tiles())
            if (t.x == f.x && t.z == f.z) EXPECT_TRUE(t.data == f.data) << "tile " << t.x << "," << t.z;
    const NavPath through = nav.mesh().path(a, b);
    expect_walkable_path(*field, *deltas, through, s.agent.max_slope_deg);
    EXPECT_LT(through.length_m, before.length_m - 1.0);

    std::vector<ChunkCoord> chunks;
    Box box;
    while (history.undo(chunks, box)) {}
    world.set_edits(std::make_shared<const ChunkDeltas>(history.deltas()), changed);
    EXPECT_EQ(settle_stream(world, nav), touched);
    ASSERT_EQ(nav.mesh().tiles().size(), before_tiles.size());
    for (std::size_t i = 0; i < before_tiles.size(); ++i) EXPECT_TRUE(nav.mesh().tiles()[i].data == before_tiles[i].data) << "tile " << i;
    const NavPath after = nav.mesh().path(a, b);
    EXPECT_EQ(after.points, before.points);
}

}  // namespace
}  // namespace isoterra::test
