#include "terrain_renderer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <epoxy/gl.h>
#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "../cli.hpp"
#include "terrain_shading_glsl.hpp"

namespace isoterra::app {
namespace {

constexpr double kFadeSeconds = 0.3;

const char* kVertexShader = R"(#version 330 core
layout(location = 0) in vec3 position;   // metres from the chunk's origin
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 material;   // weights of grass, soil, rock, snow
layout(location = 3) in vec3 secondary;  // Lengyel's secondary offset, per axis
layout(location = 4) in int side_flags;  // bits 0-5 sides near, 8-13 sides on
layout(location = 5) in vec2 material_more;  // weights of sand, scree
uniform mat4 view_projection;            // of the eye at the origin
uniform vec3 chunk_offset;               // the chunk's origin minus the eye
uniform vec3 texture_offset;             // the chunk's origin, wrapped at the detail noise's period
uniform int coarser_mask;                // the sides whose neighbour is one level coarser
out vec3 v_position;                     // from the eye
out vec3 v_texture;
out vec3 v_normal;
out vec4 v_material;
out vec2 v_more;
void main() {
    vec3 p = position;
    int near = side_flags & 63, on = (side_flags >> 8) & 63;
    // transition_position(): near a coarser side and on no other side, move within the
    // tangent plane to the secondary position.
    if ((near & coarser_mask) != 0 && (on & ~coarser_mask) == 0) {
        int m = near & coarser_mask;
        vec3 d = vec3((m & 3) != 0 ? secondary.x : 0.0, (m & 12) != 0 ? secondary.y : 0.0, (m & 48) != 0 ? secondary.z : 0.0);
        p += d - normal * dot(normal, d);
    }
    v_position = chunk_offset + p;
    v_texture = texture_offset + p;
    v_normal = normal;
    v_material = material;
    v_more = material_more;
    gl_Position = view_projection * vec4(v_position, 1.0);
}
)";

// The fragment shader: the shared look (terrain_shading.glsl) with the sea, level tints and
// cross-fades of this renderer.
const std::string kFragmentShader = std::string(R"(#version 330 core
in vec3 v_position;
in vec3 v_texture;
in vec3 v_normal;
in vec4 v_material;
in vec2 v_more;
uniform vec3 sky_colour;      // at the horizon, where the fog ends
uniform vec3 sun_direction;   // towards the sun
uniform float fog_start;
uniform float fog_end;        // 0: no fog
uniform int water;            // 1 while drawing the sea and water surfaces
uniform vec3 level_tint;      // (1, 1, 1) unless levels are coloured
uniform int fade;             // 0 none, 1 appearing, 2 going
uniform float fade_alpha;     // how far the fade has come, 0..1
out vec4 colour;
)") + kTerrainShadingGlsl + R"(
void main() {
    // A cross-fade between two levels: the appearing chunk takes the pixels whose dither is
    // below the fade's progress, the going one the others, so together they cover all.
    if (fade != 0) {
        float d = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
        if ((fade == 1) == (d >= fade_alpha)) discard;
    }
    vec3 n = normalize(v_normal);
    float fog = fog_amount(length(v_position), fog_start, fog_end);
    if (water == 1) {
        colour = sea_colour(v_position, sun_direction, sky_colour, fog);
        return;
    }
    vec3 albedo = terrain_albedo(v_texture, n, v_material, v_more) * level_tint;
    colour = vec4(mix(terrain_lit(albedo, n, sun_direction), sky_colour, fog), 1.0);
}
)";

// The sky: one triangle over the screen, coloured by how high each pixel looks.
const char* kSkyVertexShader = R"(#version 330 core
uniform mat4 inverse_view_projection;
out vec3 v_direction;
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    vec4 far = inverse_view_projection * vec4(p, 0.5, 1.0);
    v_direction = far.xyz / far.w;
    gl_Position = vec4(p, 0.0, 1.0);
}
)";
const char* kSkyFragmentShader = R"(#version 330 core
in vec3 v_direction;
uniform vec3 sky_colour;
uniform vec3 sun_direction;
out vec4 colour;
void main() {
    vec3 d = normalize(v_direction);
    vec3 zenith = vec3(0.30, 0.45, 0.72);
    vec3 c = mix(sky_colour, zenith, pow(clamp(d.y, 0.0, 1.0), 0.6));
    c += vec3(1.0, 0.8, 0.55) * 0.35 * pow(max(dot(d, sun_direction), 0.0), 24.0);
    colour = vec4(c, 1.0);
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

unsigned link(const char* vertex, const char* fragment) {
    const unsigned vs = compile(GL_VERTEX_SHADER, vertex), fs = compile(GL_FRAGMENT_SHADER, fragment);
    const unsigned program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    int ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) throw Failure("render: shader program does not link");
    return program;
}

// Interleaved vertex: position, normal, secondary offset (floats), material weights (six
// bytes: grass, soil, rock, snow, then sand and scree; two of padding), side flags (an int).
struct Vertex {
    float position[3], normal[3], secondary[3];
    std::uint8_t material[8];
    std::int32_t flags;
};

// Uploads `m` as interleaved vertices and 32-bit indices into a new vertex array; returns
// the bounds of its positions (relative to its origin). Needs a current context.
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
        for (int c = 0; c < kMaterialCount; ++c) out.material[c] = static_cast<std::uint8_t>(std::lround(std::clamp(w[c], 0.0f, 1.0f) * 255.0f));
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
    const auto at = [](std::size_t offset) { return reinterpret_cast<const void*>(offset); };
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), at(offsetof(Vertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), at(offsetof(Vertex, normal)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), at(offsetof(Vertex, material)));
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), at(offsetof(Vertex, secondary)));
    glEnableVertexAttribArray(4);
    glVertexAttribIPointer(4, 1, GL_INT, sizeof(Vertex), at(offsetof(Vertex, flags)));
    glEnableVertexAttribArray(5);
    glVertexAttribPointer(5, 2, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Vertex), at(offsetof(Vertex, material) + 4));
    glBindVertexArray(0);
}

// Whether the box lo..hi (eye-relative) lies wholly outside one of the frustum's planes.
bool outside(const std::array<glm::vec4, 6>& planes, const glm::vec3& lo, const glm::vec3& hi) {
    for (const glm::vec4& p : planes) {
        const glm::vec3 corner(p.x >= 0 ? hi.x : lo.x, p.y >= 0 ? hi.y : lo.y, p.z >= 0 ? hi.z : lo.z);
        if (p.x * corner.x + p.y * corner.y + p.z * corner.z + p.w < 0) return true;
    }
    return false;
}

const glm::vec3 kLevelColours[8] = {{1.0f, 0.55f, 0.55f}, {1.0f, 0.85f, 0.45f}, {0.65f, 1.0f, 0.5f}, {0.5f, 0.95f, 1.0f},
                                    {0.6f, 0.65f, 1.0f},  {0.95f, 0.6f, 1.0f},  {1.0f, 1.0f, 1.0f}, {0.7f, 0.7f, 0.7f}};

}  // namespace

TerrainRenderer::TerrainRenderer() {
    program_ = link(kVertexShader, kFragmentShader.c_str());
    sky_program_ = link(kSkyVertexShader, kSkyFragmentShader);
    glGenVertexArrays(1, &water_vao_);
    glGenBuffers(1, &water_vbo_);
    glGenVertexArrays(1, &empty_vao_);
    reversed_depth_ = epoxy_gl_version() >= 45 || epoxy_has_gl_extension("GL_ARB_clip_control");
}

TerrainRenderer::~TerrainRenderer() {
    for (auto& [k, m] : chunks_) free(m);
    glDeleteVertexArrays(1, &water_vao_);
    glDeleteBuffers(1, &water_vbo_);
    glDeleteVertexArrays(1, &empty_vao_);
    if (program_) glDeleteProgram(program_);
    if (sky_program_) glDeleteProgram(sky_program_);
}

void TerrainRenderer::free(GpuMesh& m) {
    for (unsigned* vao : {&m.vao, &m.water_vao})
        if (*vao) glDeleteVertexArrays(1, vao);
    for (unsigned* buffer : {&m.vbo, &m.ibo, &m.water_vbo, &m.water_ibo})
        if (*buffer) glDeleteBuffers(1, buffer);
    m.vao = m.vbo = m.ibo = m.water_vao = m.water_vbo = m.water_ibo = 0;
    m.water_count = 0;
}

void TerrainRenderer::select_ranges(GpuMesh& m) {
    m.counts.clear();
    m.offsets.clear();
    m.triangles = 0;
    const auto add = [&](std::uint32_t first, std::uint32_t count) {
        if (count == 0) return;
        // Ranges that follow each other are drawn as one.
        if (!m.counts.empty() && reinterpret_cast<std::uintptr_t>(m.offsets.back()) + m.counts.back() * 4u == first * 4u)
            m.counts.back() += static_cast<int>(count);
        else
            m.counts.push_back(static_cast<int>(count)), m.offsets.push_back(reinterpret_cast<const void*>(std::uintptr_t{first} * 4u));
        m.triangles += count / 3;
    };
    if (m.ranges.empty()) add(0, m.index_count);
    for (const IndexRange& r : m.ranges)
        if (r.when.holds(m.neighbours)) add(r.first, r.count);
}

void TerrainRenderer::apply(const ChunkUpdate& u, double time_s) {
    const auto key = std::make_tuple(u.coord.lod, u.coord.x, u.coord.y, u.coord.z);
    auto it = chunks_.find(key);
    if (u.dropped) {
        if (it == chunks_.end()) return;
        // One going in a swap stays until it has faded out.
        if (!it->second.visible && time_s - it->second.fade_start < kFadeSeconds) {
            it->second.dropped = true;
            return;
        }
        free(it->second);
        chunks_.erase(it);
        return;
    }
    if (it == chunks_.end()) it = chunks_.emplace(key, GpuMesh{}).first;
    GpuMesh& g = it->second;
    if (u.mesh) {
        free(g);
        const MeshBuffers& m = *u.mesh;
        g.origin = m.origin;
        g.ranges = m.ranges;
        g.index_count = static_cast<std::uint32_t>(m.indices.size());
        if (g.index_count > 0) upload(m, g.vao, g.vbo, g.ibo, g.lo, g.hi);
        if (u.water && !u.water->indices.empty()) {
            g.water_origin = u.water->origin;
            g.water_count = static_cast<std::uint32_t>(u.water->indices.size());
            upload(*u.water, g.water_vao, g.water_vbo, g.water_ibo, g.water_lo, g.water_hi);
        }
    }
    g.dropped = false;
    if (u.visible != g.visible) g.fade_start = time_s;
    g.visible = u.visible;
    g.neighbours = u.neighbours;
    select_ranges(g);
}

void TerrainRenderer::collect_faded(double time_s) {
    for (auto it = chunks_.begin(); it != chunks_.end();)
        if (it->second.dropped && time_s - it->second.fade_start >= kFadeSeconds) {
            free(it->second);
            it = chunks_.erase(it);
        } else {
            ++it;
        }
}

std::size_t TerrainRenderer::chunk_count() const {
    std::size_t n = 0;
    for (const auto& [k, m] : chunks_) n += m.visible;
    return n;
}

std::size_t TerrainRenderer::triangle_count() const {
    std::size_t n = 0;
    for (const auto& [k, m] : chunks_) n += m.visible ? m.triangles : 0;
    return n;
}

std::vector<LevelCounts> TerrainRenderer::per_level() const {
    std::vector<LevelCounts> out;
    for (const auto& [k, m] : chunks_) {
        if (!m.visible) continue;
        const auto level = static_cast<std::size_t>(std::get<0>(k));
        if (out.size() <= level) out.resize(level + 1);
        ++out[level].chunks;
        out[level].triangles += m.triangles;
    }
    return out;
}

std::size_t TerrainRenderer::draw(const Camera& camera, int width, int height, const DrawOptions& o) {
    collect_faded(o.time_s);
    const glm::vec3 sky(0.66f, 0.74f, 0.84f);
    const glm::vec3 sun = glm::normalize(glm::vec3(-0.5f, 0.45f, 0.55f));  // low, warm, from the south-west
    // The eye sits at the origin: everything is drawn relative to it.
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    const float f = 1.0f / std::tan(glm::radians(static_cast<float>(camera.fov_deg)) * 0.5f);
    // Up is the sky, unless the camera looks (almost) straight up or down: then north (-z) is
    // up in the picture, as on a map (up along the view would give no picture at all).
    const glm::dvec3 forward = glm::normalize(camera.target - camera.eye);
    const glm::vec3 up = std::fabs(forward.y) > 0.999 ? glm::vec3(0, 0, -1) : glm::vec3(0, 1, 0);
    const glm::mat4 view = glm::lookAt(glm::vec3(0.0f), glm::vec3(camera.target - camera.eye), up);
    glm::mat4 projection;
    if (reversed_depth_) {
        // Reversed depth with the far plane at infinity: depth = near / distance, so a float
        // depth buffer keeps the same relative precision from the near plane to the horizon.
        projection = glm::mat4(0.0f);
        projection[0][0] = f / aspect;
        projection[1][1] = f;
        projection[2][3] = -1.0f;
        projection[3][2] = static_cast<float>(camera.near_m);
        glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
        glClearDepth(0.0);
        glDepthFunc(GL_GREATER);
    } else {
        projection = glm::perspective(glm::radians(static_cast<float>(camera.fov_deg)), aspect, static_cast<float>(camera.near_m),
                                      static_cast<float>(camera.far_m));
        glClearDepth(1.0);
        glDepthFunc(GL_LESS);
    }
    const glm::mat4 vp = projection * view;
    glClearColor(sky.r, sky.g, sky.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    // The sky first, without depth.
    glDisable(GL_DEPTH_TEST);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glUseProgram(sky_program_);
    const glm::mat4 inverse = glm::inverse(glm::perspective(glm::radians(static_cast<float>(camera.fov_deg)), aspect, 1.0f, 1000.0f) * view);
    glUniformMatrix4fv(glGetUniformLocation(sky_program_, "inverse_view_projection"), 1, GL_FALSE, glm::value_ptr(inverse));
    glUniform3f(glGetUniformLocation(sky_program_, "sky_colour"), sky.r, sky.g, sky.b);
    glUniform3f(glGetUniformLocation(sky_program_, "sun_direction"), sun.x, sun.y, sun.z);
    glBindVertexArray(empty_vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);

    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glPolygonMode(GL_FRONT_AND_BACK, o.wireframe ? GL_LINE : GL_FILL);
    glUseProgram(program_);
    const auto uniform = [&](const char* name) { return glGetUniformLocation(program_, name); };
    glUniformMatrix4fv(uniform("view_projection"), 1, GL_FALSE, glm::value_ptr(vp));
    glUniform3f(uniform("sky_colour"), sky.r, sky.g, sky.b);
    glUniform3f(uniform("sun_direction"), sun.x, sun.y, sun.z);
    glUniform1f(uniform("fog_start"), static_cast<float>(o.fog_m * 0.3));
    glUniform1f(uniform("fog_end"), static_cast<float>(o.fog_m));
    glUniform1i(uniform("water"), 0);
    const GLint offset_at = uniform("chunk_offset"), texture_at = uniform("texture_offset"), mask_at = uniform("coarser_mask"),
                tint_at = uniform("level_tint"), fade_at = uniform("fade"), alpha_at = uniform("fade_alpha");

    // Frustum culling: the planes of a finite projection (Gribb and Hartmann), eye-relative.
    const glm::mat4 cull = glm::perspective(glm::radians(static_cast<float>(camera.fov_deg)), aspect,
                                            static_cast<float>(camera.near_m), static_cast<float>(camera.far_m)) * view;
    std::array<glm::vec4, 6> planes;
    for (int i = 0; i < 3; ++i)
        for (int s = 0; s < 2; ++s) {
            glm::vec4 p;
            for (int c = 0; c < 4; ++c) p[c] = cull[c][3] + (s ? -1.0f : 1.0f) * cull[c][i];
            planes[i * 2 + s] = p;
        }
    std::size_t drawn = 0;
    for (auto& [k, m] : chunks_) {
        if (m.counts.empty() || !m.vao) continue;
        const double since = o.time_s - m.fade_start;
        const bool fading = since < kFadeSeconds;
        if (!m.visible && !fading) continue;
        const glm::dvec3 offset = m.origin - camera.eye;
        if (outside(planes, glm::vec3(offset) + m.lo, glm::vec3(offset) + m.hi)) continue;
        glUniform3f(offset_at, static_cast<float>(offset.x), static_cast<float>(offset.y), static_cast<float>(offset.z));
        // The detail noise repeats every 1000 m: coordinates wrapped there keep their precision
        // anywhere in the world.
        const glm::dvec3 wrapped = m.origin - glm::floor(m.origin / 1000.0) * 1000.0;
        glUniform3f(texture_at, static_cast<float>(wrapped.x), static_cast<float>(wrapped.y), static_cast<float>(wrapped.z));
        glUniform1i(mask_at, static_cast<int>(m.neighbours.coarser_mask()));
        const glm::vec3 tint = o.level_colours ? kLevelColours[std::min(std::get<0>(k), 7)] : glm::vec3(1.0f);
        glUniform3f(tint_at, tint.r, tint.g, tint.b);
        glUniform1i(fade_at, fading ? (m.visible ? 1 : 2) : 0);
        glUniform1f(alpha_at, static_cast<float>(since / kFadeSeconds));
        glBindVertexArray(m.vao);
        glMultiDrawElements(GL_TRIANGLES, m.counts.data(), GL_UNSIGNED_INT, m.offsets.data(), static_cast<GLsizei>(m.counts.size()));
        drawn += m.triangles;
    }
    glUniform1i(fade_at, 0);
    glUniform3f(tint_at, 1.0f, 1.0f, 1.0f);
    // Water after the ground, blended, writing no depth: the sea as a level, then the
    // chunks' water surfaces (lakes and rivers), each cross-fading with its chunk.
    glUniform1i(uniform("water"), 1);
    glUniform1i(mask_at, 0);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    if (o.sea_level_m > -1e8) {
        // A square of sea as wide as the view around the eye.
        const float r = static_cast<float>(camera.far_m), y = static_cast<float>(o.sea_level_m - camera.eye.y);
        Vertex quad[6] = {};
        const float corners[6][2] = {{-r, -r}, {-r, r}, {r, r}, {-r, -r}, {r, r}, {r, -r}};
        for (int v = 0; v < 6; ++v) {
            quad[v].position[0] = corners[v][0], quad[v].position[1] = y, quad[v].position[2] = corners[v][1];
            quad[v].normal[1] = 1.0f;
        }
        glBindVertexArray(water_vao_);
        glBindBuffer(GL_ARRAY_BUFFER, water_vbo_);
        glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STREAM_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<const void*>(offsetof(Vertex, position)));
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<const void*>(offsetof(Vertex, normal)));
        glUniform3f(offset_at, 0.0f, 0.0f, 0.0f);
        glDrawArrays(GL_TRIANGLES, 0, 6);
    }
    for (auto& [k, m] : chunks_) {
        if (!m.water_vao) continue;
        const double since = o.time_s - m.fade_start;
        const bool fading = since < kFadeSeconds;
        if (!m.visible && !fading) continue;
        const glm::dvec3 offset = m.water_origin - camera.eye;
        if (outside(planes, glm::vec3(offset) + m.water_lo, glm::vec3(offset) + m.water_hi)) continue;
        glUniform3f(offset_at, static_cast<float>(offset.x), static_cast<float>(offset.y), static_cast<float>(offset.z));
        glUniform1i(fade_at, fading ? (m.visible ? 1 : 2) : 0);
        glUniform1f(alpha_at, static_cast<float>(since / kFadeSeconds));
        glBindVertexArray(m.water_vao);
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(m.water_count), GL_UNSIGNED_INT, nullptr);
    }
    glUniform1i(fade_at, 0);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    if (reversed_depth_) glClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);  // as the UI expects
    glDepthFunc(GL_LESS);
    return drawn;
}

}  // namespace isoterra::app
