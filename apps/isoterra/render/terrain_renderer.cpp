#include "terrain_renderer.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <epoxy/gl.h>
#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "../cli.hpp"

namespace isoterra::app {
namespace {

const char* kVertexShader = R"(#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 material;  // weights of grass, soil, rock, snow
uniform mat4 view_projection;
out vec3 v_position;
out vec3 v_normal;
out vec4 v_material;
void main() {
    v_position = position;
    v_normal = normal;
    v_material = material;
    gl_Position = view_projection * vec4(position, 1.0);
}
)";

// Each material is a base colour with detail noise in its own scale, sampled on the three
// axis planes and blended by the normal (triplanar), so steep faces are not stretched.
const char* kFragmentShader = R"(#version 330 core
in vec3 v_position;
in vec3 v_normal;
in vec4 v_material;
uniform vec3 eye;
uniform vec3 sky_colour;
uniform vec3 sun_direction;   // towards the sun
uniform float fog_start;
uniform float fog_end;
uniform int water;            // 1 while drawing the sea
out vec4 colour;

float hash(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }
float value_noise(vec2 p) {
    vec2 i = floor(p), f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    return mix(mix(hash(i), hash(i + vec2(1, 0)), u.x), mix(hash(i + vec2(0, 1)), hash(i + vec2(1, 1)), u.x), u.y);
}
float detail(vec2 p) { return 0.6 * value_noise(p) + 0.4 * value_noise(p * 3.7); }

vec3 paint(int id, vec2 p) {
    if (id == 0) return mix(vec3(0.22, 0.42, 0.14), vec3(0.36, 0.55, 0.20), detail(p * 0.7));  // grass
    if (id == 1) return mix(vec3(0.36, 0.25, 0.16), vec3(0.50, 0.37, 0.24), detail(p * 1.3));  // soil
    if (id == 2) return mix(vec3(0.38, 0.37, 0.36), vec3(0.60, 0.58, 0.55), detail(p * 0.4));  // rock
    return mix(vec3(0.86, 0.89, 0.95), vec3(0.98, 0.99, 1.0), detail(p * 0.9));              // snow
}

vec3 triplanar(int id, vec3 p, vec3 n) {
    vec3 w = pow(abs(n), vec3(4.0));
    w /= (w.x + w.y + w.z);
    return paint(id, p.yz) * w.x + paint(id, p.xz) * w.y + paint(id, p.xy) * w.z;
}

void main() {
    vec3 n = normalize(v_normal);
    float fog = clamp((distance(v_position, eye) - fog_start) / (fog_end - fog_start), 0.0, 1.0);
    if (water == 1) {
        // Deeper blue looking down, paler at a glancing angle, and a glint of the sun.
        vec3 view = normalize(eye - v_position);
        float facing = clamp(view.y, 0.0, 1.0);
        vec3 sea = mix(vec3(0.55, 0.68, 0.80), vec3(0.10, 0.28, 0.45), facing);
        float glint = pow(max(dot(reflect(-sun_direction, vec3(0, 1, 0)), view), 0.0), 64.0);
        colour = vec4(mix(sea + glint * vec3(1.0, 0.9, 0.7), sky_colour, fog), mix(0.85, 0.6, facing));
        return;
    }
    // Weights, not material numbers, are interpolated: a number halfway between grass (0)
    // and rock (2) would paint a seam of soil (1).
    vec3 albedo = triplanar(0, v_position, n) * v_material.x + triplanar(1, v_position, n) * v_material.y +
                  triplanar(2, v_position, n) * v_material.z + triplanar(3, v_position, n) * v_material.w;
    float sun = max(dot(n, sun_direction), 0.0);
    vec3 sky_light = mix(vec3(0.23, 0.20, 0.30), vec3(0.55, 0.60, 0.75), n.y * 0.5 + 0.5);
    vec3 lit = albedo * (sky_light * 0.8 + vec3(1.0, 0.85, 0.66) * sun * 1.1);
    colour = vec4(mix(lit, sky_colour, fog), 1.0);
}
)";

unsigned compile(unsigned kind, const char* source) {
    const unsigned shader = glCreateShader(kind);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    int ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        std::string first(log);
        throw Failure("render: shader does not compile: " + first.substr(0, first.find('\n')));
    }
    return shader;
}

}  // namespace

TerrainRenderer::TerrainRenderer() {
    const unsigned vs = compile(GL_VERTEX_SHADER, kVertexShader), fs = compile(GL_FRAGMENT_SHADER, kFragmentShader);
    program_ = glCreateProgram();
    glAttachShader(program_, vs);
    glAttachShader(program_, fs);
    glLinkProgram(program_);
    glDeleteShader(vs);
    glDeleteShader(fs);
    int ok = 0;
    glGetProgramiv(program_, GL_LINK_STATUS, &ok);
    if (!ok) throw Failure("render: shader program does not link");
    glGenVertexArrays(1, &water_vao_);
    glGenBuffers(1, &water_vbo_);
}

TerrainRenderer::~TerrainRenderer() {
    for (auto& [k, m] : chunks_) free(m);
    glDeleteVertexArrays(1, &water_vao_);
    glDeleteBuffers(1, &water_vbo_);
    if (program_) glDeleteProgram(program_);
}

void TerrainRenderer::free(GpuMesh& m) {
    glDeleteVertexArrays(1, &m.vao);
    glDeleteBuffers(1, &m.vbo);
    glDeleteBuffers(1, &m.ibo);
    m = {};
}

void TerrainRenderer::apply(const ChunkUpdate& u) {
    const auto key = std::make_tuple(u.coord.x, u.coord.y, u.coord.z);
    auto it = chunks_.find(key);
    if (it != chunks_.end()) {
        free(it->second);
        chunks_.erase(it);
    }
    if (u.dropped || !u.mesh || u.mesh->triangle_count() == 0) return;
    const MeshBuffers& m = *u.mesh;
    // Interleaved: position, normal, the four material weights.
    constexpr int kStride = 10;
    std::vector<float> vertices;
    vertices.reserve(m.vertex_count() * kStride);
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        const glm::vec3 p(m.world_position(v)), n = m.normals[v];
        float w[kMaterialCount] = {};
        w[static_cast<int>(m.materials[v].primary)] += 1.0f - m.materials[v].blend;
        w[static_cast<int>(m.materials[v].secondary)] += m.materials[v].blend;
        vertices.insert(vertices.end(), {p.x, p.y, p.z, n.x, n.y, n.z, w[0], w[1], w[2], w[3]});
    }
    GpuMesh g;
    glGenVertexArrays(1, &g.vao);
    glBindVertexArray(g.vao);
    glGenBuffers(1, &g.vbo);
    glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)), vertices.data(), GL_STATIC_DRAW);
    glGenBuffers(1, &g.ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(m.indices.size() * 4), m.indices.data(), GL_STATIC_DRAW);
    for (int a = 0; a < 3; ++a) {
        glEnableVertexAttribArray(a);
        glVertexAttribPointer(a, a == 2 ? 4 : 3, GL_FLOAT, GL_FALSE, kStride * sizeof(float),
                              reinterpret_cast<const void*>(a * 3 * sizeof(float)));
    }
    glBindVertexArray(0);
    g.indices = static_cast<int>(m.indices.size());
    chunks_.emplace(key, g);
}

std::size_t TerrainRenderer::triangle_count() const {
    std::size_t n = 0;
    for (const auto& [k, m] : chunks_) n += m.indices / 3;
    return n;
}

void TerrainRenderer::draw(const Camera& camera, int width, int height, double fog_end_m, double sea_level_m,
                           bool wireframe) const {
    const glm::vec3 sky(0.56f, 0.66f, 0.80f);
    glClearColor(sky.r, sky.g, sky.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glPolygonMode(GL_FRONT_AND_BACK, wireframe ? GL_LINE : GL_FILL);
    // Camera-relative would be needed far from the origin; positions stay float world metres.
    const glm::mat4 projection = glm::perspective(glm::radians(static_cast<float>(camera.fov_deg)),
                                                  static_cast<float>(width) / height, static_cast<float>(camera.near_m),
                                                  static_cast<float>(camera.far_m));
    const glm::mat4 view = glm::lookAt(glm::vec3(camera.eye), glm::vec3(camera.target), glm::vec3(0, 1, 0));
    const glm::mat4 vp = projection * view;
    glUseProgram(program_);
    glUniformMatrix4fv(glGetUniformLocation(program_, "view_projection"), 1, GL_FALSE, glm::value_ptr(vp));
    glUniform3f(glGetUniformLocation(program_, "eye"), static_cast<float>(camera.eye.x), static_cast<float>(camera.eye.y),
                static_cast<float>(camera.eye.z));
    glUniform3f(glGetUniformLocation(program_, "sky_colour"), sky.r, sky.g, sky.b);
    const glm::vec3 sun = glm::normalize(glm::vec3(-0.5f, 0.45f, 0.55f));  // low, warm, from the south-west
    glUniform3f(glGetUniformLocation(program_, "sun_direction"), sun.x, sun.y, sun.z);
    glUniform1f(glGetUniformLocation(program_, "fog_start"), static_cast<float>(fog_end_m * 0.5));
    glUniform1f(glGetUniformLocation(program_, "fog_end"), static_cast<float>(fog_end_m));
    glUniform1i(glGetUniformLocation(program_, "water"), 0);
    for (const auto& [k, m] : chunks_) {
        glBindVertexArray(m.vao);
        glDrawElements(GL_TRIANGLES, m.indices, GL_UNSIGNED_INT, nullptr);
    }
    if (sea_level_m > -1e8) {
        // A square of sea as wide as the view around the eye, after the ground, blended.
        const float r = static_cast<float>(camera.far_m), y = static_cast<float>(sea_level_m);
        const float ex = static_cast<float>(camera.eye.x), ez = static_cast<float>(camera.eye.z);
        const float quad[6][10] = {{ex - r, y, ez - r, 0, 1, 0, 0, 0, 0, 0}, {ex - r, y, ez + r, 0, 1, 0, 0, 0, 0, 0},
                                   {ex + r, y, ez + r, 0, 1, 0, 0, 0, 0, 0}, {ex - r, y, ez - r, 0, 1, 0, 0, 0, 0, 0},
                                   {ex + r, y, ez + r, 0, 1, 0, 0, 0, 0, 0}, {ex + r, y, ez - r, 0, 1, 0, 0, 0, 0, 0}};
        glBindVertexArray(water_vao_);
        glBindBuffer(GL_ARRAY_BUFFER, water_vbo_);
        glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
        for (int a = 0; a < 3; ++a) {
            glEnableVertexAttribArray(a);
            glVertexAttribPointer(a, a == 2 ? 4 : 3, GL_FLOAT, GL_FALSE, 10 * sizeof(float),
                                  reinterpret_cast<const void*>(a * 3 * sizeof(float)));
        }
        glUniform1i(glGetUniformLocation(program_, "water"), 1);
        glDisable(GL_CULL_FACE);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
    glBindVertexArray(0);
}

}  // namespace isoterra::app
