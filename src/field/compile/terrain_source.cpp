// A world's terrain as a preset or a graph, read from and written to text, so that every
// program and the world file take either without knowing which.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "toml_files.hpp"
#include "field/nodes/terrain/node.hpp"
#include "toml_shape.hpp"
#include "isoterra/graph.hpp"

namespace isoterra {
namespace {

// `text` with its top-level seed's value replaced by `seed`, or `seed = N` added first. The
// key is found by the TOML reader (any spelling: seed, "seed", 'seed'; never inside a
// string); its value is on the key's line, after the line's first '=' (a key named seed
// holds none), up to a blank or a comment.
std::string with_seed_line(const std::string& text, std::uint32_t seed) {
    const std::string number = std::to_string(seed);
    toml::table root;
    try {
        detail::check_toml_shape(text, "graph", std::size_t{1} << 20, 8);
        root = toml::parse(text);
    } catch (const std::exception&) {
        throw GraphError("the graph's text is not TOML");
    }
    const toml::node* value = root.get("seed");
    if (!value) return "seed = " + number + "\n" + text;
    std::size_t line_start = 0;
    for (auto line = value->source().begin.line; line > 1 && line_start < text.size(); --line)
        line_start = std::min(text.find('\n', line_start), text.size()) + 1;
    const std::size_t line_end = std::min(text.find('\n', line_start), text.size());
    std::size_t begin = text.find('=', line_start);
    if (begin >= line_end) throw GraphError("the graph's seed line is not 'seed = N'");
    ++begin;
    while (begin < line_end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
    std::size_t end = begin;
    while (end < line_end && !std::strchr(" \t\r#", text[end])) ++end;
    return text.substr(0, begin) + number + text.substr(end);
}

// The top-level seed of a graph's TOML text as the compiler reads it (an integer, negative
// ones as their 32-bit pattern); none: a value no seed can have.
std::int64_t seed_of(const std::string& text) {
    try {
        const toml::table root = toml::parse(text);
        if (const auto* v = root.get("seed"); v && v->as_integer())
            return static_cast<std::int64_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v->as_integer()->get())));
    } catch (const std::exception&) {}
    return -1;
}

// A byte-order mark is not part of the text (a graph's text is stored and rewritten).
std::string without_bom(const std::string& text) { return text.rfind("\xef\xbb\xbf", 0) == 0 ? text.substr(3) : text; }

}  // namespace

std::unique_ptr<GraphField> GraphField::with_seed(std::uint32_t seed) const { return std::make_unique<GraphField>(program_, seed); }

std::shared_ptr<const Field> TerrainSource::make_field() const {
    if (!is_graph()) return std::make_shared<GraphField>(classic_program(knobs), seed);  // a terrain node
    if (compiled && compiled->text == graph && compiled->directory == directory) return compiled->field->with_seed(seed);
    return parse_graph(graph, name, directory)->with_seed(seed);
}

std::string TerrainSource::to_text() const {
    if (!is_graph()) {
        KnobTerrain p = knobs;
        p.seed = seed;
        return knob_terrain_to_toml(p);
    }
    const std::string text = with_seed_line(graph, seed);
    if (seed_of(text) != seed)  // a seed line this reader did not find
        throw GraphError(fmt::format("{}: cannot set the graph's seed to {}", name, seed));
    return text;
}

TerrainSource parse_terrain_source(const std::string& file_text, const std::string& source, const std::string& directory) {
    const std::string text = without_bom(file_text);
    TerrainSource t;
    if (is_graph_text(text)) {
        std::shared_ptr<const GraphField> g = parse_graph(text, source, directory);
        t.graph = text;
        t.directory = directory;
        t.compiled = std::make_shared<const TerrainSource::Compiled>(TerrainSource::Compiled{text, directory, g});
        t.rasters = g->rasters();
        t.name = g->name();
        t.seed = g->file_seed();
        t.graph_sea_level_m = g->sea_level_m();
    } else {
        t = terrain_of(parse_knob_terrain(text, source));
    }
    return t;
}

TerrainSource load_terrain_file(const std::string& path) {
    return parse_terrain_source(detail::read_small_file(path, "preset or graph", std::size_t{1} << 20), path, detail::folder_of(path));
}

TerrainSource builtin_terrain(const std::string& name) {
    const std::string& text = builtin_preset_text(name);
    if (!is_graph_text(text)) return terrain_of(builtin_knob_terrain(name));
    return parse_terrain_source(text, "presets/" + name + ".toml");
}

TerrainSource find_terrain(const std::string& preset_or_path) {
    const auto names = builtin_terrain_names();
    if (std::find(names.begin(), names.end(), preset_or_path) != names.end()) return builtin_terrain(preset_or_path);
    // Not a built-in name: a file, unless it looks like neither (then the unknown name's message).
    const bool looks_like_path = preset_or_path.find('/') != std::string::npos || preset_or_path.find('.') != std::string::npos;
    return looks_like_path ? load_terrain_file(preset_or_path) : builtin_terrain(preset_or_path);
}

void set_terrain_seed(TerrainSource& terrain, std::int64_t seed) {
    if (seed < -2147483648LL || seed > 4294967295LL)
        throw TerrainError(fmt::format("seed: expected an integer in [-2147483648, 4294967295], got {}", seed));
    terrain.seed = static_cast<std::uint32_t>(static_cast<std::uint64_t>(seed));
}

TerrainSource terrain_of(const KnobTerrain& knobs) {
    TerrainSource t;
    t.knobs = knobs;
    t.name = knobs.name;
    t.seed = knobs.seed;
    return t;
}

}  // namespace isoterra
