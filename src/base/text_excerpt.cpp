// What an error message may show of a user's text: a bounded start of it, with every byte
// that a terminal could act on written as an escape.
#include <fmt/format.h>

#include "isoterra/base.hpp"

namespace isoterra {

std::string text_excerpt(const std::string& text, std::size_t max_bytes) {
    std::string out;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        // Control bytes (escape sequences start with one) and bytes above ASCII, which may be
        // a broken UTF-8 sequence or C1 controls, are escaped; the rest is printable ASCII.
        std::string shown;
        if (c == '\\') shown = "\\\\";
        else if (c == '\t') shown = "\\t";
        else if (c < 0x20 || c >= 0x7f) shown = fmt::format("\\x{:02x}", c);
        else shown = static_cast<char>(c);
        if (out.size() + shown.size() > max_bytes) break;
        out += shown;
    }
    if (i < text.size()) out += fmt::format("... ({} bytes)", text.size());
    return out;
}

}  // namespace isoterra
