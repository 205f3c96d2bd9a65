// What the glTF writer puts in a file for one mesh, plain or quantized (internal to io/).
#pragma once

#include <cstddef>
#include <string>

#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "isoterra/io.hpp"

namespace isoterra::detail {

/// One buffer view's data and the accessor that reads it (without its bufferView).
struct GltfStream {
    std::string bytes;
    std::size_t stride = 0;  // bytes an element
    std::size_t count = 0;   // elements
    bool indices = false;    // a triangle list's indices (target 34963), else a vertex attribute
    nlohmann::json accessor;
};

/// A mesh's four streams (POSITION, NORMAL, COLOR_0, indices) and its node's placement.
struct GltfPrimitive {
    GltfStream position, normal, colour, index;
    glm::dvec3 translation{0.0};  // the node's
    double scale = 1.0;           // the node's, uniform (normals stay unit length)
};

/// The mesh as floats: positions in world metres, or relative to the mesh's origin (placed:
/// the node's translation is the origin).
GltfPrimitive plain_primitive(const NamedMesh& nm, const MeshBuffers& m, bool placed);

/// The mesh for KHR_mesh_quantization and EXT_meshopt_compression: vertices reordered for
/// the codecs (triangles for the vertex cache, vertices in the order they are first used),
/// positions as 16-bit integers on a uniform grid over the mesh's box (the node's scale and
/// translation undo it; at most half a step, extent / 131070, off), normals as normalised
/// bytes, 4-byte aligned strides.
GltfPrimitive quantized_primitive(const NamedMesh& nm, const MeshBuffers& m, bool placed);

/// `stream` encoded with meshoptimizer's codec for EXT_meshopt_compression: the attribute
/// codec (version 0), or the triangle codec (version 1) for indices.
std::string meshopt_encode(const GltfStream& stream);

}  // namespace isoterra::detail
