// What both roles' WebAssembly calls share (page_api.hpp): jobs and results as JavaScript
// holds them (embind value objects), edits read from JSON and written back, errors as JSON.
#include <emscripten/bind.h>

#include <cmath>

#include "page_api.hpp"

namespace isoterra::web {

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

}  // namespace isoterra::web

EMSCRIPTEN_BINDINGS(isoterra_page_shared) {
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
}
