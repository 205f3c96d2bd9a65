// The river network's file and figures for `isoterra landform --rivers` (landform_rivers.cpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "isoterra/measure.hpp"

namespace isoterra::app {

/// The reaches as a GeoJSON FeatureCollection (coordinates [x, z, water level], millimetres).
nlohmann::ordered_json rivers_geojson(const std::vector<RiverReach>& reaches, const RiverOptions& options, const std::string& source);
/// Writes them to `path` atomically and says so on stderr; a failed write is a Failure.
void write_rivers(const std::string& path, const std::vector<RiverReach>& reaches, const RiverOptions& options, const std::string& source);
/// How much the rivers wander, for --json and for the text report.
nlohmann::ordered_json wander_json(const RiverWander& wander, std::size_t reaches);
std::string wander_text(const RiverWander& wander, std::size_t reaches);

}  // namespace isoterra::app
