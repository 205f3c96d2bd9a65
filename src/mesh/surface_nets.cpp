// Surface nets (Gibson 1998, in its naive form): one vertex per cell with a sign change, at
// the mean of the cell's edge crossings, and one quad per lattice edge with a sign change,
// joining the four cells around that edge, split along its shorter diagonal. A chunk owns
// the edges whose lower sample lies in its core [0, 32)^3, so it needs the cells at -1.
#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

using detail::kCubeEdges;
constexpr int kCells = kChunkSize + 1;  // cells -1..31 per axis

}  // namespace

void mesh_surface_nets(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out) {
    out.clear();
    if (!s.has_surface()) return;
    scratch.slots.assign(static_cast<std::size_t>(kCells) * kCells * kCells, -1);
    const auto slot_of = [&](int i, int j, int k) -> std::int32_t& {
        return scratch.slots[((static_cast<std::size_t>(k + 1) * kCells) + (j + 1)) * kCells + (i + 1)];
    };
    const double sp = s.lattice.spacing_m;

    // Vertices: the mean crossing of each cell, with the trilinear blend of corner gradients.
    for (int k = -1; k < kChunkSize; ++k)
        for (int j = -1; j < kChunkSize; ++j)
            for (int i = -1; i < kChunkSize; ++i) {
                float f[8];
                const int mask = detail::cell_corners(s, i, j, k, f);
                if (mask == 0 || mask == 255) continue;
                glm::dvec3 sum(0.0);
                int crossings = 0;
                for (const auto& e : kCubeEdges) {
                    if (!((mask >> e[0] ^ mask >> e[1]) & 1)) continue;
                    const double t = f[e[0]] / (f[e[0]] - f[e[1]]);
                    const glm::dvec3 a(e[0] & 1, e[0] >> 1 & 1, e[0] >> 2 & 1), b(e[1] & 1, e[1] >> 1 & 1, e[1] >> 2 & 1);
                    sum += a + (b - a) * t;
                    ++crossings;
                }
                const glm::dvec3 local = sum / static_cast<double>(crossings);  // in [0, 1]^3
                glm::vec3 gradient(0.0f);
                for (int c = 0; c < 8; ++c) {
                    const double w = (c & 1 ? local.x : 1 - local.x) * (c >> 1 & 1 ? local.y : 1 - local.y) *
                                     (c >> 2 & 1 ? local.z : 1 - local.z);
                    gradient += static_cast<float>(w) * detail::lattice_gradient(s, i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1));
                }
                slot_of(i, j, k) = static_cast<std::int32_t>(out.positions.size());
                detail::push_vertex(out, s, rules, detail::sample_position(s, i, j, k) + local * sp, gradient);
            }

    // Quads: for each owned edge with a sign change, the four cells around it, counter-
    // clockwise seen from the air.
    const auto emit = [&](std::uint32_t v0, std::uint32_t v1, std::uint32_t v2, std::uint32_t v3) {
        const auto dist2 = [&](std::uint32_t a, std::uint32_t b) {
            const glm::vec3 d = out.positions[a] - out.positions[b];
            return d.x * d.x + d.y * d.y + d.z * d.z;
        };
        if (dist2(v0, v2) <= dist2(v1, v3)) {
            out.indices.insert(out.indices.end(), {v0, v1, v2, v0, v2, v3});
        } else {
            out.indices.insert(out.indices.end(), {v0, v1, v3, v1, v2, v3});
        }
    };
    for (int k = 0; k < kChunkSize; ++k)
        for (int j = 0; j < kChunkSize; ++j)
            for (int i = 0; i < kChunkSize; ++i) {
                const bool here = s.at(i, j, k) < 0.0f;
                for (int axis = 0; axis < 3; ++axis) {
                    const int di = axis == 0, dj = axis == 1, dk = axis == 2;
                    const bool there = s.at(i + di, j + dj, k + dk) < 0.0f;
                    if (here == there) continue;
                    // The two other axes, in right-handed order: (y, z) for x, (z, x) for y, (x, y) for z.
                    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
                    std::uint32_t q[4];
                    const int uv[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
                    for (int n = 0; n < 4; ++n) {
                        int c[3] = {i, j, k};
                        c[u] += uv[n][0];
                        c[v] += uv[n][1];
                        q[n] = static_cast<std::uint32_t>(slot_of(c[0], c[1], c[2]));
                    }
                    // Solid below, air above along the axis: the surface faces +axis.
                    if (here) emit(q[0], q[1], q[2], q[3]);
                    else emit(q[3], q[2], q[1], q[0]);
                }
            }
}

}  // namespace isoterra
