// Blocks: every solid sample is a cube of one sample spacing, centred on the sample, and a
// face is drawn where a solid sample meets an air one. The chunk owns the samples of its
// core [0, 32)^3, so each face is drawn by exactly one chunk. Greedy merging (Lysenko's
// "greedy meshing") then joins coplanar faces of the same material into rectangles; the
// merged mesh covers exactly the unit faces, with T-junctions where rectangles meet
// smaller faces (tests/mesh checks the cover). Four vertices per rectangle with the face's
// normal: flat faces do not share vertices with their neighbours. Next to a column of another
// level the cubes of the two sides do not meet: skirts, the outward faces of the chunk's
// boundary cubes where its own lattice saw solid beyond them, hide the gaps (drawn only then).
#include <array>

#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

// Materials merge when they show the same pair at the same blend, to an eighth (a blend is at
// most 0.5: 0..4; six materials: the secondary's part stays below 128).
int material_key(const MaterialSample& m) {
    return static_cast<int>(m.primary) * 128 + static_cast<int>(m.secondary) * 16 + static_cast<int>(m.blend * 8.0f + 0.5f);
}

}  // namespace

void mesh_blocks(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out, bool greedy) {
    detail::begin_chunk_mesh(s, out);
    const MaterialClassifier classify(rules);
    if (!s.has_surface()) return;
    const double sp = s.lattice.spacing_m;
    constexpr int n = kChunkSize;
    // Which samples are solid, once (samples -1..32 of each axis, 34 a side).
    constexpr int m = n + 2;
    scratch.solid.resize(static_cast<std::size_t>(m) * m * m);
    for (int k = -1; k <= n; ++k)
        for (int j = -1; j <= n; ++j)
            for (int i = -1; i <= n; ++i)
                scratch.solid[((static_cast<std::size_t>(k + 1) * m) + (j + 1)) * m + (i + 1)] = s.at(i, j, k) < 0.0f;
    // Strides of the solid array per axis, and the index of core sample (0, 0, 0).
    const std::size_t stride[3] = {1, static_cast<std::size_t>(m), static_cast<std::size_t>(m) * m};
    const std::size_t origin = stride[0] + stride[1] + stride[2];
    // One face layer at a time: which faces it has (key + 1, 0 = none) and their materials.
    scratch.slots.assign(static_cast<std::size_t>(n) * n, 0);
    std::array<MaterialSample, kChunkSize * kChunkSize> materials;

    for (int axis = 0; axis < 3; ++axis) {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (int dir = -1; dir <= 1; dir += 2) {
            glm::vec3 normal(0.0f);
            normal[axis] = static_cast<float>(dir);
            for (int layer = 0; layer < n; ++layer) {
                // Collect the layer's faces: solid sample, air neighbour along `dir`.
                const std::ptrdiff_t across = dir * static_cast<std::ptrdiff_t>(stride[axis]);
                for (int b = 0; b < n; ++b) {
                    const std::size_t row = origin + layer * stride[axis] + b * stride[v];
                    for (int a = 0; a < n; ++a) {
                        const std::size_t at = row + a * stride[u];
                        int& slot = scratch.slots[static_cast<std::size_t>(b) * n + a];
                        slot = 0;
                        if (!scratch.solid[at] || scratch.solid[at + across]) continue;
                        int c[3];
                        c[axis] = layer, c[u] = a, c[v] = b;
                        const glm::dvec3 centre = detail::sample_position(s, c[0], c[1], c[2]);
                        const double depth = detail::ground_depth(s, centre.x, centre.y, centre.z);
                        const MaterialSample mat = classify(centre.y + dir * (axis == 1) * 0.5 * sp, glm::dvec3(normal),
                                                            depth < 0.0 ? 0.0 : depth, detail::point_looks(s, centre.x, centre.z));
                        materials[static_cast<std::size_t>(b) * n + a] = mat;
                        slot = material_key(mat) + 1;
                    }
                }
                // Cover the layer's faces with rectangles: widest run along u first, then as
                // many rows along v as match it exactly.
                for (int b = 0; b < n; ++b)
                    for (int a = 0; a < n;) {
                        const int key = scratch.slots[static_cast<std::size_t>(b) * n + a];
                        if (key == 0) {
                            ++a;
                            continue;
                        }
                        int w = 1, h = 1;
                        if (greedy) {
                            while (a + w < n && scratch.slots[static_cast<std::size_t>(b) * n + a + w] == key) ++w;
                            for (bool grow = true; grow && b + h < n; h += grow) {
                                for (int x = a; x < a + w; ++x)
                                    if (scratch.slots[static_cast<std::size_t>(b + h) * n + x] != key) grow = false;
                            }
                        }
                        for (int y = b; y < b + h; ++y)
                            for (int x = a; x < a + w; ++x) scratch.slots[static_cast<std::size_t>(y) * n + x] = 0;
                        int c[3];
                        c[axis] = layer, c[u] = a, c[v] = b;
                        const glm::dvec3 corner = detail::sample_position(s, c[0], c[1], c[2]);
                        const MaterialSample mat = materials[static_cast<std::size_t>(b) * n + a];
                        const auto base = static_cast<std::uint32_t>(out.positions.size());
                        const double du[4] = {-0.5, w - 0.5, w - 0.5, -0.5}, dv[4] = {-0.5, -0.5, h - 0.5, h - 0.5};
                        for (int q = 0; q < 4; ++q) {
                            glm::dvec3 p = corner;
                            p[axis] += 0.5 * sp * dir;
                            p[u] += du[q] * sp;
                            p[v] += dv[q] * sp;
                            out.positions.emplace_back(p - out.origin);
                            out.normals.push_back(normal);
                            out.materials.push_back(mat);
                        }
                        // (u, v) counter-clockwise faces +axis; flip for the -axis face.
                        if (dir > 0) out.indices.insert(out.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
                        else out.indices.insert(out.indices.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
                        a += w;
                    }
            }
        }
    }
    out.ranges.push_back({0, static_cast<std::uint32_t>(out.indices.size()), DrawCondition::always()});
    // Skirts on the four faces across x and z: one quad per boundary cube that has solid
    // beyond it, drawn next to a coarser or a finer column.
    for (const int side : {side_neg_x, side_pos_x, side_neg_z, side_pos_z}) {
        const int axis = side / 2, dir = side % 2 ? 1 : -1, u = (axis + 1) % 3, v = (axis + 2) % 3;
        const int layer = dir > 0 ? n - 1 : 0;
        glm::vec3 normal(0.0f);
        normal[axis] = static_cast<float>(dir);
        const auto first = static_cast<std::uint32_t>(out.indices.size());
        for (int b = 0; b < n; ++b)
            for (int a = 0; a < n; ++a) {
                int c[3];
                c[axis] = layer, c[u] = a, c[v] = b;
                const std::size_t at = origin + c[0] * stride[0] + c[1] * stride[1] + c[2] * stride[2];
                if (!scratch.solid[at] || !scratch.solid[at + dir * static_cast<std::ptrdiff_t>(stride[axis])]) continue;
                const glm::dvec3 centre = detail::sample_position(s, c[0], c[1], c[2]);
                const double depth = detail::ground_depth(s, centre.x, centre.y, centre.z);
                const MaterialSample mat =
                    classify(centre.y, glm::dvec3(normal), depth < 0.0 ? 0.0 : depth, detail::point_looks(s, centre.x, centre.z));
                const auto base = static_cast<std::uint32_t>(out.positions.size());
                const double du[4] = {-0.5, 0.5, 0.5, -0.5}, dv[4] = {-0.5, -0.5, 0.5, 0.5};
                for (int q = 0; q < 4; ++q) {
                    glm::dvec3 p = centre;
                    p[axis] += 0.5 * sp * dir;
                    p[u] += du[q] * sp;
                    p[v] += dv[q] * sp;
                    out.positions.emplace_back(p - out.origin);
                    out.normals.push_back(normal);
                    out.materials.push_back(mat);
                }
                if (dir > 0) out.indices.insert(out.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
                else out.indices.insert(out.indices.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
            }
        const auto count = static_cast<std::uint32_t>(out.indices.size()) - first;
        out.ranges.push_back({first, count, DrawCondition::side_is(side, 1)});
        out.ranges.push_back({first, count, DrawCondition::side_is(side, -1)});
    }
}

}  // namespace isoterra
