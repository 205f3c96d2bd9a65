// Blocks: every solid sample is a cube of one sample spacing, centred on the sample, and a
// face is drawn where a solid sample meets an air one. The chunk owns the samples of its
// core [0, 32)^3, so each face is drawn by exactly one chunk. Four vertices per face (their
// normals are the face's, so they are not shared with the neighbouring faces).
#include "vertex_attributes.hpp"

namespace isoterra {

void mesh_blocks(const ChunkSamples& s, const MaterialRules& rules, MeshScratch&, MeshBuffers& out) {
    out.clear();
    if (!s.has_surface()) return;
    const double sp = s.lattice.spacing_m;
    for (int k = 0; k < kChunkSize; ++k)
        for (int j = 0; j < kChunkSize; ++j)
            for (int i = 0; i < kChunkSize; ++i) {
                if (!(s.at(i, j, k) < 0.0f)) continue;
                const glm::dvec3 centre = detail::sample_position(s, i, j, k);
                for (int axis = 0; axis < 3; ++axis)
                    for (int dir = -1; dir <= 1; dir += 2) {
                        int n[3] = {i, j, k};
                        n[axis] += dir;
                        if (s.at(n[0], n[1], n[2]) < 0.0f) continue;  // solid neighbour: hidden face
                        glm::vec3 normal(0.0f);
                        normal[axis] = static_cast<float>(dir);
                        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
                        const int uv[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
                        const auto base = static_cast<std::uint32_t>(out.positions.size());
                        const double depth = detail::ground_depth(s, centre.x, centre.y, centre.z);
                        const MaterialSample m = rules.classify(centre.y + dir * (axis == 1) * 0.5 * sp, glm::dvec3(normal),
                                                                depth < 0.0 ? 0.0 : depth);
                        for (const auto& c : uv) {
                            glm::dvec3 p = centre;
                            p[axis] += 0.5 * sp * dir;
                            p[u] += 0.5 * sp * c[0];
                            p[v] += 0.5 * sp * c[1];
                            out.positions.emplace_back(p);
                            out.normals.push_back(normal);
                            out.materials.push_back(m);
                        }
                        // (u, v) counter-clockwise faces +axis; flip for the -axis face.
                        if (dir > 0) out.indices.insert(out.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
                        else out.indices.insert(out.indices.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
                    }
            }
}

}  // namespace isoterra
