/* The C API from C99: a field, its values against a lattice of the same points, a mesh
 * inside its box, glb bytes, bad input with one-line errors, edits with undo and redo in a
 * world file, and a World streamed until settled. Exits non-zero on the first failure. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capi_check.h"
#include "isoterra/isoterra.h"

typedef struct {
    int updates, visible_meshes, dropped;
    size_t triangles;
} world_tally;

static void on_chunk(const isoterra_chunk_update* u, void* user) {
    world_tally* t = (world_tally*)user;
    t->updates++;
    if (u->dropped) t->dropped++;
    if (u->has_mesh) {
        t->visible_meshes++;
        t->triangles += u->index_count / 3;
        if (u->vertex_count > 0 && (u->positions == NULL || u->normals == NULL || u->indices == NULL)) failures++;
    }
}

int main(int argc, char** argv) {
    const char* world_path = argc > 1 ? argv[1] : "capi_test_world.db";
    remove(world_path);
    CHECK(isoterra_abi_version() == ISOTERRA_ABI_VERSION);
    /* The meshers, in the registry's order: the default first, NULL past the last. */
    CHECK(strcmp(isoterra_mesher_name(0), "marching-cubes") == 0);
    CHECK(strcmp(isoterra_mesher_name(2), "blocks") == 0);
    CHECK(isoterra_mesher_name(3) == NULL && isoterra_mesher_name(-1) == NULL);
    CHECK(strcmp(isoterra_mesher_label(1), "surface nets") == 0);
    CHECK(isoterra_mesher_label(3) == NULL && isoterra_mesher_label(-1) == NULL);

    /* A field, and the values at lattice points through both paths. */
    isoterra_field* f = isoterra_field_new("tutorial", -1);
    CHECK(f != NULL);
    if (!f) return 1;
    CHECK(strcmp(isoterra_field_name(f), "tutorial") == 0);
    const double origin[3] = {-8, -16, 24};
    const int32_t size[3] = {5, 9, 4};
    float lattice[5 * 9 * 4];
    CHECK(isoterra_field_lattice(f, origin, size, 2.0, lattice) == 0);
    double points[3 * 5 * 9 * 4], values[5 * 9 * 4];
    for (int k = 0, n = 0; k < 4; ++k)
        for (int j = 0; j < 9; ++j)
            for (int i = 0; i < 5; ++i, ++n) {
                points[3 * n] = origin[0] + 2.0 * i;
                points[3 * n + 1] = origin[1] + 2.0 * j;
                points[3 * n + 2] = origin[2] + 2.0 * k;
            }
    CHECK(isoterra_field_sample(f, points, 5 * 9 * 4, values) == 0);
    int solid = 0, air = 0, close = 1;
    for (int n = 0; n < 5 * 9 * 4; ++n) {
        solid += values[n]<0, air += values[n]> 0;
        if (fabs(values[n] - lattice[n]) > 1e-3 * (1 + fabs(values[n]))) close = 0;
    }
    CHECK(close);
    CHECK(solid > 0 && air > 0); /* the lattice spans the ground */
    const double sky[3] = {0, 5000, 0}, deep[3] = {0, -5000, 0};
    double v;
    CHECK(isoterra_field_sample(f, sky, 1, &v) == 0 && v > 0);
    CHECK(isoterra_field_sample(f, deep, 1, &v) == 0 && v < 0);
    const double xz[2] = {0, 40};
    double ground;
    CHECK(isoterra_field_ground(f, xz, 1, &ground) == 0 && isfinite(ground));

    /* A mesh of the box, inside it, and as glb. */
    const double lo[3] = {0, -64, 0}, hi[3] = {64, 64, 64};
    isoterra_mesh* m = isoterra_mesh_region(f, lo, hi, "marching-cubes", 0, 2);
    CHECK(m != NULL);
    if (m) {
        const size_t nv = isoterra_mesh_vertex_count(m), nt = isoterra_mesh_triangle_count(m);
        CHECK(nv > 100 && nt > 100);
        const float* p = isoterra_mesh_positions(m);
        const uint32_t* idx = isoterra_mesh_indices(m);
        const uint8_t* mat = isoterra_mesh_materials(m);
        int inside = 1, indices_ok = 1, materials_ok = 1;
        for (size_t i = 0; i < nv; ++i) {
            if (p[3 * i] < lo[0] - 1e-3 || p[3 * i] > hi[0] + 1e-3 || p[3 * i + 2] < lo[2] - 1e-3 || p[3 * i + 2] > hi[2] + 1e-3)
                inside = 0;
            if (mat[i] > 5) materials_ok = 0;
        }
        for (size_t i = 0; i < 3 * nt; ++i)
            if (idx[i] >= nv) indices_ok = 0;
        CHECK(inside && indices_ok && materials_ok);
        isoterra_bytes glb;
        CHECK(isoterra_mesh_glb(m, 0, &glb) == 0 && glb.size > 20 && memcmp(glb.data, "glTF", 4) == 0);
        isoterra_bytes packed;
        CHECK(isoterra_mesh_glb(m, 1, &packed) == 0 && packed.size > 20 && packed.size < glb.size / 2);
        isoterra_bytes_free(&packed);
        isoterra_bytes_free(&glb);
        CHECK(glb.data == NULL);
        isoterra_mesh_free(m);
    }

    /* The tutorial's rivers over 2 km: reaches of 2 points or more, offsets that partition
     * the points, orders from 1, positive widths; and bad arguments refused. */
    {
        const double rlo[2] = {-1000, -1000}, rhi[2] = {1000, 1000};
        isoterra_rivers* r = isoterra_field_rivers(f, rlo, rhi, 20.0, 0.05, 2);
        CHECK(r != NULL);
        if (r) {
            const size_t n = isoterra_rivers_count(r);
            const size_t* off = isoterra_rivers_offsets(r);
            int ok = n > 0 && off[0] == 0 && off[n] == isoterra_rivers_point_count(r), order_one = 0;
            for (size_t i = 0; i < n; ++i) {
                if (off[i + 1] < off[i] + 2 || isoterra_rivers_orders(r)[i] < 1 || !(isoterra_rivers_widths(r)[i] > 0)) ok = 0;
                order_one |= isoterra_rivers_orders(r)[i] == 1;
            }
            const double* pt = isoterra_rivers_points(r);
            for (size_t i = 0; i < isoterra_rivers_point_count(r); ++i)
                if (fabs(pt[3 * i]) > 1000 || fabs(pt[3 * i + 1]) > 1000 || !isfinite(pt[3 * i + 2])) ok = 0;
            CHECK(ok && order_one);
            isoterra_rivers_free(r);
        }
        CHECK(isoterra_field_rivers(f, rlo, NULL, 20.0, 1.0, 1) == NULL && strstr(isoterra_last_error(), "NULL") != NULL);
        CHECK(isoterra_field_rivers(f, rlo, rhi, -1.0, 1.0, 1) == NULL && strstr(isoterra_last_error(), "step") != NULL);
    }

    /* Bad input: NULL or -1 with a one-line message; nothing aborts. */
    CHECK(isoterra_field_new("no-such-preset", -1) == NULL && strstr(isoterra_last_error(), "no-such-preset") != NULL);
    CHECK(isoterra_field_new("./missing.toml", -1) == NULL && strlen(isoterra_last_error()) > 0);
    CHECK(isoterra_field_new("tutorial", 1LL << 40) == NULL && strstr(isoterra_last_error(), "seed") != NULL);
    CHECK(isoterra_mesh_region(f, hi, lo, NULL, 0, 1) == NULL && strstr(isoterra_last_error(), "must grow") != NULL);
    CHECK(isoterra_mesh_region(f, lo, hi, "voxels", 0, 1) == NULL && strstr(isoterra_last_error(), "voxels") != NULL);
    const double far_lo[3] = {0, 0, 0}, far_hi[3] = {1e5, 64, 1e5};
    CHECK(isoterra_mesh_region(f, far_lo, far_hi, NULL, 0, 1) == NULL && strstr(isoterra_last_error(), "chunks") != NULL);
    CHECK(isoterra_mesh_region(f, lo, hi, NULL, 11, 1) == NULL && strstr(isoterra_last_error(), "level of detail") != NULL);
    {
        isoterra_mesh* coarse = isoterra_mesh_region(f, lo, hi, NULL, 2, 1); /* one 128 m chunk layer of 4 m samples */
        CHECK(coarse != NULL && isoterra_mesh_triangle_count(coarse) > 10);
        isoterra_mesh_free(coarse);
    }
    const double nan_point[3] = {NAN, 0, 0};
    CHECK(isoterra_field_sample(f, nan_point, 1, &v) == -1);
    const double odd_origin[3] = {0.5, 0, 0};
    CHECK(isoterra_field_lattice(f, odd_origin, size, 2.0, lattice) == -1 && strstr(isoterra_last_error(), "multiple") != NULL);
    CHECK(isoterra_field_new(NULL, -1) == NULL);
    CHECK(strchr(isoterra_last_error(), '\n') == NULL);
    CHECK(isoterra_field_sample(f, sky, 1, &v) == 0 && strcmp(isoterra_last_error(), "") == 0);

    /* Edits in a world file: a carve makes air at its centre, undo brings the value back
     * bit for bit, redo takes it again, and a reopened file holds the edit. */
    isoterra_editor* e = isoterra_editor_open(world_path, "tutorial", -1);
    CHECK(e != NULL);
    if (e) {
        const double centre[3] = {0, ground - 2, 40};
        isoterra_field* before = isoterra_editor_field(e);
        double v0, v1, v2;
        CHECK(isoterra_field_sample(before, centre, 1, &v0) == 0 && v0 < 0);
        CHECK(isoterra_editor_apply(e, "sphere", "carve", centre[0], centre[1], centre[2], 4.0, 0.0) == 0);
        CHECK(isoterra_editor_edit_count(e) == 1);
        isoterra_field* after = isoterra_editor_field(e);
        CHECK(isoterra_field_sample(after, centre, 1, &v1) == 0 && v1 > 0);
        CHECK(isoterra_editor_undo(e) == 1);
        isoterra_field* undone = isoterra_editor_field(e);
        CHECK(isoterra_field_sample(undone, centre, 1, &v2) == 0 && v2 == v0);
        CHECK(isoterra_editor_undo(e) == 0);
        CHECK(isoterra_editor_redo(e) == 1 && isoterra_editor_redo(e) == 0);
        CHECK(isoterra_editor_apply(e, "sphere", "carve", 0, 0, 0, 1000.0, 0.0) == -1 && strstr(isoterra_last_error(), "radius") != NULL);
        CHECK(isoterra_editor_apply(e, "paint", NULL, 0, 0, 0, 4.0, 0.0) == -1 && strstr(isoterra_last_error(), "paint") != NULL);
        const double down[3] = {0, -1, 0};
        const double above[3] = {centre[0], centre[1] + 50, centre[2]};
        double hit[3];
        CHECK(isoterra_field_raycast(after, above, down, 200, hit) == 1 && hit[1] < centre[1] - 3.0);
        isoterra_field_free(before);
        isoterra_field_free(after);
        isoterra_field_free(undone);
        isoterra_editor_free(e);
        isoterra_editor* again = isoterra_editor_open(world_path, "alpine", -1); /* keeps its own terrain */
        CHECK(again != NULL);
        if (again) {
            CHECK(isoterra_editor_edit_count(again) == 1);
            isoterra_field* g = isoterra_editor_field(again);
            CHECK(strcmp(isoterra_field_name(g), "tutorial") == 0);
            CHECK(isoterra_field_sample(g, centre, 1, &v) == 0 && v == v1);
            isoterra_field_free(g);
            isoterra_editor_free(again);
        }
    }

    /* A World streamed until settled. */
    isoterra_world_settings s = {512.0, 4, 2, "surface-nets", 0};
    isoterra_world* w = isoterra_world_new(f, &s);
    CHECK(w != NULL);
    if (w) {
        world_tally t = {0, 0, 0, 0};
        const struct timespec pause = {0, 5000000};
        CHECK(isoterra_world_set_focus(w, 0, ground, 40) == 0);         /* a World without a focus is settled */
        for (int i = 0; i < 24000 && !isoterra_world_settled(w); ++i) { /* at most two minutes */
            CHECK(isoterra_world_set_focus(w, 0, ground, 40) == 0);
            CHECK(isoterra_world_deliver(w, 50.0, on_chunk, &t) >= 0);
            nanosleep(&pause, NULL);
        }
        CHECK(isoterra_world_settled(w));
        if (!(t.updates > 0 && t.visible_meshes > 0 && t.triangles > 1000))
            fprintf(stderr, "world: %d updates, %d meshes, %zu triangles\n", t.updates, t.visible_meshes, t.triangles);
        CHECK(t.updates > 0 && t.visible_meshes > 0 && t.triangles > 1000);
        isoterra_world_free(w);
    }
    isoterra_world_settings bad = {1.0, 0, 0, NULL, 0};
    CHECK(isoterra_world_new(f, &bad) == NULL && strstr(isoterra_last_error(), "view_distance") != NULL);

    isoterra_world_settings bad_budget = {512.0, 4, 2, NULL, -2};
    CHECK(isoterra_world_new(f, &bad_budget) == NULL && strstr(isoterra_last_error(), "triangle_budget") != NULL);
    isoterra_field_free(f);
    isoterra_field_free(NULL);
    remove(world_path);
    if (failures) fprintf(stderr, "capi_test: %d checks failed\n", failures);
    else printf("capi_test: all checks passed\n");
    return failures ? 1 : 0;
}
