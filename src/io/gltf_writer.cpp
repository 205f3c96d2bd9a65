// A small glTF 2.0 writer: one buffer, four views per mesh (positions, normals, colours,
// indices), accessors with the bounds the specification requires, one node per mesh, a rough
// dielectric material for ground and, when a mesh is water, a smooth translucent one.
// Checked by the Khronos validator in tests/io.
#include <cstring>

#include <glm/common.hpp>
#include <nlohmann/json.hpp>

#include "drawn_mesh.hpp"
#include "isoterra/io.hpp"

namespace isoterra {
namespace {

void put(std::string& bin, const void* data, std::size_t n) {
    bin.append(static_cast<const char*>(data), n);
    while (bin.size() % 4) bin.push_back('\0');
}

std::string base64(const std::string& in) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < in.size(); i += 3) {
        const unsigned b0 = static_cast<unsigned char>(in[i]);
        const unsigned b1 = i + 1 < in.size() ? static_cast<unsigned char>(in[i + 1]) : 0;
        const unsigned b2 = i + 2 < in.size() ? static_cast<unsigned char>(in[i + 2]) : 0;
        const unsigned v = b0 << 16 | b1 << 8 | b2;
        out += k[v >> 18 & 63];
        out += k[v >> 12 & 63];
        out += i + 1 < in.size() ? k[v >> 6 & 63] : '=';
        out += i + 2 < in.size() ? k[v & 63] : '=';
    }
    return out;
}

}  // namespace

std::string encode_gltf(const std::vector<NamedMesh>& meshes, bool binary, bool placed) {
    using nlohmann::json;
    json doc;
    doc["asset"] = {{"version", "2.0"}, {"generator", "isoterra 0.1.0"}};
    doc["scene"] = 0;
    json nodes = json::array(), gl_meshes = json::array(), accessors = json::array(), views = json::array();
    std::string bin;
    const auto add_view = [&](const void* data, std::size_t bytes, int target) {
        const std::size_t offset = bin.size();
        put(bin, data, bytes);
        views.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}, {"target", target}});
        return static_cast<int>(views.size() - 1);
    };
    MeshBuffers scratch;
    bool any_water = false;
    for (const NamedMesh& nm : meshes) {
        const MeshBuffers& m = detail::drawn_alone(nm.mesh, scratch);
        if (m.triangle_count() == 0) continue;
        any_water |= nm.water;
        // World metres: a chunk's positions are relative to its origin.
        std::vector<glm::vec3> positions(m.vertex_count());
        for (std::size_t v = 0; v < positions.size(); ++v) positions[v] = placed ? m.positions[v] : glm::vec3(m.world_position(v));
        glm::vec3 lo = positions[0], hi = lo;
        for (const auto& p : positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
        // Colours as normalised bytes (RGBA: four bytes keep attributes 4-byte aligned) and
        // 16-bit indices where they suffice: a third less than floats and 32-bit indices.
        std::vector<std::uint8_t> colours(4 * m.vertex_count());
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            const glm::vec3 c = glm::clamp(detail::vertex_colour(nm, m, v), 0.0f, 1.0f);
            for (int k = 0; k < 3; ++k) colours[4 * v + k] = static_cast<std::uint8_t>(c[k] * 255.0f + 0.5f);
            colours[4 * v + 3] = 255;
        }
        const std::size_t nv = m.vertex_count();
        const bool short_indices = nv <= 65535;
        std::vector<std::uint16_t> short_copy;
        if (short_indices) short_copy.assign(m.indices.begin(), m.indices.end());
        const int pv = add_view(positions.data(), nv * sizeof(glm::vec3), 34962);
        const int nvv = add_view(m.normals.data(), nv * sizeof(glm::vec3), 34962);
        const int cv = add_view(colours.data(), colours.size(), 34962);
        const int iv = short_indices ? add_view(short_copy.data(), short_copy.size() * 2, 34963)
                                     : add_view(m.indices.data(), m.indices.size() * 4, 34963);
        const int base = static_cast<int>(accessors.size());
        accessors.push_back({{"bufferView", pv}, {"componentType", 5126}, {"count", nv}, {"type", "VEC3"},
                             {"min", {lo.x, lo.y, lo.z}}, {"max", {hi.x, hi.y, hi.z}}});
        accessors.push_back({{"bufferView", nvv}, {"componentType", 5126}, {"count", nv}, {"type", "VEC3"}});
        accessors.push_back({{"bufferView", cv}, {"componentType", 5121}, {"normalized", true}, {"count", nv}, {"type", "VEC4"}});
        accessors.push_back({{"bufferView", iv}, {"componentType", short_indices ? 5123 : 5125}, {"count", m.indices.size()}, {"type", "SCALAR"}});
        gl_meshes.push_back({{"name", nm.name},
                             {"primitives", {{{"attributes", {{"POSITION", base}, {"NORMAL", base + 1}, {"COLOR_0", base + 2}}},
                                              {"indices", base + 3}, {"material", nm.water ? 1 : 0}, {"mode", 4}}}}});
        nodes.push_back({{"name", nm.name}, {"mesh", gl_meshes.size() - 1}});
        if (placed) nodes.back()["translation"] = {m.origin.x, m.origin.y, m.origin.z};
    }
    json scene_nodes = json::array();
    for (std::size_t i = 0; i < nodes.size(); ++i) scene_nodes.push_back(i);
    // A scene always has a name, so that an export with no triangles is still a valid file.
    json scene = {{"name", "isoterra"}};
    if (!nodes.empty()) scene["nodes"] = scene_nodes;
    doc["scenes"] = json::array({scene});
    if (!nodes.empty()) {
        doc["nodes"] = nodes;
        doc["meshes"] = gl_meshes;
        doc["accessors"] = accessors;
        // Ground is a rough dielectric: without a material viewers use glTF's default, which
        // is fully metallic and shows black where no environment map is lit.
        doc["materials"] = json::array({{{"name", "terrain"},
                                         {"pbrMetallicRoughness", {{"metallicFactor", 0.0}, {"roughnessFactor", 0.9}}}}});
        // Water: its colour from COLOR_0, see-through by the factor's alpha, from both sides.
        if (any_water)
            doc["materials"].push_back({{"name", "water"},
                                        {"pbrMetallicRoughness",
                                         {{"baseColorFactor", {1.0, 1.0, 1.0, kWaterColour[3]}}, {"metallicFactor", 0.0}, {"roughnessFactor", 0.1}}},
                                        {"alphaMode", "BLEND"},
                                        {"doubleSided", true}});
        doc["bufferViews"] = views;
        json buffer = {{"byteLength", bin.size()}};
        if (!binary) buffer["uri"] = "data:application/octet-stream;base64," + base64(bin);
        doc["buffers"] = {buffer};
    }
    std::string text = doc.dump();
    if (!binary) return text;

    // GLB: header, JSON chunk padded with spaces, BIN chunk padded with zeros.
    while (text.size() % 4) text.push_back(' ');
    const auto u32 = [](std::string& s, std::uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); };
    std::string out;
    const std::uint32_t total = 12 + 8 + static_cast<std::uint32_t>(text.size()) + (bin.empty() ? 0 : 8 + static_cast<std::uint32_t>(bin.size()));
    u32(out, 0x46546C67u);  // "glTF"
    u32(out, 2);
    u32(out, total);
    u32(out, static_cast<std::uint32_t>(text.size()));
    u32(out, 0x4E4F534Au);  // "JSON"
    out += text;
    if (!bin.empty()) {
        u32(out, static_cast<std::uint32_t>(bin.size()));
        u32(out, 0x004E4942u);  // "BIN"
        out += bin;
    }
    return out;
}

}  // namespace isoterra
