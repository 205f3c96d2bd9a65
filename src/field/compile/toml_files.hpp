// What the preset and graph readers share (internal to field/): reading a small text file
// with clear errors, where a TOML node sits, how a value is quoted in a message.
#pragma once

#include <cstddef>
#include <string>

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

namespace isoterra::detail {

/// Returns the bytes of the regular file `path` of at most `max_bytes`; throws TerrainError
/// "path: cannot open the WHAT file (reason)" and the like.
std::string read_small_file(const std::string& path, const char* what, std::size_t max_bytes);
/// Throws as read_small_file would, without reading: for files another library reads.
void check_small_file(const std::string& path, const char* what, std::size_t max_bytes);
/// Returns the absolute folder that holds `path` (files a graph names are found there).
std::string folder_of(const std::string& path);
/// Returns `s` as a TOML basic string: quotes, backslashes and control characters escaped.
std::string toml_quote(const std::string& s);
/// Returns "source:line" for a TOML node, or `source` when its line is unknown.
std::string toml_where(const std::string& source, const toml::node& node);
/// Returns a TOML value as a message shows it ("got 3", "got \"abc\"", "got an array").
std::string toml_shown(const toml::node& node);

}  // namespace isoterra::detail
