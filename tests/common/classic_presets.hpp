// The built-in terrain function's presets as they were before the landform presets (issue
// 24): alpine and islands were classic presets until ea97c59 and are field graphs
// since, so tests that need varied subjects for the terrain function (warps, reshaping,
// overhangs, caves) read the old files, kept in tests/reference/presets/. Tutorial is the
// same built-in as then. Also the old canyons graph (classic_terrain("canyons")).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "isoterra/field.hpp"
#include "isoterra/graph.hpp"

namespace isoterra::test {

/// The file of classic preset `name` (alpine, islands, or the canyons graph), as at ea97c59.
inline std::string classic_preset_path(const std::string& name) {
    return std::string(ISOTERRA_REFERENCE_DIR) + "/presets/" + name + "_classic.toml";
}

/// The text of classic preset `name`'s file (alpine, islands, canyons); throws KnobTerrainError
/// when it cannot be read.
inline std::string classic_preset_text(const std::string& name) {
    std::ifstream in(classic_preset_path(name));
    if (!in) throw KnobTerrainError("cannot read " + classic_preset_path(name));
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The names of the terrain function's presets as builtin_knob_terrain_names() gave them before
/// issue 24, sorted.
inline std::vector<std::string> classic_preset_names() { return {"alpine", "islands", "tutorial"}; }

/// The terrain function's preset `name` as it was at ea97c59: alpine and islands from their
/// old files, tutorial the built-in (unchanged). Throws KnobTerrainError for any other name.
inline KnobTerrain classic_preset(const std::string& name) {
    if (name == "tutorial") return builtin_knob_terrain(name);
    if (name != "alpine" && name != "islands") throw KnobTerrainError("no classic preset '" + name + "' (alpine, islands, tutorial)");
    return load_knob_terrain_file(classic_preset_path(name));
}

/// A classic preset, or the classic canyons graph, as a terrain source (its own seed).
inline TerrainSource classic_terrain(const std::string& name) {
    if (name == "tutorial") return builtin_terrain(name);
    if (name == "canyons") return load_terrain_file(classic_preset_path(name));
    return terrain_of(classic_preset(name));
}

}  // namespace isoterra::test
