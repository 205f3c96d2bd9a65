// The material keys, which presets and graphs both take (internal to field/; read by the
// knob terrain key table in knob_terrain.cpp, so a key's name, range and default are written once).
#pragma once

#include <string>

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include "isoterra/field.hpp"

namespace isoterra::detail {

/// Reads the material keys of `table` (the preset's names and ranges) into `rules`; throws
/// KnobTerrainError "source:line: key 'k': ..." for an unknown key or a bad value.
void read_material_keys(const toml::table& table, const std::string& source, MaterialRules& rules);

}  // namespace isoterra::detail
