/* The C API's handles shared by POSIX threads: one editor (in memory and over a world file)
 * hammered with apply, undo, redo, field and edit_count from eight threads at once, one World
 * moved and delivered from four, one field sampled from eight, and each thread's last error
 * its own. Every call must succeed; the edit counts must add up (each call's effect is whole:
 * the sum of what every thread saw applied and taken back is the editor's count), undoing them
 * all must give the terrain's value back bit for bit, and a reopened world file must hold the
 * same count. A call on a World from inside its own deliver callback must fail, not deadlock.
 * Exits non-zero on the first failure. Usage: test_capi_threads WORLD_FILE */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isoterra/isoterra.h"

static int failures = 0;
static pthread_mutex_t report = PTHREAD_MUTEX_INITIALIZER;
#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            pthread_mutex_lock(&report);                                                                               \
            fprintf(stderr, "%s:%d: failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, isoterra_last_error()); \
            failures++;                                                                                                \
            pthread_mutex_unlock(&report);                                                                             \
        }                                                                                                              \
    } while (0)

enum { kThreads = 8 };

typedef struct {
    isoterra_editor* editor;
    int index, rounds;
    double centre[3];
    long net; /* edits this thread applied or redid, less those it undid */
} editor_job;

static void* hammer_editor(void* arg) {
    editor_job* job = (editor_job*)arg;
    for (int i = 0; i < job->rounds; ++i) {
        const int what = (job->index * 7 + i * 3) % 5;
        if (what <= 1) {
            const double x = job->centre[0] + (job->index - 4) * 1.5, z = job->centre[2] + (i % 5) * 1.5;
            const int rc = isoterra_editor_apply(job->editor, "sphere", what ? "add" : "carve", x, job->centre[1], z, 2.5, 0.0);
            CHECK(rc == 0);
            if (rc == 0) job->net++;
        } else if (what == 2) {
            const int rc = isoterra_editor_undo(job->editor);
            CHECK(rc == 0 || rc == 1);
            if (rc == 1) job->net--;
        } else if (what == 3) {
            const int rc = isoterra_editor_redo(job->editor);
            CHECK(rc == 0 || rc == 1);
            if (rc == 1) job->net++;
        } else {
            isoterra_field* snapshot = isoterra_editor_field(job->editor);
            double v = NAN;
            CHECK(snapshot != NULL && isoterra_field_sample(snapshot, job->centre, 1, &v) == 0 && isfinite(v));
            isoterra_field_free(snapshot);
            CHECK(isoterra_editor_edit_count(job->editor) < 100000);
        }
    }
    return NULL;
}

static double value_at(isoterra_editor* e, const double p[3]) {
    isoterra_field* f = isoterra_editor_field(e);
    double v = NAN;
    CHECK(f != NULL && isoterra_field_sample(f, p, 1, &v) == 0);
    isoterra_field_free(f);
    return v;
}

/* Eight threads on one editor; then the counts add up and undoing everything restores v0. */
static void share_an_editor(isoterra_editor* e, const double centre[3], int rounds) {
    const double v0 = value_at(e, centre);
    const size_t before = isoterra_editor_edit_count(e);
    pthread_t threads[kThreads];
    editor_job jobs[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        editor_job j = {e, t, rounds, {centre[0], centre[1], centre[2]}, 0};
        jobs[t] = j;
        CHECK(pthread_create(&threads[t], NULL, hammer_editor, &jobs[t]) == 0);
    }
    long net = 0;
    for (int t = 0; t < kThreads; ++t) {
        pthread_join(threads[t], NULL);
        net += jobs[t].net;
    }
    const size_t count = isoterra_editor_edit_count(e);
    CHECK((long)count == (long)before + net);
    CHECK(count > before); /* applies outnumber undos: the threads did edit */
    size_t undone = 0;
    while (isoterra_editor_undo(e) == 1) undone++;
    CHECK(undone == count);
    CHECK(value_at(e, centre) == v0);
    for (size_t i = 0; i < count; ++i) CHECK(isoterra_editor_redo(e) == 1);
    CHECK(isoterra_editor_edit_count(e) == count);
}

typedef struct {
    isoterra_world* world;
    int index;
    int updates;
} world_job;

static void count_update(const isoterra_chunk_update* u, void* user) {
    (void)u;
    ((world_job*)user)->updates++;
}

static void* stream_world(void* arg) {
    world_job* job = (world_job*)arg;
    for (int i = 0; i < 200; ++i) {
        CHECK(isoterra_world_set_focus(job->world, 16.0 * job->index, 30.0, 40.0 + i % 3) == 0);
        CHECK(isoterra_world_deliver(job->world, 1.0, count_update, job) >= 0);
        (void)isoterra_world_settled(job->world);
    }
    return NULL;
}

typedef struct {
    isoterra_world* world;
    int calls, refused, named;
} reentry;

static void call_back_in(const isoterra_chunk_update* u, void* user) {
    (void)u;
    reentry* r = (reentry*)user;
    r->calls++;
    if (isoterra_world_set_focus(r->world, 0, 30, 40) == -1) r->refused++;
    if (strstr(isoterra_last_error(), "isoterra_world_set_focus") && strstr(isoterra_last_error(), "callback")) r->named++;
}

static void share_a_world(const isoterra_field* f) {
    isoterra_world_settings s = {400.0, 3, 2, NULL, 0};
    isoterra_world* w = isoterra_world_new(f, &s);
    CHECK(w != NULL);
    if (!w) return;
    pthread_t threads[4];
    world_job jobs[4];
    int updates = 0;
    for (int t = 0; t < 4; ++t) {
        world_job j = {w, t, 0};
        jobs[t] = j;
        CHECK(pthread_create(&threads[t], NULL, stream_world, &jobs[t]) == 0);
    }
    for (int t = 0; t < 4; ++t) {
        pthread_join(threads[t], NULL);
        updates += jobs[t].updates;
    }
    CHECK(updates > 0);
    /* A new focus far off, so that chunks are built and handed again. */
    CHECK(isoterra_world_set_focus(w, 5000, 30, 5000) == 0);
    reentry r = {w, 0, 0, 0};
    const struct timespec pause = {0, 2000000};
    for (int i = 0; i < 30000 && r.calls == 0; ++i) { /* at most a minute */
        CHECK(isoterra_world_deliver(w, 5.0, call_back_in, &r) >= 0);
        nanosleep(&pause, NULL);
    }
    CHECK(r.calls > 0 && r.refused == r.calls && r.named == r.calls);
    isoterra_world_free(w);
}

typedef struct {
    const isoterra_field* field;
    const double* points;
    const double* expected;
    size_t n;
    int same;
} sample_job;

static void* sample_field(void* arg) {
    sample_job* job = (sample_job*)arg;
    double* out = malloc(job->n * sizeof(double));
    job->same =
        out && isoterra_field_sample(job->field, job->points, job->n, out) == 0 && memcmp(out, job->expected, job->n * sizeof(double)) == 0;
    free(out);
    return NULL;
}

static void share_a_field(const isoterra_field* f) {
    enum { n = 2000 };
    static double points[3 * n], expected[n];
    for (int i = 0; i < n; ++i)
        points[3 * i] = (i % 40) * 3.0 - 60.0, points[3 * i + 1] = (i / 40) * 2.0 - 40.0, points[3 * i + 2] = i * 0.5;
    CHECK(isoterra_field_sample(f, points, n, expected) == 0);
    pthread_t threads[kThreads];
    sample_job jobs[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        sample_job j = {f, points, expected, n, 0};
        jobs[t] = j;
        CHECK(pthread_create(&threads[t], NULL, sample_field, &jobs[t]) == 0);
    }
    for (int t = 0; t < kThreads; ++t) {
        pthread_join(threads[t], NULL);
        CHECK(jobs[t].same);
    }
}

static int failed_there;

static void* fail_once(void* arg) {
    (void)arg;
    failed_there = isoterra_field_new("no-such-preset-in-this-thread", -1) == NULL && strstr(isoterra_last_error(), "no-such-preset");
    return NULL;
}

int main(int argc, char** argv) {
    const char* world_path = argc > 1 ? argv[1] : "capi_threads_world.db";
    remove(world_path);
    isoterra_field* f = isoterra_field_new("tutorial", -1);
    CHECK(f != NULL);
    if (!f) return 1;
    const double xz[2] = {0, 40};
    double ground = 0;
    CHECK(isoterra_field_ground(f, xz, 1, &ground) == 0);
    const double centre[3] = {0, ground - 1, 40};

    isoterra_editor* memory = isoterra_editor_open(NULL, "tutorial", -1);
    CHECK(memory != NULL);
    if (memory) share_an_editor(memory, centre, 60);
    isoterra_editor_free(memory);

    isoterra_editor* stored = isoterra_editor_open(world_path, "tutorial", -1);
    CHECK(stored != NULL);
    if (stored) {
        share_an_editor(stored, centre, 12);
        const size_t count = isoterra_editor_edit_count(stored);
        isoterra_editor_free(stored);
        isoterra_editor* again = isoterra_editor_open(world_path, "tutorial", -1);
        CHECK(again != NULL && isoterra_editor_edit_count(again) == count);
        isoterra_editor_free(again);
    }

    share_a_world(f);
    share_a_field(f);

    /* Another thread's failure is its own: this thread's last error stays "". */
    CHECK(isoterra_field_seed(f) == isoterra_field_seed(f) && strcmp(isoterra_last_error(), "") == 0);
    pthread_t other;
    CHECK(pthread_create(&other, NULL, fail_once, NULL) == 0);
    pthread_join(other, NULL);
    CHECK(failed_there);
    CHECK(strcmp(isoterra_last_error(), "") == 0);

    isoterra_field_free(f);
    remove(world_path);
    if (failures) fprintf(stderr, "capi_threads_test: %d checks failed\n", failures);
    else printf("capi_threads_test: all checks passed\n");
    return failures ? 1 : 0;
}
