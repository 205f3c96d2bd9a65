// The terrain renderer's parts (internal to render/): the shader programs and their uniforms
// (terrain_shaders.cpp), the compact vertex layout and the buffers a chunk's mesh and the sea are
// uploaded to (terrain_buffers.cpp), a frame's passes as GL state with the eye-relative
// projection and the frustum culling tests boxes against (terrain_passes.cpp). TerrainRenderer
// (terrain_renderer.cpp) keeps the chunks and draws a frame with them. All but the frustum
// need a current context.
#pragma once

#include <array>

#include <epoxy/gl.h>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "isoterra/mesh.hpp"
#include "terrain_renderer.hpp"

namespace isoterra::app::terrain_gl {

/// Compiles and links the terrain's program (terrain_shading.glsl with this renderer's sea,
/// level tints and cross-fades), or the sky's; throws Failure with the compiler's first line.
unsigned link_terrain_program();
unsigned link_sky_program();

/// Where the terrain program's per-chunk uniforms are.
struct ChunkUniforms {
    GLint chunk_offset, texture_offset, coarser_mask, level_tint, fade, fade_alpha, water, position_offset, position_step, secondary_step;
};
/// Makes the terrain program current with a frame's uniforms (the eye at the origin); returns
/// where the per-chunk ones are.
ChunkUniforms use_terrain_program(unsigned program, const glm::mat4& view_projection, const glm::vec3& sky, const glm::vec3& sun,
                                  double fog_m);
/// Draws the sky, one triangle over the screen, without depth.
void draw_sky(unsigned sky_program, unsigned empty_vao, const glm::mat4& inverse_view_projection, const glm::vec3& sky,
              const glm::vec3& sun);

/// Uploads `m`, a chunk's mesh at `spacing_m`, as compact vertices (16 bytes) and 32-bit
/// indices into a new vertex array; returns the scale they decode with (set_scale), and the
/// bounds of what is drawn (relative to its origin) in lo, hi.
CompactScale upload(const MeshBuffers& m, double spacing_m, unsigned& vao, unsigned& vbo, unsigned& ibo, glm::vec3& lo, glm::vec3& hi);
/// Sets the terrain program's uniforms that decode a mesh's compact vertices.
void set_scale(const ChunkUniforms& at, const CompactScale& scale);
/// Draws a square of sea at `y` (relative to the eye) reaching `r` from the eye, through the
/// current program (its scale set here), with the vertex array and buffer given for it.
void draw_sea_square(const ChunkUniforms& at, unsigned vao, unsigned vbo, float r, float y);

/// The projection of `camera` (its eye at the origin): reversed depth with the far plane at
/// infinity when `reversed_depth`, else a finite one; the depth test and clear set to match.
glm::mat4 begin_projection(const Camera& camera, float aspect, bool reversed_depth);
/// The ground's pass: depth test, back faces culled, filled or `wireframe`.
void begin_ground_pass(bool wireframe);
/// The water's pass after the ground: the terrain program drawing water, untinted and not
/// fading, blended, writing no depth.
void begin_water_pass(const ChunkUniforms& at);
/// The state the UI expects back after a frame.
void end_frame(const ChunkUniforms& at, bool reversed_depth);
/// The planes of the finite frustum of `camera` seen through `view` (eye-relative).
std::array<glm::vec4, 6> frustum_planes(const Camera& camera, float aspect, const glm::mat4& view);
/// Whether the box lo..hi (eye-relative) lies wholly outside one of the frustum's planes.
bool outside(const std::array<glm::vec4, 6>& planes, const glm::vec3& lo, const glm::vec3& hi);

}  // namespace isoterra::app::terrain_gl
