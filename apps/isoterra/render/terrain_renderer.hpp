// Draws chunk meshes with OpenGL 3.3 core: a low warm sun and a cool sky light, grass,
// soil, rock and snow painted in the shader and projected from three sides (triplanar),
// blended by the vertex material weights, and linear fog into the sky colour. Needs a
// current context; consumes mesh buffers only.
#pragma once

#include <map>
#include <tuple>

#include <glm/mat4x4.hpp>

#include "isoterra/world.hpp"

namespace isoterra::app {

struct Camera {
    glm::dvec3 eye{0.0}, target{0.0, 0.0, -1.0};
    double fov_deg = 60.0;
    double near_m = 0.5, far_m = 400.0;
};

class TerrainRenderer {
public:
    /// Compiles the shaders; throws Failure with the compiler's first line on error.
    TerrainRenderer();
    ~TerrainRenderer();
    TerrainRenderer(const TerrainRenderer&) = delete;
    TerrainRenderer& operator=(const TerrainRenderer&) = delete;

    /// Uploads a chunk's new mesh (replacing the old one) or frees a dropped one.
    void apply(const ChunkUpdate& update);
    /// Clears to the sky and draws every chunk; fog ends at `fog_end_m`. A preset with a sea
    /// (`sea_level_m` above -1e8) gets translucent water at that height.
    void draw(const Camera& camera, int width, int height, double fog_end_m, double sea_level_m = -1e9,
              bool wireframe = false) const;
    std::size_t chunk_count() const { return chunks_.size(); }
    std::size_t triangle_count() const;

private:
    struct GpuMesh {
        unsigned vao = 0, vbo = 0, ibo = 0;
        int indices = 0;
    };
    void free(GpuMesh& m);

    unsigned program_ = 0;
    unsigned water_vao_ = 0, water_vbo_ = 0;  // one quad, placed around the eye each frame
    std::map<std::tuple<int, int, int>, GpuMesh> chunks_;  // sorted: the same draw order every time
};

}  // namespace isoterra::app
