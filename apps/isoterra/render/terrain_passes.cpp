// A terrain frame's passes as OpenGL state: the projection, with the eye at the origin
// (everything is drawn relative to it), reversed depth with the far plane at infinity where the
// context has clip control, else a finite frustum; the ground's state, the water's (blended,
// writing no depth) and the state handed back to the UI; and the finite frustum's planes that
// chunks are culled against.
#include <cmath>

#include <epoxy/gl.h>
#include <glm/gtc/matrix_transform.hpp>

#include "terrain_renderer_parts.hpp"

namespace isoterra::app::terrain_gl {

glm::mat4 begin_projection(const Camera& camera, float aspect, bool reversed_depth) {
    const float f = 1.0f / std::tan(glm::radians(static_cast<float>(camera.fov_deg)) * 0.5f);
    glm::mat4 projection;
    if (reversed_depth) {
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
    return projection;
}

void begin_ground_pass(bool wireframe) {
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glPolygonMode(GL_FRONT_AND_BACK, wireframe ? GL_LINE : GL_FILL);
}

void begin_water_pass(const ChunkUniforms& at) {
    glUniform1i(at.fade, 0);
    glUniform3f(at.level_tint, 1.0f, 1.0f, 1.0f);
    glUniform1i(at.water, 1);
    glUniform1i(at.coarser_mask, 0);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
}

void end_frame(const ChunkUniforms& at, bool reversed_depth) {
    glUniform1i(at.fade, 0);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    if (reversed_depth) glClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);  // as the UI expects
    glDepthFunc(GL_LESS);
}

// The planes of a finite projection (Gribb and Hartmann), eye-relative.
std::array<glm::vec4, 6> frustum_planes(const Camera& camera, float aspect, const glm::mat4& view) {
    const glm::mat4 cull = glm::perspective(glm::radians(static_cast<float>(camera.fov_deg)), aspect, static_cast<float>(camera.near_m),
                                            static_cast<float>(camera.far_m)) *
                           view;
    std::array<glm::vec4, 6> planes;
    for (int i = 0; i < 3; ++i)
        for (int s = 0; s < 2; ++s) {
            glm::vec4 p;
            for (int c = 0; c < 4; ++c) p[c] = cull[c][3] + (s ? -1.0f : 1.0f) * cull[c][i];
            planes[i * 2 + s] = p;
        }
    return planes;
}

bool outside(const std::array<glm::vec4, 6>& planes, const glm::vec3& lo, const glm::vec3& hi) {
    for (const glm::vec4& p : planes) {
        const glm::vec3 corner(p.x >= 0 ? hi.x : lo.x, p.y >= 0 ? hi.y : lo.y, p.z >= 0 ? hi.z : lo.z);
        if (p.x * corner.x + p.y * corner.y + p.z * corner.z + p.w < 0) return true;
    }
    return false;
}

}  // namespace isoterra::app::terrain_gl
