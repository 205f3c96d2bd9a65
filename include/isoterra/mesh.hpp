// Stage 4 of the pipeline: meshes from chunk samples. Every mesher writes indexed vertices
// (no duplicates inside a chunk) with normals from the field's gradient, a material per
// vertex, and triangles wound counter-clockwise seen from the air. Output buffers and
// scratch space belong to the caller and are reused: no allocation per cell.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "isoterra/grid.hpp"

namespace isoterra {

/// The six faces of a chunk, in the order of a transition mask's bits (Lengyel's).
enum Side : int { side_neg_x = 0, side_pos_x = 1, side_neg_y = 2, side_pos_y = 3, side_neg_z = 4, side_pos_z = 5 };
inline constexpr int kSides = 6;
/// The four vertical edges of a chunk, named by the x and z sides they join, in the order of
/// Neighbourhood::diagonal.
enum Corner : int { corner_neg_x_neg_z = 0, corner_pos_x_neg_z = 1, corner_neg_x_pos_z = 2, corner_pos_x_pos_z = 3 };

/// The levels of detail around a chunk, as the World shows them, relative to the chunk's
/// own: +1 one level coarser, -1 one level finer, 0 the same level or nothing shown there.
/// `side` follows Side; `diagonal` gives the column across each vertical edge (Corner).
struct Neighbourhood {
    std::array<std::int8_t, kSides> side{};
    std::array<std::int8_t, 4> diagonal{};
    bool operator==(const Neighbourhood&) const = default;
    /// Returns the bits (1 << Side) of the sides whose neighbour is coarser.
    unsigned coarser_mask() const;
    /// Returns the neighbourhood packed two bits per neighbour (0 same, 1 coarser, 2 finer):
    /// sides at bits 2 s, diagonals at bits 12 + 2 c.
    std::uint32_t code() const;
};

/// When an index range is drawn: when (neighbourhood.code() & care) == value.
struct DrawCondition {
    std::uint32_t care = 0, value = 0;
    bool holds(const Neighbourhood& n) const { return (n.code() & care) == value; }
    bool operator==(const DrawCondition&) const = default;
    /// Drawn always.
    static DrawCondition always() { return {}; }
    /// Drawn when the neighbour across `side` is `level` (-1, 0 or +1) relative to the chunk.
    static DrawCondition side_is(int side, int level);
    /// Drawn when the column across vertical edge `corner` is `level` relative to the chunk.
    static DrawCondition diagonal_is(int corner, int level);
    /// Drawn when both this and `other` hold.
    DrawCondition operator&(const DrawCondition& other) const { return {care | other.care, value | other.value}; }
};

/// A run of a mesh's indices and when a renderer draws it.
struct IndexRange {
    std::uint32_t first = 0, count = 0;  // in indices (three per triangle)
    DrawCondition when;
};

/// Triangles with per-vertex position, unit normal and material. Positions are metres
/// relative to `origin` (a chunk's first core sample: exact in float, since crossings are
/// placed on a 2^-16 grid of the cell), so meshes far from the world's origin keep their
/// precision. Meshes of chunks also carry what levels of detail need (see `ranges`).
struct MeshBuffers {
    glm::dvec3 origin{0.0};
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
    std::vector<MaterialSample> materials;
    std::vector<std::uint32_t> indices;
    /// Which indices to draw next to neighbours of other levels; empty: all of them, always.
    /// A range may repeat another's indices under another condition.
    std::vector<IndexRange> ranges;
    /// Per vertex, or empty when no vertex ever moves: how far the vertex moves along each
    /// axis towards the chunk's inside when the face it is near has a coarser neighbour
    /// (Lengyel's secondary position, before its projection onto the tangent plane), and
    /// its flags: bits 0-5 the sides it is within one cell of, bits 8-13 the sides it lies on.
    std::vector<glm::vec3> secondary;
    std::vector<std::uint16_t> side_flags;

    void clear() {
        positions.clear();
        normals.clear();
        materials.clear();
        indices.clear();
        ranges.clear();
        secondary.clear();
        side_flags.clear();
    }
    std::size_t vertex_count() const { return positions.size(); }
    std::size_t triangle_count() const { return indices.size() / 3; }
    /// Returns the bytes its arrays hold (what memory budgets count).
    std::size_t byte_size() const {
        return positions.size() * sizeof(glm::vec3) + normals.size() * sizeof(glm::vec3) + materials.size() * sizeof(MaterialSample) +
               indices.size() * sizeof(std::uint32_t) + ranges.size() * sizeof(IndexRange) + secondary.size() * sizeof(glm::vec3) +
               side_flags.size() * sizeof(std::uint16_t);
    }
    /// Returns vertex `v`'s position in world metres. Thread-safe.
    glm::dvec3 world_position(std::size_t v) const { return origin + glm::dvec3(positions[v]); }
    /// Appends `other` as drawn next to neighbours of the same level (its positions moved to
    /// this mesh's origin, its indices offset; ranges and transition data are not kept).
    /// Returns nothing; not thread-safe.
    void append(const MeshBuffers& other);
};

/// Returns the triangles of `mesh` drawn with `neighbours` around it, with the vertices moved
/// as a renderer moves them (transition_position), as a plain mesh with the same origin and
/// only the vertices those triangles use. Triangles that the move leaves without area (two
/// corners on one point, in transition strips) are left out. `sources`, when given, gets each
/// drawn vertex's index in `mesh` (what compact_position needs of it).
MeshBuffers select_for_neighbours(const MeshBuffers& mesh, const Neighbourhood& neighbours, std::vector<std::uint32_t>* sources = nullptr);
/// Returns how many triangles of `mesh` are drawn with `neighbours` around it: exactly what
/// select_for_neighbours gives next to neighbours of the same level, a few more than it next
/// to coarser ones (those without area, counted here, drawn by a renderer as nothing).
std::size_t triangles_drawn(const MeshBuffers& mesh, const Neighbourhood& neighbours);
/// Returns where vertex `v` of `mesh` is drawn when the sides in `coarser_mask` have coarser
/// neighbours: its secondary position, projected onto the plane of its normal, if it lies
/// near such a side and on no other side; else where it is. The renderer's vertex shader
/// does the same arithmetic.
glm::vec3 transition_position(const MeshBuffers& mesh, std::size_t v, unsigned coarser_mask);

enum class Mesher { marching_cubes, surface_nets, blocks };

/// Reusable working memory of the meshers (vertex caches). One per thread.
struct MeshScratch {
    std::vector<std::int32_t> slots;
    std::vector<std::uint16_t> cell_codes;  // per cell: its piece code (surface nets)
    std::vector<std::uint8_t> solid;        // per sample: 1 where the field is below 0
    std::vector<std::uint64_t> rows;        // per cell row: the cells with a sign change
    std::vector<std::int32_t> face_slots;   // per face of the chunk: vertices on its edges
    std::vector<std::uint64_t> signs;       // per sample row: bit i where sample i is below 0
    std::vector<std::uint32_t> row_starts;  // per cell row: its first vertex and first index
    std::vector<std::uint32_t> edges;       // per vertex: its lattice edge (marching cubes)
};

/// The bits (1 << Side) of all six faces.
inline constexpr unsigned kAllSides = 63;

/// One mesher as every front end lists it: the program's options and --help, the viewer's
/// switch, the page's menu and URL, world settings and bakes (src/mesh/mesher_registry.cpp).
struct MesherInfo {
    Mesher id;
    const char* name;   // as the program, the page and files spell it: "marching-cubes"
    const char* label;  // for menus: "marching cubes"
    Padding padding;    // the samples it needs around a chunk's core
    // Whether a chunk's inside may be simplified over a triangle budget without opening a
    // seam (simplify_interior).
    bool simplifiable;
    // The samples from a World column's face that its seams between levels read on both
    // sides: a field keeps every detail there (Lattice::lod_exact_samples).
    int seam_reach;
    void (*mesh)(const ChunkSamples& samples, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                 unsigned transition_sides);
};

/// Every mesher, in the order menus list them (the first is the default).
const std::vector<MesherInfo>& meshers();
const MesherInfo& mesher_info(Mesher m);
/// The mesher's place in that order, and the one after it (the last's is the first).
std::size_t mesher_index(Mesher m);
Mesher next_mesher(Mesher m);
/// The meshers' names joined by `separator`: "marching-cubes | surface-nets | blocks".
std::string mesher_names(const std::string& separator);
/// Returns the mesher's name as the CLI spells it ("marching-cubes").
const char* mesher_name(Mesher m);
/// Parses a CLI name; returns false for an unknown one.
bool parse_mesher(const std::string& name, Mesher& out);
/// Returns the samples a mesher needs around a chunk's core.
Padding mesher_padding(Mesher m);

/// Meshes one chunk's samples with `mesher`, replacing the contents of `out`. Materials follow
/// `rules`. `samples` must have the mesher's padding. Marching cubes builds the transition
/// strips of the faces in `transition_sides` only. Thread-safe for distinct scratch/out.
void mesh_chunk(Mesher mesher, const ChunkSamples& samples, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                unsigned transition_sides = kAllSides);

void mesh_marching_cubes(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out,
                         unsigned transition_sides = kAllSides);
void mesh_surface_nets(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out);
/// Blocks; `greedy` merges coplanar faces of the same material into rectangles (the
/// default of mesh_chunk), otherwise one quad per unit face.
void mesh_blocks(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out, bool greedy = true);

/// Simplifies a chunk's mesh where nothing else meets it: the triangles drawn always (its
/// first range, when that is drawn always and no other range shares it) whose three vertices
/// lie more than one cell (`spacing_m`) inside every face of the chunk's core, with every
/// vertex they share with other triangles locked (meshoptimizer's edge collapses; the surface
/// moves by about `max_error_m` at most: on a ball by 1.01 times it, plus marching cubes' own
/// error). So the faces, the transition strips and the vertices they move are
/// untouched, and the chunk meets its neighbours as before. It stops once the first range
/// holds `target_triangles` or the next collapse would pass the error. Vertices no triangle
/// uses any more are removed. Returns the triangles removed. Thread-safe for distinct meshes.
std::size_t simplify_interior(MeshBuffers& mesh, double spacing_m, double max_error_m, std::size_t target_triangles = 0);

/// The water surface over the chunk's column cells (the field's `water` output, in
/// `s.looks`), replacing `out`: a polygon per column cell with a wet corner (water above the
/// ground and above `s.sea_level_m`), at the water's heights, cut at the shore on the edges
/// towards dry corners; normals up, default materials, no ranges (drawn always). Each cell
/// is made by exactly one chunk of its column: the one whose core rows [0, 32) hold the
/// ground at the cell's lower corner, raised to `floor_m` + 0.5 (a World's floor; -inf:
/// none). Empty when the chunk's field has no water. Thread-safe for distinct `out`.
void mesh_water(const ChunkSamples& s, MeshBuffers& out, double floor_m = -std::numeric_limits<double>::infinity());

/// A height field as a grid mesh (seed 002): `heights` holds (nx + 2) x (nz + 2) heights,
/// x fastest, with a one-sample border for the normals; vertex (i, k) is at
/// (x0 + i * step, h, z0 + k * step) for 0 <= i < nx, 0 <= k < nz. Replaces `out`.
void mesh_height_grid(const float* heights, int nx, int nz, double x0, double z0, double step, const MaterialRules& rules,
                      MeshBuffers& out);

/// A vertex as the renderer draws it, 16 bytes (MeshBuffers' arrays hold 48 a vertex):
/// - position: 3 x uint16 on a grid of the chunk, decoded as offset + q * step
///   (CompactScale); the step is 2^-10 of the chunk's spacing, so two chunks of a level put a
///   shared vertex on the same point, and a vertex is off by at most 2^-11 of a cell;
/// - normal: octahedral, 2 x snorm16 (as a signed integer / 32767);
/// - blend_z: bits 0-7 the blend (0..255), bits 8-14 the secondary offset's |z|;
/// - bits: bits 0-5 the sides the vertex is near, 6-11 those it lies on (side_flags' bits
///   0-5 and 8-13), 12-14 the primary material, 15-17 the secondary one, 18-24 and 25-31 the
///   secondary offset's |x| and |y|, in units of CompactScale::secondary_step. The offset's
///   sign is towards the chunk's inside from the side the vertex is near; an axis with no
///   side near keeps none (nothing moves along it).
struct CompactVertex {
    std::uint16_t position[3];
    std::int16_t normal[2];
    std::uint16_t blend_z;
    std::uint32_t bits;
};
static_assert(sizeof(CompactVertex) == 16);

/// How one mesh's compact vertices decode: position = offset + q * step (per axis), the
/// secondary offset's magnitude = m * secondary_step.
struct CompactScale {
    glm::vec3 offset{0.0f}, step{1.0f};
    float secondary_step = 0.0f;
};

/// The scale of `mesh`'s compact vertices for a chunk of `spacing_m`: its positions' bounds
/// on the grid of 2^-10 of a spacing (a coarser power of two on an axis only where the
/// bounds span more than 64 cells), and its largest secondary offset over 127.
CompactScale compact_scale(const MeshBuffers& mesh, double spacing_m);
/// Vertex `v` of `mesh` encoded with `scale`. A vertex on a face and near none (Transvoxel's
/// half-resolution vertices, the coarser neighbour's own) takes every other grid point, the
/// coarser chunk's grid, so the two draw it at the same point. Thread-safe.
CompactVertex compact_vertex(const MeshBuffers& mesh, std::size_t v, const CompactScale& scale);
/// The grid point compact_vertex gives a vertex at `p` with `side_flags` (MeshBuffers::side_flags).
std::array<std::uint16_t, 3> compact_position(const glm::vec3& p, unsigned side_flags, const CompactScale& scale);
/// A material blend in 1/255 steps, as the compact vertices carry it.
std::uint8_t blend_byte(float blend);
/// Every vertex of `mesh` encoded, replacing `out`; returns the scale.
CompactScale compact_vertices(const MeshBuffers& mesh, double spacing_m, std::vector<CompactVertex>& out);
/// The octahedral encoding of a unit vector as snorm16, and back (normalised).
std::array<std::int16_t, 2> octahedral_encode(const glm::vec3& n);
glm::vec3 octahedral_decode(std::int16_t x, std::int16_t y);

/// What the renderer's vertex shader reads back from a compact vertex (the same arithmetic).
struct CompactDecoded {
    glm::vec3 position, normal, secondary;
    std::array<float, kMaterialCount> weights;  // (255 - blend) / 255 on primary, blend / 255 on secondary
    std::uint16_t side_flags;                   // as MeshBuffers::side_flags
};
CompactDecoded decode_compact(const CompactVertex& c, const CompactScale& scale);

/// The colour (linear RGB, 0..1) of a material sample: its two materials mixed by the blend.
glm::vec3 material_colour(const MaterialSample& m);
/// The colour (linear RGB, 0..1) files give water surfaces (mesh_water), and its opacity.
inline constexpr float kWaterColour[4] = {0.10f, 0.28f, 0.45f, 0.7f};

}  // namespace isoterra
