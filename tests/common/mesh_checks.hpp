// Geometry checks shared by the mesh and export tests: welding, open edges, volume; a
// chunk meshed from a field, the angle between two normals.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include <glm/geometric.hpp>

#include "isoterra/field.hpp"
#include "isoterra/grid.hpp"
#include "isoterra/mesh.hpp"

namespace isoterra::test {

/// Chunk `c` of `field` sampled and meshed by `mesher`, as a World's worker does.
inline MeshBuffers chunk_mesh(const Field& field, Mesher mesher, const ChunkCoord& c) {
    ChunkSamples s;
    sample_chunk(field, c, mesher_padding(mesher), s, LatticeUse::values);
    MeshScratch scratch;
    MeshBuffers m;
    mesh_chunk(mesher, s, field.material_rules(), scratch, m);
    return m;
}

/// The angle between two directions in degrees, in double by atan2 (acos of a float dot
/// product near 1 would read 0.03 degrees of noise).
inline double degrees_between(const glm::vec3& a, const glm::vec3& b) {
    const glm::dvec3 u = glm::normalize(glm::dvec3(a)), v = glm::normalize(glm::dvec3(b));
    return std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v)) * 180.0 / M_PI;
}

/// Vertex ids after welding equal positions (bit-equal floats).
inline std::vector<std::uint32_t> weld(const std::vector<glm::vec3>& positions) {
    std::map<std::tuple<float, float, float>, std::uint32_t> ids;
    std::vector<std::uint32_t> out(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const auto key = std::make_tuple(positions[i].x, positions[i].y, positions[i].z);
        out[i] = ids.emplace(key, static_cast<std::uint32_t>(ids.size())).first->second;
    }
    return out;
}

/// Directed edges (after welding) that have no opposite edge: the borders of the surface,
/// or places where the winding flips. `manifold`: also count an edge used more than once
/// each way as open (blocks touching along an edge use it twice each way).
inline std::vector<std::pair<std::uint32_t, std::uint32_t>> open_edges(const MeshBuffers& m, bool manifold = true) {
    const auto id = weld(m.positions);
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = id[m.indices[t + e]], b = id[m.indices[t + (e + 1) % 3]];
            if (a != b) ++count[{a, b}];
        }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> open;
    for (const auto& [edge, n] : count) {
        const auto back = count.find({edge.second, edge.first});
        if (back == count.end() || back->second != n || (manifold && n != 1)) open.push_back(edge);
    }
    return open;
}

/// Enclosed volume by the divergence theorem (positive when triangles face outwards).
inline double enclosed_volume(const MeshBuffers& m) {
    double v = 0.0;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        const glm::dvec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]], c = m.positions[m.indices[t + 2]];
        v += glm::dot(a, glm::cross(b, c)) / 6.0;
    }
    return v;
}

}  // namespace isoterra::test
