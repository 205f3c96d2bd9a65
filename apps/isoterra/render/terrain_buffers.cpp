// The terrain renderer's vertex layout and buffers: a chunk's mesh (or water surface)
// uploaded as 16-byte compact vertices (CompactVertex, src/mesh/compact_vertex.cpp) and 32-bit
// indices, and the sea's square streamed each frame in the same layout.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <epoxy/gl.h>
#include <glm/common.hpp>

#include "terrain_renderer_parts.hpp"

namespace isoterra::app::terrain_gl {
namespace {

// Points the bound vertex array's attributes at the bound buffer of CompactVertex: every
// field is read as integers and decoded in the vertex shader.
void describe_vertices() {
    const auto at = [](std::size_t offset) { return reinterpret_cast<const void*>(offset); };
    constexpr GLsizei stride = sizeof(CompactVertex);
    glEnableVertexAttribArray(0);
    glVertexAttribIPointer(0, 3, GL_UNSIGNED_SHORT, stride, at(offsetof(CompactVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribIPointer(1, 2, GL_SHORT, stride, at(offsetof(CompactVertex, normal)));
    glEnableVertexAttribArray(2);
    glVertexAttribIPointer(2, 1, GL_UNSIGNED_SHORT, stride, at(offsetof(CompactVertex, blend_z)));
    glEnableVertexAttribArray(3);
    glVertexAttribIPointer(3, 1, GL_UNSIGNED_INT, stride, at(offsetof(CompactVertex, bits)));
}

}  // namespace

CompactScale upload(const MeshBuffers& m, double spacing_m, unsigned& vao, unsigned& vbo, unsigned& ibo, glm::vec3& lo, glm::vec3& hi) {
    std::vector<CompactVertex> vertices;
    const CompactScale scale = compact_vertices(m, spacing_m, vertices);
    lo = hi = m.positions.empty() ? glm::vec3(0.0f) : m.positions[0];
    for (const glm::vec3& p : m.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    // Drawn positions lie within a grid step (two for on-face vertices) of the mesh's.
    lo -= 2.0f * scale.step, hi += 2.0f * scale.step;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(CompactVertex)), vertices.data(), GL_STATIC_DRAW);
    glGenBuffers(1, &ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.indices.size() * 4), m.indices.data(), GL_STATIC_DRAW);
    describe_vertices();
    glBindVertexArray(0);
    return scale;
}

void draw_sea_square(const ChunkUniforms& at, unsigned vao, unsigned vbo, float r, float y) {
    // Two triangles whose corners are the grid's ends: -r and r across, y up.
    CompactVertex quad[6] = {};
    const int corners[6][2] = {{0, 0}, {0, 1}, {1, 1}, {0, 0}, {1, 1}, {1, 0}};
    const std::array<std::int16_t, 2> up = octahedral_encode(glm::vec3(0.0f, 1.0f, 0.0f));
    for (int v = 0; v < 6; ++v) {
        quad[v].position[0] = static_cast<std::uint16_t>(corners[v][0] * 65535);
        quad[v].position[2] = static_cast<std::uint16_t>(corners[v][1] * 65535);
        quad[v].normal[0] = up[0], quad[v].normal[1] = up[1];
    }
    CompactScale scale;
    scale.offset = glm::vec3(-r, y, -r);
    scale.step = glm::vec3(2.0f * r / 65535.0f, 1.0f, 2.0f * r / 65535.0f);
    set_scale(at, scale);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
    describe_vertices();
    glDrawArrays(GL_TRIANGLES, 0, 6);
}

void set_scale(const ChunkUniforms& at, const CompactScale& s) {
    glUniform3f(at.position_offset, s.offset.x, s.offset.y, s.offset.z);
    glUniform3f(at.position_step, s.step.x, s.step.y, s.step.z);
    glUniform1f(at.secondary_step, s.secondary_step);
}

}  // namespace isoterra::app::terrain_gl
