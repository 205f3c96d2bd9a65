// Text fit for one line on a terminal: what the program echoes of paths, environment values
// and names, and every error line it prints. A terminal acts on control characters (escape
// sequences, newlines that forge a second line) and shows bidirectional controls as a
// reordering of what is around them, so those are escaped; other UTF-8 stays readable.
#include <vector>

#include <fmt/format.h>

#include "isoterra/base.hpp"

namespace isoterra {
namespace {

// The length of the UTF-8 sequence starting at text[i] and its code point, or 0 when the
// bytes there are not one (overlong, surrogate, past U+10FFFF, cut short).
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& code) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b = byte(i);
    std::size_t n;
    char32_t min;
    if (b >= 0xc2 && b <= 0xdf) n = 2, min = 0x80, code = b & 0x1f;
    else if (b >= 0xe0 && b <= 0xef) n = 3, min = 0x800, code = b & 0x0f;
    else if (b >= 0xf0 && b <= 0xf4) n = 4, min = 0x10000, code = b & 0x07;
    else return 0;
    if (i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80) return 0;
        code = code << 6 | (byte(i + k) & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
    return n;
}

bool shown_as_escape(char32_t c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || c == 0x200e || c == 0x200f ||
           (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
    // Pieces, each one character as shown, so a cut never splits one.
    std::vector<std::string> pieces;
    pieces.reserve(text.size());
    std::size_t total = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        std::string piece;
        char32_t code = b;
        std::size_t n = b < 0x80 ? 1 : utf8_sequence(text, i, code);
        if (n == 0) piece = fmt::format("\\x{:02x}", b), n = 1;
        else if (code == '\n') piece = "\\n";
        else if (code == '\r') piece = "\\r";
        else if (code == '\t') piece = "\\t";
        else if (code < 0x80 && shown_as_escape(code)) piece = fmt::format("\\x{:02x}", static_cast<unsigned>(code));
        else if (shown_as_escape(code)) piece = fmt::format("\\u{{{:x}}}", static_cast<std::uint32_t>(code));
        else piece.assign(text.substr(i, n));
        total += piece.size();
        pieces.push_back(std::move(piece));
        i += n;
    }
    std::string out;
    if (total <= max_bytes) {
        for (const auto& p : pieces) out += p;
        return out;
    }
    // Two thirds from the start, one third from the end.
    const std::size_t head_bytes = max_bytes * 2 / 3, tail_bytes = max_bytes - head_bytes;
    std::size_t head = 0, used = 0;
    while (head < pieces.size() && used + pieces[head].size() <= head_bytes) used += pieces[head++].size();
    std::size_t tail = pieces.size();
    used = 0;
    while (tail > head && used + pieces[tail - 1].size() <= tail_bytes) used += pieces[--tail].size();
    for (std::size_t k = 0; k < head; ++k) out += pieces[k];
    out += fmt::format("...({} bytes)...", text.size());
    for (std::size_t k = tail; k < pieces.size(); ++k) out += pieces[k];
    return out;
}

}  // namespace isoterra
