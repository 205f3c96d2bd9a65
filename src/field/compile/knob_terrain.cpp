// Knob terrain files (classic presets): TOML with one flat table of named knobs, units in the names. Every key is
// checked for its type and range; the first problem is reported as "file:line: key ...".
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/field.hpp"
#include "isoterra/graph.hpp"
#include "field/material_keys.hpp"
#include "field/nodes/terrain/function.hpp"
#include "toml_files.hpp"
#include "toml_shape.hpp"

namespace isoterra {

// Generated at build time from presets/*.toml (cmake/embed_presets.cmake).
const std::map<std::string, std::string>& embedded_presets();

namespace {

enum class Kind { number, integer, boolean };

struct Range {
    double lo = -std::numeric_limits<double>::infinity();
    double hi = std::numeric_limits<double>::infinity();
    bool lo_open = false;  // lo itself is refused
    bool hi_open = false;

    bool holds(double v) const { return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi); }
    std::string describe() const {
        const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
        if (has_lo && has_hi) return fmt::format("in {}{}, {}{}", lo_open ? "(" : "[", lo, hi, hi_open ? ")" : "]");
        if (has_lo) return fmt::format("{} {}", lo_open ? ">" : ">=", lo);
        if (has_hi) return fmt::format("{} {}", hi_open ? "<" : "<=", hi);
        return "finite";
    }
};

struct Key {
    const char* name;
    Kind kind;
    Range range;
    // Reads the value into the preset, and writes it back out for knob_terrain_to_toml.
    std::function<void(TerrainParams&, double)> set_number;
    std::function<double(const TerrainParams&)> get_number;
};

Range between(double lo, double hi, bool lo_open = false, bool hi_open = false) { return {lo, hi, lo_open, hi_open}; }
Range scale() { return between(0.1, 1e7); }

#define ISO_NUM(key, member, range)                                                 \
    Key {                                                                           \
        key, Kind::number, range, [](TerrainParams& t, double v) { t.member = v; }, \
            [](const TerrainParams& t) { return static_cast<double>(t.member); }    \
    }
#define ISO_INT(key, member, range)                                                                    \
    Key {                                                                                              \
        key, Kind::integer, range, [](TerrainParams& t, double v) { t.member = static_cast<int>(v); }, \
            [](const TerrainParams& t) { return static_cast<double>(t.member); }                       \
    }
#define ISO_BOOL(key, member)                                                               \
    Key {                                                                                   \
        key, Kind::boolean, Range{}, [](TerrainParams& t, double v) { t.member = v != 0; }, \
            [](const TerrainParams& t) { return t.member ? 1.0 : 0.0; }                     \
    }

const std::vector<Key>& keys() {
    static const std::vector<Key> list = {
        // Ranges that keep every value of the field finite and meshable: heights within
        // 10 km, feature scales from 10 cm to 10,000 km.
        ISO_NUM("iso_level", iso_level, between(-1e4, 1e4)),
        ISO_NUM("base_height_m", base_height_m, between(-1e4, 1e4)),
        ISO_NUM("hill_scale_m", hill_scale_m, scale()),
        ISO_NUM("hill_height_m", hill_height_m, between(-1e4, 1e4)),
        ISO_INT("hill_octaves", hill_fbm.octaves, between(1, 12)),
        ISO_NUM("hill_lacunarity", hill_fbm.lacunarity, between(1, 4, true)),
        ISO_NUM("hill_gain", hill_fbm.gain, between(0, 1, true, true)),
        ISO_BOOL("reshape", reshape),
        ISO_NUM("reshape_exponent", reshape_exponent, between(1, 8)),
        ISO_NUM("reshape_fudge", reshape_fudge, between(0, 4, true)),
        ISO_NUM("reshape_multiplier_m", reshape_multiplier_m, between(-1e4, 1e4)),
        ISO_NUM("mountain_scale_m", mountain_scale_m, scale()),
        ISO_NUM("mountain_from", mountain_from, between(-1, 1)),
        ISO_NUM("mountain_to", mountain_to, between(-1, 1)),
        ISO_NUM("ridge_scale_m", ridge_scale_m, scale()),
        ISO_INT("ridge_octaves", ridge_fbm.octaves, between(1, 12)),
        ISO_NUM("ridge_lacunarity", ridge_fbm.lacunarity, between(1, 4, true)),
        ISO_NUM("ridge_gain", ridge_fbm.gain, between(0, 1, true, true)),
        ISO_NUM("ridge_sharpness", ridge_sharpness, between(0, 100, true)),
        ISO_NUM("ridge_crest", ridge_crest, between(0, 100)),
        ISO_NUM("ridge_exponent", ridge_exponent, between(1, 8)),
        ISO_NUM("ridge_height_m", ridge_height_m, between(-1e4, 1e4)),
        ISO_NUM("warp_scale_m", warp_scale_m, scale()),
        ISO_NUM("warp_distance_m", warp_distance_m, between(0, 1e4)),
        ISO_NUM("overhang_scale_m", overhang_scale_m, scale()),
        ISO_NUM("overhang_vertical_scale_m", overhang_vertical_scale_m, scale()),
        ISO_NUM("overhang_plains_m", overhang_plains_m, between(0, 1e3)),
        ISO_NUM("overhang_mountains_m", overhang_mountains_m, between(0, 1e3)),
        ISO_BOOL("caves", caves),
        ISO_NUM("cave_scale_m", cave_scale_m, scale()),
        ISO_NUM("cave_vertical_scale_m", cave_vertical_scale_m, scale()),
        ISO_NUM("cave_width", cave_width, between(0, 1)),
        ISO_NUM("cave_metres_per_unit", cave_metres_per_unit, between(0, 1e4, true)),
        ISO_NUM("cave_entrance_depth_m", cave_entrance_depth_m, between(0, 1e3)),
        ISO_NUM("cave_entrance_narrowing", cave_entrance_narrowing, between(0, 100)),
        ISO_NUM("cave_blend_m", cave_blend_m, between(0, 1e3)),
        ISO_NUM("sea_level_m", sea_level_m, between(-1e9, 1e4)),
        ISO_NUM("rock_slope_deg", materials.rock_slope_deg, between(0, 90, true, true)),
        ISO_NUM("slope_blend_deg", materials.slope_blend_deg, between(0, 45, true)),
        ISO_NUM("snow_line_m", materials.snow_line_m, between(-1e6, 1e6)),
        ISO_NUM("snow_blend_m", materials.snow_blend_m, between(0, 1e6, true)),
        ISO_NUM("snow_max_slope_deg", materials.snow_max_slope_deg, between(0, 90, true)),
        ISO_NUM("soil_depth_m", materials.soil_depth_m, between(0, 1e6, true)),
        ISO_NUM("sand_height_m", materials.sand_height_m, between(0, 1e4)),
    };
    return list;
}

#undef ISO_NUM
#undef ISO_INT
#undef ISO_BOOL

[[noreturn]] void fail(const std::string& at, const std::string& key, const std::string& what) {
    throw KnobTerrainError(fmt::format("{}: key '{}': {}", at, key, what));
}

// The value of `node` for `key`, checked for its kind and range.
double read_key(const Key& key, const toml::node& node, const std::string& at, const std::string& name) {
    double v = 0.0;
    switch (key.kind) {
        case Kind::boolean: {
            const auto* b = node.as_boolean();
            if (!b) fail(at, name, fmt::format("expected true or false, got {}", detail::toml_shown(node)));
            v = b->get() ? 1.0 : 0.0;
            break;
        }
        case Kind::integer: {
            const auto* i = node.as_integer();
            if (!i) fail(at, name, fmt::format("expected an integer {}, got {}", key.range.describe(), detail::toml_shown(node)));
            v = static_cast<double>(i->get());
            if (!key.range.holds(v))
                fail(at, name, fmt::format("expected an integer {}, got {}", key.range.describe(), detail::toml_shown(node)));
            break;
        }
        case Kind::number: {
            if (const auto* i = node.as_integer()) v = static_cast<double>(i->get());
            else if (const auto* d = node.as_floating_point()) v = d->get();
            else fail(at, name, fmt::format("expected a number {}, got {}", key.range.describe(), detail::toml_shown(node)));
            if (!std::isfinite(v) || !key.range.holds(v))
                fail(at, name, fmt::format("expected a number {}, got {}", key.range.describe(), detail::toml_shown(node)));
            break;
        }
    }
    return v;
}

// How many of keys() are the terrain function's knobs: those before sea_level_m.
std::size_t knob_count() {
    static const std::size_t n = static_cast<std::size_t>(
        std::find_if(keys().begin(), keys().end(), [](const Key& k) { return std::string(k.name) == "sea_level_m"; }) - keys().begin());
    return n;
}

}  // namespace

const std::vector<TerrainKnob>& terrain_knobs() {
    static const std::vector<TerrainKnob> knobs = [] {
        std::vector<TerrainKnob> out;
        const TerrainParams defaults;
        for (std::size_t i = 0; i < knob_count(); ++i) {
            const Key& k = keys()[i];
            const auto kind = k.kind == Kind::boolean   ? TerrainKnob::boolean
                              : k.kind == Kind::integer ? TerrainKnob::integer
                                                        : TerrainKnob::number;
            out.push_back({k.name, kind, k.range.lo, k.range.hi, k.range.lo_open, k.range.hi_open, k.get_number(defaults)});
        }
        return out;
    }();
    return knobs;
}

void set_terrain_knob(TerrainParams& params, std::size_t index, double value) { keys()[index].set_number(params, value); }
double terrain_knob(const TerrainParams& params, std::size_t index) { return keys()[index].get_number(params); }

KnobTerrain parse_knob_terrain(const std::string& text, const std::string& file) {
    // Every message names the file, and quotes nothing of it whole or raw.
    const std::string source = text_excerpt(file, 200);
    // A preset is one flat table: a megabyte and eight levels leave room for comments and
    // mistakes, and keep the parser (which recurses) far from the end of its stack.
    try {
        detail::check_toml_shape(text, source, std::size_t{1} << 20, 8);
    } catch (const TerrainError& e) {
        throw KnobTerrainError(e.what());
    }
    toml::table table;
    try {
        table = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        throw KnobTerrainError(fmt::format("{}:{}: {}", source, e.source().begin.line, text_excerpt(std::string(e.description()), 200)));
    }

    KnobTerrain preset;
    std::map<std::string, const Key*> by_name;
    for (const Key& k : keys()) by_name[k.name] = &k;

    for (auto&& [name_view, node] : table) {
        const std::string name = text_excerpt(std::string(name_view.str()), 100);
        const std::string at = detail::toml_where(source, node);
        if (name == "name" || name == "description") {
            const auto* s = node.as_string();
            if (!s) fail(at, name, fmt::format("expected a string, got {}", detail::toml_shown(node)));
            (name == "name" ? preset.name : preset.description) = s->get();
            continue;
        }
        if (name == "seed") {
            const auto* i = node.as_integer();
            if (!i || i->get() < -2147483648LL || i->get() > 4294967295LL)
                fail(at, name, fmt::format("expected an integer in [-2147483648, 4294967295], got {}", detail::toml_shown(node)));
            preset.seed = static_cast<std::uint32_t>(static_cast<std::uint64_t>(i->get()));
            continue;
        }
        const auto found = by_name.find(name);
        if (found == by_name.end()) throw KnobTerrainError(fmt::format("{}: unknown key '{}'", at, name));
        found->second->set_number(preset.terrain, read_key(*found->second, node, at, name));
    }

    // Checks that tie two keys together.
    const TerrainParams& t = preset.terrain;
    if (!(t.mountain_to > t.mountain_from)) {
        const toml::node* n = table.get("mountain_to");
        throw KnobTerrainError(fmt::format("{}: key 'mountain_to': expected a number > mountain_from ({}), got {}",
                                           n ? detail::toml_where(source, *n) : source, t.mountain_from, t.mountain_to));
    }
    if (preset.name.empty()) preset.name = file;
    return preset;
}

std::vector<std::string> builtin_knob_terrain_names() {
    std::vector<std::string> names;
    for (const auto& [name, text] : embedded_presets())
        if (!is_graph_text(text)) names.push_back(name);
    return names;
}

std::vector<std::string> builtin_terrain_names() {
    std::vector<std::string> names;
    for (const auto& [name, text] : embedded_presets()) names.push_back(name);
    return names;
}

const std::string& builtin_preset_text(const std::string& name) {
    const auto& all = embedded_presets();
    const auto it = all.find(name);
    if (it == all.end()) {
        std::string known;
        for (const auto& [n, text] : all) known += (known.empty() ? "" : ", ") + n;
        throw KnobTerrainError(fmt::format("unknown preset '{}' (known: {})", text_excerpt(name), known));
    }
    return it->second;
}

KnobTerrain builtin_knob_terrain(const std::string& name) {
    const std::string& text = builtin_preset_text(name);
    if (is_graph_text(text))
        throw KnobTerrainError(fmt::format("presets/{}.toml is a field graph, not a knob terrain (builtin_terrain reads both)", name));
    return parse_knob_terrain(text, "presets/" + name + ".toml");
}

namespace detail {

void read_material_keys(const toml::table& table, const std::string& source, MaterialRules& rules) {
    TerrainParams terrain;
    terrain.materials = rules;
    for (auto&& [name_view, node] : table) {
        const std::string name = text_excerpt(std::string(name_view.str()), 100);
        const std::string at = toml_where(source, node);
        static const std::vector<std::string> material_keys = {"rock_slope_deg",     "slope_blend_deg", "snow_line_m",  "snow_blend_m",
                                                               "snow_max_slope_deg", "soil_depth_m",    "sand_height_m"};
        const Key* key = nullptr;
        if (std::find(material_keys.begin(), material_keys.end(), name) != material_keys.end())
            for (const Key& k : keys())
                if (name == k.name) key = &k;
        if (!key)
            throw KnobTerrainError(
                fmt::format("{}: unknown material key '{}' (rock_slope_deg, slope_blend_deg, snow_line_m, "
                            "snow_blend_m, snow_max_slope_deg, soil_depth_m, sand_height_m)",
                            at, name));
        key->set_number(terrain, read_key(*key, node, at, name));
    }
    rules = terrain.materials;
}

}  // namespace detail

KnobTerrain load_knob_terrain_file(const std::string& path) {
    std::string text;
    try {
        text = detail::read_small_file(path, "preset", std::size_t{1} << 20);
    } catch (const TerrainError& e) {
        throw KnobTerrainError(e.what());
    }
    return parse_knob_terrain(text, path);
}

std::string knob_terrain_to_toml(const KnobTerrain& preset) {
    std::string out;
    out += fmt::format("name = {}\n", detail::toml_quote(preset.name));
    out += fmt::format("description = {}\n", detail::toml_quote(preset.description));
    out += fmt::format("seed = {}\n", preset.seed);
    for (const Key& k : keys()) {
        const double v = k.get_number(preset.terrain);
        switch (k.kind) {
            case Kind::boolean: out += fmt::format("{} = {}\n", k.name, v != 0 ? "true" : "false"); break;
            case Kind::integer: out += fmt::format("{} = {}\n", k.name, static_cast<long long>(v)); break;
            default: {
                // Shortest text that reads back to the same double, always with a point.
                std::string s = fmt::format("{}", v);
                if (s.find_first_of(".eE") == std::string::npos) s += ".0";
                out += fmt::format("{} = {}\n", k.name, s);
            }
        }
    }
    return out;
}

}  // namespace isoterra
