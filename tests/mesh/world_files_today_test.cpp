// World files made at commit 7acd295 (before the river and bank work of issue 53), one per
// built-in terrain, two edits each, one of them where the ground is under water when there
// is any: opened with this build they must sample and mesh as they did then, to the bit.
// A world file stores its graph's text, but that text names node types whose code may
// change; so the rule for changing a node (drainage, materials by the water, ...): new
// behaviour comes behind a new node parameter or a version key whose absence means the old
// behaviour, and an old graph text keeps its bits. The mesh digest covers what the terrain
// decides (positions, normals, materials, indices of marching cubes); a mesher change meant
// to alter meshes (MeshDigest updated, saying why) shows these samples unchanged and updates
// the digests here too.
//
// Recorded by tests/reference/world_files/record_today.sh, which runs this test with
// ISOTERRA_RECORD_WORLD_FILES=DIR: it makes DIR/NAME_7acd295.db and DIR/NAME_7acd295.expect.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "isoterra/base.hpp"
#include "isoterra/edit.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/store.hpp"
#include "isoterra/world.hpp"
#include "temp_files.hpp"

namespace isoterra {
namespace {

const std::string kTodayTag = "7acd295";
const std::string kTodayDir = ISOTERRA_REFERENCE_DIR "/world_files/";

template <typename T>
void hash_vector(Sha256& h, const std::vector<T>& v) {
    h.update(std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T)));
}

// The chunks around each edit, meshed by marching cubes with the edits, hashed.
std::string edited_mesh_digest(const Field& field, const ChunkDeltas& deltas, const std::vector<EditOp>& ops) {
    Sha256 h;
    for (const EditOp& op : ops) {
        const glm::dvec3 reach(op.radius_m + 2.0);
        const auto chunks = chunks_covering(op.centre - reach, op.centre + reach);
        const auto meshes = mesh_chunks(field, &deltas, chunks, Mesher::marching_cubes, 1);
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            const MeshBuffers& m = meshes[i];
            h.update(fmt::format("{} {} {} {}\n", chunks[i].x, chunks[i].y, chunks[i].z, m.vertex_count()));
            hash_vector(h, m.positions);
            hash_vector(h, m.normals);
            for (const MaterialSample& ms : m.materials) {  // field by field: padding bytes
                const unsigned char kinds[2] = {static_cast<unsigned char>(ms.primary), static_cast<unsigned char>(ms.secondary)};
                h.update(std::string_view(reinterpret_cast<const char*>(kinds), 2));
                h.update(std::string_view(reinterpret_cast<const char*>(&ms.blend), sizeof(float)));
            }
            hash_vector(h, m.indices);
        }
    }
    return h.hex();
}

// Points in and around each edit: its centre, half its radius each way, above and below.
std::vector<glm::dvec3> points_around_edits(const std::vector<EditOp>& ops) {
    std::vector<glm::dvec3> points;
    for (const EditOp& op : ops) {
        const double r = op.radius_m;
        for (const glm::dvec3 d : {glm::dvec3(0.0), glm::dvec3(0.5 * r, 0.0, 0.0), glm::dvec3(-0.5 * r, 0.0, 0.25 * r),
                                   glm::dvec3(0.0, 0.0, 0.5 * r), glm::dvec3(0.3, -0.5 * r, -0.7), glm::dvec3(0.0, 0.5 * r, 0.0),
                                   glm::dvec3(1.5 * r, -1.0, 0.5), glm::dvec3(-2.0 * r, 0.0, -1.25)})
            points.push_back(op.centre + d);
    }
    return points;
}

// The wet column nearest the origin within 2 km, 16 m apart; false when there is none.
bool find_wet_column(const Field& field, glm::dvec2& at) {
    Lattice lat;
    lat.spacing_m = 16.0;
    lat.origin = {-125, 0, -125};
    lat.size = {251, 1, 251};
    std::vector<float> values(lat.count()), ground(lat.count());
    ColumnLooks looks;
    if (!field.sample_lattice_and_ground(lat, values.data(), ground.data(), LatticeUse::values, nullptr, &looks) || looks.water.empty())
        return false;
    double best = INFINITY;
    for (int k = 0; k < lat.size.z; ++k)
        for (int i = 0; i < lat.size.x; ++i) {
            const std::size_t n = lat.index(i, 0, k);
            const glm::dvec3 p = lat.position(i, 0, k);
            if (looks.water[n] > ground[n] + 0.5f && glm::length(glm::dvec2(p.x, p.z)) < best) {
                best = glm::length(glm::dvec2(p.x, p.z));
                at = {p.x, p.z};
            }
        }
    return best < INFINITY;
}

// Record mode: a world file with two edits, its samples and its mesh digest.
void record_world_file(const std::string& name, const std::string& dir) {
    const std::string path = dir + "/" + name + "_" + kTodayTag + ".db";
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
    const TerrainSource terrain = builtin_terrain(name);
    const auto field = terrain.make_field();
    glm::dvec2 second(300.0, 450.0);
    const bool wet = find_wet_column(*field, second);
    EditOp carve;
    carve.centre = {10.0, field->ground_height(10.0, -20.0) + 1.0, -20.0};
    carve.radius_m = 6.0;
    EditOp add_rock;
    add_rock.mode = BrushMode::add;
    add_rock.centre = {second.x, field->ground_height(second.x, second.y), second.y};
    add_rock.radius_m = 8.0;
    {
        WorldEditor editor(field, std::make_unique<WorldFile>(path, &terrain));
        editor.apply(carve);
        editor.apply(add_rock);
        editor.file()->checkpoint();
    }
    std::printf("%s: second edit at %.1f, %.1f (%s)\n", name.c_str(), second.x, second.y, wet ? "under water" : "no water near");
}

struct Opened {
    std::string name;
    std::shared_ptr<const Field> field;
    std::unique_ptr<WorldEditor> editor;
};

Opened open_copy(const std::string& name, const std::string& from) {
    // A copy: opening a world file may write beside it (its journal).
    const std::string copy = test::fresh_path(name + "_" + kTodayTag + ".db");
    EXPECT_EQ(std::system(("cp '" + from + "' '" + copy + "'").c_str()), 0);
    auto file = std::make_unique<WorldFile>(copy, nullptr);
    Opened o;
    o.name = file->terrain().name;
    o.field = file->terrain().make_field();
    o.editor = std::make_unique<WorldEditor>(o.field, std::move(file));
    return o;
}

std::string expectations(const Opened& o) {
    const auto& h = o.editor->history();
    const auto points = points_around_edits(h.ops());
    std::vector<double> values(points.size());
    sample_edited(*o.field, h.deltas(), points.data(), points.size(), values.data());
    std::string out;
    for (std::size_t i = 0; i < points.size(); ++i)
        out += fmt::format("sample {} {} {} {:.17g}\n", points[i].x, points[i].y, points[i].z, values[i]);
    return out + "mesh " + edited_mesh_digest(*o.field, h.deltas(), h.ops()) + "\n";
}

std::string read_expectations(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

class WorldFileMadeAt7acd295 : public ::testing::TestWithParam<const char*> {};

TEST_P(WorldFileMadeAt7acd295, opens_with_its_two_edits_and_samples_and_meshes_to_the_recorded_bits) {
    const std::string name = GetParam();
    if (const char* dir = std::getenv("ISOTERRA_RECORD_WORLD_FILES")) {
        record_world_file(name, dir);
        const std::string db = std::string(dir) + "/" + name + "_" + kTodayTag + ".db";
        std::ofstream(std::string(dir) + "/" + name + "_" + kTodayTag + ".expect") << expectations(open_copy(name, db));
        return;
    }
    const Opened o = open_copy(name, kTodayDir + name + "_" + kTodayTag + ".db");
    ASSERT_EQ(o.editor->history().applied(), 2u);
    EXPECT_EQ(o.name, name);
    const std::string expected = read_expectations(kTodayDir + name + "_" + kTodayTag + ".expect");
    ASSERT_NE(expected.find("mesh "), std::string::npos);
    EXPECT_EQ(expectations(o), expected);
}

INSTANTIATE_TEST_SUITE_P(Builtins, WorldFileMadeAt7acd295, ::testing::Values("alpine", "rivers", "islands", "canyons", "tutorial"));

}  // namespace isoterra
