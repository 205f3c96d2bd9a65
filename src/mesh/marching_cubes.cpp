// Marching cubes (Lorensen & Cline 1987) with tables built at start-up rather than typed in.
// Each face of a cell decides its own contour segments, and an ambiguous face (two solid
// corners diagonal) always keeps its solid corners apart. Two cells sharing a face therefore
// cut it the same way, so a closed surface stays closed. Segments are oriented with the
// solid on their left seen from outside the cell; chained into loops and fanned, they give
// triangles that face the air.
#include <array>
#include <cstring>

#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

// Edge e of kCubeEdges runs along axis kEdgeAxis[e].
using detail::kCubeEdges;
constexpr int kEdgeAxis[12] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};

struct Tables {
    // Up to 5 triangles (15 edge numbers) per case; count[c] edge numbers are used.
    std::array<std::array<std::int8_t, 16>, 256> tris{};
    std::array<std::int8_t, 256> count{};
};

glm::dvec3 corner_pos(int c) { return {static_cast<double>(c & 1), static_cast<double>(c >> 1 & 1), static_cast<double>(c >> 2 & 1)}; }

int edge_between(int a, int b) {
    for (int e = 0; e < 12; ++e)
        if ((kCubeEdges[e][0] == a && kCubeEdges[e][1] == b) || (kCubeEdges[e][0] == b && kCubeEdges[e][1] == a)) return e;
    return -1;
}

glm::dvec3 edge_mid(int e) { return (corner_pos(kCubeEdges[e][0]) + corner_pos(kCubeEdges[e][1])) * 0.5; }

Tables build_tables() {
    Tables t;
    for (int mask = 0; mask < 256; ++mask) {
        const auto solid = [&](int c) { return (mask >> c & 1) != 0; };
        std::array<int, 12> next;
        next.fill(-1);
        const auto add_segment = [&](int ea, int eb, int solid_corner, const glm::dvec3& outward) {
            const glm::dvec3 p = edge_mid(ea), d = edge_mid(eb) - p;
            const glm::dvec3 left = glm::dvec3(outward.y * d.z - outward.z * d.y, outward.z * d.x - outward.x * d.z,
                                               outward.x * d.y - outward.y * d.x);
            const glm::dvec3 s = corner_pos(solid_corner) - p;
            if (left.x * s.x + left.y * s.y + left.z * s.z > 0) next[ea] = eb;
            else next[eb] = ea;
        };
        for (int axis = 0; axis < 3; ++axis) {
            for (int side = 0; side < 2; ++side) {
                // The face's corners in cyclic order over the two other axes.
                const int u = (axis + 1) % 3, v = (axis + 2) % 3;
                int q[4];
                const int uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
                for (int n = 0; n < 4; ++n) q[n] = side << axis | uv[n][0] << u | uv[n][1] << v;
                glm::dvec3 outward(0.0);
                outward[axis] = side ? 1.0 : -1.0;
                int crossing[4], nc = 0;
                for (int n = 0; n < 4; ++n)
                    if (solid(q[n]) != solid(q[(n + 1) % 4])) crossing[nc++] = n;
                if (nc == 2) {
                    int sc = -1;
                    for (int n = 0; n < 4; ++n)
                        if (solid(q[n])) sc = q[n];
                    add_segment(edge_between(q[crossing[0]], q[(crossing[0] + 1) % 4]),
                                edge_between(q[crossing[1]], q[(crossing[1] + 1) % 4]), sc, outward);
                } else if (nc == 4) {
                    // Ambiguous face: cut off each solid corner on its own.
                    for (int n = 0; n < 4; ++n) {
                        if (!solid(q[n])) continue;
                        add_segment(edge_between(q[(n + 3) % 4], q[n]), edge_between(q[n], q[(n + 1) % 4]), q[n], outward);
                    }
                }
            }
        }
        // Chain the segments into loops and fan each loop into triangles.
        std::array<bool, 12> used{};
        int written = 0;
        for (int start = 0; start < 12; ++start) {
            if (next[start] < 0 || used[start]) continue;
            int loop[12], len = 0;
            for (int e = start; !used[e]; e = next[e]) {
                used[e] = true;
                loop[len++] = e;
            }
            // Fan from the loop vertex that makes no triangle lie flat in a cell face (a loop
            // can come back to a face it left); such a triangle would meet its mirror image
            // from the neighbouring cell and make the surface non-manifold there.
            const auto faces_of = [](int e) {
                int f = 0;  // bit axis * 2 + side for each face holding the edge
                for (int axis = 0; axis < 3; ++axis) {
                    if (axis == kEdgeAxis[e]) continue;
                    f |= 1 << (axis * 2 + (kCubeEdges[e][0] >> axis & 1));
                }
                return f;
            };
            int origin = 0;
            for (int o = 0; o < len; ++o) {
                bool flat = false;
                for (int n = 1; n + 1 < len; ++n)
                    flat |= (faces_of(loop[o]) & faces_of(loop[(o + n) % len]) & faces_of(loop[(o + n + 1) % len])) != 0;
                if (!flat) {
                    origin = o;
                    break;
                }
            }
            for (int n = 1; n + 1 < len; ++n) {
                t.tris[mask][written++] = static_cast<std::int8_t>(loop[origin]);
                t.tris[mask][written++] = static_cast<std::int8_t>(loop[(origin + n) % len]);
                t.tris[mask][written++] = static_cast<std::int8_t>(loop[(origin + n + 1) % len]);
            }
        }
        t.count[mask] = static_cast<std::int8_t>(written);
    }
    // Orientation check on one corner: the triangle must face away from the solid corner 0.
    // If the left-hand rule above produced the opposite winding, reverse every triangle.
    const int* tri = nullptr;
    int e3[3];
    for (int n = 0; n < 3; ++n) e3[n] = t.tris[1][n];
    tri = e3;
    const glm::dvec3 a = edge_mid(tri[0]), b = edge_mid(tri[1]), c = edge_mid(tri[2]);
    const glm::dvec3 ab = b - a, ac = c - a;
    const glm::dvec3 n(ab.y * ac.z - ab.z * ac.y, ab.z * ac.x - ab.x * ac.z, ab.x * ac.y - ab.y * ac.x);
    if (n.x + n.y + n.z < 0)
        for (auto& list : t.tris)
            for (int k = 0; k + 2 < 16; k += 3) std::swap(list[k + 1], list[k + 2]);
    return t;
}

const Tables& tables() {
    static const Tables t = build_tables();
    return t;
}

}  // namespace

void mesh_marching_cubes(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out) {
    out.clear();
    const MaterialClassifier classify(rules);
    if (!s.has_surface()) return;
    const Tables& t = tables();
    // One vertex slot per lattice edge (sample, axis), for the two layers of samples the
    // cells of one layer k touch (k and k + 1), reused in turn: 26 KB that stay in cache.
    constexpr int n = kChunkSize + 1;
    constexpr std::size_t kLayer = static_cast<std::size_t>(n) * n * 3;
    scratch.slots.assign(2 * kLayer, -1);
    const double sp = s.lattice.spacing_m;

    detail::mixed_cell_rows(s, 0, kChunkSize, scratch.rows);
    for (int k = 0; k < kChunkSize; ++k) {
        // Layer k + 1 takes the place of layer k - 1, which no cell from here on touches.
        std::fill_n(scratch.slots.begin() + static_cast<std::ptrdiff_t>(((k + 1) & 1) * kLayer), kLayer, -1);
        for (int j = 0; j < kChunkSize; ++j)
            for (std::uint64_t bits = scratch.rows[static_cast<std::size_t>(k) * kChunkSize + j]; bits; bits &= bits - 1) {
                const int i = __builtin_ctzll(bits);
                float f[8];
                const int mask = detail::cell_corners(s, i, j, k, f);
                std::uint32_t vertex[12];
                for (int e = 0; e < 12; ++e) {
                    const int a = kCubeEdges[e][0];
                    if (!((mask >> a ^ mask >> kCubeEdges[e][1]) & 1)) continue;
                    const int ai = i + (a & 1), aj = j + (a >> 1 & 1), ak = k + (a >> 2 & 1);
                    std::int32_t& slot = scratch.slots[(ak & 1) * kLayer + (static_cast<std::size_t>(aj) * n + ai) * 3 + kEdgeAxis[e]];
                    if (slot < 0) {
                        // The crossing between the edge's lower sample a and upper sample b.
                        const int b = kCubeEdges[e][1];
                        const float fa = f[a], fb = f[b];
                        const float tt = fa / (fa - fb);
                        glm::dvec3 p = detail::sample_position(s, ai, aj, ak);
                        p[kEdgeAxis[e]] += static_cast<double>(tt) * sp;
                        const glm::vec3 ga = detail::lattice_gradient(s, ai, aj, ak);
                        const glm::vec3 gb = detail::lattice_gradient(s, i + (b & 1), j + (b >> 1 & 1), k + (b >> 2 & 1));
                        slot = static_cast<std::int32_t>(out.positions.size());
                        detail::push_vertex(out, s, classify, p, ga + (gb - ga) * tt);
                    }
                    vertex[e] = static_cast<std::uint32_t>(slot);
                }
                for (int v = 0; v < t.count[mask]; ++v) out.indices.push_back(vertex[t.tris[mask][v]]);
            }
    }
}

}  // namespace isoterra
