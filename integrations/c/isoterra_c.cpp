// The C API's fields and meshes (include/isoterra/isoterra.h): handles over the library's
// immutable objects, which any number of threads may use at once.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <glm/geometric.hpp>

#include "c_border.hpp"
#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"

using isoterra::c_api::CallError;
using isoterra::c_api::clear_error;
using isoterra::c_api::guarded;
using isoterra::c_api::require;

void isoterra_mesh::make_looks() {
    // Made on first use: most callers want positions and faces only.
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

namespace {

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

void isoterra_field_free(isoterra_field* field) {
    clear_error();
    delete field;
}

const char* isoterra_field_name(const isoterra_field* field) {
    clear_error();
    return field ? field->terrain.name.c_str() : "";
}

uint32_t isoterra_field_seed(const isoterra_field* field) {
    clear_error();
    return field ? field->terrain.seed : 0;
}

int isoterra_field_sample(const isoterra_field* field, const double* xyz, size_t n, double* out) {
    return guarded(-1, [&] {
        require(field && (n == 0 || (xyz && out)), "isoterra_field_sample: a NULL argument");
        std::vector<glm::dvec3> points(n);
        for (size_t i = 0; i < n; ++i) {
            points[i] = {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
            isoterra::check_point(points[i], "isoterra_field_sample: point " + std::to_string(i));
        }
        isoterra::sample_edited(*field->field, *field->deltas, points.data(), n, out);
        return 0;
    });
}

int isoterra_field_lattice(const isoterra_field* field, const double origin[3], const int32_t size[3], double step, float* out) {
    return guarded(-1, [&] {
        require(field && origin && size && out, "isoterra_field_lattice: a NULL argument");
        const isoterra::Lattice lattice =
            isoterra::lattice_at({origin[0], origin[1], origin[2]}, {size[0], size[1], size[2]}, step, "isoterra_field_lattice");
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
        for (size_t i = 0; i < n; ++i) {
            isoterra::check_point({xz[2 * i], 0.0, xz[2 * i + 1]}, "isoterra_field_ground: point " + std::to_string(i));
            out[i] = field->field->ground_height(xz[2 * i], xz[2 * i + 1]);
        }
        return 0;
    });
}

isoterra_mesh* isoterra_mesh_region(const isoterra_field* field, const double lo[3], const double hi[3], const char* mesher, int lod,
                                    int threads) {
    return guarded<isoterra_mesh*>(nullptr, [&] {
        require(field && lo && hi, "isoterra_mesh_region: a NULL argument");
        const isoterra::Mesher m = isoterra::c_api::mesher_named(mesher);
        const auto chunks = isoterra::chunks_covering({lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, 4096, lod);
        auto result = std::make_unique<isoterra_mesh>();
        result->mesh =
            isoterra::merge_meshes(isoterra::mesh_chunks(*field->field, field->deltas.get(), chunks, m, threads_or_cores(threads)));
        return result.release();
    });
}

void isoterra_mesh_free(isoterra_mesh* mesh) {
    clear_error();
    delete mesh;
}
size_t isoterra_mesh_vertex_count(const isoterra_mesh* mesh) {
    clear_error();
    return mesh ? mesh->mesh.vertex_count() : 0;
}
size_t isoterra_mesh_triangle_count(const isoterra_mesh* mesh) {
    clear_error();
    return mesh ? mesh->mesh.triangle_count() : 0;
}
const float* isoterra_mesh_positions(const isoterra_mesh* mesh) {
    clear_error();
    return mesh && !mesh->mesh.positions.empty() ? &mesh->mesh.positions[0].x : nullptr;
}
const float* isoterra_mesh_normals(const isoterra_mesh* mesh) {
    clear_error();
    return mesh && !mesh->mesh.normals.empty() ? &mesh->mesh.normals[0].x : nullptr;
}
const uint32_t* isoterra_mesh_indices(const isoterra_mesh* mesh) {
    clear_error();
    return mesh ? mesh->mesh.indices.data() : nullptr;
}
const uint8_t* isoterra_mesh_materials(const isoterra_mesh* mesh) {
    clear_error();
    if (!mesh) return nullptr;
    const_cast<isoterra_mesh*>(mesh)->make_looks();  // a cache: the mesh it describes is unchanged
    return mesh->materials.data();
}
const float* isoterra_mesh_colours(const isoterra_mesh* mesh) {
    clear_error();
    if (!mesh) return nullptr;
    const_cast<isoterra_mesh*>(mesh)->make_looks();
    return mesh->colours.data();
}

const char* isoterra_material_name(int m) {
    clear_error();
    return m >= 0 && m < isoterra::kMaterialCount ? isoterra::material_name(static_cast<isoterra::Material>(m)) : nullptr;
}

namespace {
const isoterra::MesherInfo* mesher_at(int i) {
    clear_error();
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
    clear_error();
    if (!bytes) return;
    std::free(bytes->data);
    bytes->data = nullptr, bytes->size = 0;
}

int isoterra_field_raycast(const isoterra_field* field, const double origin[3], const double direction[3], double max_distance_m,
                           double hit[3]) {
    return guarded(-1, [&] {
        require(field && origin && direction && hit, "isoterra_field_raycast: a NULL argument");
        const glm::dvec3 o(origin[0], origin[1], origin[2]), d(direction[0], direction[1], direction[2]);
        const double length = glm::length(d);
        isoterra::check_point(o, "isoterra_field_raycast: origin");
        require(std::isfinite(length) && length > 0.0, "isoterra_field_raycast: a bad ray");
        require(std::isfinite(max_distance_m) && max_distance_m > 0.0 && max_distance_m <= 1e5,
                "isoterra_field_raycast: max_distance_m must be in (0, 100000]");
        glm::dvec3 at;
        if (!isoterra::ray_cast(*field->field, *field->deltas, o, d / length, max_distance_m, at)) return 0;
        hit[0] = at.x, hit[1] = at.y, hit[2] = at.z;
        return 1;
    });
}

}  // extern "C"
