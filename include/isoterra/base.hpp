// What every stage shares: text fit for the one-line messages of errors.
#pragma once

#include <cstddef>
#include <string>

namespace isoterra {

/// Returns the start of `text` fit to show inside a one-line message, at most `max_bytes`
/// long: printable ASCII as it is; backslashes, tabs, control bytes and bytes above ASCII
/// escaped ("\\x1b"), so nothing reaches a terminal that it could act on; and
/// "... (N bytes)" after it when the text was cut.
std::string text_excerpt(const std::string& text, std::size_t max_bytes = 60);

}  // namespace isoterra
