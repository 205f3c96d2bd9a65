// The terrain renderer (terrain_renderer.hpp): the chunks a World hands over kept on the GPU
// with the index ranges their neighbourhoods select and their fades between levels, and a
// frame drawn with them: the sky, the ground culled to the view, then the sea and the chunks'
// water surfaces, translucent. Its shaders, buffers and projection are in
// terrain_shaders.cpp, terrain_buffers.cpp and terrain_passes.cpp.
#include "terrain_renderer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include "terrain_renderer_parts.hpp"

namespace isoterra::app {
namespace {

constexpr double kFadeSeconds = 0.3;

const glm::vec3 kLevelColours[8] = {{1.0f, 0.55f, 0.55f}, {1.0f, 0.85f, 0.45f}, {0.65f, 1.0f, 0.5f}, {0.5f, 0.95f, 1.0f},
                                    {0.6f, 0.65f, 1.0f},  {0.95f, 0.6f, 1.0f},  {1.0f, 1.0f, 1.0f},  {0.7f, 0.7f, 0.7f}};

// A chunk cross-fading with another level (`since` its fade began): the dither's side (1
// appearing, 2 going) and how far it has come; 0 when it is not fading.
void set_fade(const terrain_gl::ChunkUniforms& at, bool visible, double since) {
    const bool fading = since < kFadeSeconds;
    glUniform1i(at.fade, fading ? (visible ? 1 : 2) : 0);
    glUniform1f(at.fade_alpha, static_cast<float>(since / kFadeSeconds));
}

}  // namespace

TerrainRenderer::TerrainRenderer() {
    program_ = terrain_gl::link_terrain_program();
    sky_program_ = terrain_gl::link_sky_program();
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
        else m.counts.push_back(static_cast<int>(count)), m.offsets.push_back(reinterpret_cast<const void*>(std::uintptr_t{first} * 4u));
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
        const double spacing = u.coord.spacing_m();
        if (g.index_count > 0) g.scale = terrain_gl::upload(m, spacing, g.vao, g.vbo, g.ibo, g.lo, g.hi);
        if (u.water && !u.water->indices.empty()) {
            g.water_origin = u.water->origin;
            g.water_count = static_cast<std::uint32_t>(u.water->indices.size());
            g.water_scale = terrain_gl::upload(*u.water, spacing, g.water_vao, g.water_vbo, g.water_ibo, g.water_lo, g.water_hi);
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

std::size_t TerrainRenderer::draw(const Camera& camera, int width, int height, const DrawOptions& o) {
    using namespace terrain_gl;
    collect_faded(o.time_s);
    const glm::vec3 sky(0.66f, 0.74f, 0.84f);
    const glm::vec3 sun = glm::normalize(glm::vec3(-0.5f, 0.45f, 0.55f));  // low, warm, from the south-west
    // The eye sits at the origin: everything is drawn relative to it.
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    // Up is the sky, unless the camera looks (almost) straight up or down: then north (-z) is
    // up in the picture, as on a map (up along the view would give no picture at all).
    const glm::dvec3 forward = glm::normalize(camera.target - camera.eye);
    const glm::vec3 up = std::fabs(forward.y) > 0.999 ? glm::vec3(0, 0, -1) : glm::vec3(0, 1, 0);
    const glm::mat4 view = glm::lookAt(glm::vec3(0.0f), glm::vec3(camera.target - camera.eye), up);
    const glm::mat4 vp = begin_projection(camera, aspect, reversed_depth_) * view;
    glClearColor(sky.r, sky.g, sky.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    // The sky first, without depth.
    draw_sky(sky_program_, empty_vao_,
             glm::inverse(glm::perspective(glm::radians(static_cast<float>(camera.fov_deg)), aspect, 1.0f, 1000.0f) * view), sky, sun);

    begin_ground_pass(o.wireframe);
    const ChunkUniforms at = use_terrain_program(program_, vp, sky, sun, o.fog_m);
    const Planes planes = frustum_planes(camera, aspect, view);
    const std::size_t drawn = draw_ground(at, planes, camera, o);
    draw_water(at, planes, camera, o);
    end_frame(at, reversed_depth_);
    return drawn;
}

std::size_t TerrainRenderer::draw_ground(const terrain_gl::ChunkUniforms& at, const Planes& planes, const Camera& camera,
                                         const DrawOptions& o) {
    using namespace terrain_gl;
    // The chunks in view, nearest first: a software rasterizer (llvmpipe) tests depth before
    // it shades, so the ground nearer the eye hides what lies behind it before that costs a
    // fragment shader. Ties keep the map's order: the same picture every time.
    draw_order_.clear();
    for (auto& [k, m] : chunks_) {
        if (m.counts.empty() || !m.vao) continue;
        const bool fading = o.time_s - m.fade_start < kFadeSeconds;
        if (!m.visible && !fading) continue;
        const glm::vec3 lo = glm::vec3(m.origin - camera.eye) + m.lo, hi = glm::vec3(m.origin - camera.eye) + m.hi;
        if (outside(planes, lo, hi)) continue;
        const glm::vec3 nearest = glm::clamp(glm::vec3(0.0f), lo, hi);
        draw_order_.push_back({glm::dot(nearest, nearest), std::get<0>(k), &m});
    }
    std::stable_sort(draw_order_.begin(), draw_order_.end(),
                     [](const DrawItem& a, const DrawItem& b) { return a.distance2 < b.distance2; });
    std::size_t drawn = 0;
    for (const DrawItem& item : draw_order_) {
        GpuMesh& m = *item.mesh;
        const double since = o.time_s - m.fade_start;
        const glm::dvec3 offset = m.origin - camera.eye;
        glUniform3f(at.chunk_offset, static_cast<float>(offset.x), static_cast<float>(offset.y), static_cast<float>(offset.z));
        // The detail noise repeats every 1000 m: coordinates wrapped there keep their precision
        // anywhere in the world.
        const glm::dvec3 wrapped = m.origin - glm::floor(m.origin / 1000.0) * 1000.0;
        glUniform3f(at.texture_offset, static_cast<float>(wrapped.x), static_cast<float>(wrapped.y), static_cast<float>(wrapped.z));
        glUniform1i(at.coarser_mask, static_cast<int>(m.neighbours.coarser_mask()));
        const glm::vec3 tint = o.level_colours ? kLevelColours[std::min(item.level, 7)] : glm::vec3(1.0f);
        glUniform3f(at.level_tint, tint.r, tint.g, tint.b);
        set_fade(at, m.visible, since);
        set_scale(at, m.scale);
        glBindVertexArray(m.vao);
        glMultiDrawElements(GL_TRIANGLES, m.counts.data(), GL_UNSIGNED_INT, m.offsets.data(), static_cast<GLsizei>(m.counts.size()));
        drawn += m.triangles;
    }
    return drawn;
}

void TerrainRenderer::draw_water(const terrain_gl::ChunkUniforms& at, const Planes& planes, const Camera& camera, const DrawOptions& o) {
    using namespace terrain_gl;
    // Blended, writing no depth: the sea as a level, then the chunks' water surfaces (lakes
    // and rivers), each cross-fading with its chunk.
    begin_water_pass(at);
    if (o.sea_level_m > -1e8) {
        // A square of sea as wide as the view around the eye.
        glUniform3f(at.chunk_offset, 0.0f, 0.0f, 0.0f);
        draw_sea_square(at, water_vao_, water_vbo_, static_cast<float>(camera.far_m), static_cast<float>(o.sea_level_m - camera.eye.y));
    }
    for (auto& [k, m] : chunks_) {
        if (!m.water_vao) continue;
        const double since = o.time_s - m.fade_start;
        if (!m.visible && since >= kFadeSeconds) continue;
        const glm::dvec3 offset = m.water_origin - camera.eye;
        if (outside(planes, glm::vec3(offset) + m.water_lo, glm::vec3(offset) + m.water_hi)) continue;
        glUniform3f(at.chunk_offset, static_cast<float>(offset.x), static_cast<float>(offset.y), static_cast<float>(offset.z));
        set_fade(at, m.visible, since);
        set_scale(at, m.water_scale);
        glBindVertexArray(m.water_vao);
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(m.water_count), GL_UNSIGNED_INT, nullptr);
    }
}

}  // namespace isoterra::app
