// From graph TOML to a Program: the file's nodes read (compile/read_nodes.cpp), references
// resolved (with a suggestion for a misspelt id), cycles found with their path, the nodes the
// outputs need put in dependency order; then the passes over the program
// (compile/passes.cpp): what each node depends on worked out (so the column part runs
// once per column), and constant arithmetic folded.
#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "toml_shape.hpp"
#include "compile_parts.hpp"
#include "field/run/column_masks.hpp"
#include "field/run/gates.hpp"
#include "isoterra/base.hpp"

namespace isoterra::graph {
namespace compiler {
namespace {

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

// The outputs a graph may name; all but the sdf are functions of x and z.
constexpr std::string_view kOutputs[] = {"sdf", "ground", "water", "snow_line", "scree"};

// What a node's id is made of: never a dot (it names a port), a blank or a quote.
constexpr const char* kIdCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

}  // namespace

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
            const std::size_t gap =
                other.size() > raw.reference.size() ? other.size() - raw.reference.size() : raw.reference.size() - other.size();
            if (gap >= best_distance) continue;
            const std::size_t d = edit_distance(raw.reference, other);
            if (d < best_distance) best_distance = d, best = other;
        }
        throw GraphError(fmt::format("{}: {}: unknown node '{}'{}", at, who, text_excerpt(raw.reference, 60),
                                     best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best)));
    }
    const NodeType& type = *found->second.node.kind;
    if (port_count(type) == 1 && !port.empty())
        throw GraphError(fmt::format("{}: {}: node '{}' has one output; refer to it as '{}'", at, who, target, target));
    if (port_count(type) > 1) {
        const std::vector<std::string> names = port_names(type);
        const auto found_port = std::find(names.begin(), names.end(), port);
        if (found_port != names.end()) {
            op.port = static_cast<int>(found_port - names.begin());
        } else if (!(port.empty() && type.bare_is_first)) {
            std::string listed;
            for (std::size_t i = 0; i < names.size(); ++i) listed += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
            throw GraphError(
                fmt::format("{}: {}: node '{}' has outputs {}; name one ('{}.{}')", at, who, target, listed, target, names.front()));
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
            fail(at_line(source_, raw_.at(id).node.line), id,
                 fmt::format("is part of a cycle{}: {}{}", length > 8 ? fmt::format(" of {} nodes", length) : "", cycle, id));
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
            throw GraphError(
                fmt::format("{}: node '{}': an id is 1 to 60 ASCII letters, digits, '_' or '-'", detail::toml_where(source_, entry), id));
        raw_.emplace(id, read_node(id, entry));
        file_order_.push_back(id);
    }
    for (auto&& [key_view, value] : *output->as_table())
        if (std::find(std::begin(kOutputs), std::end(kOutputs), key_view.str()) == std::end(kOutputs))
            throw GraphError(fmt::format("{}: unknown output '{}' (sdf, ground, water, snow_line, scree)",
                                         detail::toml_where(source_, value), text_excerpt(std::string(key_view.str()), 60)));
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
        for (std::size_t i = 0; i < raw.in.size(); ++i)
            node.in[i] = resolve(raw.in[i], fmt::format("node '{}': input '{}'", id, raw.in[i].input));
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

}  // namespace compiler

Program compile_graph(const std::string& text, const std::string& file, const std::string& directory) {
    using namespace compiler;
    const std::string source = text_excerpt(file, 200);
    try {
        detail::check_toml_shape(text, source, std::size_t{1} << 20, 8);
    } catch (const TerrainError& e) {
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
    check_depths(program);
    fold_constants(program);
    check_cost(program);
    find_gates(program);
    find_column_masks(program);
    find_ports_read(program);
    return program;
}

}  // namespace isoterra::graph
