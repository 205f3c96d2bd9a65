// Internal helpers shared by the meshers (not installed).
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "contour_tables.hpp"
#include "isoterra/mesh.hpp"

namespace isoterra::detail {

/// The field's gradient at core-relative sample (i, j, k) by central differences over
/// `stride` samples each way, undivided (only its direction is used). A stride of 2 gives,
/// from a chunk's even samples, what the chunk one level coarser computes there.
glm::vec3 lattice_gradient(const ChunkSamples& s, int i, int j, int k, int stride = 1);
/// `v` normalised, or straight up if it is zero.
glm::vec3 unit_or_up(const glm::vec3& v);
/// How far below the column's ground (x, z) the point is, bilinear between the chunk's
/// columns (every `stride`-th, counted from core column 0); 0 if the field has no ground.
/// Also the column looks there, into `looks`: each channel bilinear between the same columns
/// over the corners where it is a number (weights renormalised), the water level the higher
/// of that and the sea level; the defaults (nothing) where the chunk has neither.
double column_depth_and_looks(const ChunkSamples& s, double x, double y, double z, PointLooks& looks, int stride = 1);
/// Appends a vertex at world position `p` (stored relative to out.origin) with the normal
/// along `gradient` and its material (column_depth_and_looks over every `stride`-th column).
void push_vertex(MeshBuffers& out, const ChunkSamples& s, const MaterialClassifier& classify, const glm::dvec3& p,
                 const glm::vec3& gradient, int stride = 1);
/// Starts a chunk's mesh: clears `out` and puts its origin at the core's first sample.
void begin_chunk_mesh(const ChunkSamples& s, MeshBuffers& out);

/// Rounds a fraction of a cell (0..1) to the 2^-16 grid on which vertices are placed: then
/// (cell + fraction) * spacing relative to the chunk is exact in float, and two chunks of any
/// levels that place a vertex at the same crossing agree on its world position to the bit.
inline double snap_fraction(double t) {
    // Round to nearest (even on a tie) by the 1.5 * 2^52 trick: exact for |t| < 2^35, and
    // inline where nearbyint is a library call on a baseline x86-64 build.
    constexpr double kRound = 6755399441055744.0;
    return ((t * 65536.0 + kRound) - kRound) * (1.0 / 65536.0);
}
/// How far every edge crossing is kept off both ends of its edge, as a fraction of the cell:
/// 2^-11, half a millimetre at 1 m cells. A sample at or a hair off 0 (a plateau of the field,
/// CSG against a clamped 0) would otherwise put the crossings of all its edges on or next to
/// it: on it, triangles without area and edges shared by four; next to it, points a user's
/// weld merges (Blender's "merge by distance", 0.1 mm) into the same faults. Kept this far
/// off, two crossings are at least 0.69 mm apart at 1 m cells (0.35 mm once a transition
/// move halves one axis) and a surface-net vertex lies at least a third of the margin from
/// every face of its cell (0.16 mm), so such a weld merges no two points at any level (the
/// margin scales with the cell, as a float's rounding far out does). docs/design/reliability.md.
inline constexpr double kCrossingMargin = 1.0 / 2048.0;
/// The crossing of the field's zero between values fa and fb of opposite signs, as a snapped
/// fraction of the way from a to b, kCrossingMargin clear of both ends. Every mesher places
/// edge vertices with this.
inline double edge_crossing(float fa, float fb) {
    const double t = static_cast<double>(fa / (fa - fb));
    // Infinite values make no fraction: the middle of the edge then (nothing else breaks).
    if (!(t >= 0.0 && t <= 1.0)) return 0.5;
    return std::clamp(snap_fraction(t), kCrossingMargin, 1.0 - kCrossingMargin);
}

/// The 12 edges of a cell: corner c sits at offset (c & 1, c >> 1 & 1, c >> 2 & 1), and
/// edge e joins kCubeEdges[e][0] (the lower corner) to kCubeEdges[e][1].
inline constexpr int kCubeEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
/// The number of the cube edge that leaves `corner` (its lower end) along `axis`.
constexpr int cube_edge(int corner, int axis) {
    return axis == 0 ? corner >> 1 : axis == 1 ? 4 + ((corner & 1) | (corner >> 2 & 1) << 1) : 8 + (corner & 3);
}

/// Reads the 8 corner values of cell (i, j, k) into `f`; returns the mask of solid corners.
inline int cell_corners(const ChunkSamples& s, int i, int j, int k, float f[8]) {
    int mask = 0;
    for (int c = 0; c < 8; ++c) {
        f[c] = s.at(i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1));
        mask |= (f[c] < 0.0f) << c;
    }
    return mask;
}

/// The edge_crossing of each of a cell's 12 edges (kCubeEdges) from its corner values `f`,
/// as floats (they hold it exactly); on an edge without a sign change, any value.
void cell_crossings(const float f[8], float t[12]);
/// The same for the cell with lower corner (i, j, k) and corners one sample apart; returns
/// the mask of its solid corners (as cell_corners).
int cell_crossings(const ChunkSamples& s, int i, int j, int k, float t[12]);

/// The surface-net vertex of a piece of a cell (its edges: bit e for edge e) with edge
/// crossings `t` (cell_crossings) and solid-corner `mask`: the mean of the piece's edge
/// crossings, in the cell's own [0, 1]^3, snapped. The same bits for the cell's own chunk and
/// for a finer neighbour that rebuilds it from its even samples.
inline glm::dvec3 surface_net_vertex(const float t[12], int mask, unsigned edges) {
    // Each crossing is its edge's lower corner plus the fraction along the edge's axis (edges
    // 0-3 run along x, 4-7 along y, 8-11 along z). Every term is a multiple of 2^-16 under
    // 13, so the sums are exact: the corners' parts may be added as integers, apart.
    double along[3] = {0.0, 0.0, 0.0};
    int corners[3] = {0, 0, 0}, crossings = 0;
    for (unsigned bits = edges & 0xfffu; bits; bits &= bits - 1) {
        const int n = __builtin_ctz(bits), lower = kCubeEdges[n][0], upper = kCubeEdges[n][1];
        if (!((mask >> lower ^ mask >> upper) & 1)) continue;
        along[n >> 2] += t[n];
        corners[0] += lower & 1, corners[1] += lower >> 1 & 1, corners[2] += lower >> 2 & 1;
        ++crossings;
    }
    const glm::dvec3 sum(along[0] + corners[0], along[1] + corners[1], along[2] + corners[2]);
    const glm::dvec3 mean = sum / static_cast<double>(crossings);
    return {snap_fraction(mean.x), snap_fraction(mean.y), snap_fraction(mean.z)};
}

/// The piece code (CellPieces) of surface-net cell (i, j, k) of a chunk's own level with
/// solid corners `mask`: kept whole where it touches a side of the chunk's column (x or z
/// at 0 or 32). There a coarser neighbour's seam may meet it, whose finer crossings need
/// not follow the pieces of the coarser cells; both sides keep such cells whole.
inline int net_cell_code(int mask, int i, int k) {
    const auto at_side = [](int c) { return c == -1 || c == 0 || c == kChunkSize - 1 || c == kChunkSize; };
    return mask | (at_side(i) || at_side(k) ? kWholeCell : 0);
}

/// Appends the vertices of the surface-net cell with lower corner (i, j, k) and corners
/// `stride` samples apart (edge crossings t, piece code), one per piece of its surface
/// (cell_pieces: the piece's vertex is its first one plus its number); or the one at
/// `fraction` of it where given (then `t` and `code` are not read). Each: its position
/// (surface_net_vertex), the trilinear blend of the corners' gradients (`gradient(i, j, k)`
/// at a corner), and its material.
template <typename Gradient>
void push_surface_net_cell(MeshBuffers& out, const ChunkSamples& s, const MaterialClassifier& classify, int i, int j, int k, int stride,
                           const float t[12], int code, Gradient&& gradient, const glm::dvec3* fraction = nullptr);

/// Where the vertex of a segment of an ambiguous face lies, as a fraction of the cell with
/// lower corner `lo` and corners `stride` samples apart (all in core samples): the face is
/// the cell's upper one across `w`; the segment is the one around its solid corner `solid`,
/// whose crossings lie on the face's two edges from that corner. The mean of the two,
/// snapped: the same bits for the cell's own chunk and for a finer neighbour.
inline glm::dvec3 face_segment_fraction(const ChunkSamples& s, const int lo[3], int w, const int solid[3], int stride) {
    glm::dvec3 corner(0.0);
    for (int a = 0; a < 3; ++a) corner[a] = (solid[a] - lo[a]) / stride;
    glm::dvec3 sum(0.0);
    for (const int a : {(w + 1) % 3, (w + 2) % 3}) {
        int x[3] = {solid[0], solid[1], solid[2]};
        x[a] = lo[a];
        int y[3] = {x[0], x[1], x[2]};
        y[a] += stride;
        glm::dvec3 at = corner;
        at[a] = edge_crossing(s.at(x[0], x[1], x[2]), s.at(y[0], y[1], y[2]));
        sum += at;
    }
    const glm::dvec3 m = sum * 0.5;
    return {snap_fraction(m.x), snap_fraction(m.y), snap_fraction(m.z)};
}

/// For cells lo..lo+count-1 (per axis, count <= 62), writes one bit mask per cell row
/// (j, k), row-major over k then j: bit c is set where cell (lo + c, j, k) has corners on
/// both sides of 0. Cells all solid or all air, most of a chunk, are skipped by the caller
/// without reading their eight corners.
void mixed_cell_rows(const ChunkSamples& s, int lo, int count, std::vector<std::uint64_t>& rows);
/// The first step of mixed_cell_rows: the sign bits of the n x n sample rows from core sample
/// (lo, lo, lo), row-major over k then j: bit i set where sample (lo + i, ...) is below 0.
void sign_rows(const ChunkSamples& s, int lo, int n, std::uint64_t* solid);
/// The second: the mixed cells of each of the count x count cell rows from those sign bits.
void mixed_rows_from_signs(const std::uint64_t* solid, int count, std::uint64_t* rows);

/// Appends the vertex where the field crosses zero on the lattice edge from core sample
/// `lower` along `axis` to the sample `stride` steps on (values fa and fb): its position,
/// the normal from the gradients at both ends (over `stride` samples) and its material. A
/// stride of 2 places, from a chunk's even samples, exactly the vertex the chunk one level
/// coarser makes on that edge.
void push_edge_vertex(MeshBuffers& out, const ChunkSamples& s, const MaterialClassifier& classify, const int lower[3], int axis, int stride,
                      float fa, float fb);

/// Appends polygon `v` (3 to 8 vertices in order; a vertex repeated next to itself, or on
/// the same point, counts once) to `indices` as triangles: a quad split along its shorter
/// diagonal, a longer polygon, or any where `fan`, fanned from its first vertex. (Two cells'
/// vertices on one point, which a triangle between them would join without area, no longer
/// occur: each lies at least a third of kCrossingMargin off its cell's faces.)
inline void emit_polygon(const std::vector<glm::vec3>& positions, const std::uint32_t* v, int n, std::vector<std::uint32_t>& indices,
                         bool fan = false) {
    std::uint32_t p[8];
    int m = 0;
    for (int i = 0; i < n; ++i)
        if (m == 0 || positions[p[m - 1]] != positions[v[i]]) p[m++] = v[i];
    if (m > 1 && positions[p[m - 1]] == positions[p[0]]) --m;
    if (m == 3) {
        indices.insert(indices.end(), {p[0], p[1], p[2]});
    } else if (m == 4 && !fan) {
        const auto dist2 = [&](std::uint32_t a, std::uint32_t b) {
            const glm::vec3 d = positions[a] - positions[b];
            return d.x * d.x + d.y * d.y + d.z * d.z;
        };
        // Opposite corners on one point: the quad folds onto itself; its edges cancel in
        // pairs, so leaving it out leaves no hole.
        if (positions[p[0]] == positions[p[2]] || positions[p[1]] == positions[p[3]]) return;
        if (dist2(p[0], p[2]) <= dist2(p[1], p[3])) indices.insert(indices.end(), {p[0], p[1], p[2], p[0], p[2], p[3]});
        else indices.insert(indices.end(), {p[0], p[1], p[3], p[1], p[2], p[3]});
    } else {
        for (int i = 1; i + 1 < m; ++i) indices.insert(indices.end(), {p[0], p[i], p[i + 1]});
    }
}

/// One cell around a lattice edge, as the edge's surface-net polygon sees it: the vertex of
/// its piece that holds the edge's crossing, its lower corner in core samples, the samples
/// between its corners, and its piece code.
struct NetCell {
    std::uint32_t vertex;
    int lo[3];
    int stride;
    std::uint16_t code;
};

/// Appends the polygon of the edge from core sample p along `axis` through the four cells
/// around it, in the order of the quadrants (-1, -1), (0, -1), (0, 0), (-1, 0) over the two
/// axes after `axis`, wound to face the air. Where two neighbouring cells each have one
/// vertex for both segments of their common face (one piece of each crosses it twice; at a
/// seam, the finer cell's piece its part of the face), the vertex of the face's segment that
/// holds the crossing goes between them: `face_vertex(cell below, w, solid corner, -1)`,
/// the face the upper one across axis w of that cell (of the finer size), and the solid end
/// of the cell edge that holds the crossing. Where two coarser cells at a seam meet on an
/// edge that the finer surface crosses twice, `face_vertex(cell below, w, edge's lower end,
/// edge's axis)`: a vertex for that pair of crossings, so the two polygons do not share one edge.
template <typename FaceVertex>
void emit_net_polygon(const ChunkSamples& s, const std::vector<glm::vec3>& positions, const NetCell cells[4], const int p[3], int axis,
                      FaceVertex&& face_vertex, std::vector<std::uint32_t>& into) {
    const CellPieces& pieces = cell_pieces();
    std::uint32_t q[8];
    for (int n = 0; n < 4; ++n) q[n] = cells[n].vertex;
    int count = 4, first = 0;
    if ((pieces.twice[cells[0].code] | pieces.twice[cells[1].code] | pieces.twice[cells[2].code] | pieces.twice[cells[3].code]) ||
        (cells[0].stride | cells[1].stride | cells[2].stride | cells[3].stride) > 1) {
        // Cell n and n + 1 share a face across u (n even) or v (n odd); `lower` is the one below it.
        constexpr int lower[4] = {0, 1, 3, 0}, upper[4] = {1, 2, 2, 3};
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        std::uint32_t r[8];
        count = 0;
        for (int n = 0; n < 4; ++n) {
            r[count++] = q[n];
            const NetCell &lo = cells[lower[n]], &hi = cells[upper[n]];
            const int w = n % 2 ? v : u;
            // Where the two are of one size, both must cross their face twice; where one is
            // coarser (a seam), the finer one its part of the coarser face, as the coarser
            // cell's one vertex takes every crossing.
            NetCell below = lo.stride <= hi.stride ? lo : hi;
            if (lo.lo[w] == hi.lo[w]) continue;  // one coarser cell in both quadrants
            const bool twice = lo.stride == hi.stride ? (pieces.twice[lo.code] >> (2 * w + 1) & 1) && (pieces.twice[hi.code] >> (2 * w) & 1)
                                                      : (pieces.twice[below.code] >> (2 * w + (lo.stride < hi.stride)) & 1);
            const bool coarser_pair = lo.stride == hi.stride && lo.stride > 1;
            if (!twice && !coarser_pair) continue;
            // The cell edge along `axis` that holds the crossing, and its ends.
            int a[3] = {p[0], p[1], p[2]};
            a[axis] = below.lo[axis];
            int b[3] = {a[0], a[1], a[2]};
            b[axis] += below.stride;
            const bool a_solid = s.at(a[0], a[1], a[2]) < 0.0f;
            // Two coarser cells at a seam whose common edge the finer surface crosses twice
            // (a bump their corners do not see): each crossing's polygon would join them.
            const bool bump = coarser_pair && a_solid == (s.at(b[0], b[1], b[2]) < 0.0f);
            if (!twice && !bump) continue;
            if (lo.stride > hi.stride) below.lo[w] -= 1;  // the finer cell is above: the face's segment from below it
            first = count;
            r[count++] = face_vertex(below, w, bump ? a : a_solid ? a : b, bump ? axis : -1);
        }
        // Fanned from a face vertex: no edge between the two cells it stands between.
        for (int n = 0; n < count; ++n) q[n] = r[(first + n) % count];
    }
    // Solid below, air above along the axis: the surface faces +axis.
    if (!(s.at(p[0], p[1], p[2]) < 0.0f)) std::reverse(q + (count > 4 ? 1 : 0), q + count);
    // With a face vertex, fanned from it even where two of the cells are one (a coarser cell
    // in two quadrants) and it is left a quad: split the other way, it would join them again.
    emit_polygon(positions, q, count, into, count > 4);
}

/// Appends the seams of a surface-nets chunk towards coarser columns (surface_net_seams.cpp):
/// for each variant of its neighbourhood, an index range with the polygons of the edges on
/// its faces and vertical edges that it owns there, joining its own cells (`cell_slots` and
/// `cell_codes`, as mesh_surface_nets keeps them) with the coarser neighbours' cells rebuilt
/// from its even samples (kept whole, as net_cell_code keeps them in their own chunks).
void add_surface_net_seams(const ChunkSamples& s, const MaterialClassifier& classify, const std::vector<std::int32_t>& cell_slots,
                           const std::vector<std::uint16_t>& cell_codes, MeshBuffers& out);

/// Vertex slots per face of a chunk: one per lattice edge in the face, (33 x 33) x 2 axes.
inline constexpr std::size_t kFaceSlots = static_cast<std::size_t>(kChunkSize + 1) * (kChunkSize + 1) * 2;
/// The slot of the edge from in-face sample (cu, cv) along the face's first (0) or second
/// (1) axis; a face of axis a has the axes (a + 1) % 3 and (a + 2) % 3.
inline std::size_t face_slot(int side, int cu, int cv, int which) {
    return static_cast<std::size_t>(side) * kFaceSlots + (static_cast<std::size_t>(cv) * (kChunkSize + 1) + cu) * 2 + which;
}
/// Notes vertex `v` on the edge from core sample `lower` along `axis` in the slots of the
/// chunk faces that hold the edge.
inline void record_face_vertex(MeshScratch& scratch, const int lower[3], int axis, std::int32_t v) {
    for (int a = 0; a < 3; ++a) {
        if (a == axis || (lower[a] != 0 && lower[a] != kChunkSize)) continue;
        const int side = 2 * a + (lower[a] == kChunkSize), u = (a + 1) % 3, w = (a + 2) % 3;
        scratch.face_slots[face_slot(side, lower[u], lower[w], axis == u ? 0 : 1)] = v;
    }
}
/// Appends the Transvoxel transition strips of the faces in `sides` of a marching-cubes chunk
/// (transvoxel.cpp): one index range per face, drawn when that face has a coarser
/// neighbour. Needs the face slots and the sign rows (scratch.signs, sign_rows of the core's
/// 33^3 samples) of the regular pass.
void add_transition_strips(const ChunkSamples& s, const MaterialClassifier& classify, MeshScratch& scratch, MeshBuffers& out,
                           unsigned sides);

/// Where a held vertex on one of the chunk's edges (on two faces, shared with a neighbour)
/// lies within kCrossingMargin of a cell of the half-resolution crossing on its line (the
/// coarser chunk's), adds its copy there and every triangle that uses it twice, with the
/// copy and with it, each as a range drawn when the copy is to be used or not: held and a
/// column around the line coarser (transition_snaps.cpp). Called after the strips of `sides`.
void add_snapped_copies(const ChunkSamples& s, const MaterialClassifier& classify, const MeshScratch& scratch, MeshBuffers& out,
                        unsigned sides);

/// World position of core-relative sample (i, j, k).
inline glm::dvec3 sample_position(const ChunkSamples& s, int i, int j, int k) {
    return s.lattice.position(i + s.pad.lo, j + s.pad.lo, k + s.pad.lo);
}

/// The trilinear blend at `local` (in [0, 1]^3) of a cell's corner gradients, `corner(c)`
/// for corner c: each weight a product in double taken to float, the terms summed in float
/// in the order of the corners.
template <typename CornerGradient>
glm::vec3 trilinear_blend(const glm::dvec3& local, CornerGradient&& corner) {
    glm::vec3 g(0.0f);
    for (int c = 0; c < 8; ++c) {
        const double w = (c & 1 ? local.x : 1 - local.x) * (c >> 1 & 1 ? local.y : 1 - local.y) * (c >> 2 & 1 ? local.z : 1 - local.z);
        g += static_cast<float>(w) * corner(c);
    }
    return g;
}

/// Names lattice_gradient at stride 1 as push_surface_net_cell's gradient: its blend then
/// takes the vector path of blend_central_differences.
struct CentralDifferences {};
/// trilinear_blend of lattice_gradient at the corners of the cell with lower corner
/// (i, j, k), one sample apart: the same bits, four lanes at a time (net_cell_vectors.cpp).
glm::vec3 blend_central_differences(const ChunkSamples& s, int i, int j, int k, const glm::dvec3& local);

template <typename Gradient>
void push_surface_net_cell(MeshBuffers& out, const ChunkSamples& s, const MaterialClassifier& classify, int i, int j, int k, int stride,
                           const float t[12], int code, Gradient&& gradient, const glm::dvec3* fraction) {
    const auto push_at = [&](const glm::dvec3& local) {  // in [0, 1]^3
        glm::vec3 g;
        if constexpr (std::is_same_v<std::decay_t<Gradient>, CentralDifferences>) g = blend_central_differences(s, i, j, k, local);
        else
            g = trilinear_blend(
                local, [&](int c) { return gradient(i + stride * (c & 1), j + stride * (c >> 1 & 1), k + stride * (c >> 2 & 1)); });
        push_vertex(out, s, classify, sample_position(s, i, j, k) + local * (stride * s.lattice.spacing_m), g, stride);
    };
    if (fraction) {
        push_at(*fraction);
        return;
    }
    const CellPieces& pieces = cell_pieces();
    for (int p = 0; p < pieces.count[code]; ++p) push_at(surface_net_vertex(t, code & 255, pieces.edges[code][p]));
}

}  // namespace isoterra::detail
