// Compressed glTF (KHR_mesh_quantization + EXT_meshopt_compression) decoded with
// meshoptimizer's own decoders: the bitstream versions the extension names, every triangle of
// the mesh back on the 16-bit grid its node describes, the same bytes for the same input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>

#include <meshoptimizer.h>
#include <nlohmann/json.hpp>

#include "isoterra/io.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/world.hpp"

using namespace isoterra;

namespace {

struct Glb {
    nlohmann::json json;
    std::string bin;
};

Glb split(const std::string& glb) {
    std::uint32_t json_length, bin_length;
    std::memcpy(&json_length, glb.data() + 12, 4);
    Glb g;
    g.json = nlohmann::json::parse(glb.substr(20, json_length));
    std::memcpy(&bin_length, glb.data() + 20 + json_length, 4);
    g.bin = glb.substr(28 + json_length, bin_length);
    return g;
}

// The decoded bytes of buffer view `v`.
std::string decode_view(const Glb& g, int v) {
    const auto& ext = g.json["bufferViews"][v]["extensions"]["EXT_meshopt_compression"];
    const std::size_t count = ext["count"], stride = ext["byteStride"], offset = ext["byteOffset"], length = ext["byteLength"];
    const auto* src = reinterpret_cast<const unsigned char*>(g.bin.data() + offset);
    std::string out(count * stride, '\0');
    int rc;
    if (ext["mode"] == "TRIANGLES") {
        EXPECT_EQ(src[0], 0xe1) << "triangle codec version 1";
        rc = meshopt_decodeIndexBuffer(out.data(), count, stride, src, length);
    } else {
        EXPECT_EQ(ext["mode"], "ATTRIBUTES");
        EXPECT_EQ(src[0], 0xa0) << "attribute codec version 0";
        rc = meshopt_decodeVertexBuffer(out.data(), count, stride, src, length);
    }
    EXPECT_EQ(rc, 0);
    EXPECT_EQ(g.json["bufferViews"][v]["byteLength"], count * stride);
    return out;
}

using Triangle = std::array<std::array<long, 3>, 3>;

// A triangle rotated to start at its least corner: the codec may rotate triangles, never flip them.
Triangle canonical(Triangle t) {
    const auto first = std::min_element(t.begin(), t.end()) - t.begin();
    std::rotate(t.begin(), t.begin() + first, t.end());
    return t;
}

}  // namespace

TEST(CompressedGltf, decodes_to_every_triangle_on_the_nodes_grid_with_the_extensions_versions) {
    const auto field = builtin_terrain("alpine").make_field();
    const auto chunks = chunks_covering({0.0, 1120.0, 0.0}, {64.0, 1216.0, 64.0});
    const MeshBuffers mesh = merge_meshes(mesh_chunks(*field, nullptr, chunks, Mesher::marching_cubes, 2));
    ASSERT_GT(mesh.triangle_count(), 5000u);
    const std::string packed = encode_gltf({{"terrain", mesh}}, true, false, true);
    EXPECT_EQ(packed, encode_gltf({{"terrain", mesh}}, true, false, true));
    EXPECT_LT(packed.size(), encode_gltf({{"terrain", mesh}}, true).size() / 3);
    const Glb g = split(packed);
    EXPECT_EQ(g.json["extensionsRequired"], nlohmann::json({"KHR_mesh_quantization", "EXT_meshopt_compression"}));
    EXPECT_EQ(g.json["buffers"][1]["extensions"]["EXT_meshopt_compression"]["fallback"], true);
    EXPECT_FALSE(g.json["buffers"][1].contains("uri"));
    const auto& node = g.json["nodes"][0];
    const double scale = node["scale"][0];
    const glm::dvec3 translation(node["translation"][0], node["translation"][1], node["translation"][2]);
    const auto& primitive = g.json["meshes"][0]["primitives"][0];
    const auto& accessors = g.json["accessors"];
    const auto& position = accessors[primitive["attributes"]["POSITION"].get<int>()];
    const auto& index = accessors[primitive["indices"].get<int>()];
    EXPECT_EQ(position["componentType"], 5123);
    ASSERT_EQ(position["count"], mesh.vertex_count());
    ASSERT_EQ(index["count"], mesh.indices.size());
    const std::string positions = decode_view(g, position["bufferView"]);
    const std::string indices = decode_view(g, index["bufferView"]);
    const std::string normals = decode_view(g, accessors[primitive["attributes"]["NORMAL"].get<int>()]["bufferView"]);
    const bool short_indices = index["componentType"] == 5123;

    // The original triangles on the node's grid, against the decoded ones.
    std::map<Triangle, int> expected, decoded;
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
        Triangle tri;
        for (int c = 0; c < 3; ++c) {
            const glm::dvec3 p = mesh.world_position(mesh.indices[t + c]);
            for (int a = 0; a < 3; ++a) tri[c][a] = std::lround((p[a] - translation[a]) / scale);
        }
        ++expected[canonical(tri)];
    }
    double worst = 0.0;
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
        Triangle tri;
        for (int c = 0; c < 3; ++c) {
            std::uint32_t v;
            if (short_indices) {
                std::uint16_t s;
                std::memcpy(&s, indices.data() + 2 * (t + c), 2);
                v = s;
            } else {
                std::memcpy(&v, indices.data() + 4 * (t + c), 4);
            }
            ASSERT_LT(v, mesh.vertex_count());
            std::uint16_t q[4];
            std::memcpy(q, positions.data() + 8 * v, 8);
            for (int a = 0; a < 3; ++a) tri[c][a] = q[a];
            std::int8_t n[4];
            std::memcpy(n, normals.data() + 4 * v, 4);
            worst = std::max(worst, std::fabs(std::sqrt(double(n[0]) * n[0] + double(n[1]) * n[1] + double(n[2]) * n[2]) / 127.0 - 1.0));
        }
        ++decoded[canonical(tri)];
    }
    EXPECT_EQ(decoded, expected);
    EXPECT_LT(worst, 0.02);  // normals as bytes: unit length within their rounding
    // The grid is fine: a step of the longest side / 65535.
    EXPECT_LT(scale, 100.0 / 65535.0 + 1e-9);
}

TEST(CompressedGltf, placed_tiles_keep_their_origin_in_the_nodes_translation) {
    const auto field = builtin_terrain("tutorial").make_field();
    MeshBuffers mesh =
        merge_meshes(mesh_chunks(*field, nullptr, chunks_covering({1e6, 0.0, -2e6}, {1e6 + 32, 64.0, -2e6 + 32}), Mesher::surface_nets, 1));
    // As a bake tile: positions relative to the chunk's origin, far from the world's.
    mesh.origin = {1e6, 0.0, -2e6};
    for (auto& p : mesh.positions) p -= glm::vec3(1e6f, 0.0f, -2e6f);
    ASSERT_GT(mesh.triangle_count(), 100u);
    const Glb g = split(encode_gltf({{"tile", mesh}}, true, true, true));
    const auto& t = g.json["nodes"][0]["translation"];
    EXPECT_NEAR(t[0].get<double>(), 1e6, 33.0);
    EXPECT_NEAR(t[2].get<double>(), -2e6, 33.0);
    EXPECT_LT(g.json["nodes"][0]["scale"][0].get<double>(), 66.0 / 65535.0);  // surface nets: half a cell past the box
}
