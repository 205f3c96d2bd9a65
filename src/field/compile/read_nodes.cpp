// Reading a graph file's nodes: the header keys (format, name, seed, noise, sea level,
// materials), each node's type and inputs checked against the table of node types (numbers
// and their ranges, references still unresolved, knots, files, noise flavours) and the checks
// that tie inputs together; a heightmap node's raster read now. compile/compile.cpp resolves
// what this reads.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "compile_parts.hpp"
#include "isoterra/base.hpp"

namespace isoterra::graph::compiler {
namespace {

// The types that take `lod`, in words ("a, b and c").
std::string lod_types() {
    std::vector<std::string> names;
    for (const NodeType& t : node_types())
        if (t.lod) names.push_back(t.name);
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return text;
}

std::string known_types() {
    std::string all;
    for (const NodeType& t : node_types()) all += (all.empty() ? "" : ", ") + std::string(t.name);
    return all;
}

std::string range_text(const InputSpec& s) {
    const bool has_lo = std::isfinite(s.lo), has_hi = std::isfinite(s.hi);
    if (has_lo && has_hi) return fmt::format("in {}{}, {}{}", s.lo_open ? "(" : "[", s.lo, s.hi, s.hi_open ? ")" : "]");
    return "finite";
}

bool in_range(const InputSpec& s, double v) {
    return std::isfinite(v) && (s.lo_open ? v > s.lo : v >= s.lo) && (s.hi_open ? v < s.hi : v <= s.hi);
}

// A number from a TOML value (integer or float), or false.
bool number_of(const toml::node& node, double& v) {
    if (const auto* i = node.as_integer()) return v = static_cast<double>(i->get()), true;
    if (const auto* d = node.as_floating_point()) return v = d->get(), true;
    return false;
}

// A noise flavour's name: true for "fast", false for "seed", nothing for anything else.
std::optional<bool> is_fast_flavour(const toml::node& value) {
    const auto* s = value.as_string();
    if (!s || (s->get() != "seed" && s->get() != "fast")) return std::nullopt;
    return s->get() == "fast";
}

[[noreturn]] void fail_input(const std::string& at, const std::string& id, const InputSpec& spec, const toml::node& value,
                             const std::string& expected) {
    fail(at, id, fmt::format("input '{}': expected {}, got {}", spec.name, expected, detail::toml_shown(value)));
}

}  // namespace

void Compiler::read_header(const toml::table& root, Program& program) {
    bool has_format = false;
    for (auto&& [key_view, node] : root) {
        const std::string key = text_excerpt(std::string(key_view.str()), 100);
        const std::string at = detail::toml_where(source_, node);
        if (key == "format") {
            const auto* i = node.as_integer();
            if (!i || i->get() != 1)
                throw GraphError(fmt::format("{}: key 'format': this isoterra reads graph format 1, got {}", at, detail::toml_shown(node)));
            has_format = true;
        } else if (key == "name" || key == "description") {
            const auto* s = node.as_string();
            if (!s) throw GraphError(fmt::format("{}: key '{}': expected a string, got {}", at, key, detail::toml_shown(node)));
            (key == "name" ? program.name : program.description) = s->get();
        } else if (key == "seed") {
            const auto* i = node.as_integer();
            if (!i || i->get() < -2147483648LL || i->get() > 4294967295LL)
                throw GraphError(
                    fmt::format("{}: key 'seed': expected an integer in [-2147483648, 4294967295], got {}", at, detail::toml_shown(node)));
            program.seed = static_cast<std::uint32_t>(static_cast<std::uint64_t>(i->get()));
        } else if (key == "material") {
            const auto* t = node.as_table();
            if (!t) throw GraphError(fmt::format("{}: key 'material': expected a table, got {}", at, detail::toml_shown(node)));
            // The preset's material keys, and how far below the ground open ground may lie
            // (a preset derives it from its overhangs; a graph says it).
            toml::table keys = *t;
            if (const toml::node* reach = t->get("surface_reach_m")) {
                double v = 0.0;
                if (!number_of(*reach, v) || !std::isfinite(v) || v < 0.0 || v > 1e4)
                    throw GraphError(fmt::format("{}: key 'surface_reach_m': expected a number in [0, 10000], got {}",
                                                 detail::toml_where(source_, *reach), detail::toml_shown(*reach)));
                program.materials.surface_reach_m = v;
                keys.erase("surface_reach_m");
            }
            try {
                detail::read_material_keys(keys, source_, program.materials);
            } catch (const TerrainError& e) {
                throw GraphError(e.what());
            }
        } else if (key == "sea_level") {
            double v = 0.0;
            if (!number_of(node, v) || !std::isfinite(v) || v < -1e4 || v > 1e4)
                throw GraphError(fmt::format("{}: key 'sea_level': expected a number in [-10000, 10000] (metres), got {}", at,
                                             detail::toml_shown(node)));
            program.sea_level = v;
        } else if (key == "noise") {
            const std::optional<bool> fast = is_fast_flavour(node);
            if (!fast)
                throw GraphError(
                    fmt::format("{}: key 'noise': expected \"seed\" (the default) or \"fast\", got {}", at, detail::toml_shown(node)));
            fast_noise_ = *fast;
        } else if (key != "node" && key != "output") {
            throw GraphError(
                fmt::format("{}: unknown key '{}' (format, name, description, seed, noise, sea_level, node, output, material)", at, key));
        }
    }
    if (!has_format) throw GraphError(fmt::format("{}: key 'format': missing (format = 1)", source_));
}

void Compiler::read_input(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at, const std::string& id) {
    Node& node = raw.node;
    const auto bad = [&](const std::string& expected) { fail_input(at, id, spec, *value, expected); };
    const auto number = [&](const toml::node& v, const std::string& expected) {
        double d = 0.0;
        if (!number_of(v, d) || !in_range(spec, d)) bad(expected);
        return d;
    };
    switch (spec.kind) {
        case InputKind::value:
        case InputKind::field:
        case InputKind::coordinate: read_operand(spec, value, raw, at, id); return;
        case InputKind::number: node.number.push_back(value ? number(*value, "a number " + range_text(spec)) : spec.fallback); return;
        case InputKind::point2:
        case InputKind::point3: {
            const std::size_t n = spec.kind == InputKind::point2 ? 2 : 3;
            const std::string expected = fmt::format("a list of {} numbers {}", n, range_text(spec));
            if (!value) {
                node.number.insert(node.number.end(), n, 0.0);
                return;
            }
            const auto* list = value->as_array();
            if (!list || list->size() != n) bad(expected);
            for (const toml::node& v : *list) node.number.push_back(number(v, expected));
            return;
        }
        case InputKind::knot_values: read_knot_values(spec, value, raw, at, id); return;
        case InputKind::knots: read_knots(spec, value, node, at, id); return;
        case InputKind::octaves: {
            const auto* i = value ? value->as_integer() : nullptr;
            if (value && (!i || !in_range(spec, static_cast<double>(i->get())))) bad("an integer " + range_text(spec));
            node.shape.octaves = value ? static_cast<int>(i->get()) : static_cast<int>(spec.fallback);
            return;
        }
        case InputKind::file: {
            const auto* s = value->as_string();
            if (!s || s->get().empty() || s->get().size() > 4096 || s->get().find('\0') != std::string::npos)
                bad("a file name (a string, relative to the graph file)");
            node.file = s->get();
            return;
        }
        case InputKind::flavour: {
            const std::optional<bool> fast = value ? is_fast_flavour(*value) : fast_noise_;
            if (!fast) bad("\"seed\" or \"fast\"");
            node.fast_noise = *fast;
            return;
        }
        case InputKind::lacunarity: node.shape.lacunarity = value ? number(*value, "a number " + range_text(spec)) : spec.fallback; return;
        case InputKind::gain: node.shape.gain = value ? number(*value, "a number " + range_text(spec)) : spec.fallback; return;
        case InputKind::amplitude: node.shape.amplitude = value ? number(*value, "a number " + range_text(spec)) : spec.fallback; return;
    }
}

// A value, field or coordinate input: a number, or a node id to resolve (its slot in
// Node::in is left for resolve()).
void Compiler::read_operand(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at, const std::string& id) {
    Node& node = raw.node;
    RawOperand op;
    op.input = spec.name;
    op.line = value ? static_cast<int>(value->source().begin.line) : node.line;
    if (!value) {
        op.constant = spec.fallback;
    } else if (const auto* s = value->as_string()) {
        op.is_reference = true;
        op.reference = s->get();
    } else if (!number_of(*value, op.constant) || !std::isfinite(op.constant)) {
        fail_input(at, id, spec, *value, "a node id or a finite number");
    }
    // Coordinates come first in a noise node's inputs: x, (y,) z.
    if (spec.kind == InputKind::coordinate) node.coordinate_default[node.in.size()] = value == nullptr;
    node.in.push_back({});
    raw.in.push_back(op);
}

// [[x, y], ...]: x a number, y a number or a node id (an input of its own).
void Compiler::read_knot_values(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at,
                                const std::string& id) {
    Node& node = raw.node;
    const std::string expected = "a list of 2 to 32 [x, y] pairs, x a finite number (increasing), y a node id or a finite number";
    const auto* list = value->as_array();
    if (!list || list->size() < 2 || list->size() > 32) fail_input(at, id, spec, *value, expected);
    for (const toml::node& pair : *list) {
        const auto* xy = pair.as_array();
        double x = 0.0;
        if (!xy || xy->size() != 2 || !number_of(*xy->get(0), x) || !std::isfinite(x) || std::fabs(x) > 1e12 ||
            (!node.knots.empty() && !(x > node.knots.back().x)))
            fail_input(at, id, spec, *value, expected);
        RawOperand op;
        op.input = fmt::format("{}[{}]", spec.name, node.knots.size());
        op.line = static_cast<int>(xy->get(1)->source().begin.line);
        if (const auto* s = xy->get(1)->as_string()) {
            op.is_reference = true;
            op.reference = s->get();
        } else if (!number_of(*xy->get(1), op.constant) || !std::isfinite(op.constant) || std::fabs(op.constant) > 1e12) {
            fail_input(at, id, spec, *value, expected);
        }
        node.knots.push_back({x, 0.0});
        node.in.push_back({});
        raw.in.push_back(op);
    }
}

// [[x, y], ...] of numbers, x increasing.
void Compiler::read_knots(const InputSpec& spec, const toml::node* value, Node& node, const std::string& at, const std::string& id) {
    const std::string expected = "a list of 2 to 256 [x, y] pairs of numbers within 1e12, x increasing";
    const auto* list = value->as_array();
    if (!list || list->size() < 2 || list->size() > 256) fail_input(at, id, spec, *value, expected);
    for (const toml::node& pair : *list) {
        const auto* xy = pair.as_array();
        glm::dvec2 k;
        if (!xy || xy->size() != 2 || !number_of(*xy->get(0), k.x) || !number_of(*xy->get(1), k.y) || !std::isfinite(k.x) ||
            !std::isfinite(k.y) || std::fabs(k.x) > 1e12 || std::fabs(k.y) > 1e12 || (!node.knots.empty() && !(k.x > node.knots.back().x)))
            fail_input(at, id, spec, *value, expected);
        node.knots.push_back(k);
    }
}

RawNode Compiler::read_node(const std::string& id, const toml::node& entry) {
    RawNode raw;
    Node& node = raw.node;
    node.id = id;
    node.line = static_cast<int>(entry.source().begin.line);
    const std::string at = at_line(source_, node.line);
    const auto* table = entry.as_table();
    if (!table) fail(at, id, fmt::format("expected a table with a type, got {}", detail::toml_shown(entry)));
    const toml::node* type_node = table->get("type");
    if (!type_node || !type_node->is_string()) fail(at, id, "missing its type (type = \"add\", ...)");
    node.type = text_excerpt(type_node->as_string()->get(), 60);
    const NodeType* type = find_node_type(type_node->as_string()->get());
    if (!type) fail(at, id, fmt::format("unknown type '{}' (known: {})", node.type, known_types()));
    node.kind = type;
    node.ports = port_count(*type);
    for (auto&& [key_view, value] : *table) {
        const std::string key(key_view.str());
        if (key == "type") continue;
        if (key == "grid_m") {
            // Any node of x and z may be run on a coarser global grid and interpolated.
            double g = 0.0;
            if (!number_of(value, g) || !std::isfinite(g) || g <= 0.0 || g > 1e4)
                fail(detail::toml_where(source_, value), id,
                     fmt::format("input 'grid_m': expected a number in (0, 10000], got {}", detail::toml_shown(value)));
            node.grid_m = g;
            continue;
        }
        if (key == "lod") {
            // A noise may leave out, inside a World column, the octaves its level cannot show.
            if (!type->lod)
                fail(detail::toml_where(source_, value), id,
                     fmt::format("input 'lod': only the noises {} take it, not {}", lod_types(), type->name));
            if (!value.is_boolean())
                fail(detail::toml_where(source_, value), id,
                     fmt::format("input 'lod': expected true or false, got {}", detail::toml_shown(value)));
            node.lod = value.as_boolean()->get();
            continue;
        }
        if (key == "detail_m" || key == "far" || key == "depth_m") {
            // Any node may say how small what it adds is, what it is where a level cannot show
            // it, and from how deep under the ground no ray from above sees it.
            double v = 0.0;
            const bool size = key != "far";
            if (!number_of(value, v) || !std::isfinite(v) || (size && (v <= 0.0 || v > 1e5)))
                fail(detail::toml_where(source_, value), id,
                     fmt::format("input '{}': expected {}, got {}", key, size ? "a number in (0, 100000]" : "a finite number",
                                 detail::toml_shown(value)));
            (key == "detail_m" ? node.detail_m : key == "far" ? node.far : node.depth_m) = v;
            continue;
        }
        const bool known = std::any_of(type->inputs.begin(), type->inputs.end(), [&](const InputSpec& s) { return key == s.name; });
        if (!known) {
            std::string inputs;
            for (const InputSpec& s : type->inputs) inputs += (inputs.empty() ? "" : ", ") + std::string(s.name);
            fail(detail::toml_where(source_, value), id,
                 fmt::format("unknown input '{}' for a {} node ({})", text_excerpt(key, 60), type->name,
                             inputs.empty() ? "it has none" : inputs));
        }
    }
    for (const InputSpec& spec : type->inputs) {
        const toml::node* value = table->get(spec.name);
        if (!value && spec.required) fail(at, id, fmt::format("missing input '{}'", spec.name));
        read_input(spec, value, raw, value ? detail::toml_where(source_, *value) : at, id);
    }
    // Checks that tie inputs together.
    for (const char* key : {"far", "depth_m"})
        if (table->get(key) && !table->get("detail_m"))
            fail(at, id, fmt::format("input '{}': goes with 'detail_m' (the size under which it applies)", key));
    if (node.detail_m > 0.0 && node.ports > 1) fail(at, id, fmt::format("input 'detail_m': a {} node has several outputs", type->name));
    if (type->setup) {
        NodeSetup setup;
        setup.at = at;
        setup.directory = directory_;
        setup.given = [&](const char* key) { return table->get(key) != nullptr; };
        setup.where = [&](const char* key) { return table->get(key) ? detail::toml_where(source_, *table->get(key)) : at; };
        setup.fail = [&](const std::string& what) { fail(at, id, what); };
        type->setup(node, setup);
    }
    return raw;
}

}  // namespace isoterra::graph::compiler
