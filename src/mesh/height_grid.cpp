// The heightmap grid of seed 002: one indexed vertex per height sample, two triangles per
// square, normals from the height's central differences (not from the triangles), so a
// grid split into tiles shades continuously across their borders.
#include "vertex_attributes.hpp"

namespace isoterra {

void mesh_height_grid(const float* heights, int nx, int nz, double x0, double z0, double step, const MaterialRules& rules,
                      MeshBuffers& out) {
    const MaterialClassifier classify(rules);
    out.clear();
    const int stride = nx + 2;
    const auto h = [&](int i, int k) { return heights[static_cast<std::size_t>(k + 1) * stride + (i + 1)]; };
    for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i) {
            const double y = h(i, k);
            // The surface y = h(x, z) has the upward normal (-dh/dx, 1, -dh/dz).
            const double dx = (h(i + 1, k) - h(i - 1, k)) / (2 * step), dz = (h(i, k + 1) - h(i, k - 1)) / (2 * step);
            const glm::vec3 n = detail::unit_or_up(glm::vec3(static_cast<float>(-dx), 1.0f, static_cast<float>(-dz)));
            out.positions.emplace_back(x0 + i * step, y, z0 + k * step);
            out.normals.push_back(n);
            out.materials.push_back(classify(y, glm::dvec3(n), 0.0));
        }
    for (int k = 0; k + 1 < nz; ++k)
        for (int i = 0; i + 1 < nx; ++i) {
            const auto v = static_cast<std::uint32_t>(k * nx + i);
            const auto w = static_cast<std::uint32_t>(nx);
            // Counter-clockwise seen from above (+y): (x, z) -> (x, z+1) -> (x+1, z).
            out.indices.insert(out.indices.end(), {v, v + w, v + 1, v + 1, v + w, v + w + 1});
        }
}

}  // namespace isoterra
