// `isoterra mesh`: the chunks covering a region, meshed and written as glTF, OBJ or PLY; or,
// with --around, exactly what the World shows around a focus once settled: every level of
// detail, each chunk with the transitions its neighbours call for, in world coordinates, and
// the water surfaces it shows as one more mesh, "water".
#include <chrono>
#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/io.hpp"
#include "isoterra/mesh.hpp"
#include "isoterra/world.hpp"
#include "edit_session.hpp"
#include "region.hpp"

namespace isoterra::app {
namespace {

struct MeshOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string from, to, around, mesher_name = meshers().front().name, output;
    bool per_chunk = false, force = false, quiet = false, compress = false;
    int threads = 0, radius = 8;
    std::size_t triangle_budget = WorldSettings{}.triangle_budget;
    double view_distance_m = 8000.0;
};

// What a World shows around `focus` once settled.
ShownChunks world_around(const std::shared_ptr<const Field>& field, std::shared_ptr<const ChunkDeltas> deltas, const glm::dvec3& focus,
                         const WorldSettings& settings, bool quiet) {
    // Planned: every level's columns within its rings, one surface each, held four times (the
    // world's queue, the shown meshes, the drawn copies, the file's bytes); then counted.
    constexpr double kCopies = 4.0;
    const std::string what = fmt::format("mesh --around with {} levels of {} chunks per ring", settings.levels_used(), settings.ring());
    check_view_plan(settings, kCopies, "mesh --around");
    const double budget = memory_budget().bytes;
    World world(field, settings, std::move(deltas));
    ShownChunks shown(true);
    const bool show = !quiet && stderr_is_terminal();
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        world.set_focus(focus);
        world.deliver(1e9, [&](const ChunkUpdate& u) { shown.apply(u); });
        if (world.settled()) break;
        if (kCopies * static_cast<double>(shown.byte_size()) > budget)
            check_memory_budget(kCopies * static_cast<double>(shown.byte_size()), what + " (surfaces larger than expected)");
        if (std::chrono::steady_clock::now() - start > std::chrono::minutes(30))
            throw Failure("mesh: the world did not settle in 30 minutes");
        if (show) {
            const WorldCounts c = world.counts();
            std::fprintf(stderr, "\rmesh: %zu chunks built, %zu waiting   ", c.built + c.skipped, c.waiting);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (show) std::fprintf(stderr, "\n");
    return shown;
}

void run_mesh(const MeshOptions& opt) {
    const Mesher mesher = mesher_flag(opt.mesher_name);
    MeshFormat format;
    if (!mesh_format_from_path(opt.output, format))
        throw UsageError(fmt::format("-o: '{}' does not end in .glb, .gltf, .obj or .ply", opt.output));
    if (opt.compress && format != MeshFormat::glb && format != MeshFormat::gltf)
        throw UsageError("--compress: only glTF (.glb, .gltf) is compressed");
    if (opt.around.empty() && opt.from.empty())
        throw UsageError("mesh: give a region (--from and --to) or a point to mesh the world around (--around)");
    require_writable(opt.output);
    // The region or point checked before the world file is opened (or made).
    const glm::dvec3 around = opt.around.empty() ? glm::dvec3() : parse_vec3(opt.around, "--around");
    const auto chunks = opt.around.empty() ? chunks_covering(parse_vec3(opt.from, "--from"), parse_vec3(opt.to, "--to"), 4096, opt.force)
                                           : std::vector<ChunkCoord>();
    const EditSession session(opt.field, opt.world.path);
    const auto field = session.field();
    const auto deltas = session.deltas();
    const int threads = opt.threads > 0 ? opt.threads : default_threads();
    std::vector<NamedMesh> meshes;
    std::size_t chunk_count = 0;
    if (!opt.around.empty()) {
        WorldSettings settings;
        settings.view_radius = opt.radius;
        settings.triangle_budget = opt.triangle_budget;
        settings.view_distance_m = opt.view_distance_m;
        settings.threads = threads;
        settings.mesher = mesher;
        settings.coarse_first = false;  // only the settled view is written
        const ShownChunks shown = world_around(field, deltas, around, settings, opt.quiet);
        for (const std::size_t n : shown.visible_per_level()) chunk_count += n;
        meshes = shown_meshes(shown, opt.per_chunk);
    } else {
        chunk_count = chunks.size();
        // Held at once: the meshes, the merged mesh (unless per chunk), the file's bytes.
        auto built = mesh_chunks(*field, deltas.get(), chunks, mesher, threads, progress_line("meshing chunks", opt.quiet),
                                 opt.per_chunk ? 2.0 : 3.0);
        if (opt.per_chunk) {
            for (std::size_t i = 0; i < chunks.size(); ++i)
                meshes.push_back({fmt::format("chunk_{}_{}_{}", chunks[i].x, chunks[i].y, chunks[i].z), std::move(built[i])});
        } else {
            meshes.push_back({"terrain", merge_meshes(built)});
        }
    }
    std::size_t triangles = 0;
    for (const auto& m : meshes) triangles += m.mesh.triangle_count();
    try {
        write_mesh_file(opt.output, format, meshes, opt.compress);
    } catch (const IoError& e) {
        throw_write_error(e);
    }
    if (!opt.quiet) std::fprintf(stderr, "wrote %s: %zu chunks, %zu triangles\n", printable(opt.output).c_str(), chunk_count, triangles);
}

}  // namespace

void register_mesh(CLI::App& app) {
    static MeshOptions opt;
    auto* cmd = app.add_subcommand("mesh",
                                   "Mesh the chunks covering a region, or what the world shows around a point, "
                                   "and write .glb, .gltf, .obj or .ply");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd);
    auto* from = cmd->add_option("--from", opt.from, "Region corner X,Y,Z (metres)");
    auto* to = cmd->add_option("--to", opt.to, "Opposite corner X,Y,Z (metres)");
    auto* around =
        cmd->add_option("--around", opt.around, "Instead of a region: what the world shows around this point X,Y,Z, every level of detail");
    from->needs(to);
    to->needs(from);
    around->excludes(from)->excludes(to);
    cmd->add_option("--view-distance", opt.view_distance_m, "With --around: metres the world reaches (default 8000)")
        ->check(finite_range(16.0, 200000.0));
    cmd->add_option("--radius", opt.radius, "With --around: chunks per ring of each level (default 8)")->transform(decimal_integer(1, 64));
    cmd->add_option("--triangle-budget", opt.triangle_budget,
                    "With --around: triangles the view may show, as the viewer's (default 6000000; 0: no limit)")
        ->transform(decimal_integer(0, std::int64_t{1} << 32));
    cmd->add_option("--mesher", opt.mesher_name, mesher_names(" | "));
    cmd->add_flag("--per-chunk", opt.per_chunk, "One node (OBJ: one object) per chunk");
    cmd->add_flag("--compress", opt.compress,
                  "glTF quantized and meshopt-compressed (KHR_mesh_quantization, EXT_meshopt_compression): for three.js, "
                  "Babylon.js, gltf-transform; not Blender 3.4 or Godot 3");
    cmd->add_option("-o,--output", opt.output, "Output file: .glb .gltf .obj .ply")->required();
    cmd->add_option("--threads", opt.threads, "Worker threads (default: all cores)")->transform(decimal_integer(0, 256));
    cmd->add_flag("--force", opt.force, "Allow regions of more than 4096 chunks");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    cmd->callback([] { run_mesh(opt); });
}

ISOTERRA_SUBCOMMAND(40, register_mesh);

}  // namespace isoterra::app
