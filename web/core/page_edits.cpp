// The page's instance (page_api.hpp), its edits: the field sampled and cast along a ray with
// them, an edit applied, undone and redone, the history, the world file's bytes.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "page_api.hpp"

namespace isoterra::web {
namespace {

using emscripten::val;

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
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

}  // namespace
}  // namespace isoterra::web

EMSCRIPTEN_BINDINGS(isoterra_page_edits) {
    using namespace emscripten;
    using namespace isoterra::web;
    function("sample", &sample);
    function("cast_ray", &cast_ray);
    function("edit", &edit);
    function("undo", &undo);
    function("redo", &redo);
    function("history", &history);
    function("world_file_bytes", &world_file_bytes);
}
