// `isoterra landform --rivers FILE.geojson`: the region's river network (landform/'s
// river_network) as a GeoJSON FeatureCollection, one LineString a reach between junctions,
// coordinates [x, z, water level] in the world's metres (not longitude and latitude: the
// file says so in its `crs_note`), properties `order` (Strahler) and `width_m`; and how much
// the rivers wander (measure_wander) for the report. Written atomically.
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "isoterra/io.hpp"
#include "landform_rivers.hpp"

namespace isoterra::app {
namespace {

// Millimetres: enough for any map, and the file stays small and the same on every run.
double mm(double v) { return std::round(v * 1000.0) / 1000.0; }

}  // namespace

nlohmann::ordered_json rivers_geojson(const std::vector<RiverReach>& reaches, const RiverOptions& options, const std::string& source) {
    nlohmann::ordered_json features = nlohmann::ordered_json::array();
    for (const RiverReach& reach : reaches) {
        nlohmann::ordered_json line = nlohmann::ordered_json::array();
        for (const glm::dvec3& p : reach.points) line.push_back({mm(p.x), mm(p.y), mm(p.z)});
        features.push_back({{"type", "Feature"},
                            {"geometry", {{"type", "LineString"}, {"coordinates", std::move(line)}}},
                            {"properties", {{"order", reach.order}, {"width_m", mm(reach.width_m)}, {"area_km2", reach.area_m2 / 1e6}}}});
    }
    nlohmann::ordered_json out;
    out["type"] = "FeatureCollection";
    out["crs_note"] = "coordinates are [x, z, water level] in the world's metres (isoterra's x east, z south), not longitude and latitude";
    out["source"] = source;
    out["channel_area_km2"] = options.min_area_m2 / 1e6;
    out["features"] = std::move(features);
    return out;
}

void write_rivers(const std::string& path, const std::vector<RiverReach>& reaches, const RiverOptions& options, const std::string& source) {
    try {
        write_file_atomically(path, rivers_geojson(reaches, options, source).dump() + "\n");
    } catch (const IoError& e) {
        throw_write_error(e);
    }
    std::fprintf(stderr, "wrote %s (%zu reaches)\n", printable(path).c_str(), reaches.size());
}

nlohmann::ordered_json wander_json(const RiverWander& w, std::size_t reaches) {
    const auto number = [](double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); };
    return {{"reaches", reaches},
            {"measured_reaches", w.reaches},
            {"min_order", w.min_order},
            {"min_chord_m", w.min_chord_m},
            {"measured_length_m", w.length_m},
            {"median_sinuosity", number(w.median_sinuosity)},
            {"straight_share", number(w.straight_share)},
            {"straight_piece_m", w.piece_m},
            {"straight_tolerance_m", w.tolerance_m}};
}

std::string wander_text(const RiverWander& w, std::size_t reaches) {
    return fmt::format(
        "rivers          {} reaches; of order >= {} with ends >= {:g} m apart: {}, {:.1f} km, median sinuosity {:.3f}, "
        "{:.1f} % on straight pieces ({:g} m within {:g} m of the chord)\n",
        reaches, w.min_order, w.min_chord_m, w.reaches, w.length_m / 1000.0, w.median_sinuosity, 100.0 * w.straight_share, w.piece_m,
        w.tolerance_m);
}

}  // namespace isoterra::app
