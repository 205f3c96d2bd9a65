// The terrain renderer's shader programs: the terrain's vertex shader (the compact vertex
// decoded, the secondary positions near coarser neighbours, as transition_position), its
// fragment shader (the shared look of terrain_shading.glsl, with the sea, level tints and
// cross-fades), the sky's; compiled, linked, and their uniforms set for a frame.
#include <string>

#include <epoxy/gl.h>
#include <glm/gtc/type_ptr.hpp>

#include "../cli.hpp"
#include "terrain_renderer_parts.hpp"
#include "compact_vertex_glsl.hpp"
#include "terrain_shading_glsl.hpp"

namespace isoterra::app::terrain_gl {
namespace {

const std::string kVertexShader = std::string(R"(#version 330 core
// The compact vertex (CompactVertex in isoterra/mesh.hpp; decode_compact is this arithmetic).
layout(location = 0) in uvec3 position;    // on the chunk's grid: position_offset + position * position_step
layout(location = 1) in ivec2 normal_oct;  // octahedral, snorm16
layout(location = 2) in uint blend_z;      // bits 0-7 blend, 8-14 the secondary offset's |z|
layout(location = 3) in uint bits;         // bits 0-5 sides near, 6-11 sides on, 12-14 primary, 15-17 secondary
                                           // material, 18-24 and 25-31 the secondary offset's |x| and |y|
uniform vec3 position_offset;            // metres from the chunk's origin
uniform vec3 position_step;              // metres a grid step, per axis
uniform float secondary_step;            // metres a unit of the secondary offset's magnitude
uniform mat4 view_projection;            // of the eye at the origin
uniform vec3 chunk_offset;               // the chunk's origin minus the eye
uniform vec3 texture_offset;             // the chunk's origin, wrapped at the detail noise's period
uniform int coarser_mask;                // the sides whose neighbour is one level coarser
out vec3 v_position;                     // from the eye
out vec3 v_texture;
out vec3 v_normal;
out vec4 v_material;
out vec2 v_more;
)") + kCompactVertexGlsl + R"(
void main() {
    vec3 p = position_offset + vec3(position) * position_step;
    // snorm16 as OpenGL normalizes it.
    vec3 normal = octahedral_normal(max(vec2(normal_oct) / 32767.0, vec2(-1.0)));
    int near = int(bits & 63u), on = int((bits >> 6) & 63u);
    material_weights(float((bits >> 12) & 7u), float((bits >> 15) & 7u), float(blend_z & 255u) / 255.0, v_material, v_more);
    // Lengyel's secondary offset: its magnitude, towards the inside from the side it is near.
    vec3 secondary = vec3(float((bits >> 18) & 127u), float((bits >> 25) & 127u), float((blend_z >> 8) & 127u)) * secondary_step;
    secondary *= vec3((near & 2) != 0 ? -1.0 : 1.0, (near & 8) != 0 ? -1.0 : 1.0, (near & 32) != 0 ? -1.0 : 1.0);
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
    if (fade != 0 && fade_hides(float(fade), fade_alpha)) discard;  // a cross-fade between levels
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

}  // namespace

unsigned link_terrain_program() { return link(kVertexShader.c_str(), kFragmentShader.c_str()); }
unsigned link_sky_program() { return link(kSkyVertexShader, kSkyFragmentShader); }

ChunkUniforms use_terrain_program(unsigned program, const glm::mat4& view_projection, const glm::vec3& sky, const glm::vec3& sun,
                                  double fog_m) {
    glUseProgram(program);
    const auto uniform = [&](const char* name) { return glGetUniformLocation(program, name); };
    glUniformMatrix4fv(uniform("view_projection"), 1, GL_FALSE, glm::value_ptr(view_projection));
    glUniform3f(uniform("sky_colour"), sky.r, sky.g, sky.b);
    glUniform3f(uniform("sun_direction"), sun.x, sun.y, sun.z);
    glUniform1f(uniform("fog_start"), static_cast<float>(fog_m * 0.3));
    glUniform1f(uniform("fog_end"), static_cast<float>(fog_m));
    glUniform1i(uniform("water"), 0);
    return {uniform("chunk_offset"),  uniform("texture_offset"), uniform("coarser_mask"), uniform("level_tint"),
            uniform("fade"),          uniform("fade_alpha"),     uniform("water"),        uniform("position_offset"),
            uniform("position_step"), uniform("secondary_step")};
}

void draw_sky(unsigned sky_program, unsigned empty_vao, const glm::mat4& inverse_view_projection, const glm::vec3& sky,
              const glm::vec3& sun) {
    glDisable(GL_DEPTH_TEST);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glUseProgram(sky_program);
    glUniformMatrix4fv(glGetUniformLocation(sky_program, "inverse_view_projection"), 1, GL_FALSE, glm::value_ptr(inverse_view_projection));
    glUniform3f(glGetUniformLocation(sky_program, "sky_colour"), sky.r, sky.g, sky.b);
    glUniform3f(glGetUniformLocation(sky_program, "sun_direction"), sun.x, sun.y, sun.z);
    glBindVertexArray(empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

}  // namespace isoterra::app::terrain_gl
