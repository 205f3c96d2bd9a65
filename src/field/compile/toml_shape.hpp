// A check of a TOML text's size and nesting before a parser that recurses sees it (internal
// to field/): presets and graphs are flat or shallow, and a text nested thousands of levels
// deep would overflow the parser's stack.
#pragma once

#include <cstddef>
#include <string>

namespace isoterra::detail {

/// Throws TerrainError ("source:line: ...") when `text` is longer than `max_bytes` or nests
/// arrays, inline tables or dotted keys (keys and table headers) more than `max_depth` deep.
void check_toml_shape(const std::string& text, const std::string& source, std::size_t max_bytes, int max_depth);

}  // namespace isoterra::detail
