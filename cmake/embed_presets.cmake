# Writes a C++ file holding every presets/*.toml as a string, so the program and the
# library know their presets wherever they run. Called with -DSRC_DIR= -DOUT=.
file(GLOB preset_files "${SRC_DIR}/*.toml")
list(SORT preset_files)
set(body "// Generated from presets/*.toml by cmake/embed_presets.cmake. Do not edit.\n#include <map>\n#include <string>\nnamespace isoterra {\nconst std::map<std::string, std::string>& embedded_presets() {\n    static const std::map<std::string, std::string> presets = {\n")
foreach(f ${preset_files})
  get_filename_component(name "${f}" NAME_WE)
  file(READ "${f}" text)
  string(APPEND body "        {\"${name}\", R\"isoterra_toml(${text})isoterra_toml\"},\n")
endforeach()
string(APPEND body "    };\n    return presets;\n}\n}  // namespace isoterra\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
