/* The C API's navigation meshes from C99: a path between two tutorial ground points as
 * `isoterra path` finds it (ends at the points asked, on the ground, its length the sum of
 * its legs), "no path" as its own result (ISOTERRA_NO_PATH), and bad input (points inside
 * rock, agent settings out of range, regions too large, not finite or past the memory
 * budget, NULL handles) as -1 or NULL with one line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "isoterra/isoterra.h"

/* The last error is exactly `text`. */
static int said_exactly(const char* text) { return strcmp(isoterra_last_error(), text) == 0; }

/* A point on the tutorial's ground at (x, z). */
static void on_ground(const isoterra_field* f, double x, double z, double out[3]) {
    const double xz[2] = {x, z};
    out[0] = x, out[2] = z;
    CHECK(isoterra_field_ground(f, xz, 1, &out[1]) == 0);
}

/* The region `isoterra path --margin 16` builds for the points below. */
static const double lo[2] = {-138, 35}, hi[2] = {-56, 104};

static void paths(isoterra_field* f, isoterra_navmesh* nav) {
    double a[3], b[3];
    on_ground(f, -115, 45, a);
    on_ground(f, -78, 82, b);
    isoterra_path path = {NULL, 7, 1.0};
    CHECK(isoterra_navmesh_path(nav, a, b, &path) == 0 && said_exactly(""));
    CHECK(path.point_count >= 26); /* two metres apart at most, over 53 m */
    if (path.points && path.point_count >= 2) {
        const double* p = path.points;
        const double* last = p + 3 * (path.point_count - 1);
        CHECK(hypot(p[0] - a[0], p[2] - a[2]) < 0.5 && hypot(last[0] - b[0], last[2] - b[2]) < 0.5);
        /* On the field's surface: rock within 0.5 m below each waypoint, air within 0.5 m
         * above; the ground height (the surface before its detail) within a metre. */
        double along = 0.0, worst = 0.0;
        int on_surface = 1;
        for (size_t i = 0; i < path.point_count; ++i) {
            double ground[3], v[2];
            const double probes[6] = {p[3 * i], p[3 * i + 1] - 0.5, p[3 * i + 2], p[3 * i], p[3 * i + 1] + 0.5, p[3 * i + 2]};
            CHECK(isoterra_field_sample(f, probes, 2, v) == 0);
            on_surface &= v[0] < 0.0 && v[1] > 0.0;
            on_ground(f, p[3 * i], p[3 * i + 2], ground);
            if (fabs(ground[1] - p[3 * i + 1]) > worst) worst = fabs(ground[1] - p[3 * i + 1]);
            if (i > 0)
                along += sqrt(pow(p[3 * i] - p[3 * i - 3], 2) + pow(p[3 * i + 1] - p[3 * i - 2], 2) + pow(p[3 * i + 2] - p[3 * i - 1], 2));
        }
        CHECK(on_surface);
        CHECK(worst < 1.0);
        CHECK(fabs(along - path.length_m) < 1e-9 * along);
        CHECK(path.length_m >= sqrt(pow(b[0] - a[0], 2) + pow(b[1] - a[1], 2) + pow(b[2] - a[2], 2)) && path.length_m < 60.0);
    }
    isoterra_path_free(&path);
    CHECK(path.points == NULL && path.point_count == 0 && said_exactly(""));
    isoterra_path_free(NULL);

    /* Both on walkable ground, no path joining them: the program's exit 3. */
    const double island[3] = {-122, 4.7, 51}, pit[3] = {-72, -17.25, 88}, rock[3] = {-122, -5, 51};
    path.point_count = 9;
    CHECK(isoterra_navmesh_path(nav, island, pit, &path) == ISOTERRA_NO_PATH && said_exactly("no path from -122,4.7,51 to -72,-17.25,88"));
    CHECK(path.points == NULL && path.point_count == 0);
    CHECK(isoterra_navmesh_path(nav, rock, pit, &path) == -1 &&
          said_exactly("from -122,-5,51 lies inside rock, 9.7 m under the ground at -122.00,4.65,51.00"));
    const double nan_point[3] = {NAN, 0, 0};
    CHECK(isoterra_navmesh_path(nav, nan_point, pit, &path) == -1 &&
          said_exactly("isoterra_navmesh_path: from: a coordinate is not finite, got nan"));
    CHECK(isoterra_navmesh_path(NULL, a, b, &path) == -1 && said_exactly("isoterra_navmesh_path: the navmesh is NULL"));
    CHECK(isoterra_navmesh_path(nav, a, b, NULL) == -1 && said_exactly("isoterra_navmesh_path: a NULL argument"));
}

static void refusals(isoterra_field* f) {
    isoterra_agent agent;
    isoterra_agent_defaults(&agent);
    agent.radius_m = 9;
    CHECK(isoterra_navmesh_new(f, lo, hi, &agent, 1) == NULL && said_exactly("agent: radius 9 m must be in [0, 5]"));
    isoterra_agent_defaults(&agent);
    agent.cell_size_m = 0.3;
    CHECK(isoterra_navmesh_new(f, lo, hi, &agent, 1) == NULL &&
          said_exactly("agent: cell size 0.3 m must divide 32 m (0.125, 0.25, 0.5, 1, or 32 / n)"));
    const double wide[2] = {2000, 2000}, zero[2] = {0, 0}, nan_lo[2] = {0, NAN};
    CHECK(isoterra_navmesh_new(f, zero, wide, NULL, 1) == NULL && said_exactly("the region spans 3969 tiles of 32 m, more than 1024"));
    CHECK(isoterra_navmesh_new(f, wide, zero, NULL, 1) == NULL &&
          said_exactly("X must grow from the first corner to the second, got 2000 to 0"));
    CHECK(isoterra_navmesh_new(f, nan_lo, wide, NULL, 1) == NULL &&
          said_exactly("isoterra_navmesh_new: lo: a coordinate is not finite, got nan"));
    CHECK(isoterra_navmesh_new(NULL, lo, hi, NULL, 1) == NULL && said_exactly("isoterra_navmesh_new: a NULL argument"));
    setenv("ISOTERRA_MEMORY_BUDGET", "1M", 1);
    CHECK(isoterra_navmesh_new(f, lo, hi, NULL, 1) == NULL && strstr(isoterra_last_error(), "(ISOTERRA_MEMORY_BUDGET=1M)") != NULL);
    unsetenv("ISOTERRA_MEMORY_BUDGET");
}

int main(void) {
    unsetenv("ISOTERRA_MEMORY_BUDGET");
    isoterra_agent agent;
    isoterra_agent_defaults(&agent);
    CHECK(agent.height_m == 2.0 && agent.radius_m == 0.5 && agent.max_climb_m == 0.5 && agent.max_slope_deg == 45.0 &&
          agent.cell_size_m == 0.25 && agent.cell_height_m == 0.1);
    isoterra_field* f = isoterra_field_new("tutorial", -1);
    CHECK(f != NULL);
    isoterra_navmesh* nav = isoterra_navmesh_new(f, lo, hi, &agent, 2);
    CHECK(nav != NULL && said_exactly(""));
    isoterra_field_free(f); /* the mesh keeps what it needs of the field */
    f = isoterra_field_new("tutorial", -1);
    if (nav) paths(f, nav);
    refusals(f);
    isoterra_navmesh_free(nav);
    isoterra_navmesh_free(NULL);
    isoterra_field_free(f);
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
