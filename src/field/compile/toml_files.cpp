// Reading a small text file with clear errors, where a TOML node sits and how a value is
// shown in a message: what the preset and graph readers share.
#include "toml_files.hpp"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/field.hpp"

namespace isoterra::detail {

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string toml_quote(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else out += c;
    }
    return out + "\"";
}

std::string toml_where(const std::string& source, const toml::node& node) {
    const auto line = node.source().begin.line;
    return line > 0 ? fmt::format("{}:{}", source, line) : source;
}

// The value as the file spelled it, for "got ..." in messages.
std::string toml_shown(const toml::node& node) {
    if (const auto* d = node.as_floating_point()) {
        const double v = d->get();
        if (std::isnan(v)) return "nan";
        if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
        return fmt::format("{}", v);
    }
    if (const auto* i = node.as_integer()) return std::to_string(i->get());
    if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
    if (const auto* t = node.as_string()) return fmt::format("\"{}\"", text_excerpt(t->get(), 100));
    if (node.is_array()) return "an array";
    if (node.is_table()) return "a table";
    return "a date or time";
}

void check_small_file(const std::string& path, const char* what, std::size_t max_bytes) {
    try {
        check_regular_file(path, what, max_bytes);
    } catch (const FileReadError& e) {
        throw TerrainError(e.what());
    }
}

std::string read_small_file(const std::string& path, const char* what, std::size_t max_bytes) {
    try {
        return read_regular_file(path, what, max_bytes);  // a failed read is an error, never an empty file
    } catch (const FileReadError& e) {
        throw TerrainError(e.what());
    }
}

std::string folder_of(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    return ec ? std::filesystem::path(path).parent_path().string() : absolute.parent_path().string();
}

}  // namespace isoterra::detail
