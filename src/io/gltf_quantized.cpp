// glTF meshes for KHR_mesh_quantization and EXT_meshopt_compression: vertices reordered and
// quantized, then each stream encoded with meshoptimizer's codecs (Debian's 0.18 writes the
// bitstream versions the extension specifies: attributes 0, triangles 1).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <glm/common.hpp>
#include <meshoptimizer.h>

#include "drawn_mesh.hpp"
#include "gltf_parts.hpp"

namespace isoterra::detail {
namespace {

template <class T>
std::string bytes_of(const std::vector<T>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

std::int8_t snorm8(float v) { return static_cast<std::int8_t>(std::lround(std::clamp(v, -1.0f, 1.0f) * 127.0f)); }

}  // namespace

GltfPrimitive quantized_primitive(const NamedMesh& nm, const MeshBuffers& m, bool placed) {
    const std::size_t nv = m.vertex_count(), ni = m.indices.size();
    // Triangles for the post-transform cache, then vertices in the order they are first used:
    // what both codecs compress best (and a GPU draws fastest).
    std::vector<unsigned> indices(ni), remap(nv);
    meshopt_optimizeVertexCache(indices.data(), m.indices.data(), ni, nv);
    const std::size_t used = meshopt_optimizeVertexFetchRemap(remap.data(), indices.data(), ni, nv);
    meshopt_remapIndexBuffer(indices.data(), indices.data(), ni, remap.data());
    std::vector<std::uint32_t> order(used);  // new vertex -> old vertex
    for (std::size_t v = 0; v < nv; ++v)
        if (remap[v] != ~0u) order[remap[v]] = static_cast<std::uint32_t>(v);

    // Positions on a uniform grid of 65536 steps over the longest side of the box, in double
    // so that far-out meshes keep their precision before the node's translation.
    std::vector<glm::dvec3> where(used);
    for (std::size_t v = 0; v < used; ++v) where[v] = placed ? glm::dvec3(m.positions[order[v]]) : m.world_position(order[v]);
    glm::dvec3 lo = where.empty() ? glm::dvec3(0.0) : where[0], hi = lo;
    for (const auto& p : where) lo = glm::min(lo, p), hi = glm::max(hi, p);
    const double extent = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    const double step = extent > 0.0 ? extent / 65535.0 : 1.0;
    std::vector<std::uint16_t> positions(4 * used, 0);
    std::uint16_t qlo[3] = {65535, 65535, 65535}, qhi[3] = {0, 0, 0};
    for (std::size_t v = 0; v < used; ++v)
        for (int a = 0; a < 3; ++a) {
            const auto q = static_cast<std::uint16_t>(std::clamp(std::lround((where[v][a] - lo[a]) / step), 0L, 65535L));
            positions[4 * v + a] = q;
            qlo[a] = std::min(qlo[a], q), qhi[a] = std::max(qhi[a], q);
        }
    std::vector<std::int8_t> normals(4 * used, 0);
    std::vector<std::uint8_t> colours(4 * used);
    for (std::size_t v = 0; v < used; ++v) {
        const glm::vec3 n = m.normals[order[v]];
        for (int a = 0; a < 3; ++a) normals[4 * v + a] = snorm8(n[a]);
        const glm::vec3 c = glm::clamp(vertex_colour(nm, m, order[v]), 0.0f, 1.0f);
        for (int k = 0; k < 3; ++k) colours[4 * v + k] = static_cast<std::uint8_t>(c[k] * 255.0f + 0.5f);
        colours[4 * v + 3] = 255;
    }

    GltfPrimitive p;
    p.translation = (placed ? m.origin : glm::dvec3(0.0)) + lo;
    p.scale = step;
    p.position = {
        bytes_of(positions),
        8,
        used,
        false,
        {{"componentType", 5123}, {"count", used}, {"type", "VEC3"}, {"min", {qlo[0], qlo[1], qlo[2]}}, {"max", {qhi[0], qhi[1], qhi[2]}}}};
    p.normal = {bytes_of(normals), 4, used, false, {{"componentType", 5120}, {"normalized", true}, {"count", used}, {"type", "VEC3"}}};
    p.colour = {bytes_of(colours), 4, used, false, {{"componentType", 5121}, {"normalized", true}, {"count", used}, {"type", "VEC4"}}};
    if (used <= 65535) {
        const std::vector<std::uint16_t> shorts(indices.begin(), indices.end());
        p.index = {bytes_of(shorts), 2, ni, true, {{"componentType", 5123}, {"count", ni}, {"type", "SCALAR"}}};
    } else {
        p.index = {bytes_of(indices), 4, ni, true, {{"componentType", 5125}, {"count", ni}, {"type", "SCALAR"}}};
    }
    return p;
}

std::string meshopt_encode(const GltfStream& stream) {
    static std::once_flag versions;
    std::call_once(versions, [] {
        meshopt_encodeVertexVersion(0);  // the versions EXT_meshopt_compression specifies
        meshopt_encodeIndexVersion(1);
    });
    std::vector<unsigned char> out;
    if (stream.indices) {
        std::vector<unsigned> indices(stream.count);
        for (std::size_t i = 0; i < stream.count; ++i) {
            if (stream.stride == 2) {
                std::uint16_t s;
                std::memcpy(&s, stream.bytes.data() + 2 * i, 2);
                indices[i] = s;
            } else {
                std::memcpy(&indices[i], stream.bytes.data() + 4 * i, 4);
            }
        }
        std::size_t vertices = 0;
        for (const unsigned i : indices) vertices = std::max<std::size_t>(vertices, i + 1);
        out.resize(meshopt_encodeIndexBufferBound(stream.count, vertices));
        out.resize(meshopt_encodeIndexBuffer(out.data(), out.size(), indices.data(), stream.count));
    } else {
        out.resize(meshopt_encodeVertexBufferBound(stream.count, stream.stride));
        out.resize(meshopt_encodeVertexBuffer(out.data(), out.size(), stream.bytes.data(), stream.count, stream.stride));
    }
    if (out.empty()) throw std::logic_error("meshopt: the encoder's bound was too small");
    return std::string(out.begin(), out.end());
}

}  // namespace isoterra::detail
