// The page's instance (page_api.hpp), its river overlay: the open terrain's river network over
// a square, the very one `isoterra landform --rivers`, Python's Field.rivers and the C API's
// isoterra_field_rivers give (landform/'s field_rivers(), the edits not counted), as JSON the
// page draws as lines.
#include <emscripten/bind.h>

#include <cmath>

#include "isoterra/measure.hpp"
#include "page_api.hpp"

namespace isoterra::web {
namespace {

/// The river network from (x0, z0) to (x1, z1) every `step_m`, channels from `min_area_km2`:
/// {"reaches": [{"points": [x, z, level, x, z, level, ...], "order", "width_m", "area_km2"}]},
/// upstream first, or {"error"} (no world, a bad region or step, a terrain without a ground).
std::string rivers(double x0, double z0, double x1, double z1, double step_m, double min_area_km2) {
    if (!page.session) return error_json("no world is open");
    if (!(min_area_km2 > 0.0 && min_area_km2 <= 1e6)) return error_json("rivers: min_area_km2 must be from above 0 to 1e6");
    if (!(x1 > x0 && z1 > z0)) return error_json("rivers: the region's far corner must lie beyond its near one");
    try {
        RiverOptions options;
        options.min_area_m2 = min_area_km2 * 1e6;
        // One thread: the page's instance has no threads of its own.
        const std::vector<RiverReach> reaches = field_rivers(*page.session->field(), {x0, z0}, {x1, z1}, step_m, options, 1);
        nlohmann::json out = nlohmann::json::array();
        for (const RiverReach& r : reaches) {
            std::vector<double> flat;
            flat.reserve(3 * r.points.size());
            for (const glm::dvec3& p : r.points) flat.insert(flat.end(), {p.x, p.y, p.z});
            out.push_back({{"points", flat}, {"order", r.order}, {"width_m", r.width_m}, {"area_km2", r.area_m2 / 1e6}});
        }
        return nlohmann::json{{"reaches", out}}.dump();
    } catch (const std::exception& e) {
        return error_json(e.what());
    }
}

}  // namespace
}  // namespace isoterra::web

EMSCRIPTEN_BINDINGS(isoterra_page_rivers) { emscripten::function("rivers", &isoterra::web::rivers); }
