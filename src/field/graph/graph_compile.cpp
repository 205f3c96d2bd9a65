// From graph TOML to a Program: every node's type and inputs checked against the table of
// node types, references resolved (with a suggestion for a misspelt id), cycles found with
// their path, the nodes the outputs need put in dependency order, what each depends on
// worked out (so the column part runs once per column), and constant arithmetic folded.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "../preset_parts.hpp"
#include "../toml_shape.hpp"
#include "graph_eval.hpp"
#include "graph_gates.hpp"
#include "graph_nodes.hpp"
#include "height_raster.hpp"
#include "landform_nodes.hpp"
#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"

namespace isoterra::graph {
namespace {

// An input as written: a number, or a reference "id" / "id.port" still to resolve.
struct RawOperand {
    bool is_reference = false;
    std::string reference;
    double constant = 0.0;
    int line = 0;
    std::string input;  // the input's name, for messages
};

struct RawNode {
    Node node;
    std::vector<RawOperand> in;  // parallel to node.in
};

[[noreturn]] void fail(const std::string& at, const std::string& id, const std::string& what) {
    throw GraphError(fmt::format("{}: node '{}': {}", at, id, what));
}

std::string at_line(const std::string& source, int line) { return line > 0 ? fmt::format("{}:{}", source, line) : source; }

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
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

// The outputs a graph may name; all but the sdf are functions of x and z.
constexpr std::string_view kOutputs[] = {"sdf", "ground", "water", "snow_line", "scree"};

// A noise flavour's name: true for "fast", false for "seed", nothing for anything else.
std::optional<bool> is_fast_flavour(const toml::node& value) {
    const auto* s = value.as_string();
    if (!s || (s->get() != "seed" && s->get() != "fast")) return std::nullopt;
    return s->get() == "fast";
}

class Compiler {
public:
    Compiler(const std::string& source, const std::string& directory) : source_(source), directory_(directory) {}

    Program compile(const toml::table& root);

private:
    void read_header(const toml::table& root, Program& program);
    RawNode read_node(const std::string& id, const toml::node& entry);
    void read_input(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at, const std::string& id);
    Operand resolve(const RawOperand& raw, const std::string& who);
    Operand read_output(const toml::table& output, const char* name, bool required);
    void order(const std::string& root);
    std::string node_of(const std::string& reference) const;
    void read_raster(const toml::table& table, Node& node, const std::string& at);

    std::string source_;
    std::string directory_;
    std::map<std::string, RawNode> raw_;
    std::vector<std::string> file_order_;
    std::map<std::string, int> index_;       // id -> position in program.nodes
    std::map<std::string, int> state_;       // 1: on the path, 2: done
    std::vector<std::string> ordered_;
    bool fast_noise_ = false;  // the file's `noise`, for noise nodes that do not say
};

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
                throw GraphError(fmt::format("{}: key 'seed': expected an integer in [-2147483648, 4294967295], got {}", at,
                                             detail::toml_shown(node)));
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
            } catch (const PresetError& e) {
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
                throw GraphError(fmt::format("{}: key 'noise': expected \"seed\" (the default) or \"fast\", got {}", at,
                                             detail::toml_shown(node)));
            fast_noise_ = *fast;
        } else if (key != "node" && key != "output") {
            throw GraphError(fmt::format(
                "{}: unknown key '{}' (format, name, description, seed, noise, sea_level, node, output, material)", at, key));
        }
    }
    if (!has_format) throw GraphError(fmt::format("{}: key 'format': missing (format = 1)", source_));
}

void Compiler::read_input(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at,
                          const std::string& id) {
    Node& node = raw.node;
    const auto bad = [&](const std::string& expected) {
        fail(at, id, fmt::format("input '{}': expected {}, got {}", spec.name, expected, detail::toml_shown(*value)));
    };
    const auto number = [&](const toml::node& v, const std::string& expected) {
        double d = 0.0;
        if (!number_of(v, d) || !in_range(spec, d)) bad(expected);
        return d;
    };
    switch (spec.kind) {
        case InputKind::value:
        case InputKind::field:
        case InputKind::coordinate: {
            RawOperand op;
            op.input = spec.name;
            op.line = value ? static_cast<int>(value->source().begin.line) : node.line;
            if (!value) {
                op.constant = spec.fallback;
            } else if (const auto* s = value->as_string()) {
                op.is_reference = true;
                op.reference = s->get();
            } else if (!number_of(*value, op.constant) || !std::isfinite(op.constant)) {
                bad("a node id or a finite number");
            }
            // Coordinates come first in a noise node's inputs: x, (y,) z.
            if (spec.kind == InputKind::coordinate) node.coordinate_default[node.in.size()] = value == nullptr;
            node.in.push_back({});
            raw.in.push_back(op);
            return;
        }
        case InputKind::number:
            node.number.push_back(value ? number(*value, "a number " + range_text(spec)) : spec.fallback);
            return;
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
        case InputKind::knot_values: {
            // [[x, y], ...]: x a number, y a number or a node id (an input of its own).
            const std::string expected = "a list of 2 to 32 [x, y] pairs, x a finite number (increasing), y a node id or a finite number";
            const auto* list = value->as_array();
            if (!list || list->size() < 2 || list->size() > 32) bad(expected);
            for (const toml::node& pair : *list) {
                const auto* xy = pair.as_array();
                double x = 0.0;
                if (!xy || xy->size() != 2 || !number_of(*xy->get(0), x) || !std::isfinite(x) || std::fabs(x) > 1e12 ||
                    (!node.knots.empty() && !(x > node.knots.back().x)))
                    bad(expected);
                RawOperand op;
                op.input = fmt::format("{}[{}]", spec.name, node.knots.size());
                op.line = static_cast<int>(xy->get(1)->source().begin.line);
                if (const auto* s = xy->get(1)->as_string()) {
                    op.is_reference = true;
                    op.reference = s->get();
                } else if (!number_of(*xy->get(1), op.constant) || !std::isfinite(op.constant) || std::fabs(op.constant) > 1e12) {
                    bad(expected);
                }
                node.knots.push_back({x, 0.0});
                node.in.push_back({});
                raw.in.push_back(op);
            }
            return;
        }
        case InputKind::knots: {
            const std::string expected = "a list of 2 to 256 [x, y] pairs of numbers within 1e12, x increasing";
            const auto* list = value->as_array();
            if (!list || list->size() < 2 || list->size() > 256) bad(expected);
            for (const toml::node& pair : *list) {
                const auto* xy = pair.as_array();
                glm::dvec2 k;
                if (!xy || xy->size() != 2 || !number_of(*xy->get(0), k.x) || !number_of(*xy->get(1), k.y) || !std::isfinite(k.x) ||
                    !std::isfinite(k.y) || std::fabs(k.x) > 1e12 || std::fabs(k.y) > 1e12 || (!node.knots.empty() && !(k.x > node.knots.back().x)))
                    bad(expected);
                node.knots.push_back(k);
            }
            return;
        }
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
    node.op = type->op;
    node.ports = type->ports;
    for (auto&& [key_view, value] : *table) {
        const std::string key(key_view.str());
        if (key == "type") continue;
        if (key == "grid_m") {
            // Any node of x and z may be run on a coarser global grid and interpolated.
            double g = 0.0;
            if (!number_of(value, g) || !std::isfinite(g) || g <= 0.0 || g > 1e4)
                fail(detail::toml_where(source_, value), id, fmt::format("input 'grid_m': expected a number in (0, 10000], got {}",
                                                                        detail::toml_shown(value)));
            node.grid_m = g;
            continue;
        }
        const bool known = std::any_of(type->inputs.begin(), type->inputs.end(), [&](const InputSpec& s) { return key == s.name; });
        if (!known) {
            std::string inputs;
            for (const InputSpec& s : type->inputs) inputs += (inputs.empty() ? "" : ", ") + std::string(s.name);
            fail(detail::toml_where(source_, value), id,
                 fmt::format("unknown input '{}' for a {} node ({})", text_excerpt(key, 60), type->name, inputs.empty() ? "it has none" : inputs));
        }
    }
    for (const InputSpec& spec : type->inputs) {
        const toml::node* value = table->get(spec.name);
        if (!value && spec.required) fail(at, id, fmt::format("missing input '{}'", spec.name));
        read_input(spec, value, raw, value ? detail::toml_where(source_, *value) : at, id);
    }
    // Checks that tie inputs together.
    if (node.op == Op::smoothstep && node.number[0] == node.number[1]) fail(at, id, "input 'to': must differ from 'from'");
    if (node.op == Op::remap && node.number[0] == node.number[1]) fail(at, id, "input 'from': its two ends must differ");
    if (node.op == Op::simplex3 || node.op == Op::fbm3)
        if (std::isnan(node.number[1])) node.number[1] = node.number[0];  // vertical scale: the scale
    if (node.op == Op::heightmap) read_raster(*table, node, detail::toml_where(source_, *table->get("file")));
    if (node.op == Op::drainage) node.cache = make_drainage_cache();
    return raw;
}

// A heightmap node's raster, found relative to the graph file and read now: a graph that
// compiles has every raster it needs.
void Compiler::read_raster(const toml::table& table, Node& node, const std::string& at) {
    RasterPlacement placement;
    const auto given = [&](const char* key, std::size_t first) -> std::optional<glm::dvec2> {
        if (!table.get(key)) return std::nullopt;
        return glm::dvec2(node.number[first], node.number[first + 1]);
    };
    placement.from = given("from", 0), placement.to = given("to", 2), placement.heights = given("heights", 4);
    if (placement.from.has_value() != placement.to.has_value())
        fail(at, node.id, "inputs 'from' and 'to' go together: the first and the last pixel centres, [x, z] in metres");
    const std::string path = node.file.front() == '/' || directory_.empty() ? node.file : directory_ + "/" + node.file;
    try {
        node.raster = load_height_raster(path, placement);
    } catch (const RasterError& e) {
        throw RasterError(fmt::format("{}: node '{}': {}", at, node.id, e.what()));
    }
}

// `who` names the place in messages: "node 'ID': input 'b'" or "output 'sdf'".
Operand Compiler::resolve(const RawOperand& raw, const std::string& who) {
    Operand op;
    if (!raw.is_reference) {
        op.constant = raw.constant;
        return op;
    }
    const std::string at = at_line(source_, raw.line);
    const std::string target = node_of(raw.reference);
    const std::string port = target.size() < raw.reference.size() ? raw.reference.substr(target.size() + 1) : "";
    const auto found = raw_.find(target);
    if (found == raw_.end()) {
        std::string best;
        // Suggestions within 2 edits only: ids differing more in length are not compared, so
        // the search stays ids x 60 x 60 steps at most (ids are at most 60 bytes).
        std::size_t best_distance = 3;
        for (const std::string& other : file_order_) {
            const std::size_t gap = other.size() > raw.reference.size() ? other.size() - raw.reference.size() : raw.reference.size() - other.size();
            if (gap >= best_distance) continue;
            const std::size_t d = edit_distance(raw.reference, other);
            if (d < best_distance) best_distance = d, best = other;
        }
        throw GraphError(fmt::format("{}: {}: unknown node '{}'{}", at, who, text_excerpt(raw.reference, 60),
                                 best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best)));
    }
    const NodeType& type = *find_node_type(found->second.node.type);
    if (type.ports == 1 && !port.empty())
        throw GraphError(fmt::format("{}: {}: node '{}' has one output; refer to it as '{}'", at, who, target, target));
    if (type.ports > 1) {
        const std::vector<std::string> names = port_names(type);
        const auto found_port = std::find(names.begin(), names.end(), port);
        if (found_port != names.end()) {
            op.port = static_cast<int>(found_port - names.begin());
        } else if (!(port.empty() && type.bare_is_first)) {
            std::string listed;
            for (std::size_t i = 0; i < names.size(); ++i)
                listed += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
            throw GraphError(fmt::format("{}: {}: node '{}' has outputs {}; name one ('{}.{}')", at, who, target, listed, target, names.front()));
        }
    }
    op.node = index_.at(target);
    return op;
}

// The node a reference names: "id" itself, or the id of "id.port" (ids have no dots).
std::string Compiler::node_of(const std::string& reference) const {
    const auto dot = reference.rfind('.');
    return raw_.count(reference) || dot == std::string::npos ? reference : reference.substr(0, dot);
}

// Depth first from `root`, each node after its inputs, with an explicit stack: a chain of
// tens of thousands of nodes (a file under the size limit) must not exhaust the thread's.
void Compiler::order(const std::string& root) {
    struct Frame {
        std::string id;
        std::size_t next_input = 0;
    };
    std::vector<Frame> stack;
    const auto enter = [&](const std::string& id) {
        const int state = state_[id];
        if (state == 2) return;
        if (state == 1) {
            // The cycle: the stack from `id` up; a long one shows its ends.
            std::size_t from = 0;
            while (stack[from].id != id) ++from;
            const std::size_t length = stack.size() - from;
            std::string cycle;
            for (std::size_t k = from; k < stack.size(); ++k) {
                if (length > 8 && k == from + 4) {
                    cycle += fmt::format("... ({} nodes) -> ", length - 7);
                    k = stack.size() - 3;
                }
                cycle += stack[k].id + " -> ";
            }
            fail(at_line(source_, raw_.at(id).node.line), id, fmt::format("is part of a cycle{}: {}{}", length > 8 ? fmt::format(" of {} nodes", length) : "", cycle, id));
        }
        state_[id] = 1;
        stack.push_back({id, 0});
    };
    enter(root);
    while (!stack.empty()) {
        const std::string id = stack.back().id;
        const RawNode& raw = raw_.at(id);
        if (stack.back().next_input < raw.in.size()) {
            const RawOperand& in = raw.in[stack.back().next_input++];
            if (!in.is_reference) continue;
            const std::string target = node_of(in.reference);
            if (!raw_.count(target)) resolve(in, fmt::format("node '{}': input '{}'", id, in.input));  // throws: unknown node
            enter(target);
            continue;
        }
        state_[id] = 2;
        ordered_.push_back(id);
        stack.pop_back();
    }
}

Operand Compiler::read_output(const toml::table& output, const char* name, bool required) {
    const toml::node* value = output.get(name);
    if (!value) {
        if (required) throw GraphError(fmt::format("{}: output '{}': missing ([output] sdf = \"ID\")", source_, name));
        Operand none;
        none.constant = std::nan("");
        return none;
    }
    const auto* s = value->as_string();
    const std::string at = detail::toml_where(source_, *value);
    if (!s) throw GraphError(fmt::format("{}: output '{}': expected a node id, got {}", at, name, detail::toml_shown(*value)));
    RawOperand raw;
    raw.is_reference = true;
    raw.reference = s->get();
    raw.line = static_cast<int>(value->source().begin.line);
    if (const std::string target = node_of(raw.reference); raw_.count(target)) order(target);
    return resolve(raw, fmt::format("output '{}'", name));
}

// What a node's id is made of: never a dot (it names a port), a blank or a quote.
constexpr const char* kIdCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

Program Compiler::compile(const toml::table& root) {
    Program program;
    program.source = source_;
    read_header(root, program);
    const toml::node* nodes = root.get("node");
    if (!nodes || !nodes->is_table())
        throw GraphError(fmt::format("{}: key 'node': missing, or not a table of nodes ([node] a = {{ type = ... }})", source_));
    const toml::node* output = root.get("output");
    if (!output || !output->is_table()) throw GraphError(fmt::format("{}: key 'output': missing ([output] sdf = \"ID\")", source_));
    for (auto&& [id_view, entry] : *nodes->as_table()) {
        const std::string id = text_excerpt(std::string(id_view.str()), 60);
        const bool fits = !id_view.str().empty() && id_view.str().size() <= 60;
        if (!fits || id_view.str().find_first_not_of(kIdCharacters) != std::string_view::npos)
            throw GraphError(fmt::format("{}: node '{}': an id is 1 to 60 ASCII letters, digits, '_' or '-'",
                                         detail::toml_where(source_, entry), id));
        raw_.emplace(id, read_node(id, entry));
        file_order_.push_back(id);
    }
    for (auto&& [key_view, value] : *output->as_table())
        if (std::find(std::begin(kOutputs), std::end(kOutputs), key_view.str()) == std::end(kOutputs))
            throw GraphError(fmt::format("{}: unknown output '{}' (sdf, ground, water, snow_line, scree)", detail::toml_where(source_, value),
                                         text_excerpt(std::string(key_view.str()), 60)));
    // Every node is checked for cycles, in the order of the file; only those an output
    // needs are compiled.
    for (const std::string& id : file_order_) order(id);
    // What the outputs reach, with a list to visit rather than recursion (long chains).
    std::set<std::string> needed;
    std::vector<std::string> to_visit;
    for (const std::string_view name : kOutputs)
        if (const toml::node* v = output->as_table()->get(name); v && v->is_string()) {
            if (const std::string r = node_of(v->as_string()->get()); raw_.count(r)) to_visit.push_back(r);
        }
    while (!to_visit.empty()) {
        const std::string id = std::move(to_visit.back());
        to_visit.pop_back();
        if (!needed.insert(id).second) continue;
        for (const RawOperand& in : raw_.at(id).in)
            if (in.is_reference) to_visit.push_back(node_of(in.reference));
    }
    for (const std::string& id : ordered_) {
        if (!needed.count(id)) continue;
        RawNode& raw = raw_.at(id);
        Node node = raw.node;
        for (std::size_t i = 0; i < raw.in.size(); ++i) node.in[i] = resolve(raw.in[i], fmt::format("node '{}': input '{}'", id, raw.in[i].input));
        index_[id] = static_cast<int>(program.nodes.size());
        program.nodes.push_back(std::move(node));
    }
    program.sdf = read_output(*output->as_table(), "sdf", true);
    program.ground = read_output(*output->as_table(), "ground", false);
    program.has_ground = !program.ground.is_constant() || !std::isnan(program.ground.constant);
    program.water = read_output(*output->as_table(), "water", false);
    program.snow_line = read_output(*output->as_table(), "snow_line", false);
    program.scree = read_output(*output->as_table(), "scree", false);
    return program;
}

// What each node depends on, from its own kind and its inputs.
void find_axes(Program& program) {
    for (Node& node : program.nodes) {
        unsigned axes = kNone;
        for (const Operand& in : node.in)
            if (!in.is_constant()) axes |= program.nodes[static_cast<std::size_t>(in.node)].axes;
        switch (node.op) {
            case Op::x: axes = kX; break;
            case Op::y: axes = kY; break;
            case Op::z: axes = kZ; break;
            case Op::plane: axes |= kY; break;
            case Op::sphere: case Op::box: axes |= kXYZ; break;
            case Op::simplex2: case Op::fbm2: case Op::ridged2: case Op::warp2: case Op::heightmap:
            case Op::dfbm2: case Op::erosion: case Op::cellular:
                if (node.coordinate_default[0]) axes |= kX;
                if (node.coordinate_default[1]) axes |= kZ;
                break;
            case Op::curvature: case Op::drainage:
                axes |= kXZ;  // they read inputs at other points around (x, z)
                break;
            case Op::simplex3: case Op::fbm3: case Op::warp3:
                if (node.coordinate_default[0]) axes |= kX;
                if (node.coordinate_default[1]) axes |= kY;
                if (node.coordinate_default[2]) axes |= kZ;
                break;
            default: break;
        }
        node.axes = axes;
    }
}

// The column outputs must not depend on y: name the node through which one does.
void check_column_output(const Program& program, const Operand& output, const char* name) {
    if (output.is_constant()) return;
    const Node* culprit = &program.nodes[static_cast<std::size_t>(output.node)];
    if (!(culprit->axes & kY)) return;
    std::string path = culprit->id;
    for (bool deeper = true; deeper;) {
        deeper = false;
        for (const Operand& in : culprit->in)
            if (!in.is_constant() && (program.nodes[static_cast<std::size_t>(in.node)].axes & kY)) {
                culprit = &program.nodes[static_cast<std::size_t>(in.node)];
                path += " -> " + culprit->id;
                deeper = true;
                break;
            }
    }
    throw GraphError(fmt::format("{}: node '{}': output '{}' depends on y through node '{}' ({}); the {} is a "
                                 "function of x and z only",
                                 at_line(program.source, culprit->line), program.nodes[static_cast<std::size_t>(output.node)].id, name,
                                 culprit->id, path, std::string(name) == "snow_line" ? "snow line" : name));
}

// A node run on a grid reads its inputs at the grid's nodes: neither may depend on y.
void check_grids(const Program& program) {
    for (const Node& node : program.nodes)
        if (node.grid_m > 0.0 && (node.axes & kY))
            throw GraphError(fmt::format("{}: node '{}': input 'grid_m': the node depends on y; only a node of x and z may run "
                                         "on a grid",
                                         at_line(program.source, node.line), node.id));
}

// Inputs read at other points than the sample's must not depend on y.
void check_field_inputs(const Program& program) {
    for (const Node& node : program.nodes) {
        std::size_t slot = 0;  // value-like inputs take one slot of Node::in each, in the table's order
        for (const InputSpec& spec : find_node_type(node.type)->inputs) {
            if (spec.kind == InputKind::knot_values) slot += node.knots.size();
            if (spec.kind != InputKind::value && spec.kind != InputKind::coordinate && spec.kind != InputKind::field) continue;
            const Operand& in = node.in[slot++];
            if (spec.kind != InputKind::field || in.is_constant()) continue;
            const Node& source = program.nodes[static_cast<std::size_t>(in.node)];
            if (source.axes & kY)
                throw GraphError(fmt::format("{}: node '{}': input '{}': node '{}' depends on y; this input is read at other "
                                             "points of the ground and must be a function of x and z only",
                                             at_line(program.source, node.line), node.id, spec.name, source.id));
        }
    }
}

void check_column_outputs(const Program& program) {
    check_column_output(program, program.ground, "ground");
    check_column_output(program, program.water, "water");
    check_column_output(program, program.snow_line, "snow_line");
    check_column_output(program, program.scree, "scree");
}

// Nodes that depend on nothing are evaluated once, here; their users read the number.
void fold_constants(Program& program) {
    std::vector<double> folded(program.nodes.size(), 0.0);
    std::vector<bool> is_folded(program.nodes.size(), false);
    const auto rewrite = [&](Operand& op) {
        if (!op.is_constant() && is_folded[static_cast<std::size_t>(op.node)]) op = Operand{-1, 0, folded[static_cast<std::size_t>(op.node)]};
    };
    for (std::size_t n = 0; n < program.nodes.size(); ++n) {
        Node& node = program.nodes[n];
        for (Operand& in : node.in) rewrite(in);
        // Only nodes whose inputs are all numbers by now: a noise of constant coordinates
        // depends on nothing either, but is not folded, and its users read its lanes.
        const bool all_numbers = std::all_of(node.in.begin(), node.in.end(), [](const Operand& in) { return in.is_constant(); });
        if (node.axes != kNone || node.ports != 1 || is_noise(node.op) || !all_numbers) continue;
        folded[n] = evaluate_constant(node);
        is_folded[n] = node.folded = true;
    }
    for (Operand* output : {&program.sdf, &program.ground, &program.water, &program.snow_line, &program.scree}) rewrite(*output);
}

// Which outputs of each node something reads: a node with several may skip the others.
void find_ports_read(Program& program) {
    for (Node& node : program.nodes) node.ports_read = 0;
    const auto read = [&](const Operand& op) {
        if (!op.is_constant()) program.nodes[static_cast<std::size_t>(op.node)].ports_read |= 1u << op.port;
    };
    for (const Node& node : program.nodes)
        for (const Operand& in : node.in) read(in);
    for (const Operand* output : {&program.sdf, &program.ground, &program.water, &program.snow_line, &program.scree}) read(*output);
}

}  // namespace

Program compile_graph(const std::string& text, const std::string& file, const std::string& directory) {
    const std::string source = text_excerpt(file, 200);
    try {
        detail::check_toml_shape(text, source, std::size_t{1} << 20, 8);
    } catch (const PresetError& e) {
        throw GraphError(e.what());
    }
    toml::table root;
    try {
        root = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        throw GraphError(fmt::format("{}:{}: {}", source, e.source().begin.line, text_excerpt(std::string(e.description()), 200)));
    }
    Program program = Compiler(source, directory).compile(root);
    program.directory = directory;
    find_axes(program);
    check_column_outputs(program);
    check_field_inputs(program);
    check_grids(program);
    fold_constants(program);
    find_gates(program);
    find_ports_read(program);
    return program;
}

}  // namespace isoterra::graph
