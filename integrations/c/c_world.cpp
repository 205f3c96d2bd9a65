// The C API's streaming World (include/isoterra/isoterra.h): its calls take the handle's
// lock (c_border.hpp), so threads may share one World and take turns.
#include <cmath>

#include "c_border.hpp"

using isoterra::c_api::guarded;
using isoterra::c_api::require;
using isoterra::c_api::serialised;

extern "C" {

isoterra_world* isoterra_world_new(const isoterra_field* field, const isoterra_world_settings* settings) {
    return guarded<isoterra_world*>(nullptr, [&] {
        require(field, "isoterra_world_new: field is NULL");
        isoterra::WorldSettings s;
        if (settings) {
            if (settings->view_distance_m != 0.0) s.view_distance_m = settings->view_distance_m;
            if (settings->radius != 0) s.view_radius = settings->radius;
            s.threads = settings->threads;
            s.mesher = isoterra::c_api::mesher_named(settings->mesher);
            require(settings->triangle_budget >= -1, "isoterra_world_new: triangle_budget must be -1 (no limit), 0 (6000000) or more");
            if (settings->triangle_budget != 0)
                s.triangle_budget = settings->triangle_budget < 0 ? 0 : static_cast<std::size_t>(settings->triangle_budget);
        }
        require(std::isfinite(s.view_distance_m) && s.view_distance_m >= 16.0 && s.view_distance_m <= 200000.0,
                "isoterra_world_new: view_distance_m must be from 16 to 200000");
        require(s.view_radius >= 1 && s.view_radius <= 64, "isoterra_world_new: radius must be from 1 to 64");
        require(s.threads >= 0 && s.threads <= 256, "isoterra_world_new: threads must be from 0 to 256");
        // The World's meshes and this handle's copy of each (drawn again as neighbours change).
        isoterra::check_view_plan(s, 2.0, "isoterra_world_new");
        auto w = std::make_unique<isoterra_world>();
        w->world = std::make_unique<isoterra::World>(field->field, s, field->deltas);
        return w.release();
    });
}

void isoterra_world_free(isoterra_world* world) {
    isoterra::c_api::clear_error();
    delete world;
}

int isoterra_world_set_focus(isoterra_world* world, double x, double y, double z) {
    return serialised(world, "isoterra_world_set_focus", -1, [&] {
        require(std::isfinite(x) && std::isfinite(y) && std::isfinite(z), "isoterra_world_set_focus: the focus is not finite");
        world->world->set_focus({x, y, z});
        return 0;
    });
}

int isoterra_world_deliver(isoterra_world* world, double budget_ms, isoterra_chunk_callback callback, void* user) {
    return serialised(world, "isoterra_world_deliver", -1, [&] {
        require(callback, "isoterra_world_deliver: callback is NULL");
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

// Without the lock: World::settled() is thread-safe, and a frame may ask while another
// thread delivers.
int isoterra_world_settled(const isoterra_world* world) {
    isoterra::c_api::clear_error();
    return world && world->world->settled() ? 1 : 0;
}

}  // extern "C"
