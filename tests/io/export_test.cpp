// Mesh files: counts read back, identical bytes for identical input, no partial files.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "isoterra/io.hpp"

using namespace isoterra;

namespace {

// Two chunks' meshes as the mesher makes them (with transition strips) or, `drawn`, as drawn
// among neighbours of their own level.
std::vector<NamedMesh> two_chunks(bool drawn = true) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    std::vector<NamedMesh> out(2);
    ChunkSamples s;
    MeshScratch scratch;
    for (int c = 0; c < 2; ++c) {
        sample_chunk(*t, {c, 0, 0}, mesher_padding(Mesher::marching_cubes), s);
        out[c].name = "chunk_" + std::to_string(c);
        mesh_chunk(Mesher::marching_cubes, s, t->material_rules(), scratch, out[c].mesh);
        if (drawn) out[c].mesh = select_for_neighbours(out[c].mesh, Neighbourhood{});
    }
    return out;
}

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(ObjExport, reads_back_with_the_same_vertex_face_and_object_counts) {
    const auto meshes = two_chunks();
    std::istringstream in(encode_obj(meshes));
    std::size_t v = 0, vn = 0, f = 0, o = 0;
    for (std::string line; std::getline(in, line);) {
        v += line.rfind("v ", 0) == 0;
        vn += line.rfind("vn ", 0) == 0;
        f += line.rfind("f ", 0) == 0;
        o += line.rfind("o ", 0) == 0;
    }
    EXPECT_EQ(o, 2u);
    EXPECT_EQ(v, meshes[0].mesh.vertex_count() + meshes[1].mesh.vertex_count());
    EXPECT_EQ(vn, v);
    EXPECT_EQ(f, meshes[0].mesh.triangle_count() + meshes[1].mesh.triangle_count());
}

// A chunk's mesh with its transition strips is written as drawn among neighbours of its own
// level: the strips (drawn only next to coarser chunks) are not in the file.
TEST(MeshExport, chunk_meshes_are_written_as_drawn_among_their_own_level) {
    const auto raw = two_chunks(false), drawn = two_chunks(true);
    ASSERT_GT(raw[0].mesh.triangle_count(), drawn[0].mesh.triangle_count());
    EXPECT_EQ(encode_obj(raw), encode_obj(drawn));
    EXPECT_EQ(encode_ply(raw), encode_ply(drawn));
    EXPECT_EQ(encode_gltf(raw, true), encode_gltf(drawn, true));
}

TEST(PlyExport, header_counts_and_binary_size_match) {
    const auto meshes = two_chunks();
    const std::string ply = encode_ply(meshes);
    const std::size_t nv = meshes[0].mesh.vertex_count() + meshes[1].mesh.vertex_count();
    const std::size_t nf = meshes[0].mesh.triangle_count() + meshes[1].mesh.triangle_count();
    EXPECT_NE(ply.find("element vertex " + std::to_string(nv) + "\n"), std::string::npos);
    EXPECT_NE(ply.find("element face " + std::to_string(nf) + "\n"), std::string::npos);
    const std::size_t body = ply.size() - (ply.find("end_header\n") + 11);
    EXPECT_EQ(body, nv * 27 + nf * 13);
    // The last face's indices are in range.
    std::uint32_t last;
    std::memcpy(&last, ply.data() + ply.size() - 4, 4);
    EXPECT_LT(last, nv);
}

TEST(GltfExport, glb_has_a_valid_header_and_the_same_input_gives_the_same_bytes) {
    const auto meshes = two_chunks();
    const std::string a = encode_gltf(meshes, true), b = encode_gltf(two_chunks(), true);
    EXPECT_EQ(a, b);
    ASSERT_GT(a.size(), 20u);
    EXPECT_EQ(a.substr(0, 4), "glTF");
    std::uint32_t total;
    std::memcpy(&total, a.data() + 8, 4);
    EXPECT_EQ(total, a.size());
    EXPECT_EQ(a.size() % 4, 0u);
    EXPECT_EQ(encode_obj(meshes), encode_obj(two_chunks()));
}

TEST(AtomicWrite, a_failed_write_leaves_nothing_and_a_good_one_replaces_the_file) {
    const std::string dir = ::testing::TempDir() + "/atomic_write_test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/out.obj";
    write_file_atomically(path, "first");
    write_file_atomically(path, "second");
    EXPECT_EQ(read(path), "second");
    EXPECT_THROW(write_file_atomically(dir + "/missing/out.obj", "x"), IoError);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
    EXPECT_EQ(files, 1u);  // no temporary left behind
}

// A writer killed with SIGKILL at random moments while it writes new files leaves each file
// whole under its own name or absent: no temporary and no half file (the bake's killed ranks).
TEST(AtomicWrite, a_killed_writer_of_new_files_leaves_only_whole_files) {
    const std::string dir = ::testing::TempDir() + "/atomic_write_killed";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto bytes_of = [](int i) { return std::string(4096 + i % 97, static_cast<char>('a' + i % 26)); };
    int started = 0;
    for (int round = 0; round < 24; ++round) {
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            for (int i = round * 100000;; ++i) write_file_atomically(dir + "/f" + std::to_string(i), bytes_of(i));
        }
        // Each child is killed after its first whole file, at a moment that differs from
        // round to round: waiting on the clock alone left slow (sanitized, shared) machines
        // with rounds that wrote nothing.
        const std::string first = dir + "/f" + std::to_string(round * 100000);
        for (int waited = 0; waited < 20000 && !std::filesystem::exists(first); ++waited) ::usleep(1000);
        ::usleep(static_cast<useconds_t>(300 * (round % 7) + 900 * (round % 5)));
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
        started += WIFSIGNALED(status);
    }
    EXPECT_EQ(started, 24);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        ASSERT_EQ(name[0], 'f') << name;
        ASSERT_EQ(name.find(".tmp"), std::string::npos) << name;
        EXPECT_EQ(read(e.path().string()), bytes_of(std::stoi(name.substr(1)))) << name;
        ++files;
    }
    EXPECT_GE(files, 24u);
}

TEST(MeshFormat, extensions_pick_the_format) {
    MeshFormat f;
    EXPECT_TRUE(mesh_format_from_path("a/b.glb", f));
    EXPECT_EQ(f, MeshFormat::glb);
    EXPECT_TRUE(mesh_format_from_path("x.gltf", f));
    EXPECT_EQ(f, MeshFormat::gltf);
    EXPECT_FALSE(mesh_format_from_path("x.stl", f));
    EXPECT_FALSE(mesh_format_from_path(".obj", f));
}
