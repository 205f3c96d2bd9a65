// Stage 4 of the pipeline: meshes from chunk samples. Every mesher writes indexed vertices
// (no duplicates inside a chunk) with normals from the field's gradient, a material per
// vertex, and triangles wound counter-clockwise seen from the air. Output buffers and
// scratch space belong to the caller and are reused: no allocation per cell.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "isoterra/grid.hpp"

namespace isoterra {

/// Triangles with per-vertex position (world metres), unit normal and material.
struct MeshBuffers {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
    std::vector<MaterialSample> materials;
    std::vector<std::uint32_t> indices;

    void clear() {
        positions.clear();
        normals.clear();
        materials.clear();
        indices.clear();
    }
    std::size_t vertex_count() const { return positions.size(); }
    std::size_t triangle_count() const { return indices.size() / 3; }
    /// Appends `other`, offsetting its indices. Returns nothing; not thread-safe.
    void append(const MeshBuffers& other);
};

enum class Mesher { marching_cubes, surface_nets, blocks };

/// Returns the mesher's name as the CLI spells it ("marching-cubes").
const char* mesher_name(Mesher m);
/// Parses a CLI name; returns false for an unknown one.
bool parse_mesher(const std::string& name, Mesher& out);
/// Returns the samples a mesher needs around a chunk's core.
Padding mesher_padding(Mesher m);

/// Reusable working memory of the meshers (vertex caches). One per thread.
struct MeshScratch {
    std::vector<std::int32_t> slots;
    std::vector<glm::vec3> gradients;      // per sample, valid where stamp == generation
    std::vector<std::uint32_t> stamps;
    std::uint32_t generation = 0;
    std::vector<std::uint8_t> solid;       // per sample: 1 where the field is below 0
    std::vector<std::uint64_t> rows;       // per cell row: the cells with a sign change
};

/// Meshes one chunk's samples with `mesher`, replacing the contents of `out`. Materials follow
/// `rules`. `samples` must have the mesher's padding. Thread-safe for distinct scratch/out.
void mesh_chunk(Mesher mesher, const ChunkSamples& samples, const MaterialRules& rules, MeshScratch& scratch,
                MeshBuffers& out);

void mesh_marching_cubes(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out);
void mesh_surface_nets(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out);
/// Blocks; `greedy` merges coplanar faces of the same material into rectangles (the
/// default of mesh_chunk), otherwise one quad per unit face.
void mesh_blocks(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                 bool greedy = true);

/// A height field as a grid mesh (seed 002): `heights` holds (nx + 2) x (nz + 2) heights,
/// x fastest, with a one-sample border for the normals; vertex (i, k) is at
/// (x0 + i * step, h, z0 + k * step) for 0 <= i < nx, 0 <= k < nz. Replaces `out`.
void mesh_height_grid(const float* heights, int nx, int nz, double x0, double z0, double step,
                      const MaterialRules& rules, MeshBuffers& out);

/// The colour (linear RGB, 0..1) of a material sample: its two materials mixed by the blend.
glm::vec3 material_colour(const MaterialSample& m);

}  // namespace isoterra
