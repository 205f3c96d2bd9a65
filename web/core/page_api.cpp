// What the web page calls in its WebAssembly instances (embind). One build, two roles:
// the page's own instance holds the library's Session: the terrain, the world file with the
// edit history, and the World (with the owner's workers: it hands out jobs); each Web Worker's instance holds the
// same terrain and a mirror of the edits, and runs the jobs. Errors come back as one line
// of text, never as a C++ exception crossing into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isoterra/io.hpp"
#include "isoterra/session.hpp"
#include "mesh_bytes.hpp"

namespace isoterra::web {
namespace {

using emscripten::val;

// ---- shared by both roles -------------------------------------------------------------

/// A job as JavaScript holds it (an embind value object).
struct JobJs {
    bool survey = false;
    int x = 0, y = 0, z = 0, lod = 0;
    double version = 0;
    int mesher = 0;
    double distance = 0, ground_lo = 0, ground_hi = 0;
    int lowest_layer = -2;
};

JobJs to_js(const WorldJob& j) {
    return {j.survey,   j.coord.x,   j.coord.y,   j.coord.z,     j.coord.lod, static_cast<double>(j.version), static_cast<int>(j.mesher),
            j.distance, j.ground.lo, j.ground.hi, j.lowest_layer};
}

WorldJob from_js(const JobJs& j) {
    WorldJob w;
    w.survey = j.survey;
    w.coord = {j.x, j.y, j.z, j.lod};
    w.version = static_cast<std::uint64_t>(j.version);
    w.mesher = static_cast<Mesher>(j.mesher);
    w.distance = j.distance;
    w.ground = {j.ground_lo, j.ground_hi};
    w.lowest_layer = j.lowest_layer;
    return w;
}

/// A survey's or chunk's result as JavaScript holds it; a chunk's mesh travels as bytes.
struct ResultJs {
    int bottom = 0, top = -1;
    double ground_lo = 0, ground_hi = 0;
    bool built = false;
};

/// Reads an edit op from JSON text: {"brush", "mode", "at": [x, y, z], "radius", "strength"?}.
/// Returns "" or what is wrong.
std::string parse_op(const std::string& text, EditOp& op) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "an edit must be a JSON object";
    const auto text_of = [&](const char* key, const char* fallback) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string(it == j.end() ? fallback : "?");
    };
    if (!parse_brush_kind(text_of("brush", "sphere"), op.kind)) return "unknown brush '" + text_of("brush", "") + "'";
    if (!parse_brush_mode(text_of("mode", "carve"), op.mode)) return "unknown mode '" + text_of("mode", "") + "'";
    const auto at = j.find("at");
    if (at == j.end() || !at->is_array() || at->size() != 3 || !(*at)[0].is_number() || !(*at)[1].is_number() || !(*at)[2].is_number())
        return "an edit needs 'at': [x, y, z]";
    op.centre = {(*at)[0].get<double>(), (*at)[1].get<double>(), (*at)[2].get<double>()};
    const auto radius = j.find("radius");
    if (radius != j.end()) {
        if (!radius->is_number()) return "'radius' must be a number";
        op.radius_m = radius->get<double>();
    }
    const auto strength = j.find("strength");
    if (strength != j.end() && !strength->is_null()) {
        if (!strength->is_number()) return "'strength' must be a number";
        op.strength_m = strength->get<double>();
    }
    return validate_edit(op);
}

nlohmann::json op_json(const EditOp& op) {
    nlohmann::json j = {{"brush", brush_name(op.kind)},
                        {"mode", brush_mode_name(op.mode)},
                        {"at", {op.centre.x, op.centre.y, op.centre.z}},
                        {"radius", op.radius_m}};
    if (std::isfinite(op.strength_m)) j["strength"] = op.strength_m;
    return j;
}

std::string error_json(const std::string& message) { return nlohmann::json{{"error", message}}.dump(); }

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// ---- the page's instance ----------------------------------------------------------------

/// How the page holds a chunk drawn (ShownChunks keeps its mesh).
struct DrawnState {
    bool drawn = false;  // the page holds this chunk's mesh drawn with `neighbours`
    Neighbourhood neighbours;
};

struct Page {
    // The open world file's terrain, edits and World; its shown() keeps the meshes (for
    // drawing and for export).
    std::unique_ptr<Session> session;
    std::unordered_map<ChunkCoord, DrawnState, ChunkKey> chunks;
    std::vector<DrawnArrays> drawn;  // from the last deliver()
    std::string file_bytes, glb_bytes;
};
Page page;

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

/// The open world's World, or null.
World* page_world() { return page.session ? page.session->world() : nullptr; }

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

/// The field with edits at one point, double precision, as `isoterra sample` gives it.
double sample(double x, double y, double z) {
    if (!page.session) return std::nan("");
    const glm::dvec3 p{x, y, z};
    double v = 0.0;
    sample_edited(*page.session->field(), page.session->history().deltas(), &p, 1, &v);
    return v;
}

/// The first ground along a ray, or null.
val cast_ray(double ox, double oy, double oz, double dx, double dy, double dz, double max_m) {
    if (!page.session) return val::null();
    glm::dvec3 d{dx, dy, dz};
    const double n = std::sqrt(dx * dx + dy * dy + dz * dz);
    if (!(n > 0)) return val::null();
    glm::dvec3 hit;
    if (!ray_cast(*page.session->field(), page.session->history().deltas(), {ox, oy, oz}, d / n, max_m, hit)) return val::null();
    val out = val::array();
    out.call<void>("push", hit.x);
    out.call<void>("push", hit.y);
    out.call<void>("push", hit.z);
    return out;
}

/// Where the edit history stands: {"applied", "ops"}.
std::string history_counts() {
    return nlohmann::json{{"applied", page.session->history().applied()}, {"ops", page.session->history().ops().size()}}.dump();
}

/// Applies an edit (JSON, see parse_op) and saves it; {"applied", "ops"} or {"error"}.
std::string edit(const std::string& op_text) {
    if (!page.session) return error_json("no world is open");
    EditOp op;
    if (const std::string bad = parse_op(op_text, op); !bad.empty()) return error_json(bad);
    try {
        page.session->apply(op);
        return history_counts();
    } catch (const std::exception& e) {
        return error_json(e.what());
    }
}

/// Undoes (forward = false) or redoes the last edit; {"changed": false} when there was none.
std::string walk(bool forward) {
    if (!page.session) return error_json("no world is open");
    try {
        Box box;
        const bool changed = forward ? page.session->redo(box) : page.session->undo(box);
        if (!changed) return nlohmann::json{{"changed", false}}.dump();
        nlohmann::json j = nlohmann::json::parse(history_counts());
        j["changed"] = true;
        return j.dump();
    } catch (const std::exception& e) {
        return error_json(e.what());
    }
}
std::string undo() { return walk(false); }
std::string redo() { return walk(true); }

/// The world's operation log as `isoterra history` describes it: {"ops": [...], "applied"}.
std::string history() {
    if (!page.session) return error_json("no world is open");
    nlohmann::json ops = nlohmann::json::array();
    for (const EditOp& op : page.session->history().ops()) ops.push_back(describe_edit(op));
    return nlohmann::json{{"ops", ops}, {"applied", page.session->history().applied()}}.dump();
}

/// The open world file's bytes (the log copied in first), or null.
val world_file_bytes() {
    if (!page.session || !page.session->file()) return val::null();
    try {
        page.session->file()->checkpoint();
    } catch (const std::exception&) {
        return val::null();
    }
    page.file_bytes = read_bytes(page.session->file()->path());
    return val(emscripten::typed_memory_view(page.file_bytes.size(), reinterpret_cast<const std::uint8_t*>(page.file_bytes.data())));
}

// ---- a worker's instance ------------------------------------------------------------------

struct Worker {
    std::shared_ptr<const Field> field;
    std::unique_ptr<EditHistory> history;
    std::vector<std::uint8_t> mesh_bytes;
};
Worker worker;

/// Builds the terrain from its text and the edits from the op log (JSON list) up to `applied`.
std::string worker_open(const std::string& terrain_text, const std::string& ops_text, double applied) {
    try {
        const TerrainSource t = parse_terrain_source(terrain_text, "terrain");
        auto field = t.make_field();
        const nlohmann::json list = nlohmann::json::parse(ops_text, nullptr, false);
        if (list.is_discarded() || !list.is_array()) return "the op log must be a JSON list";
        std::vector<EditOp> ops;
        for (const auto& item : list) {
            EditOp op;
            if (const std::string bad = parse_op(item.dump(), op); !bad.empty()) return bad;
            ops.push_back(op);
        }
        const auto n = static_cast<std::size_t>(applied);
        if (!(applied >= 0) || n > ops.size()) return "applied is outside the op log";
        ChunkDeltas deltas = replay_edits(*field, ops, n);
        worker.history = std::make_unique<EditHistory>(field, std::move(ops), n, std::move(deltas));
        worker.field = std::move(field);
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

std::string worker_edit(const std::string& op_text) {
    if (!worker.history) return "no terrain";
    EditOp op;
    if (const std::string bad = parse_op(op_text, op); !bad.empty()) return bad;
    worker.history->apply(op);
    return "";
}

bool worker_walk(bool forward) {
    if (!worker.history) return false;
    std::vector<ChunkCoord> changed;
    Box box;
    return forward ? worker.history->redo(changed, box) : worker.history->undo(changed, box);
}

ResultJs worker_run(const JobJs& job) {
    ResultJs r;
    worker.mesh_bytes.clear();
    if (!worker.field) return r;
    WorldJobResult result;
    run_world_job(*worker.field, &worker.history->deltas(), from_js(job), result);
    r.bottom = result.bottom;
    r.top = result.top;
    r.ground_lo = result.ground.lo;
    r.ground_hi = result.ground.hi;
    r.built = result.built;
    if (result.built) pack_chunk(result.mesh, result.water, worker.mesh_bytes);
    return r;
}

val worker_mesh_bytes() { return val(emscripten::typed_memory_view(worker.mesh_bytes.size(), worker.mesh_bytes.data())); }

}  // namespace
}  // namespace isoterra::web

EMSCRIPTEN_BINDINGS(isoterra_page) {
    using namespace emscripten;
    using namespace isoterra::web;
    value_object<JobJs>("Job")
        .field("survey", &JobJs::survey)
        .field("x", &JobJs::x)
        .field("y", &JobJs::y)
        .field("z", &JobJs::z)
        .field("lod", &JobJs::lod)
        .field("version", &JobJs::version)
        .field("mesher", &JobJs::mesher)
        .field("distance", &JobJs::distance)
        .field("ground_lo", &JobJs::ground_lo)
        .field("ground_hi", &JobJs::ground_hi)
        .field("lowest_layer", &JobJs::lowest_layer);
    value_object<ResultJs>("Result")
        .field("bottom", &ResultJs::bottom)
        .field("top", &ResultJs::top)
        .field("ground_lo", &ResultJs::ground_lo)
        .field("ground_hi", &ResultJs::ground_hi)
        .field("built", &ResultJs::built);
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
    function("sample", &sample);
    function("cast_ray", &cast_ray);
    function("edit", &edit);
    function("undo", &undo);
    function("redo", &redo);
    function("history", &history);
    function("world_file_bytes", &world_file_bytes);
    function("shown_glb", &shown_glb);
    function("worker_open", &worker_open);
    function("worker_edit", &worker_edit);
    function("worker_walk", &worker_walk);
    function("worker_run", &worker_run);
    function("worker_mesh_bytes", &worker_mesh_bytes);
}
