// A small lexer that only follows strings, comments, brackets and where keys are: enough to
// know how deep a TOML text nests without building anything.
#include "toml_shape.hpp"

#include <vector>

#include <fmt/format.h>

#include "isoterra/field.hpp"

namespace isoterra::detail {

void check_toml_shape(const std::string& text, const std::string& source, std::size_t max_bytes, int max_depth) {
    if (text.size() > max_bytes)
        throw TerrainError(fmt::format("{}: {} bytes, more than the {} a preset or graph may have", source, text.size(), max_bytes));
    // What each open bracket is: an array holds values, an inline table and a table header
    // hold keys.
    enum Open { array, inline_table, header };
    std::vector<Open> open;
    bool in_key = true;  // at the start of a line of the root table: a key comes first
    int dots = 0;        // in the key being read
    long line = 1;
    const auto refuse = [&](const char* what) {
        throw TerrainError(fmt::format("{}:{}: {} nest more than {} levels deep", source, line, what, max_depth));
    };
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n; ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            if (open.empty()) in_key = true, dots = 0;
            continue;
        }
        if (c == '#') {  // a comment to the end of the line
            while (i + 1 < n && text[i + 1] != '\n') ++i;
            continue;
        }
        if (c == '"' || c == '\'') {  // a string, maybe multi-line; basic ones have escapes
            const bool multi = i + 2 < n && text[i + 1] == c && text[i + 2] == c;
            const std::size_t quote = multi ? 3 : 1;
            for (i += quote; i < n; ++i) {
                if (text[i] == '\n') ++line;
                if (c == '"' && text[i] == '\\') {
                    ++i;
                    continue;
                }
                if (text[i] == c && (!multi || (i + 2 < n && text[i + 1] == c && text[i + 2] == c))) {
                    i += quote - 1;
                    break;
                }
            }
            continue;
        }
        if (in_key) {
            if (c == '.') {
                if (++dots >= max_depth) refuse("dotted keys");
            } else if (c == '=') {
                in_key = false;
                dots = 0;
            } else if (c == '[' && open.empty() && dots == 0) {
                open.push_back(header);
                if (i + 1 < n && text[i + 1] == '[') ++i;  // an array of tables
            } else if (c == ']' && !open.empty() && open.back() == header) {
                open.pop_back();
                if (i + 1 < n && text[i + 1] == ']') ++i;
                in_key = false;  // the rest of the line is a comment or nothing
                dots = 0;
            } else if (c == '}' && !open.empty() && open.back() == inline_table) {
                open.pop_back();  // an empty inline table
                in_key = false;
            }
            continue;
        }
        if (c == '[' || c == '{') {
            open.push_back(c == '[' ? array : inline_table);
            if (static_cast<int>(open.size()) > max_depth) refuse("arrays and inline tables");
            if (c == '{') in_key = true, dots = 0;
        } else if ((c == ']' || c == '}') && !open.empty()) {
            open.pop_back();
        } else if (c == ',' && !open.empty() && open.back() == inline_table) {
            in_key = true;
            dots = 0;
        }
    }
}

}  // namespace isoterra::detail
