// A small glTF 2.0 writer: one buffer, four views per mesh (positions, normals, colours,
// indices), accessors with the bounds the specification requires, one node per mesh, a rough
// dielectric material for ground and, when a mesh is water, a smooth translucent one.
// Compressed, the views are quantized (KHR_mesh_quantization) and encoded with meshoptimizer
// (EXT_meshopt_compression) into the binary buffer, the views themselves in a fallback buffer
// without data. Checked by the Khronos validator in tests/io.
#include <cstring>

#include <glm/common.hpp>
#include <nlohmann/json.hpp>

#include "drawn_mesh.hpp"
#include "gltf_parts.hpp"
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

using nlohmann::json;

// The binary buffer, and the views and accessors into it. Compressed, a view's data is
// meshopt-encoded into the binary buffer and the view itself lies in a fallback buffer
// (buffer 1) that holds no data.
class GltfBuffers {
public:
    explicit GltfBuffers(bool compress) : compress_(compress) {}

    // Adds the stream's view and its accessor; returns the accessor's index.
    int add_accessor(const detail::GltfStream& stream) {
        json a = stream.accessor;
        a["bufferView"] = add_view(stream);
        accessors_.push_back(a);
        return static_cast<int>(accessors_.size() - 1);
    }

    // The document's accessors, views, buffers (the binary one as a data URI unless `binary`)
    // and, compressed, the extensions it requires.
    void write_to(json& doc, bool binary) const {
        doc["accessors"] = accessors_;
        doc["bufferViews"] = views_;
        json buffer = {{"byteLength", bin_.size()}};
        if (!binary) buffer["uri"] = "data:application/octet-stream;base64," + base64(bin_);
        doc["buffers"] = json::array({buffer});  // not {buffer}: clang reads that as a copy of the object
        if (compress_) {
            // The views' own buffer holds no data: readers must decode (a required extension).
            doc["buffers"].push_back(
                {{"byteLength", fallback_bytes_}, {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
            doc["extensionsUsed"] = {"KHR_mesh_quantization", "EXT_meshopt_compression"};
            doc["extensionsRequired"] = {"KHR_mesh_quantization", "EXT_meshopt_compression"};
        }
    }

    const std::string& bin() const { return bin_; }

private:
    int add_view(const detail::GltfStream& stream) {
        const int target = stream.indices ? 34963 : 34962;
        const std::size_t length = stream.stride * stream.count;
        if (!compress_) {
            const std::size_t offset = bin_.size();
            put(bin_, stream.bytes.data(), stream.bytes.size());
            views_.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}, {"target", target}});
        } else {
            const std::string encoded = detail::meshopt_encode(stream);
            const std::size_t offset = bin_.size();
            put(bin_, encoded.data(), encoded.size());
            json view = {{"buffer", 1}, {"byteOffset", fallback_bytes_}, {"byteLength", length}, {"target", target}};
            if (!stream.indices) view["byteStride"] = stream.stride;  // index views may not have one
            view["extensions"]["EXT_meshopt_compression"] = {{"buffer", 0},
                                                             {"byteOffset", offset},
                                                             {"byteLength", encoded.size()},
                                                             {"byteStride", stream.stride},
                                                             {"count", stream.count},
                                                             {"mode", stream.indices ? "TRIANGLES" : "ATTRIBUTES"}};
            views_.push_back(view);
            fallback_bytes_ += (length + 3) / 4 * 4;
        }
        return static_cast<int>(views_.size() - 1);
    }

    bool compress_;
    json accessors_ = json::array(), views_ = json::array();
    std::string bin_;
    std::size_t fallback_bytes_ = 0;  // compressed: the length of the views once decoded
};

json gltf_materials(bool any_water) {
    // Ground is a rough dielectric: without a material viewers use glTF's default, which
    // is fully metallic and shows black where no environment map is lit.
    json all = json::array({{{"name", "terrain"}, {"pbrMetallicRoughness", {{"metallicFactor", 0.0}, {"roughnessFactor", 0.9}}}}});
    // Water: its colour from COLOR_0, see-through by the factor's alpha, from both sides.
    if (any_water)
        all.push_back({{"name", "water"},
                       {"pbrMetallicRoughness",
                        {{"baseColorFactor", {1.0, 1.0, 1.0, kWaterColour[3]}}, {"metallicFactor", 0.0}, {"roughnessFactor", 0.1}}},
                       {"alphaMode", "BLEND"},
                       {"doubleSided", true}});
    return all;
}

// GLB: header, JSON chunk padded with spaces, BIN chunk padded with zeros.
std::string glb(std::string text, const std::string& bin) {
    while (text.size() % 4) text.push_back(' ');
    const auto u32 = [](std::string& s, std::uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); };
    std::string out;
    const std::uint32_t total =
        12 + 8 + static_cast<std::uint32_t>(text.size()) + (bin.empty() ? 0 : 8 + static_cast<std::uint32_t>(bin.size()));
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

}  // namespace

namespace detail {

GltfPrimitive plain_primitive(const NamedMesh& nm, const MeshBuffers& m, bool placed) {
    // World metres: a chunk's positions are relative to its origin.
    const std::size_t nv = m.vertex_count();
    std::vector<glm::vec3> positions(nv);
    for (std::size_t v = 0; v < nv; ++v) positions[v] = placed ? m.positions[v] : glm::vec3(m.world_position(v));
    glm::vec3 lo = positions[0], hi = lo;
    for (const auto& p : positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
    // Colours as normalised bytes (RGBA: four bytes keep attributes 4-byte aligned) and
    // 16-bit indices where they suffice: a third less than floats and 32-bit indices.
    std::vector<std::uint8_t> colours(4 * nv);
    for (std::size_t v = 0; v < nv; ++v) {
        const glm::vec3 c = glm::clamp(vertex_colour(nm, m, v), 0.0f, 1.0f);
        for (int k = 0; k < 3; ++k) colours[4 * v + k] = static_cast<std::uint8_t>(c[k] * 255.0f + 0.5f);
        colours[4 * v + 3] = 255;
    }
    const auto bytes = [](const void* data, std::size_t n) { return std::string(static_cast<const char*>(data), n); };
    GltfPrimitive p;
    if (placed) p.translation = m.origin;
    p.position = {bytes(positions.data(), nv * 12),
                  12,
                  nv,
                  false,
                  {{"componentType", 5126}, {"count", nv}, {"type", "VEC3"}, {"min", {lo.x, lo.y, lo.z}}, {"max", {hi.x, hi.y, hi.z}}}};
    p.normal = {bytes(m.normals.data(), nv * 12), 12, nv, false, {{"componentType", 5126}, {"count", nv}, {"type", "VEC3"}}};
    p.colour = {bytes(colours.data(), colours.size()),
                4,
                nv,
                false,
                {{"componentType", 5121}, {"normalized", true}, {"count", nv}, {"type", "VEC4"}}};
    const std::size_t ni = m.indices.size();
    if (nv <= 65535) {
        const std::vector<std::uint16_t> shorts(m.indices.begin(), m.indices.end());
        p.index = {bytes(shorts.data(), ni * 2), 2, ni, true, {{"componentType", 5123}, {"count", ni}, {"type", "SCALAR"}}};
    } else {
        p.index = {bytes(m.indices.data(), ni * 4), 4, ni, true, {{"componentType", 5125}, {"count", ni}, {"type", "SCALAR"}}};
    }
    return p;
}

}  // namespace detail

std::string encode_gltf(const std::vector<NamedMesh>& meshes, bool binary, bool placed, bool compress) {
    json doc;
    doc["asset"] = {{"version", "2.0"}, {"generator", "isoterra 0.1.0"}};
    doc["scene"] = 0;
    json nodes = json::array(), gl_meshes = json::array();
    GltfBuffers buffers(compress);
    MeshBuffers scratch;
    bool any_water = false;
    for (const NamedMesh& nm : meshes) {
        const MeshBuffers& m = detail::drawn_alone(nm.mesh, scratch);
        if (m.triangle_count() == 0) continue;
        any_water |= nm.water;
        const detail::GltfPrimitive p = compress ? detail::quantized_primitive(nm, m, placed) : detail::plain_primitive(nm, m, placed);
        const int position = buffers.add_accessor(p.position), normal = buffers.add_accessor(p.normal);
        const int colour = buffers.add_accessor(p.colour), index = buffers.add_accessor(p.index);
        gl_meshes.push_back({{"name", nm.name},
                             {"primitives",
                              {{{"attributes", {{"POSITION", position}, {"NORMAL", normal}, {"COLOR_0", colour}}},
                                {"indices", index},
                                {"material", nm.water ? 1 : 0},
                                {"mode", 4}}}}});
        nodes.push_back({{"name", nm.name}, {"mesh", gl_meshes.size() - 1}});
        if (placed || compress) nodes.back()["translation"] = {p.translation.x, p.translation.y, p.translation.z};
        if (compress) nodes.back()["scale"] = {p.scale, p.scale, p.scale};
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
        doc["materials"] = gltf_materials(any_water);
        buffers.write_to(doc, binary);
    }
    std::string text = doc.dump();
    return binary ? glb(std::move(text), buffers.bin()) : text;
}

}  // namespace isoterra
