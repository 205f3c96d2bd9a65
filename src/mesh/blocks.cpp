// Blocks: every solid sample is a cube of one sample spacing, centred on the sample, and a
// face is drawn where a solid sample meets an air one. The chunk owns the samples of its
// core [0, 32)^3, so each face is drawn by exactly one chunk. Greedy merging (Lysenko's
// "greedy meshing") then joins coplanar faces of the same material into rectangles; the
// merged mesh covers exactly the unit faces, with T-junctions where rectangles meet
// smaller faces (tests/mesh checks the cover). Four vertices per rectangle with the face's
// normal: flat faces do not share vertices with their neighbours. Next to a column of another
// level the cubes of the two sides do not meet: skirts, the outward faces of the chunk's
// boundary cubes where its own lattice saw solid beyond them, hide the gaps (drawn only then).
#include <array>

#include "vertex_attributes.hpp"

namespace isoterra {
namespace {

constexpr int kCore = kChunkSize;  // samples a side that the chunk owns
// Which samples are solid is kept for samples -1..32 of each axis, 34 a side: the array's
// strides per axis, and the index of core sample (0, 0, 0).
constexpr int kSolidSide = kCore + 2;
constexpr std::size_t kStride[3] = {1, static_cast<std::size_t>(kSolidSide), static_cast<std::size_t>(kSolidSide) * kSolidSide};
constexpr std::size_t kOrigin = kStride[0] + kStride[1] + kStride[2];

// Materials merge when they show the same pair at the same blend, to an eighth (a blend is at
// most 0.5: 0..4; six materials: the secondary's part stays below 128).
int material_key(const MaterialSample& m) {
    return static_cast<int>(m.primary) * 128 + static_cast<int>(m.secondary) * 16 + static_cast<int>(m.blend * 8.0f + 0.5f);
}

// The sample at `a` along u and `b` along v in face layer `layer` across `axis`.
std::array<int, 3> layer_sample(int axis, int layer, int a, int b) {
    std::array<int, 3> c;
    c[axis] = layer, c[(axis + 1) % 3] = a, c[(axis + 2) % 3] = b;
    return c;
}

// What the steps of one chunk's blocks share.
struct BlockChunk {
    const ChunkSamples& s;
    const MaterialClassifier& classify;
    MeshScratch& scratch;
    MeshBuffers& out;
    double sp;  // the sample spacing

    // Which samples are solid, once.
    void mark_solid() const {
        scratch.solid.resize(static_cast<std::size_t>(kSolidSide) * kSolidSide * kSolidSide);
        for (int k = -1; k <= kCore; ++k)
            for (int j = -1; j <= kCore; ++j)
                for (int i = -1; i <= kCore; ++i)
                    scratch.solid[((static_cast<std::size_t>(k + 1) * kSolidSide) + (j + 1)) * kSolidSide + (i + 1)] = s.at(i, j, k) < 0.0f;
    }

    // The material of a face of the sample at `centre` with this normal, seen at height `y`.
    MaterialSample material(const glm::dvec3& centre, double y, const glm::vec3& normal) const {
        PointLooks looks;
        const double depth = detail::column_depth_and_looks(s, centre.x, centre.y, centre.z, looks);
        return classify(y, glm::dvec3(normal), depth < 0.0 ? 0.0 : depth, looks);
    }

    // A rectangle of w x h faces on the side `dir` along `axis` of the samples from `first`
    // (its lowest u and v): four vertices of its own, two triangles facing out.
    void add_rectangle(const glm::dvec3& first, int axis, int dir, int w, int h, const glm::vec3& normal, const MaterialSample& mat) const {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        const auto base = static_cast<std::uint32_t>(out.positions.size());
        const double du[4] = {-0.5, w - 0.5, w - 0.5, -0.5}, dv[4] = {-0.5, -0.5, h - 0.5, h - 0.5};
        for (int q = 0; q < 4; ++q) {
            glm::dvec3 p = first;
            p[axis] += 0.5 * sp * dir;
            p[u] += du[q] * sp;
            p[v] += dv[q] * sp;
            out.positions.emplace_back(p - out.origin);
            out.normals.push_back(normal);
            out.materials.push_back(mat);
        }
        // (u, v) counter-clockwise faces +axis; flip for the -axis face.
        if (dir > 0) out.indices.insert(out.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
        else out.indices.insert(out.indices.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
    }
};

using LayerMaterials = std::array<MaterialSample, kChunkSize * kChunkSize>;

// Collects a face layer's faces, solid sample and air neighbour along `dir`, in
// scratch.slots (material key + 1, 0 = none) and their materials.
void collect_faces(const BlockChunk& c, int axis, int dir, int layer, const glm::vec3& normal, LayerMaterials& materials) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const std::ptrdiff_t across = dir * static_cast<std::ptrdiff_t>(kStride[axis]);
    for (int b = 0; b < kCore; ++b) {
        const std::size_t row = kOrigin + layer * kStride[axis] + b * kStride[v];
        for (int a = 0; a < kCore; ++a) {
            const std::size_t at = row + a * kStride[u];
            int& slot = c.scratch.slots[static_cast<std::size_t>(b) * kCore + a];
            slot = 0;
            if (!c.scratch.solid[at] || c.scratch.solid[at + across]) continue;
            const auto i = layer_sample(axis, layer, a, b);
            const glm::dvec3 centre = detail::sample_position(c.s, i[0], i[1], i[2]);
            const MaterialSample mat = c.material(centre, centre.y + dir * (axis == 1) * 0.5 * c.sp, normal);
            materials[static_cast<std::size_t>(b) * kCore + a] = mat;
            slot = material_key(mat) + 1;
        }
    }
}

// Covers the layer's faces with rectangles: widest run along u first, then as many rows
// along v as match it exactly (one face each when not greedy).
void cover_faces(const BlockChunk& c, int axis, int dir, int layer, const glm::vec3& normal, const LayerMaterials& materials, bool greedy) {
    std::vector<std::int32_t>& slots = c.scratch.slots;
    for (int b = 0; b < kCore; ++b)
        for (int a = 0; a < kCore;) {
            const int key = slots[static_cast<std::size_t>(b) * kCore + a];
            if (key == 0) {
                ++a;
                continue;
            }
            int w = 1, h = 1;
            if (greedy) {
                while (a + w < kCore && slots[static_cast<std::size_t>(b) * kCore + a + w] == key) ++w;
                for (bool grow = true; grow && b + h < kCore; h += grow) {
                    for (int x = a; x < a + w; ++x)
                        if (slots[static_cast<std::size_t>(b + h) * kCore + x] != key) grow = false;
                }
            }
            for (int y = b; y < b + h; ++y)
                for (int x = a; x < a + w; ++x) slots[static_cast<std::size_t>(y) * kCore + x] = 0;
            const auto i = layer_sample(axis, layer, a, b);
            c.add_rectangle(detail::sample_position(c.s, i[0], i[1], i[2]), axis, dir, w, h, normal,
                            materials[static_cast<std::size_t>(b) * kCore + a]);
            a += w;
        }
}

// The skirt on one face across x or z: one quad per boundary cube that has solid beyond it,
// drawn next to a coarser or a finer column.
void add_skirt(const BlockChunk& c, int side) {
    const int axis = side / 2, dir = side % 2 ? 1 : -1;
    const int layer = dir > 0 ? kCore - 1 : 0;
    glm::vec3 normal(0.0f);
    normal[axis] = static_cast<float>(dir);
    const auto first = static_cast<std::uint32_t>(c.out.indices.size());
    for (int b = 0; b < kCore; ++b)
        for (int a = 0; a < kCore; ++a) {
            const auto i = layer_sample(axis, layer, a, b);
            const std::size_t at = kOrigin + i[0] * kStride[0] + i[1] * kStride[1] + i[2] * kStride[2];
            if (!c.scratch.solid[at] || !c.scratch.solid[at + dir * static_cast<std::ptrdiff_t>(kStride[axis])]) continue;
            const glm::dvec3 centre = detail::sample_position(c.s, i[0], i[1], i[2]);
            c.add_rectangle(centre, axis, dir, 1, 1, normal, c.material(centre, centre.y, normal));
        }
    const auto count = static_cast<std::uint32_t>(c.out.indices.size()) - first;
    c.out.ranges.push_back({first, count, DrawCondition::side_is(side, 1)});
    c.out.ranges.push_back({first, count, DrawCondition::side_is(side, -1)});
}

}  // namespace

void mesh_blocks(const ChunkSamples& s, const MaterialRules& rules, MeshScratch& scratch, MeshBuffers& out, bool greedy) {
    detail::begin_chunk_mesh(s, out);
    const MaterialClassifier classify(rules);
    if (!s.has_surface()) return;
    const BlockChunk chunk{s, classify, scratch, out, s.lattice.spacing_m};
    chunk.mark_solid();
    // One face layer at a time: which faces it has and their materials.
    scratch.slots.assign(static_cast<std::size_t>(kCore) * kCore, 0);
    LayerMaterials materials;
    for (int axis = 0; axis < 3; ++axis)
        for (int dir = -1; dir <= 1; dir += 2) {
            glm::vec3 normal(0.0f);
            normal[axis] = static_cast<float>(dir);
            for (int layer = 0; layer < kCore; ++layer) {
                collect_faces(chunk, axis, dir, layer, normal, materials);
                cover_faces(chunk, axis, dir, layer, normal, materials, greedy);
            }
        }
    out.ranges.push_back({0, static_cast<std::uint32_t>(out.indices.size()), DrawCondition::always()});
    for (const int side : {side_neg_x, side_pos_x, side_neg_z, side_pos_z}) add_skirt(chunk, side);
}

}  // namespace isoterra
