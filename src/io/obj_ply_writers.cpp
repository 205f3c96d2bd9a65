// OBJ (text, one object per chunk, colours after positions as most tools read them) and
// PLY (binary little endian, normals and 8-bit colours); water in its own colour.
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "drawn_mesh.hpp"
#include "isoterra/io.hpp"

namespace isoterra {
namespace {

std::uint8_t to_byte(float v) { return static_cast<std::uint8_t>(std::lround(std::fmin(std::fmax(v, 0.0f), 1.0f) * 255.0f)); }

}  // namespace

std::string encode_obj(const std::vector<NamedMesh>& meshes) {
    std::string out = "# isoterra 0.1.0: metres, Y up\n";
    std::size_t base = 1;  // OBJ indices start at 1 and run across objects
    MeshBuffers scratch;
    for (const NamedMesh& nm : meshes) {
        const MeshBuffers& m = detail::drawn_alone(nm.mesh, scratch);
        if (m.triangle_count() == 0) continue;
        out += fmt::format("o {}\n", nm.name);
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            const glm::vec3 p(m.world_position(v)), c = detail::vertex_colour(nm, m, v);
            out += fmt::format("v {} {} {} {:.4f} {:.4f} {:.4f}\n", p.x, p.y, p.z, c.x, c.y, c.z);
        }
        for (const glm::vec3& n : m.normals) out += fmt::format("vn {:.6f} {:.6f} {:.6f}\n", n.x, n.y, n.z);
        for (std::size_t t = 0; t < m.indices.size(); t += 3) {
            const std::size_t a = m.indices[t] + base, b = m.indices[t + 1] + base, c = m.indices[t + 2] + base;
            out += fmt::format("f {}//{} {}//{} {}//{}\n", a, a, b, b, c, c);
        }
        base += m.vertex_count();
    }
    return out;
}

std::string encode_ply(const std::vector<NamedMesh>& input) {
    std::vector<MeshBuffers> scratch(input.size());
    std::vector<const MeshBuffers*> meshes;
    for (std::size_t i = 0; i < input.size(); ++i) meshes.push_back(&detail::drawn_alone(input[i].mesh, scratch[i]));
    std::size_t vertices = 0, faces = 0;
    for (const MeshBuffers* m : meshes) vertices += m->vertex_count(), faces += m->triangle_count();
    std::string out = fmt::format(
        "ply\nformat binary_little_endian 1.0\ncomment isoterra 0.1.0: metres, Y up\n"
        "element vertex {}\nproperty float x\nproperty float y\nproperty float z\n"
        "property float nx\nproperty float ny\nproperty float nz\n"
        "property uchar red\nproperty uchar green\nproperty uchar blue\n"
        "element face {}\nproperty list uchar uint vertex_indices\nend_header\n",
        vertices, faces);
    for (std::size_t i = 0; i < meshes.size(); ++i)
        for (std::size_t v = 0; v < meshes[i]->vertex_count(); ++v) {
            const MeshBuffers* m = meshes[i];
            const glm::vec3 c = detail::vertex_colour(input[i], *m, v);
            const glm::vec3 p(m->world_position(v));
            out.append(reinterpret_cast<const char*>(&p), 12);
            out.append(reinterpret_cast<const char*>(&m->normals[v]), 12);
            out += static_cast<char>(to_byte(c.x));
            out += static_cast<char>(to_byte(c.y));
            out += static_cast<char>(to_byte(c.z));
        }
    std::uint32_t base = 0;
    for (const MeshBuffers* m : meshes) {
        for (std::size_t t = 0; t < m->indices.size(); t += 3) {
            out += static_cast<char>(3);
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t i = m->indices[t + e] + base;
                out.append(reinterpret_cast<const char*>(&i), 4);
            }
        }
        base += static_cast<std::uint32_t>(m->vertex_count());
    }
    return out;
}

}  // namespace isoterra
