// `isoterra navmesh` (the navigation mesh of a region, as OBJ to look at or as Detour's
// tiles to load elsewhere) and `isoterra path` (the waypoints between two points and the
// length), both over the preset's terrain or a world file's edited one.
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isoterra/base.hpp"
#include "isoterra/nav.hpp"
#include "edit_session.hpp"
#include "nav_cli.hpp"

namespace isoterra::app {
namespace {

struct NavmeshOptions {
    FieldOptions field;
    WorldFileOption world;
    AgentOptions agent;
    std::string from, to, output;
    int threads = 0;
    bool quiet = false;
};

void run_navmesh(const NavmeshOptions& opt) {
    const bool obj = opt.output.ends_with(".obj");
    if (!obj && !opt.output.ends_with(".bin"))
        throw UsageError(fmt::format("-o: '{}' does not end in .obj or .bin", printable(opt.output)));
    const AgentSettings agent = opt.agent.settings();
    const TileRange range = nav_region(parse_vec2(opt.from, "--from"), parse_vec2(opt.to, "--to"));
    require_writable(opt.output);
    const EditSession session(opt.field, opt.world.path, false);
    const int threads = opt.threads > 0 ? opt.threads : default_threads();
    const NavMesh nav = build_nav(session, agent, range, threads);
    std::size_t walkable = 0;
    for (const NavTile& t : nav.tiles()) walkable += t.data.empty() ? 0 : 1;
    try {
        if (obj) {
            write_mesh_file(opt.output, MeshFormat::obj, {{"navmesh", nav.triangles()}});
        } else {
            const std::vector<unsigned char> bytes = nav.serialize();
            write_file_atomically(opt.output, std::string(bytes.begin(), bytes.end()));
        }
    } catch (const IoError& e) {
        throw_write_error(e);
    }
    if (!opt.quiet)
        std::fprintf(stderr, "wrote %s: %d tiles, %zu with walkable ground\n", printable(opt.output).c_str(), range.count(), walkable);
}

struct PathOptions {
    FieldOptions field;
    WorldFileOption world;
    AgentOptions agent;
    std::string from, to;
    double margin_m = 64.0;
    int threads = 0;
    bool json = false;
};

void run_path(const PathOptions& opt) {
    const AgentSettings agent = opt.agent.settings();
    const glm::dvec3 a = parse_vec3(opt.from, "--from"), b = parse_vec3(opt.to, "--to");
    const EditSession session(opt.field, opt.world.path, false);
    const int threads = opt.threads > 0 ? opt.threads : default_threads();
    const NavPath path = find_nav_path(session, agent, a, b, opt.margin_m, threads, "--from", "--to");
    if (opt.json) {
        nlohmann::json j;
        j["waypoints"] = nlohmann::json::array();
        for (const glm::dvec3& p : path.points) j["waypoints"].push_back({p.x, p.y, p.z});
        j["length_m"] = path.length_m;
        std::printf("%s\n", j.dump().c_str());
        return;
    }
    for (const glm::dvec3& p : path.points) std::printf("%.3f %.3f %.3f\n", p.x, p.y, p.z);
    std::printf("length %.3f m\n", path.length_m);
}

void register_navmesh(CLI::App& app) {
    static NavmeshOptions opt;
    auto* cmd = app.add_subcommand("navmesh", "Build the navigation mesh of a region (Recast/Detour tiles of 32 m) and write .obj or .bin");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd, false, false);
    opt.agent.add_to(*cmd);
    cmd->add_option("--from", opt.from, "Region corner X,Z (metres)")->required();
    cmd->add_option("--to", opt.to, "Opposite corner X,Z (metres)")->required();
    cmd->add_option("-o,--output", opt.output, "Output file: .obj (the walkable surface) or .bin (Detour's tiles and the agent)")
        ->required();
    cmd->add_option("--threads", opt.threads, "Worker threads (default: all cores); the same bytes for any")
        ->transform(decimal_integer(0, 256));
    cmd->add_flag("--quiet", opt.quiet, "No summary line");
    cmd->callback([] { run_navmesh(opt); });
}

void register_path(CLI::App& app) {
    static PathOptions opt;
    auto* cmd = app.add_subcommand("path", "Print the path an agent walks between two points on the ground: waypoints and length");
    cmd->footer(fmt::format("Exit {} when both points are on walkable ground but no path joins them.", kNoPathExitCode));
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd, false, false);
    opt.agent.add_to(*cmd);
    cmd->add_option("--from", opt.from, "Start X,Y,Z (metres), on the ground")->required();
    cmd->add_option("--to", opt.to, "End X,Y,Z (metres), on the ground")->required();
    cmd->add_option("--margin", opt.margin_m, "Metres of navigation mesh around the two points (default 64)")
        ->check(finite_range(0.0, 1024.0));
    cmd->add_option("--threads", opt.threads, "Worker threads (default: all cores)")->transform(decimal_integer(0, 256));
    cmd->add_flag("--json", opt.json, "One JSON object: waypoints ([x, y, z] each) and length_m");
    cmd->callback([] { run_path(opt); });
}

}  // namespace

ISOTERRA_SUBCOMMAND(45, register_navmesh);
ISOTERRA_SUBCOMMAND(46, register_path);

}  // namespace isoterra::app
