// A user's weld: every point within a distance of another merged with it (Blender's "merge
// by distance", 0.1 mm by default), then the mesh checked as a modeller would: triangles that
// collapse (two corners merged) and edges shared by more than two triangles.
#pragma once

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "isoterra/mesh.hpp"

namespace isoterra::test {

/// What a weld at a distance did to a mesh.
struct WeldFaults {
    std::vector<std::pair<glm::dvec3, glm::dvec3>> close;  // pairs of distinct points within the distance, each once
    std::size_t collapsed = 0;                             // triangles with two corners merged (degenerate after the weld)
    std::size_t crowded = 0;                               // edges shared by more than two of the remaining triangles
};

/// Welds `points` (triangles: three indices each) merging every two within `distance`, and
/// through them chains of such (union-find: at least what any merge by distance merges), and
/// counts what is wrong afterwards. Triangles whose corners are already one point count as
/// collapsed too.
inline WeldFaults weld_within(const std::vector<glm::dvec3>& points, const std::vector<std::uint32_t>& triangles, double distance) {
    std::vector<std::uint32_t> root(points.size());
    std::iota(root.begin(), root.end(), 0u);
    const auto find = [&](std::uint32_t v) {
        while (root[v] != v) v = root[v] = root[root[v]];
        return v;
    };
    // Points binned in cubes of the distance: pairs within it lie in neighbouring bins.
    using Bin = std::tuple<std::int64_t, std::int64_t, std::int64_t>;
    const auto hash = [](const Bin& b) {
        return std::hash<std::int64_t>()(std::get<0>(b) * 73856093 ^ std::get<1>(b) * 19349663 ^ std::get<2>(b) * 83492791);
    };
    std::unordered_map<Bin, std::vector<std::uint32_t>, decltype(hash)> bins(points.size(), hash);
    const auto bin = [&](const glm::dvec3& p) {
        return Bin{static_cast<std::int64_t>(std::floor(p.x / distance)), static_cast<std::int64_t>(std::floor(p.y / distance)),
                   static_cast<std::int64_t>(std::floor(p.z / distance))};
    };
    for (std::uint32_t v = 0; v < points.size(); ++v) bins[bin(points[v])].push_back(v);
    // The first of the points on each one point (the copies chunks share count once).
    std::vector<std::uint32_t> first(points.size());
    for (const auto& [key, members] : bins)
        for (std::size_t i = 0; i < members.size(); ++i) {
            std::size_t j = 0;
            while (points[members[j]] != points[members[i]]) ++j;
            first[members[i]] = members[j];
        }
    WeldFaults faults;
    for (std::uint32_t v = 0; v < points.size(); ++v) {
        const auto [bx, by, bz] = bin(points[v]);
        for (std::int64_t dz = -1; dz <= 1; ++dz)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dx = -1; dx <= 1; ++dx) {
                    const auto it = bins.find({bx + dx, by + dy, bz + dz});
                    if (it == bins.end()) continue;
                    for (const std::uint32_t w : it->second) {
                        if (w <= v || glm::length(points[w] - points[v]) > distance) continue;
                        if (points[w] != points[v] && first[v] == v && first[w] == w) faults.close.emplace_back(points[v], points[w]);
                        const std::uint32_t a = find(v), b = find(w);
                        root[std::max(a, b)] = std::min(a, b);
                    }
                }
    }
    std::unordered_map<std::uint64_t, int> edges;  // undirected: the smaller end in the high half
    for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
        const std::uint32_t c[3] = {find(triangles[t]), find(triangles[t + 1]), find(triangles[t + 2])};
        if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]) {
            ++faults.collapsed;
            continue;
        }
        for (int e = 0; e < 3; ++e) {
            const auto [lo, hi] = std::minmax(c[e], c[(e + 1) % 3]);
            ++edges[static_cast<std::uint64_t>(lo) << 32 | hi];
        }
    }
    for (const auto& [edge, n] : edges) faults.crowded += n > 2;
    return faults;
}

/// The same for meshes together, in world coordinates (each one's positions plus its origin,
/// in double: exact).
inline WeldFaults weld_within(const std::vector<const MeshBuffers*>& meshes, double distance) {
    std::vector<glm::dvec3> points;
    std::vector<std::uint32_t> triangles;
    for (const MeshBuffers* m : meshes) {
        const auto first = static_cast<std::uint32_t>(points.size());
        for (std::size_t v = 0; v < m->vertex_count(); ++v) points.push_back(m->world_position(v));
        for (const std::uint32_t i : m->indices) triangles.push_back(first + i);
    }
    return weld_within(points, triangles, distance);
}

}  // namespace isoterra::test
