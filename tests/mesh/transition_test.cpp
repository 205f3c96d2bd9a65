// Transvoxel transition strips: the vertices a finer chunk puts on a face are the coarser
// neighbour's own, to the bit, at every pair of levels; and with any of the 64 transition
// masks a chunk meets its neighbours (coarser ones on the masked faces) without a hole.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "classic_presets.hpp"
#include "isoterra/mesh.hpp"
#include "mesh_checks.hpp"

using namespace isoterra;

namespace {

struct VertexBits {
    double x, y, z;
    float nx, ny, nz;
    int primary, secondary;
    float blend;
    auto key() const { return std::make_tuple(x, y, z, nx, ny, nz, primary, secondary, blend); }
    bool operator<(const VertexBits& o) const { return key() < o.key(); }
    bool operator==(const VertexBits& o) const { return std::memcmp(this, &o, sizeof *this) == 0 || key() == o.key(); }
};

VertexBits bits_of(const MeshBuffers& m, std::size_t v) {
    const glm::dvec3 p = m.world_position(v);
    return {p.x,
            p.y,
            p.z,
            m.normals[v].x,
            m.normals[v].y,
            m.normals[v].z,
            static_cast<int>(m.materials[v].primary),
            static_cast<int>(m.materials[v].secondary),
            m.materials[v].blend};
}

MeshBuffers mesh_at(const Field& f, const ChunkCoord& c, LatticeUse use = LatticeUse::surface) {
    ChunkSamples s;
    sample_chunk(f, c, mesher_padding(Mesher::marching_cubes), s, use);
    MeshScratch scratch;
    MeshBuffers m;
    mesh_marching_cubes(s, f.material_rules(), scratch, m);
    return m;
}

// The vertices of a chunk's regular cells (drawn whatever its neighbours) that lie on the
// plane coordinate[a] == at, within [lo, hi] on the other axes.
std::set<VertexBits> regular_vertices_on(const MeshBuffers& m, int a, double at, const glm::dvec3& lo, const glm::dvec3& hi) {
    std::set<VertexBits> out;
    const IndexRange& regular = m.ranges.front();
    for (std::uint32_t i = regular.first; i < regular.first + regular.count; ++i) {
        const glm::dvec3 p = m.world_position(m.indices[i]);
        bool inside = p[a] == at;
        for (int b = 0; b < 3; ++b)
            if (b != a) inside &= p[b] >= lo[b] && p[b] <= hi[b];
        if (inside) out.insert(bits_of(m, m.indices[i]));
    }
    return out;
}

// The vertices of `fine`'s strip on `side` that lie on the face (its half-resolution side).
std::set<VertexBits> strip_face_vertices(const MeshBuffers& fine, int side) {
    std::set<VertexBits> out;
    for (const IndexRange& r : fine.ranges) {
        if (!(r.when == DrawCondition::side_is(side, 1))) continue;
        for (std::uint32_t i = r.first; i < r.first + r.count; ++i) {
            const std::uint32_t v = fine.indices[i];
            if ((fine.side_flags[v] & 63u) == 0) out.insert(bits_of(fine, v));  // never moved: on the face
        }
    }
    return out;
}

}  // namespace

// For every level pair up to 2 km chunks, the half-resolution vertices of the finer chunk's
// strip towards its coarser neighbour equal that neighbour's vertices on the shared face:
// position (world metres, as doubles), normal and material, bit for bit.
TEST(Transvoxel, strip_vertices_equal_the_coarser_neighbours_bit_for_bit_at_every_level_pair) {
    for (const char* name : {"tutorial", "alpine"}) {  // alpine: the classic preset (warped ridges)
        const KnobTerrain preset = test::classic_preset(name);
        const auto t = make_terrain(preset, preset.seed);
        for (int lod = 0; lod <= 6; ++lod) {
            const double e = kChunkSize * std::ldexp(1.0, lod);
            // A fine chunk on its parent's +X side, around the ground; its +X neighbour region
            // belongs to the next coarser chunk.
            const int fx = 1, fz = 1;
            const double h = t->surface_height(2 * e, (fz + 0.5) * e);
            // The layer around the ground whose face towards the neighbour crosses it most.
            int fy = 0;
            MeshBuffers fine;
            std::set<VertexBits> strip;
            for (int y = static_cast<int>(std::floor(h / e)) - 1; y <= static_cast<int>(std::floor(h / e)) + 1; ++y) {
                MeshBuffers m = mesh_at(*t, {fx, y, fz, lod});
                std::set<VertexBits> v = strip_face_vertices(m, side_pos_x);
                if (v.size() > strip.size()) fy = y, fine = std::move(m), strip = std::move(v);
            }
            const ChunkCoord coarse_c{1, static_cast<int>(std::floor(fy / 2.0)), 0, lod + 1};
            const MeshBuffers coarse = mesh_at(*t, coarse_c);
            // The coarse chunk's vertices on its -X face, within the fine chunk's face.
            const std::set<VertexBits> theirs =
                regular_vertices_on(coarse, 0, 2 * e, glm::dvec3(0, fy * e, fz * e), glm::dvec3(0, (fy + 1) * e, (fz + 1) * e));
            ASSERT_GT(strip.size(), 4u) << name << " lod " << lod;
            EXPECT_EQ(strip, theirs) << name << " lod " << lod << ": " << strip.size() << " vs " << theirs.size();
        }
    }
}

// Every face, not only +X: a level-0 chunk at each of the six positions in its parent.
TEST(Transvoxel, strip_vertices_match_on_all_six_faces) {
    const auto sphere = make_sphere({40.0, 40.0, 40.0}, 29.0);  // crosses every face of chunk (1, 1, 1)
    const ChunkCoord fine_c{1, 1, 1, 0};
    const MeshBuffers fine = mesh_at(*sphere, fine_c, LatticeUse::values);
    for (int side = 0; side < kSides; ++side) {
        const int a = side / 2;
        // Only the +side faces of (1, 1, 1) border another parent; the coarser chunk's lattice
        // there holds the fine chunk's even samples whichever side it lies on.
        if (side % 2 == 0) continue;
        int c[3] = {0, 0, 0};
        c[a] = 1;
        const MeshBuffers coarse = mesh_at(*sphere, {c[0], c[1], c[2], 1}, LatticeUse::values);
        const std::set<VertexBits> strip = strip_face_vertices(fine, side);
        const std::set<VertexBits> theirs = regular_vertices_on(coarse, a, 64.0, glm::dvec3(32.0), glm::dvec3(64.0));
        ASSERT_GT(strip.size(), 4u) << side;
        EXPECT_EQ(strip, theirs) << "side " << side;
    }
}

// One chunk with each of the 64 masks: a coarser neighbour (spacing 2 m) across every masked
// face, one of its own level across the others, each drawn as the World draws it. Welded,
// every edge the chunk's triangles make is closed, except on the chunk's twelve edges, where
// the neighbours around an edge that this test does not place would close it.
TEST(Transvoxel, all_64_masks_leave_no_hole_between_a_chunk_and_its_neighbours) {
    // A wavy surface crossing all six faces of the cube [0, 32]^3 several times.
    struct Waves final : Field {
        void sample_points(const glm::dvec3* p, std::size_t n, double* out) const override {
            for (std::size_t i = 0; i < n; ++i)
                out[i] = std::sin(p[i].x * 0.21) * 6 + std::cos(p[i].z * 0.17) * 6 + std::sin(p[i].y * 0.13 + 1) * 6 +
                         (glm::length(p[i] - glm::dvec3(16.3, 15.8, 16.1)) - 17.0);
        }
        ValueRange bounds(const Box&) const override { return {-1e9, 1e9}; }
    } field;
    const auto sample_lattice_at = [&](const glm::i64vec3& origin, double spacing, Padding pad) {
        ChunkSamples s;
        s.pad = pad;
        s.lattice.origin = origin - std::int64_t(pad.lo);
        s.lattice.spacing_m = spacing;
        s.lattice.size = glm::ivec3(kChunkSize + 1 + pad.lo + pad.hi);
        s.values.resize(s.lattice.count());
        field.sample_lattice(s.lattice, s.values.data());
        update_core_range(s);
        return s;
    };
    const Padding pad = mesher_padding(Mesher::marching_cubes);
    MeshScratch scratch;
    const ChunkSamples centre = sample_lattice_at({0, 0, 0}, 1.0, pad);
    MeshBuffers centre_mesh;
    mesh_marching_cubes(centre, field.material_rules(), scratch, centre_mesh);
    int closed_masks = 0;
    for (unsigned mask = 0; mask < 64; ++mask) {
        Neighbourhood around;
        for (int s = 0; s < kSides; ++s) around.side[s] = (mask >> s & 1) ? 1 : 0;
        MeshBuffers all;
        all.append(select_for_neighbours(centre_mesh, around));
        const std::size_t centre_triangles = all.triangle_count();
        for (int s = 0; s < kSides; ++s) {
            const int a = s / 2, dir = s % 2 ? 1 : -1;
            glm::i64vec3 origin(0);
            MeshBuffers neighbour;
            if (mask >> s & 1) {
                // A coarser chunk across the face: 64 m a side, its face on ours, covering it.
                origin[a] = dir > 0 ? 16 : -32;  // in 2 m samples
                ChunkSamples cs = sample_lattice_at(origin, 2.0, pad);
                mesh_marching_cubes(cs, field.material_rules(), scratch, neighbour);
            } else {
                origin[a] = dir * kChunkSize;
                ChunkSamples ns = sample_lattice_at(origin, 1.0, pad);
                mesh_marching_cubes(ns, field.material_rules(), scratch, neighbour);
            }
            all.append(select_for_neighbours(neighbour, Neighbourhood{}));
        }
        // The centre's own edges: welded with everything, each must be closed.
        const auto id = test::weld(all.positions);
        std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
        for (std::size_t t = 0; t + 2 < all.indices.size(); t += 3)
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t p = id[all.indices[t + e]], q = id[all.indices[t + (e + 1) % 3]];
                if (p != q) ++count[{p, q}];
            }
        std::vector<glm::vec3> at(all.positions.size());
        for (std::size_t v = 0; v < id.size(); ++v) at[id[v]] = all.positions[v];
        const auto on_box_edge = [&](const glm::vec3& p) {
            int on = 0;
            for (int c = 0; c < 3; ++c) on += p[c] == 0.0f || p[c] == 32.0f;
            return on >= 2;
        };
        int open = 0;
        for (std::size_t t = 0; t < centre_triangles * 3; t += 3)
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t p = id[all.indices[t + e]], q = id[all.indices[t + (e + 1) % 3]];
                if (p == q || (on_box_edge(at[p]) && on_box_edge(at[q]))) continue;
                const auto back = count.find({q, p});
                open += back == count.end() || back->second != 1 || count[{p, q}] != 1;
            }
        EXPECT_EQ(open, 0) << "mask " << mask;
        closed_masks += open == 0;
    }
    EXPECT_EQ(closed_masks, 64);
}

// Meshes appended into one frame far from their chunk's origin: two corners a few ulps apart
// there (1e-5 m at z = -752, where floats are 6.1e-5 m apart) land on one float, and the
// triangle between them, without area, is left out; the other is kept whole.
TEST(MeshAppend, a_triangle_whose_corners_round_to_one_point_is_left_out) {
    MeshBuffers chunk;
    chunk.origin = {-2688.0, 1100.0, -752.0};
    chunk.positions = {{0.0f, 19.5f, 0.0f}, {0.0f, 19.5f, 1e-5f}, {1.0f, 19.5f, 0.0f}, {0.0f, 20.5f, 0.0f}};
    chunk.normals.assign(4, glm::vec3(0.0f, 1.0f, 0.0f));
    chunk.materials.assign(4, MaterialSample{});
    chunk.indices = {0, 1, 2, 0, 2, 3};
    MeshBuffers all;
    all.append(chunk);
    ASSERT_EQ(all.positions.size(), 4u);
    EXPECT_EQ(all.positions[0], all.positions[1]);  // the premise: they met
    ASSERT_EQ(all.triangle_count(), 1u);
    EXPECT_EQ(std::vector<std::uint32_t>(all.indices.begin(), all.indices.end()), (std::vector<std::uint32_t>{0, 2, 3}));
}
