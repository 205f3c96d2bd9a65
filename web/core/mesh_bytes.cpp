// Mesh bytes between WebAssembly instances: a header of counts, then each array's bytes.
#include "mesh_bytes.hpp"

#include <array>
#include <cstring>
#include <type_traits>

namespace isoterra::web {
namespace {

struct Header {
    double origin[3];
    std::uint32_t positions, normals, materials, indices, ranges, secondary, side_flags;
};

template <class T>
void put(std::vector<std::uint8_t>& out, const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t at = out.size();
    out.resize(at + v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(out.data() + at, v.data(), v.size() * sizeof(T));
}

template <class T>
bool take(const std::uint8_t*& p, const std::uint8_t* end, std::uint32_t count, std::vector<T>& v) {
    const std::size_t bytes = std::size_t{count} * sizeof(T);
    if (static_cast<std::size_t>(end - p) < bytes) return false;
    v.resize(count);
    if (count) std::memcpy(v.data(), p, bytes);
    p += bytes;
    return true;
}

}  // namespace

void pack_mesh(const MeshBuffers& m, std::vector<std::uint8_t>& out) {
    out.clear();
    const Header h{{m.origin.x, m.origin.y, m.origin.z},           static_cast<std::uint32_t>(m.positions.size()),
                   static_cast<std::uint32_t>(m.normals.size()),   static_cast<std::uint32_t>(m.materials.size()),
                   static_cast<std::uint32_t>(m.indices.size()),   static_cast<std::uint32_t>(m.ranges.size()),
                   static_cast<std::uint32_t>(m.secondary.size()), static_cast<std::uint32_t>(m.side_flags.size())};
    out.resize(sizeof h);
    std::memcpy(out.data(), &h, sizeof h);
    put(out, m.positions);
    put(out, m.normals);
    put(out, m.materials);
    put(out, m.indices);
    put(out, m.ranges);
    put(out, m.secondary);
    put(out, m.side_flags);
}

bool unpack_mesh(const std::uint8_t* data, std::size_t size, MeshBuffers& m) {
    Header h;
    if (size < sizeof h) return false;
    std::memcpy(&h, data, sizeof h);
    const std::uint8_t* p = data + sizeof h;
    const std::uint8_t* end = data + size;
    m.origin = {h.origin[0], h.origin[1], h.origin[2]};
    const bool whole = take(p, end, h.positions, m.positions) && take(p, end, h.normals, m.normals) &&
                       take(p, end, h.materials, m.materials) && take(p, end, h.indices, m.indices) && take(p, end, h.ranges, m.ranges) &&
                       take(p, end, h.secondary, m.secondary) && take(p, end, h.side_flags, m.side_flags) && p == end;
    if (!whole || m.normals.size() != m.positions.size() || m.materials.size() != m.positions.size()) return false;
    for (const std::uint32_t i : m.indices)
        if (i >= m.positions.size()) return false;
    return true;
}

void pack_chunk(const MeshBuffers& mesh, const MeshBuffers& water, std::vector<std::uint8_t>& out) {
    std::vector<std::uint8_t> part;
    pack_mesh(mesh, part);
    const auto length = static_cast<std::uint32_t>(part.size());
    out.resize(4);
    std::memcpy(out.data(), &length, 4);
    out.insert(out.end(), part.begin(), part.end());
    pack_mesh(water, part);
    out.insert(out.end(), part.begin(), part.end());
}

bool unpack_chunk(const std::uint8_t* data, std::size_t size, MeshBuffers& mesh, MeshBuffers& water) {
    std::uint32_t length = 0;
    if (size < 4) return false;
    std::memcpy(&length, data, 4);
    if (size - 4 < length) return false;
    return unpack_mesh(data + 4, length, mesh) && unpack_mesh(data + 4 + length, size - 4 - length, water);
}

void drawn_arrays(const MeshBuffers& mesh, const Neighbourhood& neighbours, double spacing_m, DrawnArrays& out) {
    std::vector<std::uint32_t> sources;
    const MeshBuffers drawn = select_for_neighbours(mesh, neighbours, &sources);
    // The grid of the compact vertex, and its rule: a vertex on a face and near none (the
    // coarser neighbour's own) on the coarser chunk's grid, where that chunk draws it.
    const CompactScale scale = compact_scale(drawn, spacing_m);
    out.origin = drawn.origin + glm::dvec3(scale.offset);
    out.step = scale.step;
    const std::size_t n = drawn.positions.size();
    out.vertices.resize(4 * n);
    out.normals.resize(2 * n);
    for (std::size_t v = 0; v < n; ++v) {
        const unsigned flags = mesh.side_flags.empty() ? 0u : mesh.side_flags[sources[v]];
        const std::array<std::uint16_t, 3> at = compact_position(drawn.positions[v], flags, scale);
        const MaterialSample& m = drawn.materials[v];
        out.vertices[4 * v] = at[0], out.vertices[4 * v + 1] = at[1], out.vertices[4 * v + 2] = at[2];
        out.vertices[4 * v + 3] = static_cast<std::uint16_t>(blend_byte(m.blend) | static_cast<unsigned>(m.primary) << 8 |
                                                             static_cast<unsigned>(m.secondary) << 11);
        const std::array<std::int16_t, 2> normal = octahedral_encode(drawn.normals[v]);
        out.normals[2 * v] = normal[0], out.normals[2 * v + 1] = normal[1];
    }
    out.short_indices.clear();
    out.long_indices.clear();
    if (n <= 65536) out.short_indices.assign(drawn.indices.begin(), drawn.indices.end());
    else out.long_indices = drawn.indices;
}

}  // namespace isoterra::web
