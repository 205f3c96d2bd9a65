// What the passes of marching cubes share (internal): marching_cubes.cpp finds the crossed
// lattice edges and the triangles, mc_edge_vertices.cpp makes the edges' vertices.
#pragma once

#include <cstdint>

#include "vertex_attributes.hpp"

namespace isoterra::detail {

/// Edge e of kCubeEdges runs along axis kCubeEdgeAxis[e].
inline constexpr int kCubeEdgeAxis[12] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};

/// A lattice edge of a chunk's core as one word: its lower core sample (0..32 per axis) and
/// its axis.
inline std::uint32_t pack_edge(int x, int y, int z, int axis) { return static_cast<std::uint32_t>(x | y << 8 | z << 16 | axis << 24); }

/// Sets out.positions, normals, materials, secondary and side_flags to the `count` vertices
/// on the lattice edges `edges` (pack_edge), vertex v on edges[v], and notes those on the
/// chunk's faces in scratch.face_slots.
void mc_edge_vertices(const ChunkSamples& s, const MaterialClassifier& classify, const std::uint32_t* edges, std::size_t count,
                      MeshScratch& scratch, MeshBuffers& out);

}  // namespace isoterra::detail
