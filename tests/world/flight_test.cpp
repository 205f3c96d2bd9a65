// Flying fast: where the focus is heading, and that what the World shows in flight stays
// within its triangle budget at any speed. Flights here run the owner's workers on the
// owner's clock, a fixed number of jobs a frame: the same frames on any machine.
#include <gtest/gtest.h>

#include <cstdio>

#include "flight_sim.hpp"
#include "isoterra/world.hpp"
#include "test_pace.hpp"
#include "world_checks.hpp"

using namespace isoterra;
using namespace isoterra::test;

// 150 m/s north over the tutorial, 10 jobs a frame (a sixth of what two idle cores do),
// 1.2 km of view at 4 chunks a ring: settled, the view shows 1.65 M triangles at the ring
// the budget chose (2.5); flying, it would show up to 2.5 M without a budget. With one of
// 1.83 M the swaps that would take it past wait for the joins behind (or a narrower ring),
// in every frame; and the camera's column is at level 0 in every frame all the same.
TEST(Flight, a_fast_flight_never_shows_more_triangles_than_the_budget_and_keeps_level_0_under_the_camera) {
    const std::shared_ptr<const Field> field = tutorial();
    const glm::dvec3 start(0, field->ground_height(0, 40) + 40, 40), velocity(0, 0, -150);
    constexpr std::size_t kBudget = 1'830'000;
    const auto fly = [&](std::size_t budget) {
        WorldSettings s = settings(4, 1200.0, 0, -1);
        s.triangle_budget = budget;
        World w(field, s);
        const SimFlight f = simulate_flight(w, *field, start, velocity, 4.0, 10, [&](const Owner& owner, const glm::dvec3&) {
            if (budget > 0) ASSERT_LE(owner.shown.triangles_drawn(), budget);
        });
        std::printf("budget %zu: settled on %zu triangles, at most %zu in flight, %zu of %zu frames off level 0, %zu waits, ring %g\n",
                    budget, f.settled_triangles, f.max_triangles, f.frames_outside_finest, f.frames, f.holds, w.counts().ring);
        return f;
    };
    const SimFlight limited = fly(kBudget);
    ASSERT_TRUE(limited.settled_first);
    EXPECT_LE(limited.max_triangles, kBudget);
    EXPECT_GT(limited.max_triangles, kBudget * 95 / 100);  // what it would show is over
    EXPECT_GT(limited.holds, 0u);
    EXPECT_EQ(limited.frames, 241u);
    EXPECT_EQ(limited.frames_outside_finest, 0u);
    if (test::slow_build()) return;
    const SimFlight free = fly(0);
    EXPECT_GT(free.max_triangles, kBudget * 12 / 10);
    EXPECT_EQ(free.frames_outside_finest, 0u);
}

TEST(Flight, the_lead_is_the_velocity_of_the_last_quarter_second_times_the_lead_time_capped) {
    FocusLead lead;
    glm::dvec3 p(100.0, 50.0, -20.0), led;
    // 150 m/s north, 60 updates a second: after a quarter second the velocity is exact.
    for (int i = 0; i <= 30; ++i) led = lead.update(p + glm::dvec3(0, 0, -150.0 * i / 60.0), i / 60.0, 1.0, 1000.0);
    const glm::dvec3 at = p + glm::dvec3(0, 0, -150.0 * 30 / 60.0);
    EXPECT_NEAR(lead.velocity().z, -150.0, 1e-9);
    EXPECT_NEAR(lead.velocity().x, 0.0, 1e-12);
    EXPECT_NEAR(led.z, at.z - 150.0, 1e-9);
    // The same with the lead capped at 100 m, and half a second ahead: 75 m.
    EXPECT_NEAR(lead.update(at + glm::dvec3(0, 0, -2.5), 31 / 60.0, 1.0, 100.0).z, at.z - 2.5 - 100.0, 1e-9);
    EXPECT_NEAR(lead.update(at + glm::dvec3(0, 0, -5.0), 32 / 60.0, 0.5, 100.0).z, at.z - 5.0 - 75.0, 1e-9);
}

TEST(Flight, a_focus_that_stops_has_no_lead_a_quarter_second_later_and_a_jump_none_at_all) {
    FocusLead lead;
    const glm::dvec3 stop(0.0, 0.0, -100.0);
    for (int i = 0; i <= 60; ++i) lead.update(glm::dvec3(0, 0, -100.0 * i / 60.0), i / 60.0, 1.0, 1000.0);
    EXPECT_NEAR(lead.velocity().z, -100.0, 1e-9);
    glm::dvec3 led(1e9);
    int i = 61;
    for (; led != stop; ++i) led = lead.update(stop, i / 60.0, 1.0, 1000.0);
    EXPECT_NEAR(i - 61, 15, 1);  // a window (15 frames) after the stop
    EXPECT_EQ(lead.velocity(), glm::dvec3(0.0));
    // 1 km in a frame: moved, not flown.
    const glm::dvec3 far(1000.0, 0.0, -100.0);
    EXPECT_EQ(lead.update(far, i / 60.0, 1.0, 1000.0), far);
    EXPECT_NEAR(lead.update(far + glm::dvec3(1, 0, 0), (i + 1) / 60.0, 1.0, 1000.0).x, far.x + 61.0, 1e-6);
    // A clock that goes back starts again too.
    EXPECT_EQ(lead.update(far, 0.0, 1.0, 1000.0), far);
}

// An owner's workers (`fly --clock cpu`) take a chunk job with its column's per-column work
// from the survey, as the World's own workers do: the tutorial shares it, and the mesh is
// the same bits as one whose columns are worked out again.
TEST(Flight, an_owners_chunk_job_comes_with_its_columns_survey_work_and_meshes_the_same) {
    const std::shared_ptr<const Field> field = tutorial();
    World w(field, settings(2, 200.0, 1, -1));
    w.set_focus({0.0, field->ground_height(0, 0) + 10.0, 0.0}, 0.0);
    std::size_t compared = 0, surveys = 0;
    for (int i = 0; i < 400 && compared < 3; ++i) {
        WorldJob job;
        std::shared_ptr<const LatticeColumns> columns;
        if (!w.take_job(job, columns)) break;
        WorldJobResult result;
        run_world_job(*field, nullptr, job, result, columns.get());
        if (job.survey) {
            ++surveys;
            EXPECT_EQ(columns, nullptr);
        } else if (result.built) {
            ASSERT_NE(columns, nullptr);
            WorldJobResult again;
            run_world_job(*field, nullptr, job, again);
            EXPECT_EQ(result.mesh.positions, again.mesh.positions);
            EXPECT_EQ(result.mesh.indices, again.mesh.indices);
            ++compared;
        }
        w.finish_job(job, std::move(result));
    }
    EXPECT_GT(surveys, 0u);
    EXPECT_EQ(compared, 3u);
}
