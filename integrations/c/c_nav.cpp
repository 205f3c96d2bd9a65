// The C API's navigation meshes (include/isoterra/isoterra.h): nav/'s NavMesh over a field
// and its edits, and paths across it. A query uses the mesh's one Detour query object, so
// calls on a navmesh take its lock.
#include <cstdlib>
#include <cstring>

#include "c_border.hpp"
#include "isoterra/base.hpp"
#include "isoterra/nav.hpp"

using isoterra::c_api::CallError;
using isoterra::c_api::clear_error;
using isoterra::c_api::guarded;
using isoterra::c_api::keep_error;
using isoterra::c_api::require;
using isoterra::c_api::serialised;

struct isoterra_navmesh {
    mutable std::mutex serial;
    std::unique_ptr<isoterra::NavMesh> mesh;
};

namespace {

isoterra::AgentSettings agent_from(const isoterra_agent* a) {
    isoterra::AgentSettings agent;
    if (a) agent = {a->height_m, a->radius_m, a->max_climb_m, a->max_slope_deg, a->cell_size_m, a->cell_height_m};
    if (const std::string problem = isoterra::validate_agent(agent); !problem.empty()) throw CallError("agent: " + problem);
    return agent;
}

}  // namespace

extern "C" {

void isoterra_agent_defaults(isoterra_agent* agent) {
    clear_error();
    if (!agent) return;
    const isoterra::AgentSettings d;
    *agent = {d.height_m, d.radius_m, d.max_climb_m, d.max_slope_deg, d.cell_size_m, d.cell_height_m};
}

isoterra_navmesh* isoterra_navmesh_new(const isoterra_field* field, const double lo[2], const double hi[2], const isoterra_agent* agent,
                                       int threads) {
    return guarded<isoterra_navmesh*>(nullptr, [&] {
        require(field && lo && hi, "isoterra_navmesh_new: a NULL argument");
        for (int a = 0; a < 2; ++a) {
            isoterra::check_coordinate(lo[a], "isoterra_navmesh_new: lo");
            isoterra::check_coordinate(hi[a], "isoterra_navmesh_new: hi");
        }
        require(threads >= 0, "isoterra_navmesh_new: threads must not be negative (0: every core)");
        const isoterra::AgentSettings settings = agent_from(agent);
        const isoterra::TileRange range = isoterra::nav_tiles_covering({lo[0], lo[1]}, {hi[0], hi[1]});
        auto out = std::make_unique<isoterra_navmesh>();
        out->mesh = std::make_unique<isoterra::NavMesh>(field->field, field->deltas, settings, range,
                                                        threads > 0 ? threads : isoterra::default_threads());
        return out.release();
    });
}

void isoterra_navmesh_free(isoterra_navmesh* navmesh) {
    clear_error();
    delete navmesh;
}

int isoterra_navmesh_path(isoterra_navmesh* navmesh, const double from[3], const double to[3], isoterra_path* out) {
    if (out) *out = isoterra_path{nullptr, 0, 0.0};  // a failure leaves nothing to free
    return serialised(navmesh, "isoterra_navmesh_path", -1, [&] {
        require(from && to && out, "isoterra_navmesh_path: a NULL argument");
        const glm::dvec3 a{from[0], from[1], from[2]}, b{to[0], to[1], to[2]};
        isoterra::check_point(a, "isoterra_navmesh_path: from");
        isoterra::check_point(b, "isoterra_navmesh_path: to");
        isoterra::NavPath path;
        try {
            path = navmesh->mesh->path(a, b);
        } catch (const isoterra::NoPathError& e) {
            keep_error(e.what());
            return ISOTERRA_NO_PATH;
        }
        auto* points = static_cast<double*>(std::malloc(3 * sizeof(double) * path.points.size()));
        if (!points && !path.points.empty()) throw std::bad_alloc();
        for (std::size_t i = 0; i < path.points.size(); ++i) std::memcpy(points + 3 * i, &path.points[i][0], 3 * sizeof(double));
        *out = isoterra_path{points, path.points.size(), path.length_m};
        return 0;
    });
}

void isoterra_path_free(isoterra_path* path) {
    clear_error();
    if (!path) return;
    std::free(path->points);
    *path = isoterra_path{nullptr, 0, 0.0};
}

}  // extern "C"
