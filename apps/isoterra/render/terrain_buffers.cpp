// The terrain renderer's vertex layout and buffers: a chunk's mesh (or water surface)
// uploaded as interleaved vertices with six material weights in bytes and 32-bit indices, and
// the sea's square streamed each frame in the same layout.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <epoxy/gl.h>

#include "terrain_renderer_parts.hpp"

namespace isoterra::app::terrain_gl {
namespace {

// Interleaved vertex: position, normal, secondary offset (floats), material weights (six
// bytes: grass, soil, rock, snow, then sand and scree; two of padding), side flags (an int).
struct Vertex {
    float position[3], normal[3], secondary[3];
    std::uint8_t material[8];
    std::int32_t flags;
};

// Points the bound vertex array's attributes at the bound buffer of Vertex: the position and
// normal, and with `materials` the rest (weights, secondary offset, side flags).
void describe_vertices(bool materials) {
    const auto at = [](std::size_t offset) { return reinterpret_cast<const void*>(offset); };
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), at(offsetof(Vertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), at(offsetof(Vertex, normal)));
    if (!materials) return;
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), at(offsetof(Vertex, material)));
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), at(offsetof(Vertex, secondary)));
    glEnableVertexAttribArray(4);
    glVertexAttribIPointer(4, 1, GL_INT, sizeof(Vertex), at(offsetof(Vertex, flags)));
    glEnableVertexAttribArray(5);
    glVertexAttribPointer(5, 2, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), at(offsetof(Vertex, material) + 4));
}

}  // namespace

void upload(const MeshBuffers& m, unsigned& vao, unsigned& vbo, unsigned& ibo, glm::vec3& lo, glm::vec3& hi) {
    lo = hi = m.positions.empty() ? glm::vec3(0.0f) : m.positions[0];
    std::vector<Vertex> vertices(m.vertex_count());
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        Vertex& out = vertices[v];
        const glm::vec3 p = m.positions[v], n = m.normals[v];
        lo = glm::min(lo, p), hi = glm::max(hi, p);
        const glm::vec3 s = m.secondary.empty() ? glm::vec3(0.0f) : m.secondary[v];
        for (int a = 0; a < 3; ++a) out.position[a] = p[a], out.normal[a] = n[a], out.secondary[a] = s[a];
        float w[kMaterialCount] = {};
        w[static_cast<int>(m.materials[v].primary)] += 1.0f - m.materials[v].blend;
        w[static_cast<int>(m.materials[v].secondary)] += m.materials[v].blend;
        for (int c = 0; c < kMaterialCount; ++c)
            out.material[c] = static_cast<std::uint8_t>(std::lround(std::clamp(w[c], 0.0f, 1.0f) * 255.0f));
        out.flags = m.side_flags.empty() ? 0 : m.side_flags[v];
    }
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(Vertex)), vertices.data(), GL_STATIC_DRAW);
    glGenBuffers(1, &ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.indices.size() * 4), m.indices.data(), GL_STATIC_DRAW);
    describe_vertices(true);
    glBindVertexArray(0);
}

void draw_sea_square(unsigned vao, unsigned vbo, float r, float y) {
    Vertex quad[6] = {};
    const float corners[6][2] = {{-r, -r}, {-r, r}, {r, r}, {-r, -r}, {r, r}, {r, -r}};
    for (int v = 0; v < 6; ++v) {
        quad[v].position[0] = corners[v][0], quad[v].position[1] = y, quad[v].position[2] = corners[v][1];
        quad[v].normal[1] = 1.0f;
    }
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
    describe_vertices(false);
    glDrawArrays(GL_TRIANGLES, 0, 6);
}

}  // namespace isoterra::app::terrain_gl
