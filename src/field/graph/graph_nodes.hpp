// The node types of field graphs (internal to field/graph/): names, inputs and their kinds,
// ranges and defaults, outputs. One table read by the compiler, `graph types` and the docs.
#pragma once

#include <string>
#include <vector>

#include "graph_program.hpp"

namespace isoterra::graph {

enum class InputKind {
    value,       // a node id or a number -> Node::in
    coordinate,  // a node id or a number; absent: the sample's own coordinate -> Node::in
    number,      // a number -> Node::number
    point2,      // [a, b] -> two Node::number
    point3,      // [a, b, c] -> three Node::number
    knots,       // [[x, y], ...] -> Node::knots
    octaves,     // an integer -> Node::shape.octaves
    lacunarity,
    gain,
    amplitude,    // numbers -> Node::shape
    file,         // a path, relative to the graph file -> Node::file
    field,        // a node id or a number, read at other points than the sample's too (x, z only) -> Node::in
    knot_values,  // [[x, y], ...], y a number or a node id -> Node::knots (x) and one Node::in each (y)
    flavour,      // "seed" or "fast": the noise's flavour -> Node::fast_noise (absent: the graph's `noise`)
};

struct InputSpec {
    const char* name;
    InputKind kind;
    bool required;
    double fallback;  // when absent (number kinds; NaN for "see the type")
    double lo, hi;    // accepted numbers (number kinds)
    bool lo_open, hi_open;
};

struct NodeType {
    const char* name;
    Op op;
    int ports;
    const char* port_names;  // "x,z" for the warps, "value,dx,dz" for dfbm2..., else ""
    std::vector<InputSpec> inputs;
    const char* formula;          // one line for `graph types` and the docs
    bool bare_is_first = false;   // a reference without a port means the first output
    const char* port_blend = "";  // with grid_m, per port: 'l' bilinear (the default), 'm' the most of the four nodes
};

/// The names of a type's outputs, in port order (one empty name for a single output).
std::vector<std::string> port_names(const NodeType& type);

/// Every node type, in the order the docs list them.
const std::vector<NodeType>& node_types();
/// The type called `name`, or null.
const NodeType* find_node_type(const std::string& name);
/// One line on input `input` of type `type` (graph_input_docs.cpp); "" for one not described.
std::string input_doc(const std::string& type, const std::string& input);

}  // namespace isoterra::graph
