/* The C API refuses what the program refuses, through the library's one set of limits:
 * coordinates past +-1e8 m or not finite (sample, ground, raycast, mesh), a lattice origin
 * too many steps out to convert or reaching past the world's end, and lattices and Worlds
 * past ISOTERRA_MEMORY_BUDGET; each a -1 or NULL with a one-line message. Exits non-zero on
 * the first failure. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "isoterra/isoterra.h"

/* The last error holds `part` and is one line. */
static int said(const char* part) { return strstr(isoterra_last_error(), part) != NULL && strchr(isoterra_last_error(), '\n') == NULL; }

int main(void) {
    unsetenv("ISOTERRA_MEMORY_BUDGET");
    isoterra_field* f = isoterra_field_new("tutorial", -1);
    CHECK(f != NULL);
    double v = 0.0, hit[3] = {0, 0, 0};

    /* Coordinates: past +-1e8 m, NaN and infinity, where the program's flags refuse them. */
    const double far_point[3] = {0, 0, 1.5e8}, nan_point[3] = {0, NAN, 0}, inf_point[3] = {INFINITY, 0, 0};
    CHECK(isoterra_field_sample(f, far_point, 1, &v) == -1 && said("isoterra_field_sample: point 0: coordinates must lie within +-1e8 m"));
    CHECK(isoterra_field_sample(f, nan_point, 1, &v) == -1 && said("point 0: a coordinate is not finite"));
    CHECK(isoterra_field_sample(f, inf_point, 1, &v) == -1 && said("not finite"));
    const double far_xz[4] = {0, 0, -2e8, 5}, nan_xz[2] = {NAN, 0};
    double heights[2];
    CHECK(isoterra_field_ground(f, far_xz, 2, heights) == -1 &&
          said("isoterra_field_ground: point 1: coordinates must lie within +-1e8 m"));
    CHECK(isoterra_field_ground(f, nan_xz, 1, heights) == -1 && said("not finite"));
    CHECK(isoterra_field_ground(f, far_xz, 1, heights) == 0 && isfinite(heights[0])); /* the first alone is fine */
    const double down[3] = {0, -1, 0}, far_origin[3] = {1e9, 500, 0}, inf_origin[3] = {0, INFINITY, 0};
    CHECK(isoterra_field_raycast(f, far_origin, down, 1000, hit) == -1 && said("isoterra_field_raycast: origin: coordinates must lie"));
    CHECK(isoterra_field_raycast(f, inf_origin, down, 1000, hit) == -1 && said("not finite"));
    /* A region just past the end: its chunks' indices lie inside, its corners do not. */
    const double past_lo[3] = {1e8 + 8, 0, 0}, past_hi[3] = {1e8 + 24, 32, 32};
    CHECK(isoterra_mesh_region(f, past_lo, past_hi, NULL, 0, 1) == NULL && said("+-1e8 m"));

    /* Lattices: an origin 9e7 m out at 1e-12 m steps is 9e19 steps, past int64: refused, not
     * wrapped; one reaching past the end; a whole multiple stays required. */
    float out[8];
    const int32_t two[3] = {2, 2, 2};
    const double many_steps[3] = {9e7, 0, 0}, near_end[3] = {1e8, 0, 0};
    CHECK(isoterra_field_lattice(f, many_steps, two, 1e-12, out) == -1 && said("within 2^53 steps"));
    CHECK(isoterra_field_lattice(f, near_end, two, 1.0, out) == -1 && said("reaches past +-1e8 m"));
    const double fine[3] = {64, -16, 64};
    CHECK(isoterra_field_lattice(f, fine, two, 1.0, out) == 0 && isfinite(out[7]));

    /* The memory budget: a lattice's values and the temporaries of sampling it, and a World's
     * view, planned before any of it is made. */
    setenv("ISOTERRA_MEMORY_BUDGET", "64M", 1);
    const int32_t big[3] = {256, 64, 256}; /* 4.2 M samples: 16 MiB of values, 512 MiB planned */
    float* lattice = malloc(sizeof(float) * 256 * 64 * 256);
    CHECK(lattice != NULL);
    CHECK(isoterra_field_lattice(f, fine, big, 1.0, lattice) == -1 &&
          said("isoterra_field_lattice: sampling 4194304 samples needs about") &&
          said("more than the memory budget of 64.0 MiB (ISOTERRA_MEMORY_BUDGET=64M)"));
    isoterra_world_settings largest = {200000.0, 64, 1, NULL, -1};
    CHECK(isoterra_world_new(f, &largest) == NULL && said("isoterra_world_new with ") && said("more than the memory budget"));
    unsetenv("ISOTERRA_MEMORY_BUDGET");
    CHECK(isoterra_field_lattice(f, fine, big, 1.0, lattice) == 0 && isfinite(lattice[256 * 64 * 256 - 1]));
    free(lattice);
    isoterra_world_settings small = {2000.0, 4, 1, NULL, 0};
    isoterra_world* w = isoterra_world_new(f, &small);
    CHECK(w != NULL && strcmp(isoterra_last_error(), "") == 0);
    isoterra_world_free(w);

    isoterra_field_free(f);
    if (failures) fprintf(stderr, "%d failures\n", failures);
    return failures ? 1 : 0;
}
