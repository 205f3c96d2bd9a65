// The page's instance (page_api.hpp): built-in and dropped terrains, the world file opened, its
// World started with the page's workers taking its jobs, and what it delivers for the page to
// draw or export.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>

#include <fmt/format.h>

#include "isoterra/io.hpp"
#include "page_api.hpp"

namespace isoterra::web {

Page page;

World* page_world() { return page.session ? page.session->world() : nullptr; }

namespace {

using emscripten::val;

/// The text of a built-in terrain with `seed` (the world file's form), or {"error"}.
std::string builtin_terrain_text(const std::string& name, double seed) {
    try {
        TerrainSource t = builtin_terrain(name);
        if (!(seed >= 0 && seed <= 4294967295.0 && seed == std::floor(seed)))
            return error_json("seed must be a whole number from 0 to 4294967295");
        t.seed = static_cast<std::uint32_t>(seed);
        return nlohmann::json{{"text", t.to_text()}}.dump();
    } catch (const std::exception& e) {
        return error_json(e.what());
    }
}

/// A dropped preset or graph file's text with `seed` (negative: the file's own), or {"error"}.
std::string terrain_text_of_file(const std::string& text, const std::string& file_name, double seed) {
    try {
        TerrainSource t = parse_terrain_source(text, file_name);
        if (seed >= 0) {
            if (!(seed <= 4294967295.0 && seed == std::floor(seed))) return error_json("seed must be a whole number from 0 to 4294967295");
            t.seed = static_cast<std::uint32_t>(seed);
        }
        if (!t.rasters.empty()) return error_json(file_name + ": heightmap nodes read files the page cannot reach");
        // The field is built here, so a graph that cannot be compiled fails now, not in a worker.
        t.make_field();
        return nlohmann::json{{"text", t.to_text()}, {"name", t.name}, {"seed", t.seed}}.dump();
    } catch (const std::exception& e) {
        return error_json(e.what());
    }
}

std::string builtin_names() { return nlohmann::json(builtin_terrain_names()).dump(); }

/// The meshers of the library's registry, in menu order: [{"name", "label"}].
std::string mesher_list() {
    nlohmann::json list = nlohmann::json::array();
    for (const MesherInfo& info : meshers()) list.push_back({{"name", info.name}, {"label", info.label}});
    return list.dump();
}

/// Opens the world file at `path` (MEMFS), creating it from `terrain_text` when it does not
/// exist and the text is given. Returns {"terrain", "name", "seed", "sea_level", "ops",
/// "applied", "start": {"eye", "target"}} (where the viewer starts: starting_view) or
/// {"error"}. On an error the world open before stays open.
std::string open_world(const std::string& terrain_text, const std::string& path) {
    try {
        std::unique_ptr<TerrainSource> wanted;
        if (!terrain_text.empty()) wanted = std::make_unique<TerrainSource>(parse_terrain_source(terrain_text, "terrain"));
        auto session = std::make_unique<Session>(std::make_unique<WorldFile>(path, wanted.get()));
        session->keep_meshes(true);
        page.chunks.clear();
        page.session = std::move(session);
        const TerrainSource& terrain = page.session->terrain();
        nlohmann::json ops = nlohmann::json::array();
        for (const EditOp& op : page.session->history().ops()) ops.push_back(op_json(op));
        const StartingView start = starting_view(*page.session->field());
        const auto xyz = [](const glm::dvec3& p) { return nlohmann::json::array({p.x, p.y, p.z}); };
        return nlohmann::json{{"terrain", terrain.to_text()},
                              {"name", terrain.name},
                              {"seed", terrain.seed},
                              {"graph", terrain.is_graph()},
                              {"sea_level", terrain.sea_level_m()},
                              {"ops", ops},
                              {"applied", page.session->history().applied()},
                              {"start", {{"eye", xyz(start.eye)}, {"target", xyz(start.target)}}}}
            .dump();
    } catch (const std::exception& e) {
        return error_json(e.what());
    }
}

/// Starts a World over the open terrain and its edits; its jobs go to the page's workers.
std::string start_world(double view_distance_m, int radius, const std::string& mesher_name) {
    if (!page.session) return error_json("no world is open");
    WorldSettings s;
    if (!parse_mesher(mesher_name, s.mesher)) return error_json("unknown mesher '" + mesher_name + "'");
    if (!(view_distance_m >= 32 && view_distance_m <= 65536)) return error_json("view distance must be from 32 to 65536 m");
    if (radius < 2 || radius > 32) return error_json("radius must be from 2 to 32 chunks");
    s.view_distance_m = view_distance_m;
    s.view_radius = radius;
    s.threads = -1;
    page.chunks.clear();
    page.session->start(s);
    return nlohmann::json{{"levels", page.session->world()->settings().levels}}.dump();
}

void set_focus(double x, double y, double z) {
    if (World* world = page_world()) world->set_focus({x, y, z});
}

val take_job() {
    WorldJob job;
    if (!page_world() || !page_world()->take_job(job)) return val::null();
    return val(to_js(job));
}

/// Hands back a worker's result; a chunk's mesh and water as pack_chunk bytes. False for
/// bytes that are not that (the job then counts as built empty).
bool finish_job(const JobJs& job, const ResultJs& r, const std::string& mesh_bytes) {
    if (!page_world()) return true;
    WorldJobResult result;
    result.bottom = r.bottom;
    result.top = r.top;
    result.ground = {r.ground_lo, r.ground_hi};
    result.built = r.built;
    bool ok = true;
    if (r.built && !mesh_bytes.empty())
        ok = unpack_chunk(reinterpret_cast<const std::uint8_t*>(mesh_bytes.data()), mesh_bytes.size(), result.mesh, result.water);
    if (!ok) result.mesh.clear(), result.water.clear();
    page_world()->finish_job(from_js(job), std::move(result));
    return ok;
}

std::string chunk_key(const ChunkCoord& c) { return fmt::format("{},{},{},{}", c.lod, c.x, c.y, c.z); }

/// Hands finished meshes and changes of what to draw, within `budget_ms`: a list of
/// {"key", "drop"} or {"key", "visible", "draw": index of drawn_*() or -1, "water": index of
/// drawn_*() of its water surface or -1 (with a draw: none)}.
std::string deliver(double budget_ms) {
    nlohmann::json out = nlohmann::json::array();
    page.drawn.clear();
    if (!page_world()) return out.dump();
    const ShownChunks& shown = page.session->shown();
    page.session->deliver(budget_ms, [&](const ChunkUpdate& u) {
        const std::string key = chunk_key(u.coord);
        if (u.dropped) {
            page.chunks.erase(u.coord);
            out.push_back({{"key", key}, {"drop", true}});
            return;
        }
        DrawnState& s = page.chunks[u.coord];
        if (u.mesh) s.drawn = false;
        int draw = -1, water = -1;
        if (u.visible && (!s.drawn || !(s.neighbours == u.neighbours))) {
            page.drawn.emplace_back();
            drawn_arrays(*shown.mesh(u.coord), u.neighbours, u.coord.spacing_m(), page.drawn.back());
            s.drawn = true;
            s.neighbours = u.neighbours;
            draw = static_cast<int>(page.drawn.size()) - 1;
            // The page draws the chunk anew, its water with it.
            if (const MeshBuffers* w = shown.water(u.coord); !w->indices.empty()) {
                page.drawn.emplace_back();
                drawn_arrays(*w, Neighbourhood{}, u.coord.spacing_m(), page.drawn.back());
                water = static_cast<int>(page.drawn.size()) - 1;
            }
        }
        out.push_back({{"key", key}, {"visible", u.visible}, {"draw", draw}, {"water", water}});
    });
    return out.dump();
}

/// What the page shows as a glb file (`isoterra mesh --around` writes the same bytes for the
/// same focus and settings), plain or quantized and meshopt-compressed; null without a world.
val shown_glb(bool compress) {
    if (!page_world()) return val::null();
    try {
        page.glb_bytes = encode_gltf(shown_meshes(page.session->shown(), false), true, false, compress);
    } catch (const std::exception&) {
        return val::null();
    }
    return val(emscripten::typed_memory_view(page.glb_bytes.size(), reinterpret_cast<const std::uint8_t*>(page.glb_bytes.data())));
}

/// One array of drawing `i` of the last deliver(), as DrawnArrays has it: "vertices", "normals",
/// "indices" (Uint16 or Uint32), "step" and "origin"; null for anything else.
val drawn_array(int i, const std::string& which) {
    if (i < 0 || i >= static_cast<int>(page.drawn.size())) return val::null();
    const DrawnArrays& d = page.drawn[static_cast<std::size_t>(i)];
    using emscripten::typed_memory_view;
    if (which == "vertices") return val(typed_memory_view(d.vertices.size(), d.vertices.data()));
    if (which == "normals") return val(typed_memory_view(d.normals.size(), d.normals.data()));
    if (which == "indices")
        return d.long_indices.empty() ? val(typed_memory_view(d.short_indices.size(), d.short_indices.data()))
                                      : val(typed_memory_view(d.long_indices.size(), d.long_indices.data()));
    if (which == "step") return val(typed_memory_view(3, &d.step.x));
    if (which == "origin") return val(typed_memory_view(3, &d.origin.x));
    return val::null();
}

std::string world_counts() {
    const World* world = page_world();
    if (!world) return "{}";
    const WorldCounts c = world->counts();
    const SessionTimes t = page.session->times();
    return nlohmann::json{{"loaded", c.loaded},
                          {"waiting", c.waiting},
                          {"building", c.building},
                          {"built", c.built},
                          {"skipped", c.skipped},
                          {"shown_per_level", c.shown_per_level},
                          {"ring", c.ring},
                          {"covered", world->covered()},
                          {"settled", world->settled()},
                          {"first_picture_s", t.first_picture_s},
                          {"first_view_s", t.first_view_s}}
        .dump();
}

std::string set_mesher(const std::string& name) {
    Mesher m;
    if (!parse_mesher(name, m)) return "unknown mesher '" + name + "'";
    if (page.session) page.session->set_mesher(m);
    return "";
}

}  // namespace
}  // namespace isoterra::web

EMSCRIPTEN_BINDINGS(isoterra_page_world) {
    using namespace emscripten;
    using namespace isoterra::web;
    function("builtin_names", &builtin_names);
    function("mesher_list", &mesher_list);
    function("builtin_terrain_text", &builtin_terrain_text);
    function("terrain_text_of_file", &terrain_text_of_file);
    function("open_world", &open_world);
    function("start_world", &start_world);
    function("set_focus", &set_focus);
    function("take_job", &take_job);
    function("finish_job", &finish_job);
    function("deliver", &deliver);
    function("drawn_array", &drawn_array);
    function("world_counts", &world_counts);
    function("set_mesher", &set_mesher);
    function("shown_glb", &shown_glb);
}
