// Draws the chunks a World hands over with OpenGL 3.3 core: a low warm sun and a cool sky
// light, grass, soil, rock, snow, sand and scree painted in the shader and projected from three sides
// (triplanar), blended by the vertex material weights, fog into a sky gradient. Levels of
// detail: each chunk draws the index ranges its neighbourhood selects, and the vertex
// shader moves vertices near coarser neighbours to their secondary positions (the same
// arithmetic as transition_position). Far precision: vertices are relative to their chunk
// and drawn relative to the eye (offsets in double on the CPU), with reversed depth in a
// float depth buffer. A chunk that appears or goes at a swap between levels fades over
// 0.3 s with a screen-space dither, so a region's two levels never pop. Water (the sea as a
// level, the chunks' water surfaces) is drawn after the ground, translucent. Needs a current
// context; consumes mesh buffers only.
#pragma once

#include <array>
#include <map>
#include <tuple>
#include <vector>

#include <glm/mat4x4.hpp>

#include "isoterra/world.hpp"

namespace isoterra::app::terrain_gl {
struct ChunkUniforms;
}

namespace isoterra::app {

struct Camera {
    glm::dvec3 eye{0.0}, target{0.0, 0.0, -1.0};
    double fov_deg = 60.0;
    double near_m = 0.5, far_m = 400.0;  // chunks beyond far are not drawn
};

struct DrawOptions {
    double fog_m = 0.0;         // the distance where fog is full; 0: no fog
    double sea_level_m = -1e9;  // translucent water at this height when above -1e8
    bool wireframe = false;
    bool level_colours = false;  // tint each chunk by its level (a debug view)
    double time_s = 1e9;         // the clock of the fades (the default: every fade is over)
};

class TerrainRenderer {
public:
    /// Compiles the shaders; throws Failure with the compiler's first line on error.
    TerrainRenderer();
    ~TerrainRenderer();
    TerrainRenderer(const TerrainRenderer&) = delete;
    TerrainRenderer& operator=(const TerrainRenderer&) = delete;

    /// Takes one update from World::deliver at `time_s` (for the fades): uploads a new mesh,
    /// shows or hides a chunk, changes its neighbourhood, or frees a dropped one.
    void apply(const ChunkUpdate& update, double time_s = 0.0);
    /// Clears to the sky and draws the chunks in view. Returns the triangles drawn.
    std::size_t draw(const Camera& camera, int width, int height, const DrawOptions& options);
    /// Chunks and triangles of the visible chunks, whether in view or not.
    std::size_t chunk_count() const;
    std::size_t triangle_count() const;
    /// True when the context has clip control, for reversed depth.
    bool reversed_depth() const { return reversed_depth_; }

private:
    struct GpuMesh {
        unsigned vao = 0, vbo = 0, ibo = 0;
        glm::dvec3 origin{0.0};
        glm::vec3 lo{0.0f}, hi{0.0f};  // bounds of the positions, relative to origin
        CompactScale scale;            // how its compact vertices decode
        std::vector<IndexRange> ranges;
        std::uint32_t index_count = 0;
        bool visible = false;
        Neighbourhood neighbours;
        std::vector<int> counts;  // the ranges the neighbourhood selects, merged
        std::vector<const void*> offsets;
        std::size_t triangles = 0;
        double fade_start = -1e9;  // when it last started to appear (visible) or go
        bool dropped = false;      // freed once it has faded out
        // Its water surface, drawn after all ground, translucent (none: water_vao 0).
        unsigned water_vao = 0, water_vbo = 0, water_ibo = 0;
        std::uint32_t water_count = 0;
        glm::dvec3 water_origin{0.0};
        glm::vec3 water_lo{0.0f}, water_hi{0.0f};
        CompactScale water_scale;
    };
    using Planes = std::array<glm::vec4, 6>;
    static void select_ranges(GpuMesh& m);
    void free(GpuMesh& m);
    void collect_faded(double time_s);
    // The ground chunks in view, nearest first; returns the triangles drawn.
    std::size_t draw_ground(const terrain_gl::ChunkUniforms& at, const Planes& planes, const Camera& camera, const DrawOptions& o);
    // The sea and the chunks' water surfaces, after the ground.
    void draw_water(const terrain_gl::ChunkUniforms& at, const Planes& planes, const Camera& camera, const DrawOptions& o);

    unsigned program_ = 0, sky_program_ = 0;
    unsigned water_vao_ = 0, water_vbo_ = 0, empty_vao_ = 0;
    bool reversed_depth_ = false;
    std::map<std::tuple<int, int, int, int>, GpuMesh> chunks_;  // sorted: ties in the draw order broken the same way every time
    // A frame's ground chunks in view, by the squared distance from the eye to their boxes.
    struct DrawItem {
        float distance2;
        int level;
        GpuMesh* mesh;
    };
    std::vector<DrawItem> draw_order_;
};

}  // namespace isoterra::app
