// Mesh bytes between WebAssembly instances: a header of counts, then each array's bytes.
#include "mesh_bytes.hpp"

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

void drawn_arrays(const MeshBuffers& mesh, const Neighbourhood& neighbours, DrawnArrays& out) {
    const MeshBuffers drawn = select_for_neighbours(mesh, neighbours);
    out.origin = drawn.origin;
    const std::size_t n = drawn.positions.size();
    out.positions.resize(3 * n);
    out.normals.resize(3 * n);
    out.materials.assign(4 * n, 0.0f);
    out.materials_more.assign(2 * n, 0.0f);
    for (std::size_t v = 0; v < n; ++v) {
        for (int a = 0; a < 3; ++a) {
            out.positions[3 * v + a] = drawn.positions[v][a];
            out.normals[3 * v + a] = drawn.normals[v][a];
        }
        // Weights, not material numbers, are interpolated (as in the native renderer): grass,
        // soil, rock and snow in one array, sand and scree in the other.
        const auto add = [&](Material m, float w) {
            const int id = static_cast<int>(m);
            if (id < 4) out.materials[4 * v + id] += w;
            else out.materials_more[2 * v + id - 4] += w;
        };
        add(drawn.materials[v].primary, 1.0f - drawn.materials[v].blend);
        add(drawn.materials[v].secondary, drawn.materials[v].blend);
    }
    out.indices = drawn.indices;
}

}  // namespace isoterra::web
