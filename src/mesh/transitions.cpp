// Which parts of a chunk's mesh are drawn next to neighbours of other levels of detail, and
// where its vertices then sit. A mesher builds every variant once (Transvoxel strips for all
// six faces, surface-net seams, block skirts) as index ranges with a condition on the
// neighbourhood; drawing picks ranges and moves vertices, so a neighbour changing level
// costs no remesh. The renderer's vertex shader repeats transition_position().
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

std::uint32_t level_code(int relative) { return relative > 0 ? 1u : relative < 0 ? 2u : 0u; }

}  // namespace

unsigned Neighbourhood::coarser_mask() const {
    unsigned mask = 0;
    for (int s = 0; s < kSides; ++s) mask |= static_cast<unsigned>(side[s] > 0) << s;
    return mask;
}

std::uint32_t Neighbourhood::code() const {
    std::uint32_t c = 0;
    for (int s = 0; s < kSides; ++s) c |= level_code(side[s]) << (2 * s);
    for (int d = 0; d < 4; ++d) c |= level_code(diagonal[d]) << (12 + 2 * d);
    return c;
}

DrawCondition DrawCondition::side_is(int side, int level) { return {3u << (2 * side), level_code(level) << (2 * side)}; }

DrawCondition DrawCondition::diagonal_is(int corner, int level) {
    return {3u << (12 + 2 * corner), level_code(level) << (12 + 2 * corner)};
}

glm::vec3 transition_position(const MeshBuffers& m, std::size_t v, unsigned coarser_mask) {
    const glm::vec3 p = m.positions[v];
    if (m.side_flags.empty() || coarser_mask == 0) return p;
    const unsigned near = m.side_flags[v] & 63u, on = m.side_flags[v] >> 8 & 63u;
    // A vertex on a face whose neighbour is not coarser is shared with that neighbour: it
    // stays where the neighbour has it.
    if ((near & coarser_mask) == 0 || (on & ~coarser_mask) != 0) return p;
    const glm::vec3 s = m.secondary[v];
    const glm::vec3 d((near & coarser_mask & 3u) ? s.x : 0.0f, (near & coarser_mask & 12u) ? s.y : 0.0f,
                      (near & coarser_mask & 48u) ? s.z : 0.0f);
    // Lengyel: move within the tangent plane, so the surface does not bulge.
    const glm::vec3 n = m.normals[v];
    const float along = n.x * d.x + n.y * d.y + n.z * d.z;
    return p + (d - n * along);
}

MeshBuffers select_for_neighbours(const MeshBuffers& m, const Neighbourhood& neighbours, std::vector<std::uint32_t>* sources) {
    MeshBuffers out;
    if (sources) sources->clear();
    out.origin = m.origin;
    const unsigned mask = neighbours.coarser_mask();
    // Where each vertex is drawn (computed once, on first use).
    std::vector<glm::vec3> at(m.positions.size());
    std::vector<bool> placed(m.positions.size(), false);
    const auto drawn_at = [&](std::uint32_t v) -> const glm::vec3& {
        if (!placed[v]) at[v] = transition_position(m, v, mask), placed[v] = true;
        return at[v];
    };
    // Only the vertices the drawn triangles use, in their first use's order.
    std::vector<std::uint32_t> remap(m.positions.size(), UINT32_MAX);
    const auto take = [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t i = first; i + 2 < first + count; i += 3) {
            // A transition cell joins a vertex of the half-resolution face with one of the
            // full-resolution face that stays on the chunk's edge; where the field is linear
            // there both lie on one point, and the triangle has no area: left out, its two
            // neighbours then share the edge it collapsed to.
            const glm::vec3 &a = drawn_at(m.indices[i]), &b = drawn_at(m.indices[i + 1]), &c = drawn_at(m.indices[i + 2]);
            if (a == b || b == c || a == c) continue;
            for (std::uint32_t k = i; k < i + 3; ++k) {
                const std::uint32_t v = m.indices[k];
                if (remap[v] == UINT32_MAX) {
                    remap[v] = static_cast<std::uint32_t>(out.positions.size());
                    out.positions.push_back(at[v]);
                    out.normals.push_back(m.normals[v]);
                    out.materials.push_back(m.materials[v]);
                    if (sources) sources->push_back(v);
                }
                out.indices.push_back(remap[v]);
            }
        }
    };
    if (m.ranges.empty()) take(0, static_cast<std::uint32_t>(m.indices.size()));
    for (const IndexRange& r : m.ranges)
        if (r.when.holds(neighbours)) take(r.first, r.count);
    return out;
}

std::size_t triangles_drawn(const MeshBuffers& m, const Neighbourhood& neighbours) {
    if (m.ranges.empty()) return m.triangle_count();
    std::size_t n = 0;
    for (const IndexRange& r : m.ranges)
        if (r.when.holds(neighbours)) n += r.count / 3;
    return n;
}

void MeshBuffers::append(const MeshBuffers& other) {
    if (other.positions.empty()) return;
    const MeshBuffers drawn = select_for_neighbours(other, Neighbourhood{});
    const auto base = static_cast<std::uint32_t>(positions.size());
    // Positions move to this mesh's origin through double, so a vertex two chunks share
    // lands on the same float in both.
    const glm::dvec3 shift = other.origin - origin;
    // Grown by doubling, not to the exact size: a mesh appended to chunk by chunk (an
    // export of millions of triangles) would otherwise be copied whole at every append.
    const auto grow = [](auto& v, std::size_t more) {
        if (v.size() + more > v.capacity()) v.reserve(std::max(v.size() + more, 2 * v.capacity()));
    };
    grow(positions, drawn.positions.size());
    for (const glm::vec3& p : drawn.positions) positions.emplace_back(glm::dvec3(p) + shift);
    normals.insert(normals.end(), drawn.normals.begin(), drawn.normals.end());
    materials.insert(materials.end(), drawn.materials.begin(), drawn.materials.end());
    grow(indices, drawn.indices.size());
    // Two corners a few ulps apart near the chunk's origin can round to one float here, far
    // from it (alpine's 8 km view had two such triangles): left out, as select_for_neighbours
    // leaves out those it puts on one point.
    for (std::size_t t = 0; t + 2 < drawn.indices.size(); t += 3) {
        const std::uint32_t a = base + drawn.indices[t], b = base + drawn.indices[t + 1], c = base + drawn.indices[t + 2];
        if (positions[a] == positions[b] || positions[b] == positions[c] || positions[a] == positions[c]) continue;
        indices.insert(indices.end(), {a, b, c});
    }
}

}  // namespace isoterra
