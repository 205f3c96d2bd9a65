// Contour tables from per-face rules: segments with the solid on their left seen from
// outside the cell (found from the order of the corners, not from coordinates, so corners
// in a line are fine), chained into loops, each loop fanned from a vertex that puts no triangle
// flat in a face (such a triangle would meet its mirror image from the cell next door).
#include "contour_tables.hpp"

#include <algorithm>
#include <stdexcept>

#include <glm/geometric.hpp>

#include "vertex_attributes.hpp"

namespace isoterra::detail {
namespace {

std::vector<std::int8_t> raw_triangles(const ContourCell& cell, std::uint32_t solid) {
    const auto is_solid = [&](int c) { return (solid >> c & 1) != 0; };
    const int ne = static_cast<int>(cell.edges.size());
    const auto edge_between = [&](int a, int b) {
        for (int e = 0; e < ne; ++e)
            if ((cell.edges[e][0] == a && cell.edges[e][1] == b) || (cell.edges[e][0] == b && cell.edges[e][1] == a)) return e;
        throw std::logic_error("contour cell: a sign change on a step that is not an edge");
    };
    std::vector<int> next(ne, -1);
    std::vector<std::uint32_t> faces_of(ne, 0);  // which faces hold each edge, for the flat test
    for (std::size_t f = 0; f < cell.faces.size(); ++f) {
        // The face's corners counter-clockwise seen from outside (Newell's normal of the
        // loop against the outward normal: collinear corners are fine).
        std::vector<int> q = cell.faces[f].loop;
        const int m = static_cast<int>(q.size());
        glm::dvec3 newell(0.0);
        for (int n = 0; n < m; ++n) newell += glm::cross(cell.corners[q[n]], cell.corners[q[(n + 1) % m]]);
        if (glm::dot(newell, cell.faces[f].outward) < 0) std::reverse(q.begin(), q.end());
        for (int n = 0; n < m; ++n)
            for (int e = 0; e < ne; ++e)
                if ((cell.edges[e][0] == q[n] && cell.edges[e][1] == q[(n + 1) % m]) ||
                    (cell.edges[e][0] == q[(n + 1) % m] && cell.edges[e][1] == q[n]))
                    faces_of[e] |= 1u << f;
        // A segment runs, along the face's loop, from where the loop leaves the solid to where
        // it enters it again: the solid lies on its left seen from outside.
        const auto crossing = [&](int n) { return edge_between(q[n], q[(n + 1) % m]); };
        int leaving[4], entering[4], nl = 0, ne_ = 0;
        for (int n = 0; n < m; ++n) {
            const bool a = is_solid(q[n]), b = is_solid(q[(n + 1) % m]);
            if (a && !b) {
                if (nl == 4) throw std::logic_error("contour cell: too many crossings on a face");
                leaving[nl++] = n;
            }
            if (!a && b) {
                if (ne_ == 4) throw std::logic_error("contour cell: too many crossings on a face");
                entering[ne_++] = n;
            }
        }
        if (nl == 1) {
            next[crossing(leaving[0])] = crossing(entering[0]);
        } else if (nl == 2) {
            if (m != 4) throw std::logic_error("contour cell: four crossings on a face that is not a quad");
            // Ambiguous face: cut off each solid corner on its own; the solid corner q[n]
            // is left at n and entered at n - 1.
            for (int n = 0; n < 4; ++n)
                if (is_solid(q[n])) next[crossing(n)] = crossing((n + 3) % 4);
        }
    }
    std::vector<std::int8_t> tris;
    std::vector<bool> used(ne, false);
    for (int start = 0; start < ne; ++start) {
        if (next[start] < 0 || used[start]) continue;
        std::vector<int> loop;
        for (int e = start; !used[e]; e = next[e]) {
            used[e] = true;
            loop.push_back(e);
        }
        const int len = static_cast<int>(loop.size());
        int origin = 0;
        for (int o = 0; o < len; ++o) {
            bool flat = false;
            for (int n = 1; n + 1 < len; ++n)
                flat |= (faces_of[loop[o]] & faces_of[loop[(o + n) % len]] & faces_of[loop[(o + n + 1) % len]]) != 0;
            if (!flat) {
                origin = o;
                break;
            }
        }
        for (int n = 1; n + 1 < len; ++n) {
            tris.push_back(static_cast<std::int8_t>(loop[origin]));
            tris.push_back(static_cast<std::int8_t>(loop[(origin + n) % len]));
            tris.push_back(static_cast<std::int8_t>(loop[(origin + n + 1) % len]));
        }
    }
    return tris;
}

}  // namespace

std::vector<std::int8_t> contour_triangles(const ContourCell& cell, std::uint32_t solid, std::uint32_t probe) {
    std::vector<std::int8_t> tris = raw_triangles(cell, solid);
    // The left-hand rule winds every loop the same way; the probe tells which way that is:
    // its first triangle must face away from corner 0.
    const std::vector<std::int8_t> p = raw_triangles(cell, probe);
    const auto mid = [&](int e) { return (cell.corners[cell.edges[e][0]] + cell.corners[cell.edges[e][1]]) * 0.5; };
    const glm::dvec3 a = mid(p[0]), b = mid(p[1]), c = mid(p[2]);
    const bool flip = glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0 - cell.corners[0]) < 0;
    if (flip)
        for (std::size_t t = 0; t + 2 < tris.size(); t += 3) std::swap(tris[t + 1], tris[t + 2]);
    return tris;
}

ContourCell cube_cell() {
    ContourCell cube;
    for (int c = 0; c < 8; ++c) cube.corners.emplace_back(c & 1, c >> 1 & 1, c >> 2 & 1);
    for (const auto& e : kCubeEdges) cube.edges.push_back({e[0], e[1]});
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            // The face's corners in cyclic order over the two other axes.
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            const int uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
            ContourCell::Face face;
            for (int n = 0; n < 4; ++n) face.loop.push_back(side << axis | uv[n][0] << u | uv[n][1] << v);
            face.outward = glm::dvec3(0.0);
            face.outward[axis] = side ? 1.0 : -1.0;
            cube.faces.push_back(face);
        }
    return cube;
}

}  // namespace isoterra::detail
