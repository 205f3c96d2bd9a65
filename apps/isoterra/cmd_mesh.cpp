// `isoterra mesh`: the chunks covering a region, meshed and written as glTF, OBJ or PLY.
#include <thread>

#include <fmt/format.h>

#include "isoterra/io.hpp"
#include "isoterra/mesh.hpp"
#include "edit_session.hpp"
#include "region.hpp"

namespace isoterra::app {
namespace {

struct MeshOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string from, to, mesher_name = "marching-cubes", output;
    bool per_chunk = false, force = false, quiet = false;
    int threads = 0;
};

}  // namespace

void register_mesh(CLI::App& app) {
    static MeshOptions opt;
    auto* cmd = app.add_subcommand("mesh", "Mesh the chunks covering a region and write .glb, .gltf, .obj or .ply");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd);
    cmd->add_option("--from", opt.from, "Region corner X,Y,Z (metres)")->required();
    cmd->add_option("--to", opt.to, "Opposite corner X,Y,Z (metres)")->required();
    cmd->add_option("--mesher", opt.mesher_name, "marching-cubes | surface-nets | blocks");
    cmd->add_flag("--per-chunk", opt.per_chunk, "One node (OBJ: one object) per chunk");
    cmd->add_option("-o,--output", opt.output, "Output file: .glb .gltf .obj .ply")->required();
    cmd->add_option("--threads", opt.threads, "Worker threads (default: all cores)")->check(CLI::Range(0, 256));
    cmd->add_flag("--force", opt.force, "Allow regions of more than 4096 chunks");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    cmd->callback([] {
        const Mesher mesher = mesher_flag(opt.mesher_name);
        MeshFormat format;
        if (!mesh_format_from_path(opt.output, format))
            throw UsageError(fmt::format("-o: '{}' does not end in .glb, .gltf, .obj or .ply", opt.output));
        const auto chunks = chunks_covering(parse_vec3(opt.from, "--from"), parse_vec3(opt.to, "--to"), 4096, opt.force);
        const EditSession session(opt.field, opt.world.path);
        const auto field = session.field();
        const auto deltas = session.deltas();
        std::vector<NamedMesh> meshes(chunks.size());
        const int threads = opt.threads > 0 ? opt.threads : default_threads();
        parallel_for(chunks.size(), threads, "meshing chunks", opt.quiet, [&](std::size_t i) {
            thread_local ChunkSamples samples;
            thread_local MeshScratch scratch;
            const ChunkCoord& c = chunks[i];
            sample_chunk(*field, c, mesher_padding(mesher), samples, meshing_lattice_use(*deltas, c));
            apply_deltas(*deltas, samples);
            meshes[i].name = fmt::format("chunk_{}_{}_{}", c.x, c.y, c.z);
            mesh_chunk(mesher, samples, field->material_rules(), scratch, meshes[i].mesh);
        });
        if (!opt.per_chunk) {
            NamedMesh all{"terrain", {}};
            for (const auto& m : meshes) all.mesh.append(m.mesh);
            meshes.assign(1, std::move(all));
        }
        std::size_t triangles = 0;
        for (const auto& m : meshes) triangles += m.mesh.triangle_count();
        try {
            write_mesh_file(opt.output, format, meshes);
        } catch (const IoError& e) {
            throw UsageError(e.what());
        }
        if (!opt.quiet) std::fprintf(stderr, "wrote %s: %zu chunks, %zu triangles\n", opt.output.c_str(), chunks.size(), triangles);
    });
}

}  // namespace isoterra::app
