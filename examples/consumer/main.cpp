// A small use of the library: load a preset, ask the field about a few points, carve a
// hole, mesh the chunk around it, keep the edit in a world file and undo it in a session.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <isoterra/edit.hpp>
#include <isoterra/mesh.hpp>
#include <isoterra/session.hpp>
#include <isoterra/store.hpp>

int main() {
    const isoterra::KnobTerrain preset = isoterra::builtin_knob_terrain("tutorial");
    const std::shared_ptr<const isoterra::Field> terrain = isoterra::make_terrain(preset, preset.seed);
    const double ground = terrain->ground_height(0.0, 0.0);
    std::printf("ground at (0, 0): %.3f m\n", ground);
    std::printf("value 10 m above it: %.3f (air is > 0)\n", terrain->value({0.0, ground + 10.0, 0.0}));
    if (!(terrain->value({0.0, ground + 40.0, 0.0}) > 0.0)) return 1;

    // Edits: a 5 m ball of air just below the ground (centred on a 1 m sample), as per-chunk
    // deltas over the base.
    const isoterra::EditOp carve{isoterra::BrushKind::sphere, isoterra::BrushMode::carve, {0.0, std::floor(ground) - 3.0, 0.0}, 5.0};
    isoterra::EditHistory history(terrain);
    history.apply(carve);
    double centre = 0.0;
    isoterra::sample_edited(*terrain, history.deltas(), &carve.centre, 1, &centre);
    std::printf("value at the carved centre: %.3f (the radius, 5 m into air)\n", centre);

    // The chunk around it, sampled, edited and meshed.
    const isoterra::ChunkCoord chunk{0, static_cast<int>(std::floor(carve.centre.y / isoterra::kChunkSize)), 0, 0};
    isoterra::ChunkSamples samples;
    isoterra::sample_chunk(*terrain, chunk, isoterra::mesher_padding(isoterra::Mesher::marching_cubes), samples);
    isoterra::apply_deltas(history.deltas(), samples);
    isoterra::MeshScratch scratch;
    isoterra::MeshBuffers mesh;
    isoterra::mesh_chunk(isoterra::Mesher::marching_cubes, samples, terrain->material_rules(), scratch, mesh);
    std::printf("chunk %d,%d,%d: %zu triangles\n", chunk.x, chunk.y, chunk.z, mesh.triangle_count());

    // The same edit kept in a world file (SQLite), one transaction.
    const std::string path = (std::filesystem::temp_directory_path() / "isoterra-consumer.db").string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    {
        isoterra::WorldEditor editor(terrain, std::make_unique<isoterra::WorldFile>(path, &preset));
        editor.apply(carve);
    }
    const isoterra::WorldFile file(path, nullptr);
    std::printf("%s: %zu operation, %zu delta chunks\n", path.c_str(), file.ops().size(), file.deltas().size());

    // The file opened as a front end would (a Session: the terrain, its edits, a World), and
    // the edit taken back.
    isoterra::Session session(std::make_unique<isoterra::WorldFile>(path, nullptr));
    const std::string undone = session.step_history(false);
    std::printf("session: %s\n", undone.c_str());
    return std::fabs(centre - 5.0) < 1e-3 && mesh.triangle_count() > 100 && file.ops().size() == 1 &&
                   file.deltas().same_as(history.deltas()) && undone == "undone (0 of 1 edits in effect)"
               ? 0
               : 1;
}
