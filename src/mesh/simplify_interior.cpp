// Simplifying a chunk's inside (issue 27's triangle budget): the edge collapses of
// meshoptimizer's simplifier, on the triangles more than a cell away from every face, with
// the border of that part locked. The faces' own triangles, the transition strips and the
// vertices a coarser neighbour moves (all within a cell of a face) keep their indices, so
// every seam and transition holds exactly as before.
#include <algorithm>
#include <unordered_map>

#include <meshoptimizer.h>

#include "isoterra/mesh.hpp"

namespace isoterra {
namespace {

// Whether a vertex (metres from the chunk's first core sample) lies within one cell of a
// face of the core [0, 32] cells.
bool near_a_face(const glm::vec3& p, double spacing_m) {
    for (int a = 0; a < 3; ++a) {
        const double u = p[a] / spacing_m;
        if (u <= 1.0 + 1e-6 || u >= kChunkSize - 1.0 - 1e-6) return true;
    }
    return false;
}

template <typename T>
void keep_used(std::vector<T>& values, const std::vector<std::uint32_t>& remap, std::size_t kept) {
    if (values.empty()) return;
    std::vector<T> out(kept);
    for (std::size_t v = 0; v < remap.size(); ++v)
        if (remap[v] != ~0u) out[remap[v]] = values[v];
    values.swap(out);
}

// Collapses can fold two triangles onto each other, face to face, in thin places: such a
// pair closes nothing and pinches its three edges (each used twice each way). Both go.
void drop_twins(std::vector<std::uint32_t>& tris) {
    struct Key {
        std::uint32_t a, b, c;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const { return (std::size_t{k.a} * 0x9E3779B97F4A7C15ull) ^ (std::size_t{k.b} << 21) ^ k.c; }
    };
    std::unordered_map<Key, std::vector<std::size_t>, KeyHash> facing[2];  // by orientation
    const std::size_t n = tris.size() / 3;
    for (std::size_t t = 0; t < n; ++t) {
        std::uint32_t v[3] = {tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]};
        std::rotate(v, std::min_element(v, v + 3), v + 3);
        facing[v[1] < v[2]][{v[0], std::min(v[1], v[2]), std::max(v[1], v[2])}].push_back(t);
    }
    std::vector<std::uint8_t> drop(n, 0);
    bool any = false;
    for (auto& [key, ups] : facing[1]) {
        const auto downs = facing[0].find(key);
        if (downs == facing[0].end()) continue;
        for (std::size_t i = 0; i < std::min(ups.size(), downs->second.size()); ++i) drop[ups[i]] = drop[downs->second[i]] = 1, any = true;
    }
    if (!any) return;
    std::size_t kept = 0;
    for (std::size_t t = 0; t < n; ++t)
        if (!drop[t]) std::copy_n(&tris[3 * t], 3, &tris[3 * kept++]);
    tris.resize(3 * kept);
}

// How many directed edges more than one triangle uses: a fold or a pinch (two sheets
// meeting along an edge), which a closed, manifold surface has none of.
std::size_t pinched_edges(const std::vector<std::uint32_t>& tris) {
    std::vector<std::uint64_t> edges(tris.size());
    for (std::size_t t = 0; t < tris.size(); t += 3)
        for (int e = 0; e < 3; ++e) edges[t + e] = std::uint64_t{tris[t + e]} << 32 | tris[t + (e + 1) % 3];
    std::sort(edges.begin(), edges.end());
    std::size_t pinched = 0;
    for (std::size_t i = 1; i < edges.size(); ++i)
        pinched += edges[i] == edges[i - 1] && (i + 1 == edges.size() || edges[i + 1] != edges[i]);
    return pinched;
}

}  // namespace

std::size_t simplify_interior(MeshBuffers& mesh, double spacing_m, double max_error_m, std::size_t target_triangles) {
    if (mesh.indices.empty() || mesh.positions.empty()) return 0;
    // The part drawn always: the first range, unless another range repeats any of it.
    std::uint32_t end = static_cast<std::uint32_t>(mesh.indices.size());
    if (!mesh.ranges.empty()) {
        const IndexRange& first = mesh.ranges[0];
        if (first.first != 0 || !(first.when == DrawCondition::always())) return 0;
        end = first.count;
        for (std::size_t r = 1; r < mesh.ranges.size(); ++r)
            if (mesh.ranges[r].first < end) return 0;
    }
    std::vector<std::uint8_t> locked(mesh.positions.size());
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) locked[v] = near_a_face(mesh.positions[v], spacing_m);
    // And whatever the other ranges use (surface nets' seams reach a cell further in).
    for (std::size_t i = end; i < mesh.indices.size(); ++i) locked[mesh.indices[i]] = 1;
    std::vector<std::uint32_t> inside, outside;
    for (std::uint32_t t = 0; t < end; t += 3) {
        const std::uint32_t* tri = &mesh.indices[t];
        auto& to = locked[tri[0]] || locked[tri[1]] || locked[tri[2]] ? outside : inside;
        to.insert(to.end(), tri, tri + 3);
    }
    const std::size_t original_inside = inside.size();
    // No two of its vertices lie on one point (edge_crossing keeps every crossing off the
    // samples), which the simplifier would take for a seam.
    const std::size_t target = 3 * target_triangles > outside.size() ? 3 * target_triangles - outside.size() : 0;
    if (inside.size() < 3 * 8 || inside.size() <= target) return 0;  // too few to gain anything, or few enough
    // meshoptimizer's error is relative to the mesh's extent, and measures how far the kept
    // vertices lie from the planes of the triangles they replaced, not how far the surface
    // moved: on a ball the surface moved up to twice as far (SimplifyInterior tests), so it
    // is given half the error allowed.
    const float scale = meshopt_simplifyScale(&mesh.positions[0].x, mesh.positions.size(), sizeof(glm::vec3));
    if (!(scale > 0.0f)) return 0;
    // The edge collapses do not check that the surface stays manifold: where the simplified
    // inside pinches (two sheets along an edge) and the original did not, it is tried again
    // with a quarter of the error, then left as it was.
    const std::size_t pinched_before = pinched_edges(inside);
    std::vector<std::uint32_t> simplified;
    double error = 0.5 * max_error_m;
    for (int attempt = 0;; ++attempt, error *= 0.25) {
        simplified.resize(inside.size());
        simplified.resize(meshopt_simplify(simplified.data(), inside.data(), inside.size(), &mesh.positions[0].x, mesh.positions.size(),
                                           sizeof(glm::vec3), target, static_cast<float>(error / scale), meshopt_SimplifyLockBorder,
                                           nullptr));
        drop_twins(simplified);
        if (pinched_edges(simplified) <= pinched_before) break;
        if (attempt == 1) return 0;
    }
    const std::size_t removed = (original_inside - simplified.size()) / 3;
    if (removed == 0) return 0;
    // The new indices: the simplified inside, the rest of the first range, then the other
    // ranges as they were, moved back by what was removed.
    std::vector<std::uint32_t> indices = std::move(simplified);
    indices.insert(indices.end(), outside.begin(), outside.end());
    const std::uint32_t new_end = static_cast<std::uint32_t>(indices.size());
    indices.insert(indices.end(), mesh.indices.begin() + end, mesh.indices.end());
    if (!mesh.ranges.empty()) {
        mesh.ranges[0].count = new_end;
        for (std::size_t r = 1; r < mesh.ranges.size(); ++r) mesh.ranges[r].first -= end - new_end;
    }
    // Only the vertices still used, in their old order.
    std::vector<std::uint32_t> remap(mesh.positions.size(), ~0u);
    for (const std::uint32_t i : indices) remap[i] = 0;
    std::uint32_t kept = 0;
    for (std::uint32_t& r : remap)
        if (r != ~0u) r = kept++;
    for (std::uint32_t& i : indices) i = remap[i];
    mesh.indices.swap(indices);
    keep_used(mesh.positions, remap, kept);
    keep_used(mesh.normals, remap, kept);
    keep_used(mesh.materials, remap, kept);
    keep_used(mesh.secondary, remap, kept);
    keep_used(mesh.side_flags, remap, kept);
    return removed;
}

}  // namespace isoterra
