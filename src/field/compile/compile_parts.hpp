// The graph compiler's parts (internal to field/): a node as read from the file with
// its references still to resolve, and the compiler that holds a file's nodes while they are
// read (compile/read_nodes.cpp), then resolved and put in order (compile/compile.cpp); the
// passes over the compiled program (compile/passes.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "field/material_keys.hpp"
#include "toml_files.hpp"
#include "field/nodes/table.hpp"
#include "program.hpp"
#include "isoterra/graph.hpp"

namespace isoterra::graph::compiler {

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

[[noreturn]] inline void fail(const std::string& at, const std::string& id, const std::string& what) {
    throw GraphError(fmt::format("{}: node '{}': {}", at, id, what));
}

inline std::string at_line(const std::string& source, int line) { return line > 0 ? fmt::format("{}:{}", source, line) : source; }

// Reads a graph file's nodes, resolves their references and orders them.
class Compiler {
public:
    Compiler(const std::string& source, const std::string& directory) : source_(source), directory_(directory) {}

    Program compile(const toml::table& root);

private:
    // Reading (compile/read_nodes.cpp).
    void read_header(const toml::table& root, Program& program);
    RawNode read_node(const std::string& id, const toml::node& entry);
    void read_input(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at, const std::string& id);
    void read_operand(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at, const std::string& id);
    void read_knot_values(const InputSpec& spec, const toml::node* value, RawNode& raw, const std::string& at, const std::string& id);
    void read_knots(const InputSpec& spec, const toml::node* value, Node& node, const std::string& at, const std::string& id);
    // Resolving and ordering (compile/compile.cpp).
    Operand resolve(const RawOperand& raw, const std::string& who);
    Operand read_output(const toml::table& output, const char* name, bool required);
    void order(const std::string& root);
    std::string node_of(const std::string& reference) const;

    std::string source_;
    std::string directory_;
    std::map<std::string, RawNode> raw_;
    std::vector<std::string> file_order_;
    std::map<std::string, int> index_;  // id -> position in program.nodes
    std::map<std::string, int> state_;  // 1: on the path, 2: done
    std::vector<std::string> ordered_;
    bool fast_noise_ = false;  // the file's `noise`, for noise nodes that do not say
};

// The passes over a compiled program, in the order compile_graph runs them
// (compile/passes.cpp): what each node depends on; the column outputs, the inputs read
// at other points and the nodes on a grid checked to be functions of x and z; `depth_m` only
// where a ground, a y and a per-sample node give it a meaning; constant nodes folded; the
// outputs each node has read. Then what a sample costs, bounded (compile/cost.cpp).
void find_axes(Program& program);
void check_column_outputs(const Program& program);
void check_field_inputs(const Program& program);
void check_grids(const Program& program);
void check_depths(const Program& program);
void fold_constants(Program& program);
void find_ports_read(Program& program);
void check_cost(Program& program);

}  // namespace isoterra::graph::compiler
