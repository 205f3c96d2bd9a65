// The water surface of a chunk's columns: a grid over its column cells at the heights of the
// field's `water` output, a polygon per cell where any corner is wet (water above the ground
// and above the sea level, which renderers draw as a level), clipped at the shore on each
// edge from a wet corner to a dry one. A cell's water is made by exactly one chunk of its
// column: the one whose core rows [y0, y0 + 32 spacings) hold the ground at the cell's lower
// corner (raised to the world's floor), a chunk that has a surface there and so is built.
#include <cmath>
#include <limits>

#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

constexpr int kColumns = kChunkSize + 1;

// Vertex slots: one per core column (its wet corner) and one per edge between two columns
// along x (0) or z (1) (its shore crossing).
std::size_t corner_slot(int i, int k) { return static_cast<std::size_t>(k) * kColumns + i; }
std::size_t edge_slot(int i, int k, int along) {
    return static_cast<std::size_t>(kColumns) * kColumns + (static_cast<std::size_t>(k) * kColumns + i) * 2 + along;
}

}  // namespace

void mesh_water(const ChunkSamples& s, MeshBuffers& out, double floor_m) {
    detail::begin_chunk_mesh(s, out);
    if (s.looks.water.empty() || !s.has_ground) return;
    const int pad = s.pad.lo;
    const std::size_t nx = static_cast<std::size_t>(s.lattice.size.x);
    const double sp = s.lattice.spacing_m;
    const double y0 = detail::sample_position(s, 0, 0, 0).y, y1 = detail::sample_position(s, 0, kChunkSize, 0).y;
    const auto column = [&](int i, int k) { return static_cast<std::size_t>(k + pad) * nx + static_cast<std::size_t>(i + pad); };
    const auto water = [&](int i, int k) { return s.looks.water[column(i, k)]; };
    const auto ground = [&](int i, int k) { return s.ground[column(i, k)]; };
    const auto wet = [&](int i, int k) {
        const float w = water(i, k);
        return std::isfinite(w) && w > ground(i, k) && w > s.sea_level_m;
    };
    // The chunk that holds the surface at the column: where its ground is, or the floor's
    // top (world_floor_value is 0 half a metre above the floor) where the ground is lower.
    const auto owns = [&](int i, int k) {
        const double g = std::max(static_cast<double>(ground(i, k)), floor_m + 0.5);
        return g >= y0 && g < y1;
    };

    thread_local std::vector<std::int32_t> slots;
    slots.assign(static_cast<std::size_t>(kColumns) * kColumns * 3, -1);
    const auto corner_vertex = [&](int i, int k) {
        std::int32_t& slot = slots[corner_slot(i, k)];
        if (slot < 0) {
            slot = static_cast<std::int32_t>(out.positions.size());
            out.positions.emplace_back(static_cast<float>(i * sp), static_cast<float>(water(i, k) - out.origin.y),
                                       static_cast<float>(k * sp));
        }
        return static_cast<std::uint32_t>(slot);
    };
    // The shore on the edge from wet corner a to dry corner b: where the water's depth
    // (water - ground, linear along the edge) reaches 0 when b has water below its ground;
    // else where a's level meets the ground rising to b; else (b's water is under the sea,
    // or b's ground is below a's level but b is dry by the field's word) halfway. The
    // water keeps a's level out to there.
    const auto shore_vertex = [&](int ai, int ak, int bi, int bk) {
        const int i = std::min(ai, bi), k = std::min(ak, bk), along = ak != bk;
        std::int32_t& slot = slots[edge_slot(i, k, along)];
        if (slot >= 0) return static_cast<std::uint32_t>(slot);
        const double wa = water(ai, ak), ga = ground(ai, ak), wb = water(bi, bk), gb = ground(bi, bk);
        double t = 0.5;
        if (std::isfinite(wb) && wb <= gb) t = (wa - ga) / ((wa - ga) - (wb - gb));
        else if (wa <= gb) t = (wa - ga) / (gb - ga);
        t = std::clamp(t, 0.0, 1.0);
        slot = static_cast<std::int32_t>(out.positions.size());
        out.positions.emplace_back(static_cast<float>((ai + (bi - ai) * t) * sp), static_cast<float>(wa - out.origin.y),
                                   static_cast<float>((ak + (bk - ak) * t) * sp));
        return static_cast<std::uint32_t>(slot);
    };

    for (int k = 0; k < kChunkSize; ++k)
        for (int i = 0; i < kChunkSize; ++i) {
            if (!owns(i, k)) continue;
            // Counter-clockwise seen from above (+y): (x, z) -> (x, z+1) -> (x+1, z+1) -> (x+1, z).
            const int ci[4] = {i, i, i + 1, i + 1}, ck[4] = {k, k + 1, k + 1, k};
            bool w[4];
            int any = 0;
            for (int c = 0; c < 4; ++c) any += w[c] = wet(ci[c], ck[c]);
            if (!any) continue;
            std::uint32_t polygon[8];
            int n = 0;
            for (int c = 0; c < 4; ++c) {
                const int d = (c + 1) & 3;
                if (w[c]) polygon[n++] = corner_vertex(ci[c], ck[c]);
                if (w[c] && !w[d]) polygon[n++] = shore_vertex(ci[c], ck[c], ci[d], ck[d]);
                if (!w[c] && w[d]) polygon[n++] = shore_vertex(ci[d], ck[d], ci[c], ck[c]);
            }
            // A convex polygon (the cell less its dry corners): a fan, leaving out triangles
            // with no area seen from above (two shore points on a dry corner).
            for (int v = 1; v + 1 < n; ++v) {
                const glm::vec3 a = out.positions[polygon[0]], b = out.positions[polygon[v]], c = out.positions[polygon[v + 1]];
                const float area = (b.z - a.z) * (c.x - a.x) - (b.x - a.x) * (c.z - a.z);
                if (area > 0.0f) out.indices.insert(out.indices.end(), {polygon[0], polygon[v], polygon[v + 1]});
            }
        }
    out.normals.assign(out.positions.size(), glm::vec3(0.0f, 1.0f, 0.0f));
    out.materials.assign(out.positions.size(), MaterialSample{});
}

}  // namespace isoterra
