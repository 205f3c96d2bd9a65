/* isoterra's C API: fields, sampling, meshing a region, the streaming World, edits kept in a
 * world file, and glb bytes, for C and for anything that binds C (C# P/Invoke, Rust, Python
 * ctypes). The header is C99; the library is libisoterra_c.so.
 *
 * Conventions:
 * - Handles are opaque and owned by the caller, who frees each with its _free function
 *   (freeing NULL does nothing) once no other call on it is running.
 * - Threads: any function may be called from any thread, on one handle from several at
 *   once. Fields, meshes and river networks never change once made: calls on them run
 *   side by side. The calls on an editor, a World or a navigation mesh take the handle's
 *   lock and run one at a time, in some order (isoterra_world_settled alone does not
 *   wait). A call on a World from inside its own deliver callback fails (-1) rather than
 *   wait for itself.
 * - Functions that can fail return 0 on success and -1 on failure, or NULL for a handle;
 *   isoterra_last_error() then gives a one-line message (the program's) for the calling
 *   thread. Bad input and failures never abort the process.
 * - Text: strings in are NUL-terminated bytes (paths as the file system takes them, names
 *   and TOML as UTF-8). A message quoting a user's text (a path, a name) shows it as the
 *   program does: control characters and bytes that are not UTF-8 escaped ("\n", "\xff"),
 *   a long one cut in its middle; a message is one line of at most 700 bytes.
 * - Buffers the library hands out belong to the handle they come from and live as long as
 *   it; isoterra_bytes are freed with isoterra_bytes_free.
 * - Metres, Y up; the field is negative in rock and positive in air. */
#ifndef ISOTERRA_ISOTERRA_H
#define ISOTERRA_ISOTERRA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ISOTERRA_API __attribute__((visibility("default")))
#else
#define ISOTERRA_API
#endif

/* The version of this interface; a program built against another one should not load the
 * library (compare isoterra_abi_version() with ISOTERRA_ABI_VERSION). */
#define ISOTERRA_ABI_VERSION 1
ISOTERRA_API int isoterra_abi_version(void);

/* The last error of the calling thread, one line; "" when the thread's last call into the
 * library (any function but this one) succeeded. The pointer stays valid until the
 * thread's next call into the library. */
ISOTERRA_API const char* isoterra_last_error(void);

/* ---- fields ----------------------------------------------------------------------------- */

typedef struct isoterra_field isoterra_field;

/* A field from a built-in preset's name ("alpine") or a preset or graph file's path, with
 * `seed` (-1: the preset's or file's own). NULL on failure. */
ISOTERRA_API isoterra_field* isoterra_field_new(const char* preset_or_path, int64_t seed);
/* A field from preset or graph TOML text; a graph's heightmap files are read relative to
 * `directory` (NULL: the working directory). NULL on failure. */
ISOTERRA_API isoterra_field* isoterra_field_from_text(const char* toml, const char* directory, int64_t seed);
ISOTERRA_API void isoterra_field_free(isoterra_field* field);
/* The terrain's name and seed. */
ISOTERRA_API const char* isoterra_field_name(const isoterra_field* field);
ISOTERRA_API uint32_t isoterra_field_seed(const isoterra_field* field);

/* Writes the values at `n` points (x, y, z interleaved) to `out`: the values `isoterra
 * sample` prints, edits included for a field from a world file. */
ISOTERRA_API int isoterra_field_sample(const isoterra_field* field, const double* xyz, size_t n, double* out);
/* Writes the values on a lattice of nx * ny * nz samples `step` metres apart from
 * `origin` (each coordinate a whole multiple of step) to `out`, x fastest, then y, then z. */
ISOTERRA_API int isoterra_field_lattice(const isoterra_field* field, const double origin[3], const int32_t size[3], double step,
                                        float* out);
/* Writes the ground height at `n` points (x, z interleaved) to `out`; fails for a field
 * without a ground height. */
ISOTERRA_API int isoterra_field_ground(const isoterra_field* field, const double* xz, size_t n, double* out);

/* ---- meshes ----------------------------------------------------------------------------- */

typedef struct isoterra_mesh isoterra_mesh;

/* Meshes the chunks of level of detail `lod` (samples 2^lod m apart, 0 to 10) covering the
 * box [lo, hi) with `mesher` ("marching-cubes", "surface-nets", "blocks"; NULL: marching
 * cubes) on `threads` threads (0: all cores); at level 0 the triangles `isoterra mesh
 * --from lo --to hi` writes. At most 4096 chunks. NULL on failure. */
ISOTERRA_API isoterra_mesh* isoterra_mesh_region(const isoterra_field* field, const double lo[3], const double hi[3], const char* mesher,
                                                 int lod, int threads);
ISOTERRA_API void isoterra_mesh_free(isoterra_mesh* mesh);
ISOTERRA_API size_t isoterra_mesh_vertex_count(const isoterra_mesh* mesh);
ISOTERRA_API size_t isoterra_mesh_triangle_count(const isoterra_mesh* mesh);
/* 3 floats a vertex, world metres. */
ISOTERRA_API const float* isoterra_mesh_positions(const isoterra_mesh* mesh);
/* 3 floats a vertex, unit length. */
ISOTERRA_API const float* isoterra_mesh_normals(const isoterra_mesh* mesh);
/* 3 indices a triangle, counter-clockwise seen from the air. */
ISOTERRA_API const uint32_t* isoterra_mesh_indices(const isoterra_mesh* mesh);
/* 1 byte a vertex: its dominant material (0 grass, 1 soil, 2 rock, 3 snow, 4 sand, 5 scree). */
ISOTERRA_API const uint8_t* isoterra_mesh_materials(const isoterra_mesh* mesh);
/* 3 floats a vertex: the material colour, linear RGB in [0, 1] (the blend shown). */
ISOTERRA_API const float* isoterra_mesh_colours(const isoterra_mesh* mesh);
/* The name of material `m` ("grass"), or NULL outside [0, 6). */
ISOTERRA_API const char* isoterra_material_name(int m);
/* The name of mesher `i` as the `mesher` arguments spell it ("marching-cubes"), in the
 * library's menu order (0 is the default), or NULL past the last. */
ISOTERRA_API const char* isoterra_mesher_name(int i);
/* Mesher `i`'s name for menus ("marching cubes"), or NULL past the last. */
ISOTERRA_API const char* isoterra_mesher_label(int i);

/* Bytes the library allocated (a glb file), freed with isoterra_bytes_free. */
typedef struct isoterra_bytes {
    uint8_t* data;
    size_t size;
} isoterra_bytes;
/* The mesh as a binary glTF 2.0 file, as `isoterra mesh -o x.glb` writes it; `compress`
 * non-zero: quantized and meshopt-compressed, as with --compress. */
ISOTERRA_API int isoterra_mesh_glb(const isoterra_mesh* mesh, int compress, isoterra_bytes* out);
ISOTERRA_API void isoterra_bytes_free(isoterra_bytes* bytes);

/* ---- the streaming World ---------------------------------------------------------------- */

typedef struct isoterra_world isoterra_world;

typedef struct isoterra_world_settings {
    double view_distance_m;    /* how far the world reaches; 0: 8000 */
    int radius;                /* chunks per ring of each level; 0: 8 */
    int threads;               /* workers; 0: cores - 1 */
    const char* mesher;        /* NULL: marching cubes */
    long long triangle_budget; /* triangles the view may show (rings narrow below radius); 0: 6000000; -1: no limit */
} isoterra_world_settings;

/* One chunk's news, valid during the callback only. A dropped chunk is gone: forget it. Any
 * other update says whether the chunk is drawn (visible); a visible one carries its
 * triangles as drawn now, with the transitions its neighbours of other levels call for
 * (has_mesh 1; perhaps none when it holds no surface): replace what is drawn for it. */
typedef struct isoterra_chunk_update {
    int32_t x, y, z, lod;
    uint64_t version;
    int dropped;
    int visible;
    int has_mesh;     /* 1 for a visible chunk: the triangles below replace its old ones */
    double origin[3]; /* positions are relative to this, metres */
    size_t vertex_count, index_count;
    const float* positions;  /* 3 a vertex */
    const float* normals;    /* 3 a vertex */
    const uint32_t* indices; /* 3 a triangle */
} isoterra_chunk_update;
typedef void (*isoterra_chunk_callback)(const isoterra_chunk_update* update, void* user);

/* Starts a World over `field` (its edits included) and its worker threads. */
ISOTERRA_API isoterra_world* isoterra_world_new(const isoterra_field* field, const isoterra_world_settings* settings);
/* Stops the workers and frees the World. */
ISOTERRA_API void isoterra_world_free(isoterra_world* world);
/* Moves the focus. */
ISOTERRA_API int isoterra_world_set_focus(isoterra_world* world, double x, double y, double z);
/* Hands finished chunks to `callback` for up to `budget_ms` milliseconds, holding the
 * World's lock (the callback may not call into the same World); returns how many updates it
 * handed, or -1. */
ISOTERRA_API int isoterra_world_deliver(isoterra_world* world, double budget_ms, isoterra_chunk_callback callback, void* user);
/* 1 when everything around the focus is built and handed over, else 0. */
ISOTERRA_API int isoterra_world_settled(const isoterra_world* world);

/* ---- edits and world files -------------------------------------------------------------- */

typedef struct isoterra_editor isoterra_editor;

/* Opens the world file at `path` (SQLite), creating it from `preset_or_path` and `seed`
 * (-1: its own) when it is missing; an existing file keeps its own terrain. NULL: no file,
 * edits in memory over `preset_or_path`. NULL on failure. */
ISOTERRA_API isoterra_editor* isoterra_editor_open(const char* path, const char* preset_or_path, int64_t seed);
ISOTERRA_API void isoterra_editor_free(isoterra_editor* editor);
/* A field of the terrain with the edits made so far (a snapshot: later edits do not change
 * it), to sample, mesh or stream. Free it with isoterra_field_free. */
ISOTERRA_API isoterra_field* isoterra_editor_field(const isoterra_editor* editor);
/* Applies a brush ("sphere", "smooth", "flatten"; mode "carve" or "add", sphere only) and
 * saves it to the file. strength_m <= 0: no cap. */
ISOTERRA_API int isoterra_editor_apply(isoterra_editor* editor, const char* brush, const char* mode, double x, double y, double z,
                                       double radius_m, double strength_m);
/* Takes back the last edit / applies the next undone one, and saves: 1 when there was one,
 * 0 when none, -1 on failure. */
ISOTERRA_API int isoterra_editor_undo(isoterra_editor* editor);
ISOTERRA_API int isoterra_editor_redo(isoterra_editor* editor);
/* The edits in effect (undone ones not counted). */
ISOTERRA_API size_t isoterra_editor_edit_count(const isoterra_editor* editor);

/* The first point where the ray from `origin` along `direction` meets rock within
 * `max_distance_m`, edits included: 1 and `hit` set, 0 when it meets none, -1 on failure. */
ISOTERRA_API int isoterra_field_raycast(const isoterra_field* field, const double origin[3], const double direction[3],
                                        double max_distance_m, double hit[3]);

/* ---- rivers ----------------------------------------------------------------------------- */

typedef struct isoterra_rivers isoterra_rivers;

/* The river network of the field's ground from lo = (x0, z0) to hi = (x1, z1), read every
 * `step` metres on its whole multiples: what `isoterra landform --rivers` writes. A channel
 * wherever the drainage area reaches `min_area_km2` (<= 0: 1 km2); one reach per stretch
 * between junctions, upstream first. At most 65536 samples a side. NULL on failure. */
ISOTERRA_API isoterra_rivers* isoterra_field_rivers(const isoterra_field* field, const double lo[2], const double hi[2], double step,
                                                    double min_area_km2, int threads);
ISOTERRA_API void isoterra_rivers_free(isoterra_rivers* rivers);
/* The reaches, and the points of all of them together. */
ISOTERRA_API size_t isoterra_rivers_count(const isoterra_rivers* rivers);
ISOTERRA_API size_t isoterra_rivers_point_count(const isoterra_rivers* rivers);
/* 3 doubles a point: x, z and the water level, in metres; the reaches one after another. */
ISOTERRA_API const double* isoterra_rivers_points(const isoterra_rivers* rivers);
/* count + 1 entries: reach i's points are [offsets[i], offsets[i + 1]). */
ISOTERRA_API const size_t* isoterra_rivers_offsets(const isoterra_rivers* rivers);
/* Per reach: the Strahler order (1: nothing upstream), the width in metres, the drainage
 * area at its end in km2. */
ISOTERRA_API const int32_t* isoterra_rivers_orders(const isoterra_rivers* rivers);
ISOTERRA_API const double* isoterra_rivers_widths(const isoterra_rivers* rivers);
ISOTERRA_API const double* isoterra_rivers_areas(const isoterra_rivers* rivers);

/* ---- navigation ------------------------------------------------------------------------- */

typedef struct isoterra_navmesh isoterra_navmesh;

/* The walking agent, metres and degrees (see docs/guides/navigation.md). */
typedef struct isoterra_agent {
    double height_m;      /* headroom needed, in [0.5, 10] */
    double radius_m;      /* kept from walls, in [0, 5] */
    double max_climb_m;   /* the highest step walked up, in [0, 5], at most height_m */
    double max_slope_deg; /* the steepest ground walked on, in [0, 85] */
    double cell_size_m;   /* Recast's cell across, in [0.125, 1], dividing 32 */
    double cell_height_m; /* Recast's cell upwards, in [0.05, 1] */
} isoterra_agent;
/* Writes the default agent (what `isoterra navmesh` uses without agent flags) to `agent`. */
ISOTERRA_API void isoterra_agent_defaults(isoterra_agent* agent);

/* A navigation mesh over the level-0 chunk columns (32 m tiles) covering lo = (x0, z0) to
 * hi = (x1, z1), the field's edits included, built for `agent` (NULL: the defaults) on
 * `threads` threads (0: all cores): the tiles `isoterra navmesh --from lo --to hi` writes.
 * At most 1024 tiles, within 1e5 m of the origin. NULL on failure. */
ISOTERRA_API isoterra_navmesh* isoterra_navmesh_new(const isoterra_field* field, const double lo[2], const double hi[2],
                                                    const isoterra_agent* agent, int threads);
ISOTERRA_API void isoterra_navmesh_free(isoterra_navmesh* navmesh);

/* A path's waypoints (3 doubles each, world metres, on the ground one to two metres apart)
 * and its length along them; the library allocates `points`, freed with isoterra_path_free. */
typedef struct isoterra_path {
    double* points;
    size_t point_count;
    double length_m;
} isoterra_path;
/* What isoterra_navmesh_path returns when both points lie on walkable ground but no path
 * joins them (the program's exit 3); isoterra_last_error() then says "no path from A to B". */
#define ISOTERRA_NO_PATH (-2)
/* The shortest path from `from` to `to` (x, y, z, each on walkable ground: within half a
 * metre sideways and the agent's height above it), what `isoterra path` prints, into `out`:
 * 0 on success, ISOTERRA_NO_PATH, or -1 on failure (a point inside rock, in the air or
 * outside the mesh's region). Queries on one mesh take its lock and run one at a time. */
ISOTERRA_API int isoterra_navmesh_path(isoterra_navmesh* navmesh, const double from[3], const double to[3], isoterra_path* out);
ISOTERRA_API void isoterra_path_free(isoterra_path* path);

#ifdef __cplusplus
}
#endif

#endif /* ISOTERRA_ISOTERRA_H */
