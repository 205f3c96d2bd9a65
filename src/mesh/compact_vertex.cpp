// The renderer's 16-byte vertex (CompactVertex): positions on a grid of the chunk's
// spacing, octahedral normals, the material pair and blend, the secondary offset's magnitude
// and the side flags in bits. decode_compact is the vertex shader's arithmetic (render/
// terrain_shaders.cpp), so the tests measure what is drawn.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "isoterra/mesh.hpp"

namespace isoterra {
namespace {

constexpr int kGridBits = 10;  // grid points a cell: 2^10, 64 cells in 16 bits
constexpr int kSecondaryLevels = 127;

// Rounds half up: the same grid point whichever origin a value is measured from.
double round_half_up(double x) { return std::floor(x + 0.5); }

std::int16_t snorm16(float v) { return static_cast<std::int16_t>(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f)); }

}  // namespace

std::array<std::int16_t, 2> octahedral_encode(const glm::vec3& n) {
    const float sum = std::fabs(n.x) + std::fabs(n.y) + std::fabs(n.z);
    if (!(sum > 0.0f)) return {0, 0};
    float x = n.x / sum, y = n.y / sum;
    // The lower half folds over the diagonals onto the corners.
    if (n.z < 0.0f) {
        const float fx = (1.0f - std::fabs(y)) * (x >= 0.0f ? 1.0f : -1.0f);
        const float fy = (1.0f - std::fabs(x)) * (y >= 0.0f ? 1.0f : -1.0f);
        x = fx, y = fy;
    }
    return {snorm16(x), snorm16(y)};
}

glm::vec3 octahedral_decode(std::int16_t x, std::int16_t y) {
    const float ex = std::max(static_cast<float>(x) / 32767.0f, -1.0f), ey = std::max(static_cast<float>(y) / 32767.0f, -1.0f);
    glm::vec3 n(ex, ey, 1.0f - std::fabs(ex) - std::fabs(ey));
    const float t = std::max(-n.z, 0.0f);
    n.x += n.x >= 0.0f ? -t : t;
    n.y += n.y >= 0.0f ? -t : t;
    return glm::normalize(n);
}

CompactScale compact_scale(const MeshBuffers& m, double spacing_m) {
    CompactScale s;
    glm::dvec3 lo(0.0), hi(0.0);
    if (!m.positions.empty()) lo = hi = glm::dvec3(m.positions[0]);
    for (const glm::vec3& p : m.positions) lo = glm::min(lo, glm::dvec3(p)), hi = glm::max(hi, glm::dvec3(p));
    for (int a = 0; a < 3; ++a) {
        // The finest power of two of the spacing up to 2^-10 whose 65,536 points span the
        // bounds; the offset on that grid, so chunks of a level share its points. (Two grid
        // steps of margin: the coarser grid's points of on-face vertices may lie outside.)
        double step = std::ldexp(spacing_m, -kGridBits);
        while ((std::floor(hi[a] / step) - std::floor(lo[a] / step) + 4.0) > 65535.0) step *= 2.0;
        s.step[a] = static_cast<float>(step);
        s.offset[a] = static_cast<float>((std::floor(lo[a] / step) - 2.0) * step);
    }
    float largest = 0.0f;
    for (std::size_t v = 0; v < std::min(m.secondary.size(), m.side_flags.size()); ++v)
        for (int a = 0; a < 3; ++a)
            if (m.side_flags[v] >> (2 * a) & 3u) largest = std::max(largest, std::fabs(m.secondary[v][a]));
    s.secondary_step = largest / kSecondaryLevels;
    return s;
}

std::uint8_t blend_byte(float blend) { return static_cast<std::uint8_t>(std::lround(std::clamp(blend, 0.0f, 1.0f) * 255.0f)); }

std::array<std::uint16_t, 3> compact_position(const glm::vec3& p, unsigned flags, const CompactScale& s) {
    const unsigned near = flags & 63u, on = flags >> 8 & 63u;
    // On a face and near none: a Transvoxel vertex of the coarser neighbour, on its grid.
    const double every = on != 0 && near == 0 ? 2.0 : 1.0;
    std::array<std::uint16_t, 3> out{};
    for (int a = 0; a < 3; ++a) {
        const double step = static_cast<double>(s.step[a]) * every;
        const double q = round_half_up(static_cast<double>(p[a]) / step) * step - static_cast<double>(s.offset[a]);
        out[a] = static_cast<std::uint16_t>(std::clamp(std::lround(q / s.step[a]), 0L, 65535L));
    }
    return out;
}

CompactVertex compact_vertex(const MeshBuffers& m, std::size_t v, const CompactScale& s) {
    CompactVertex c{};
    const unsigned flags = m.side_flags.empty() ? 0u : m.side_flags[v];
    const unsigned near = flags & 63u, on = flags >> 8 & 63u;
    const std::array<std::uint16_t, 3> at = compact_position(m.positions[v], flags, s);
    for (int a = 0; a < 3; ++a) c.position[a] = at[a];
    const std::array<std::int16_t, 2> n = octahedral_encode(m.normals[v]);
    c.normal[0] = n[0], c.normal[1] = n[1];
    const MaterialSample& mat = m.materials[v];
    const unsigned blend = blend_byte(mat.blend);
    // The magnitude towards the inside from the side the vertex is near (none: nothing moves).
    unsigned magnitude[3] = {0, 0, 0};
    if (v < m.secondary.size() && s.secondary_step > 0.0f)
        for (int a = 0; a < 3; ++a) {
            const unsigned side = near >> (2 * a) & 3u;
            if (side == 0) continue;
            const float inward = side == 1 ? m.secondary[v][a] : -m.secondary[v][a];
            magnitude[a] = static_cast<unsigned>(std::clamp(std::lround(inward / s.secondary_step), 0L, long{kSecondaryLevels}));
        }
    c.blend_z = static_cast<std::uint16_t>(blend | magnitude[2] << 8);
    c.bits = near | on << 6 | static_cast<unsigned>(mat.primary) << 12 | static_cast<unsigned>(mat.secondary) << 15 | magnitude[0] << 18 |
             magnitude[1] << 25;
    return c;
}

CompactScale compact_vertices(const MeshBuffers& m, double spacing_m, std::vector<CompactVertex>& out) {
    const CompactScale s = compact_scale(m, spacing_m);
    out.resize(m.vertex_count());
    for (std::size_t v = 0; v < out.size(); ++v) out[v] = compact_vertex(m, v, s);
    return s;
}

CompactDecoded decode_compact(const CompactVertex& c, const CompactScale& s) {
    CompactDecoded d{};
    for (int a = 0; a < 3; ++a) d.position[a] = s.offset[a] + static_cast<float>(c.position[a]) * s.step[a];
    d.normal = octahedral_decode(c.normal[0], c.normal[1]);
    const unsigned near = c.bits & 63u, on = c.bits >> 6 & 63u;
    d.side_flags = static_cast<std::uint16_t>(near | on << 8);
    const unsigned magnitude[3] = {c.bits >> 18 & 127u, c.bits >> 25 & 127u, static_cast<unsigned>(c.blend_z >> 8 & 127u)};
    for (int a = 0; a < 3; ++a)
        d.secondary[a] = static_cast<float>(magnitude[a]) * s.secondary_step * ((near >> (2 * a) & 2u) ? -1.0f : 1.0f);
    const unsigned blend = c.blend_z & 255u, primary = c.bits >> 12 & 7u, secondary = c.bits >> 15 & 7u;
    d.weights.fill(0.0f);
    if (primary < kMaterialCount) d.weights[primary] += static_cast<float>(255u - blend) / 255.0f;
    if (secondary < kMaterialCount) d.weights[secondary] += static_cast<float>(blend) / 255.0f;
    return d;
}

}  // namespace isoterra
