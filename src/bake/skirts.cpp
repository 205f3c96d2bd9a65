// Skirts: walls hanging from a tile's open edges along its four sides. A client draws tiles
// of different levels side by side without knowing its neighbours, so the gap between a fine
// and a coarse surface at their shared side is hidden by the wall below either one.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "isoterra/bake.hpp"

namespace isoterra {
namespace {

// Vertices are welded by exact position: chunks of one column share their seam vertices'
// positions bit for bit, so only the column's rim stays open.
using Key = std::tuple<float, float, float>;

}  // namespace

std::size_t add_skirts(MeshBuffers& mesh, double size_m, double band_m, double depth_m, double floor_y) {
    std::map<Key, std::uint32_t> weld;
    std::vector<std::uint32_t> id(mesh.vertex_count());
    for (std::size_t v = 0; v < id.size(); ++v) {
        const glm::vec3& p = mesh.positions[v];
        id[v] = weld.try_emplace(Key{p.x, p.y, p.z}, static_cast<std::uint32_t>(v)).first->second;
    }
    // Each undirected edge: how many triangles use it, and the first one's direction.
    struct Use {
        int count = 0;
        std::uint32_t a = 0, b = 0;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, Use> edges;
    const std::size_t triangles = mesh.triangle_count();
    for (std::size_t t = 0; t < triangles; ++t)
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = mesh.indices[3 * t + e], b = mesh.indices[3 * t + (e + 1) % 3];
            const std::uint32_t ia = id[a], ib = id[b];
            if (ia == ib) continue;
            Use& u = edges[{std::min(ia, ib), std::max(ia, ib)}];
            if (u.count++ == 0) u.a = a, u.b = b;
        }
    const auto side_of = [&](const glm::vec3& p) {
        // The bits of the sides (-x, +x, -z, +z) the point lies within the band of.
        unsigned s = 0;
        if (p.x <= band_m) s |= 1;
        if (p.x >= size_m - band_m) s |= 2;
        if (p.z <= band_m) s |= 4;
        if (p.z >= size_m - band_m) s |= 8;
        return s;
    };
    std::map<std::uint32_t, std::uint32_t> lowered;  // a rim vertex -> its copy at the skirt's foot
    const auto foot = [&](std::uint32_t v) {
        auto [it, fresh] = lowered.try_emplace(v, static_cast<std::uint32_t>(mesh.positions.size()));
        if (fresh) {
            glm::vec3 p = mesh.positions[v];
            p.y = static_cast<float>(std::max(static_cast<double>(p.y) - depth_m, floor_y));
            mesh.positions.push_back(p);
            mesh.normals.push_back(mesh.normals[v]);
            mesh.materials.push_back(mesh.materials[v]);
        }
        return it->second;
    };
    std::size_t added = 0;
    for (const auto& [key, u] : edges) {
        if (u.count != 1) continue;
        const glm::vec3 pa = mesh.positions[u.a], pb = mesh.positions[u.b];
        if ((side_of(pa) & side_of(pb)) == 0) continue;
        // At the floor already: a wall would have no height.
        if (pa.y <= floor_y + 1e-3 || pb.y <= floor_y + 1e-3) continue;
        // The wall continues the surface downwards: it runs the edge the other way round.
        const std::uint32_t fa = foot(u.a), fb = foot(u.b);
        for (std::uint32_t i : {u.b, u.a, fa, u.b, fa, fb}) mesh.indices.push_back(i);
        added += 2;
    }
    return added;
}

}  // namespace isoterra
