// Edits and navigation: a tunnel carved through a tutorial hill with the edit API becomes
// the path, shorter than the way over; undo gives the old tiles and the old path back.
#include <gtest/gtest.h>

#include "isoterra/edit.hpp"
#include "isoterra/nav.hpp"
#include "nav_checks.hpp"

namespace isoterra::test {
namespace {

TEST(NavEdit, a_tunnel_through_a_hill_carries_the_path_shorter_and_undo_restores_the_old_one) {
    // The hill along z = 100 rises about 12 m above its feet at x = 50 and x = 150.
    const auto field = nav_tutorial();
    const glm::dvec3 a = top_ground(*field, 40.0, 100.0), b = top_ground(*field, 160.0, 100.0);
    const glm::dvec3 foot_a = top_ground(*field, 50.0, 100.0), foot_b = top_ground(*field, 150.0, 100.0);
    ASSERT_GT(top_ground(*field, 100.0, 100.0).y, std::max(foot_a.y, foot_b.y) + 8.0);
    const TileRange range = nav_tiles_covering({8.0, 68.0}, {192.0, 132.0});
    NavMesh nav(field, nullptr, AgentSettings{}, range, 2);
    const std::vector<NavTile> before_tiles = nav.tiles();
    const NavPath before = nav.path(a, b);

    // A floor half a metre down, entered at 34 degrees.
    EditHistory history(field);
    const Box changed = carve_tunnel(history, foot_a, foot_b);
    auto deltas = std::make_shared<const ChunkDeltas>(history.deltas());
    const std::size_t rebuilt = nav.update(deltas, changed, 2);
    EXPECT_LT(rebuilt, static_cast<std::size_t>(range.count())) << "an edit rebuilt every tile";
    // The tiles rebuilt are all that changed: the same bytes as a mesh built with the edits.
    EXPECT_TRUE(nav.serialize() == NavMesh(field, deltas, AgentSettings{}, range, 2).serialize());
    const NavPath through = nav.path(a, b);
    expect_walkable_path(*field, *deltas, through, AgentSettings{}.max_slope_deg);
    EXPECT_LT(through.length_m, before.length_m - 1.0);
    // Through the hill: some waypoint lies where the hill's rock was.
    int in_old_rock = 0;
    for (const glm::dvec3& p : through.points) in_old_rock += field->value(p + glm::dvec3(0.0, 0.5, 0.0)) < 0.0 ? 1 : 0;
    EXPECT_GE(in_old_rock, 1);

    // Undo every ball: the old tiles, bit for bit, and the old path.
    std::vector<ChunkCoord> chunks;
    Box box;
    while (history.undo(chunks, box)) {}
    EXPECT_TRUE(history.deltas().empty());
    nav.update(std::make_shared<const ChunkDeltas>(history.deltas()), changed, 1);
    ASSERT_EQ(nav.tiles().size(), before_tiles.size());
    for (std::size_t i = 0; i < before_tiles.size(); ++i) EXPECT_TRUE(nav.tiles()[i].data == before_tiles[i].data) << "tile " << i;
    const NavPath after = nav.path(a, b);
    EXPECT_EQ(after.points, before.points);
    EXPECT_DOUBLE_EQ(after.length_m, before.length_m);
}

TEST(NavEdit, a_tunnel_whose_mouth_lies_in_long_thin_polygons_is_taken_not_the_way_over_the_hill_beside_it) {
    // A hill 15 m high between feet 100 m apart. The tunnel's mouths open onto slopes cut
    // into long thin polygons, across which Detour's A* (edge midpoint to edge midpoint)
    // reckoned 39 m to a point 15 m in: the way over the hill won, 5 m longer than the tunnel.
    const auto field = nav_tutorial();
    const glm::dvec3 foot_a = top_ground(*field, -2929.2, -2585.7), foot_b = top_ground(*field, -2842.1, -2536.6);
    const glm::dvec3 along = glm::normalize(foot_b - foot_a) * 10.0;
    const glm::dvec3 a = top_ground(*field, foot_a.x - along.x, foot_a.z - along.z),
                     b = top_ground(*field, foot_b.x + along.x, foot_b.z + along.z);
    ASSERT_GT(top_ground(*field, (foot_a.x + foot_b.x) / 2, (foot_a.z + foot_b.z) / 2).y, std::max(foot_a.y, foot_b.y) + 10.0);
    EditHistory history(field);
    const Box changed = carve_tunnel(history, foot_a, foot_b);
    const auto deltas = std::make_shared<const ChunkDeltas>(history.deltas());
    const NavMesh nav(field, deltas, AgentSettings{}, nav_tiles_covering({-2970.0, -2620.0}, {-2800.0, -2500.0}), 2);
    const NavPath through = nav.path(a, b);
    expect_walkable_path(*field, *deltas, through, AgentSettings{}.max_slope_deg);
    // The tunnel is 100 m long and the ends 10 m beyond its mouths: 120.3 m (125.6 m over the hill).
    EXPECT_LT(through.length_m, glm::distance(a, b) + 1.0);
    int in_old_rock = 0;
    for (const glm::dvec3& p : through.points) in_old_rock += field->value(p + glm::dvec3(0.0, 0.5, 0.0)) < 0.0 ? 1 : 0;
    EXPECT_GE(in_old_rock, 40);  // 56 of 69 waypoints
}

TEST(NavEdit, a_tunnel_floor_broken_by_a_pit_is_walked_once_levelled_with_flatten_as_the_guide_shows) {
    // A tunnel that cuts into a cave under its floor: here a pit 2 m deep across the whole
    // tunnel (balls of 2 m at the floor), a step no agent climbs (0.5 m).
    const auto field = nav_tutorial();
    const glm::dvec3 a = top_ground(*field, 40.0, 100.0), b = top_ground(*field, 160.0, 100.0);
    const glm::dvec3 foot_a = top_ground(*field, 50.0, 100.0), foot_b = top_ground(*field, 150.0, 100.0);
    EditHistory history(field);
    Box changed = carve_tunnel(history, foot_a, foot_b);
    for (int k = -4; k <= 4; ++k) {
        EditOp pit;
        pit.centre = (foot_a + foot_b) * 0.5 + glm::dvec3(0.0, -0.5, k);
        pit.radius_m = 2.0;
        history.apply(pit);
    }
    const TileRange range = nav_tiles_covering({8.0, 68.0}, {192.0, 132.0});
    NavMesh nav(field, std::make_shared<const ChunkDeltas>(history.deltas()), AgentSettings{}, range, 2);
    const auto through_rock = [&](const NavPath& p) {
        int n = 0;
        for (const glm::dvec3& q : p.points) n += field->value(q + glm::dvec3(0.0, 0.5, 0.0)) < 0.0 ? 1 : 0;
        return n;
    };
    const NavPath broken = nav.path(a, b);
    EXPECT_EQ(through_rock(broken), 0) << "the path crossed the pit";

    const Box floor = flatten_floor(history, foot_a, foot_b);
    changed = {glm::min(changed.lo, floor.lo), glm::max(changed.hi, floor.hi)};
    const auto deltas = std::make_shared<const ChunkDeltas>(history.deltas());
    nav.update(deltas, changed, 2);
    const NavPath levelled = nav.path(a, b);
    expect_walkable_path(*field, *deltas, levelled, AgentSettings{}.max_slope_deg);
    EXPECT_GE(through_rock(levelled), 40);
    EXPECT_LT(levelled.length_m, broken.length_m - 2.0);
}

}  // namespace
}  // namespace isoterra::test
