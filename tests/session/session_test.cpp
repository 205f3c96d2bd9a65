// The UI-free session behind the viewer, the page and `fly`: streaming with its first picture
// and view, the brush along a ray, undo and redo, the world file, and the restarts.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "isoterra/session.hpp"
#include "temp_files.hpp"

using namespace isoterra;

namespace {

WorldSettings small_view() {
    WorldSettings s;
    s.view_radius = 4;
    s.view_distance_m = 256.0;
    s.threads = 2;
    return s;
}

// Delivers until the World has settled (at most a minute); returns the updates with a mesh.
std::size_t deliver_until_settled(Session& session) {
    std::size_t meshes = 0;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!session.world()->settled() && std::chrono::steady_clock::now() < give_up)
        session.deliver(50.0, [&](const ChunkUpdate& u) { meshes += u.mesh != nullptr; });
    session.deliver(50.0, [&](const ChunkUpdate& u) { meshes += u.mesh != nullptr; });
    return meshes;
}

double edited_value(const Session& session, const glm::dvec3& p) {
    double v = 0.0;
    sample_edited(*session.field(), session.history().deltas(), &p, 1, &v);
    return v;
}

}  // namespace

TEST(Session, streams_the_view_and_notes_the_first_picture_no_later_than_the_first_view) {
    Session session(builtin_terrain("tutorial"));
    EXPECT_EQ(session.world(), nullptr);
    EXPECT_EQ(session.deliver(1.0), 0u);
    session.start(small_view());
    EXPECT_EQ(session.restarts(), 1u);
    session.world()->set_focus({16.0, 40.0, 16.0});
    EXPECT_GT(deliver_until_settled(session), 0u);
    ASSERT_TRUE(session.world()->settled());
    const SessionTimes t = session.times();
    EXPECT_GE(t.first_picture_s, 0.0);
    EXPECT_GE(t.first_view_s, t.first_picture_s);
    // What the panel counts is what the World shows.
    const auto per_level = session.shown().visible_per_level();
    EXPECT_GT(per_level.at(0), 0u);
    EXPECT_EQ(per_level, session.world()->counts().shown_per_level);
}

TEST(Session, the_brush_along_a_ray_carves_the_ground_below_and_undo_gives_back_the_same_bits) {
    Session session(builtin_terrain("tutorial"));
    session.start(small_view());
    session.world()->set_focus({16.0, 40.0, 16.0});
    deliver_until_settled(session);

    // Straight down onto the ground at (16, 16), from 100 m above it.
    const glm::dvec3 down(0.0, -1.0, 0.0);
    glm::dvec3 hit;
    ASSERT_TRUE(ray_cast(*session.field(), session.history().deltas(), {16.0, 1000.0, 16.0}, down, 2000.0, hit));
    const glm::dvec3 origin = hit + glm::dvec3(0.0, 100.0, 0.0);
    // The brush reaches no farther than the view (256 m here).
    EXPECT_EQ(session.brush_along(hit + glm::dvec3(0.0, 300.0, 0.0), down, BrushMode::carve), "no ground under the cursor");
    const glm::dvec3 below = hit + glm::dvec3(0.0, -2.0, 0.0);
    const double before = edited_value(session, below);
    ASSERT_LT(before, 0.0) << "rock 2 m under the ground";

    session.brush_radius_m = 4.0;
    const std::string status = session.brush_along(origin, down, BrushMode::carve);
    EXPECT_EQ(status.rfind("1: sphere carve at", 0), 0u) << status;
    EXPECT_EQ(session.history().applied(), 1u);
    EXPECT_GT(edited_value(session, below), 0.0) << "air where the brush carved";
    // The World rebuilds the chunks the edit touched.
    EXPECT_GT(deliver_until_settled(session), 0u);

    EXPECT_EQ(session.step_history(false), "undone (0 of 1 edits in effect)");
    EXPECT_EQ(edited_value(session, below), before);
    EXPECT_EQ(session.step_history(false), "nothing to undo");
    EXPECT_EQ(session.step_history(true), "redone (1 of 1 edits in effect)");
    EXPECT_GT(edited_value(session, below), 0.0);
    EXPECT_EQ(session.step_history(true), "nothing to redo");

    // Up into the sky there is nothing to edit.
    EXPECT_EQ(session.brush_along(origin, glm::dvec3(0.0, 1.0, 0.0), BrushMode::add), "no ground under the cursor");
    EXPECT_EQ(session.history().ops().size(), 1u);
}

TEST(Session, a_world_file_keeps_its_own_terrain_and_gets_every_edit) {
    const std::string path = isoterra::test::fresh_path("session.db");
    const TerrainSource tutorial = builtin_terrain("tutorial");
    {
        Session session(std::make_unique<WorldFile>(path, &tutorial));
        ASSERT_NE(session.file(), nullptr);
        TerrainSource other = tutorial;
        other.seed = 7;
        EXPECT_EQ(session.set_terrain(other), "a world file keeps its own terrain");
        EXPECT_EQ(session.terrain().seed, tutorial.seed);
        session.apply(EditOp{BrushKind::sphere, BrushMode::add, {3.0, 20.0, -5.0}, 6.0});
        session.apply(EditOp{BrushKind::sphere, BrushMode::carve, {3.0, 20.0, -5.0}, 2.0});
        Box box;
        EXPECT_TRUE(session.undo(box));
    }
    WorldFile reopened(path, nullptr);
    Session again(std::make_unique<WorldFile>(path, nullptr));
    EXPECT_EQ(again.history().ops().size(), 2u);
    EXPECT_EQ(again.history().applied(), 1u);
    EXPECT_EQ(again.terrain().seed, tutorial.seed);
}

TEST(Session, a_new_seed_or_view_restarts_the_world_and_a_new_mesher_does_not) {
    Session session(builtin_terrain("tutorial"));
    session.apply(EditOp{BrushKind::sphere, BrushMode::carve, {0.0, 10.0, 0.0}, 4.0});
    session.start(small_view());
    session.world()->set_focus({0.0, 40.0, 0.0});
    deliver_until_settled(session);
    ASSERT_GE(session.times().first_view_s, 0.0);

    session.set_mesher(Mesher::surface_nets);
    EXPECT_EQ(session.restarts(), 1u);
    EXPECT_EQ(session.settings().mesher, Mesher::surface_nets);

    TerrainSource seven = builtin_terrain("tutorial");
    seven.seed = 7;
    EXPECT_EQ(session.set_terrain(seven), "");
    EXPECT_EQ(session.restarts(), 2u);
    EXPECT_EQ(session.terrain().seed, 7u);
    EXPECT_TRUE(session.history().ops().empty()) << "edits of the old terrain do not carry over";
    EXPECT_LT(session.times().first_picture_s, 0.0);
    EXPECT_EQ(session.world()->settings().mesher, Mesher::surface_nets);

    session.set_view(3, 200.0);
    EXPECT_EQ(session.restarts(), 3u);
    EXPECT_EQ(session.world()->settings().view_radius, 3);
    EXPECT_EQ(session.world()->settings().view_distance_m, 200.0);
}

TEST(FlyCamera, looks_north_at_yaw_zero_and_casts_rays_through_the_picture) {
    FlyCamera camera;
    camera.pitch = 0.0;
    const glm::dvec3 f = camera.forward(), r = camera.right();
    EXPECT_NEAR(f.x, 0.0, 1e-15);
    EXPECT_NEAR(f.y, 0.0, 1e-15);
    EXPECT_NEAR(f.z, -1.0, 1e-15);
    EXPECT_NEAR(r.x, 1.0, 1e-15);
    EXPECT_NEAR(r.z, 0.0, 1e-15);
    const glm::dvec3 centre = camera.ray_through(0.0, 0.0, 60.0, 16.0 / 9.0);
    EXPECT_NEAR(centre.z, -1.0, 1e-15);
    // A 90-degree picture, square: its right edge is 45 degrees right of forward, its top
    // 45 degrees up.
    const glm::dvec3 edge = camera.ray_through(1.0, 0.0, 90.0, 1.0), top = camera.ray_through(0.0, 1.0, 90.0, 1.0);
    EXPECT_NEAR(edge.x, std::sqrt(0.5), 1e-12);
    EXPECT_NEAR(edge.z, -std::sqrt(0.5), 1e-12);
    EXPECT_NEAR(top.y, std::sqrt(0.5), 1e-12);
    EXPECT_NEAR(top.z, -std::sqrt(0.5), 1e-12);
    // Turned a quarter left (yaw +90 degrees) it looks west.
    camera.yaw = std::acos(0.0);
    EXPECT_NEAR(camera.forward().x, -1.0, 1e-15);
}
