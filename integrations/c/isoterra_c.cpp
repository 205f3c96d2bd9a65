// The C API (include/isoterra/isoterra.h) over the library: opaque handles that hold the
// C++ objects, every exception caught at the border and kept as the thread's last error.
#include "isoterra/isoterra.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/geometric.hpp>

#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/io.hpp"
#include "isoterra/store.hpp"
#include "isoterra/world.hpp"

struct isoterra_field {
    isoterra::TerrainSource terrain;
    std::shared_ptr<const isoterra::Field> field;
    std::shared_ptr<const isoterra::ChunkDeltas> deltas;  // never null; empty without edits
};

struct isoterra_mesh {
    isoterra::MeshBuffers mesh;  // origin at the world's: positions are world metres
    // Made on first use (most callers want positions and faces only), once even when asked
    // from several threads.
    std::once_flag looks_made;
    std::vector<std::uint8_t> materials;
    std::vector<float> colours;

    void make_looks() {
        std::call_once(looks_made, [this] {
            const auto& samples = mesh.materials;
            materials.resize(samples.size());
            colours.resize(3 * samples.size());
            for (std::size_t v = 0; v < samples.size(); ++v) {
                materials[v] = static_cast<std::uint8_t>(samples[v].primary);
                const glm::vec3 c = isoterra::material_colour(samples[v]);
                for (int a = 0; a < 3; ++a) colours[3 * v + a] = c[a];
            }
        });
    }
};

struct isoterra_world {
    std::unique_ptr<isoterra::World> world;
    // Each chunk's latest mesh with its index ranges, to draw it again when its neighbours change.
    std::unordered_map<isoterra::ChunkCoord, isoterra::MeshBuffers, isoterra::ChunkKey> meshes;
};

struct isoterra_editor {
    isoterra::TerrainSource terrain;
    std::shared_ptr<const isoterra::Field> field;
    std::unique_ptr<isoterra::WorldEditor> editor;
};

namespace {

thread_local std::string last_error;

// Runs `body`, keeping what it throws as the thread's last error; returns `failed` then.
template <class Result, class Body>
Result guarded(Result failed, Body&& body) noexcept {
    try {
        last_error.clear();
        return body();
    } catch (const std::bad_alloc&) {
        last_error = "out of memory";
    } catch (const std::exception& e) {
        last_error = e.what();
    } catch (...) {
        last_error = "internal error";
    }
    return failed;
}

struct CallError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void require(bool ok, const char* what) {
    if (!ok) throw CallError(what);
}

isoterra::Mesher mesher_named(const char* name) {
    isoterra::Mesher m = isoterra::Mesher::marching_cubes;
    if (name && !isoterra::parse_mesher(name, m))
        throw CallError("unknown mesher '" + isoterra::text_excerpt(name) + "' (" + isoterra::mesher_names(", ") + ")");
    return m;
}

int threads_or_cores(int threads) { return threads > 0 ? threads : isoterra::default_threads(); }

isoterra_field* new_field(isoterra::TerrainSource terrain, std::int64_t seed,
                          std::shared_ptr<const isoterra::ChunkDeltas> deltas = nullptr) {
    if (seed != -1) isoterra::set_terrain_seed(terrain, seed);
    auto* f = new isoterra_field;
    f->field = terrain.make_field();
    f->terrain = std::move(terrain);
    f->deltas = deltas ? std::move(deltas) : std::make_shared<const isoterra::ChunkDeltas>();
    return f;
}

}  // namespace

extern "C" {

int isoterra_abi_version(void) { return ISOTERRA_ABI_VERSION; }

const char* isoterra_last_error(void) { return last_error.c_str(); }

isoterra_field* isoterra_field_new(const char* preset_or_path, int64_t seed) {
    return guarded<isoterra_field*>(nullptr, [&] {
        require(preset_or_path, "isoterra_field_new: preset_or_path is NULL");
        return new_field(isoterra::find_terrain(preset_or_path), seed);
    });
}

isoterra_field* isoterra_field_from_text(const char* toml, const char* directory, int64_t seed) {
    return guarded<isoterra_field*>(nullptr, [&] {
        require(toml, "isoterra_field_from_text: toml is NULL");
        return new_field(isoterra::parse_terrain_source(toml, "text", directory ? directory : ""), seed);
    });
}

void isoterra_field_free(isoterra_field* field) { delete field; }

const char* isoterra_field_name(const isoterra_field* field) { return field ? field->terrain.name.c_str() : ""; }

uint32_t isoterra_field_seed(const isoterra_field* field) { return field ? field->terrain.seed : 0; }

int isoterra_field_sample(const isoterra_field* field, const double* xyz, size_t n, double* out) {
    return guarded(-1, [&] {
        require(field && (n == 0 || (xyz && out)), "isoterra_field_sample: a NULL argument");
        std::vector<glm::dvec3> points(n);
        for (size_t i = 0; i < n; ++i) {
            points[i] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
            for (int a = 0; a < 3; ++a)
                if (!(std::fabs(points[i][a]) <= isoterra::kCoordinateLimit_m))
                    throw CallError("isoterra_field_sample: point " + std::to_string(i) + " is not finite or lies past +-1e8 m");
        }
        isoterra::sample_edited(*field->field, *field->deltas, points.data(), n, out);
        return 0;
    });
}

int isoterra_field_lattice(const isoterra_field* field, const double origin[3], const int32_t size[3], double step, float* out) {
    return guarded(-1, [&] {
        require(field && origin && size && out, "isoterra_field_lattice: a NULL argument");
        require(std::isfinite(step) && step > 0.0, "isoterra_field_lattice: step must be a positive number of metres");
        isoterra::Lattice lattice;
        lattice.spacing_m = step;
        for (int a = 0; a < 3; ++a) {
            require(size[a] > 0, "isoterra_field_lattice: every size must be at least 1");
            const double cells = origin[a] / step;
            require(std::isfinite(cells) && cells == std::floor(cells),
                    "isoterra_field_lattice: the origin must be a whole multiple of step");
            require(std::fabs(origin[a]) <= isoterra::kCoordinateLimit_m &&
                        std::fabs(origin[a] + (size[a] - 1) * step) <= isoterra::kCoordinateLimit_m,
                    "isoterra_field_lattice: the lattice reaches past +-1e8 m");
            lattice.origin[a] = static_cast<std::int64_t>(cells);
            lattice.size[a] = size[a];
        }
        require(static_cast<double>(size[0]) * size[1] * size[2] <= 1e9, "isoterra_field_lattice: more than 1e9 samples");
        field->field->sample_lattice(lattice, out);
        if (!field->deltas->empty()) field->deltas->add_to(lattice, out);
        return 0;
    });
}

int isoterra_field_ground(const isoterra_field* field, const double* xz, size_t n, double* out) {
    return guarded(-1, [&] {
        require(field && (n == 0 || (xz && out)), "isoterra_field_ground: a NULL argument");
        if (!field->field->has_ground())
            throw CallError("isoterra_field_ground: this terrain has no ground height (a graph without [output] ground)");
        for (size_t i = 0; i < n; ++i) out[i] = field->field->ground_height(xz[2 * i], xz[2 * i + 1]);
        return 0;
    });
}

isoterra_mesh* isoterra_mesh_region(const isoterra_field* field, const double lo[3], const double hi[3], const char* mesher, int lod,
                                    int threads) {
    return guarded<isoterra_mesh*>(nullptr, [&] {
        require(field && lo && hi, "isoterra_mesh_region: a NULL argument");
        const isoterra::Mesher m = mesher_named(mesher);
        const auto chunks = isoterra::chunks_covering({lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, 4096, lod);
        auto result = std::make_unique<isoterra_mesh>();
        result->mesh =
            isoterra::merge_meshes(isoterra::mesh_chunks(*field->field, field->deltas.get(), chunks, m, threads_or_cores(threads)));
        return result.release();
    });
}

void isoterra_mesh_free(isoterra_mesh* mesh) { delete mesh; }
size_t isoterra_mesh_vertex_count(const isoterra_mesh* mesh) { return mesh ? mesh->mesh.vertex_count() : 0; }
size_t isoterra_mesh_triangle_count(const isoterra_mesh* mesh) { return mesh ? mesh->mesh.triangle_count() : 0; }
const float* isoterra_mesh_positions(const isoterra_mesh* mesh) {
    return mesh && !mesh->mesh.positions.empty() ? &mesh->mesh.positions[0].x : nullptr;
}
const float* isoterra_mesh_normals(const isoterra_mesh* mesh) {
    return mesh && !mesh->mesh.normals.empty() ? &mesh->mesh.normals[0].x : nullptr;
}
const uint32_t* isoterra_mesh_indices(const isoterra_mesh* mesh) { return mesh ? mesh->mesh.indices.data() : nullptr; }
const uint8_t* isoterra_mesh_materials(const isoterra_mesh* mesh) {
    if (!mesh) return nullptr;
    const_cast<isoterra_mesh*>(mesh)->make_looks();  // a cache: the mesh it describes is unchanged
    return mesh->materials.data();
}
const float* isoterra_mesh_colours(const isoterra_mesh* mesh) {
    if (!mesh) return nullptr;
    const_cast<isoterra_mesh*>(mesh)->make_looks();
    return mesh->colours.data();
}

const char* isoterra_material_name(int m) {
    return m >= 0 && m < isoterra::kMaterialCount ? isoterra::material_name(static_cast<isoterra::Material>(m)) : nullptr;
}

namespace {
const isoterra::MesherInfo* mesher_at(int i) {
    const auto& all = isoterra::meshers();
    return i >= 0 && static_cast<std::size_t>(i) < all.size() ? &all[static_cast<std::size_t>(i)] : nullptr;
}
}  // namespace

const char* isoterra_mesher_name(int i) { return mesher_at(i) ? mesher_at(i)->name : nullptr; }
const char* isoterra_mesher_label(int i) { return mesher_at(i) ? mesher_at(i)->label : nullptr; }

int isoterra_mesh_glb(const isoterra_mesh* mesh, int compress, isoterra_bytes* out) {
    return guarded(-1, [&] {
        require(mesh && out, "isoterra_mesh_glb: a NULL argument");
        out->data = nullptr, out->size = 0;
        const std::string bytes = isoterra::encode_gltf({isoterra::NamedMesh{"terrain", mesh->mesh}}, true, false, compress != 0);
        out->data = static_cast<uint8_t*>(std::malloc(bytes.size()));
        if (!out->data) throw std::bad_alloc();
        std::memcpy(out->data, bytes.data(), bytes.size());
        out->size = bytes.size();
        return 0;
    });
}

void isoterra_bytes_free(isoterra_bytes* bytes) {
    if (!bytes) return;
    std::free(bytes->data);
    bytes->data = nullptr, bytes->size = 0;
}

isoterra_world* isoterra_world_new(const isoterra_field* field, const isoterra_world_settings* settings) {
    return guarded<isoterra_world*>(nullptr, [&] {
        require(field, "isoterra_world_new: field is NULL");
        isoterra::WorldSettings s;
        if (settings) {
            if (settings->view_distance_m != 0.0) s.view_distance_m = settings->view_distance_m;
            if (settings->radius != 0) s.view_radius = settings->radius;
            s.threads = settings->threads;
            s.mesher = mesher_named(settings->mesher);
            require(settings->triangle_budget >= -1, "isoterra_world_new: triangle_budget must be -1 (no limit), 0 (6000000) or more");
            if (settings->triangle_budget != 0)
                s.triangle_budget = settings->triangle_budget < 0 ? 0 : static_cast<std::size_t>(settings->triangle_budget);
        }
        require(std::isfinite(s.view_distance_m) && s.view_distance_m >= 16.0 && s.view_distance_m <= 200000.0,
                "isoterra_world_new: view_distance_m must be from 16 to 200000");
        require(s.view_radius >= 1 && s.view_radius <= 64, "isoterra_world_new: radius must be from 1 to 64");
        require(s.threads >= 0 && s.threads <= 256, "isoterra_world_new: threads must be from 0 to 256");
        auto w = std::make_unique<isoterra_world>();
        w->world = std::make_unique<isoterra::World>(field->field, s, field->deltas);
        return w.release();
    });
}

void isoterra_world_free(isoterra_world* world) { delete world; }

int isoterra_world_set_focus(isoterra_world* world, double x, double y, double z) {
    return guarded(-1, [&] {
        require(world, "isoterra_world_set_focus: world is NULL");
        require(std::isfinite(x) && std::isfinite(y) && std::isfinite(z), "isoterra_world_set_focus: the focus is not finite");
        world->world->set_focus({x, y, z});
        return 0;
    });
}

int isoterra_world_deliver(isoterra_world* world, double budget_ms, isoterra_chunk_callback callback, void* user) {
    return guarded(-1, [&] {
        require(world && callback, "isoterra_world_deliver: a NULL argument");
        require(budget_ms >= 0.0, "isoterra_world_deliver: budget_ms must not be negative");
        const std::size_t n = world->world->deliver(budget_ms, [&](const isoterra::ChunkUpdate& u) {
            isoterra_chunk_update c{};
            c.x = u.coord.x, c.y = u.coord.y, c.z = u.coord.z, c.lod = u.coord.lod;
            c.version = u.version;
            c.dropped = u.dropped;
            c.visible = u.visible;
            if (u.dropped) world->meshes.erase(u.coord);
            if (u.mesh) world->meshes[u.coord] = *u.mesh;
            isoterra::MeshBuffers drawn;
            const auto kept = world->meshes.find(u.coord);
            if (!u.dropped && u.visible && kept != world->meshes.end()) {
                drawn = isoterra::select_for_neighbours(kept->second, u.neighbours);
                c.has_mesh = 1;
                for (int a = 0; a < 3; ++a) c.origin[a] = drawn.origin[a];
                c.vertex_count = drawn.vertex_count();
                c.index_count = drawn.indices.size();
                c.positions = drawn.positions.empty() ? nullptr : &drawn.positions[0].x;
                c.normals = drawn.normals.empty() ? nullptr : &drawn.normals[0].x;
                c.indices = drawn.indices.data();
            }
            callback(&c, user);
        });
        return static_cast<int>(n);
    });
}

int isoterra_world_settled(const isoterra_world* world) { return world && world->world->settled() ? 1 : 0; }

isoterra_editor* isoterra_editor_open(const char* path, const char* preset_or_path, int64_t seed) {
    return guarded<isoterra_editor*>(nullptr, [&] {
        require(preset_or_path, "isoterra_editor_open: preset_or_path is NULL");
        isoterra::TerrainSource wanted = isoterra::find_terrain(preset_or_path);
        if (seed != -1) isoterra::set_terrain_seed(wanted, seed);
        auto e = std::make_unique<isoterra_editor>();
        std::unique_ptr<isoterra::WorldFile> file;
        if (path) file = std::make_unique<isoterra::WorldFile>(path, &wanted);
        e->terrain = file ? file->terrain() : wanted;
        e->field = e->terrain.make_field();
        e->editor = std::make_unique<isoterra::WorldEditor>(e->field, std::move(file));
        return e.release();
    });
}

void isoterra_editor_free(isoterra_editor* editor) { delete editor; }

isoterra_field* isoterra_editor_field(const isoterra_editor* editor) {
    return guarded<isoterra_field*>(nullptr, [&] {
        require(editor, "isoterra_editor_field: editor is NULL");
        auto* f = new isoterra_field;
        f->terrain = editor->terrain;
        f->field = editor->field;
        f->deltas = std::make_shared<const isoterra::ChunkDeltas>(editor->editor->history().deltas());
        return f;
    });
}

int isoterra_editor_apply(isoterra_editor* editor, const char* brush, const char* mode, double x, double y, double z, double radius_m,
                          double strength_m) {
    return guarded(-1, [&] {
        require(editor && brush, "isoterra_editor_apply: a NULL argument");
        isoterra::EditOp op;
        if (!isoterra::parse_brush_kind(brush, op.kind))
            throw CallError("unknown brush '" + isoterra::text_excerpt(brush) + "' (sphere, smooth, flatten)");
        if (mode && !isoterra::parse_brush_mode(mode, op.mode))
            throw CallError("unknown brush mode '" + isoterra::text_excerpt(mode) + "' (carve, add)");
        op.centre = {x, y, z};
        op.radius_m = radius_m;
        if (strength_m > 0.0 || std::isnan(strength_m)) op.strength_m = strength_m;
        if (const std::string bad = isoterra::validate_edit(op); !bad.empty()) throw CallError(bad);
        editor->editor->apply(op);
        return 0;
    });
}

int isoterra_editor_undo(isoterra_editor* editor) {
    return guarded(-1, [&] {
        require(editor, "isoterra_editor_undo: editor is NULL");
        isoterra::Box changed;
        return editor->editor->undo(changed) ? 1 : 0;
    });
}

int isoterra_editor_redo(isoterra_editor* editor) {
    return guarded(-1, [&] {
        require(editor, "isoterra_editor_redo: editor is NULL");
        isoterra::Box changed;
        return editor->editor->redo(changed) ? 1 : 0;
    });
}

size_t isoterra_editor_edit_count(const isoterra_editor* editor) { return editor ? editor->editor->history().applied() : 0; }

int isoterra_field_raycast(const isoterra_field* field, const double origin[3], const double direction[3], double max_distance_m,
                           double hit[3]) {
    return guarded(-1, [&] {
        require(field && origin && direction && hit, "isoterra_field_raycast: a NULL argument");
        const glm::dvec3 o(origin[0], origin[1], origin[2]), d(direction[0], direction[1], direction[2]);
        const double length = glm::length(d);
        require(std::isfinite(length) && length > 0.0 && std::isfinite(o.x + o.y + o.z), "isoterra_field_raycast: a bad ray");
        require(std::isfinite(max_distance_m) && max_distance_m > 0.0 && max_distance_m <= 1e5,
                "isoterra_field_raycast: max_distance_m must be in (0, 100000]");
        glm::dvec3 at;
        if (!isoterra::ray_cast(*field->field, *field->deltas, o, d / length, max_distance_m, at)) return 0;
        hit[0] = at.x, hit[1] = at.y, hit[2] = at.z;
        return 1;
    });
}

}  // extern "C"
