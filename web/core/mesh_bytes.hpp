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

/// What the page draws of a chunk, 12 bytes a vertex (the renderer's compact vertex less the
/// transition data: the page moves vertices for their neighbourhood before packing them).
/// Per vertex in `vertices`: the grid point x, y, z (metres: origin + point x step) and the
/// material word, blend | primary << 8 | secondary << 11; in `normals`, the octahedral normal
/// (snorm16). Indices are 16-bit where the vertices allow it, else 32-bit: one of the two
/// arrays is empty.
struct DrawnArrays {
    glm::dvec3 origin{0.0};
    glm::vec3 step{1.0f};
    std::vector<std::uint16_t> vertices;
    std::vector<std::int16_t> normals;
    std::vector<std::uint16_t> short_indices;
    std::vector<std::uint32_t> long_indices;
};
/// Fills `out` with `mesh`, a chunk of `spacing_m`, as drawn next to `neighbours`
/// (select_for_neighbours).
void drawn_arrays(const MeshBuffers& mesh, const Neighbourhood& neighbours, double spacing_m, DrawnArrays& out);

}  // namespace isoterra::web
