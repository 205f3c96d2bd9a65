// A chunk's mesh as one block of bytes, to cross from a Web Worker's WebAssembly instance to
// the page's (postMessage moves bytes, not C++ objects). Both ends are the same build, so
// the arrays travel as their in-memory bytes.
#pragma once
#include <cstdint>
#include <vector>

#include "isoterra/mesh.hpp"

namespace isoterra::web {

/// Appends `mesh` to `out` (cleared first).
void pack_mesh(const MeshBuffers& mesh, std::vector<std::uint8_t>& out);
/// Reads a mesh that pack_mesh wrote; false when the bytes are not one (short or inconsistent).
bool unpack_mesh(const std::uint8_t* data, std::size_t size, MeshBuffers& mesh);
/// Writes a chunk's mesh and its water surface to `out` (cleared first): the mesh's bytes'
/// length (4 bytes), then both as pack_mesh writes them.
void pack_chunk(const MeshBuffers& mesh, const MeshBuffers& water, std::vector<std::uint8_t>& out);
/// Reads what pack_chunk wrote; false when the bytes are not that.
bool unpack_chunk(const std::uint8_t* data, std::size_t size, MeshBuffers& mesh, MeshBuffers& water);

/// What the page draws of a chunk: positions relative to `origin`, normals, and per vertex
/// the weights of grass, soil, rock and snow (`materials`, four floats) and of sand and scree
/// (`materials_more`, two floats).
struct DrawnArrays {
    glm::dvec3 origin{0.0};
    std::vector<float> positions, normals, materials, materials_more;
    std::vector<std::uint32_t> indices;
};
/// Fills `out` with `mesh` as drawn next to `neighbours` (select_for_neighbours).
void drawn_arrays(const MeshBuffers& mesh, const Neighbourhood& neighbours, DrawnArrays& out);

}  // namespace isoterra::web
