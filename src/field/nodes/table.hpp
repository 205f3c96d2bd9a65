// The node table (internal to field/): each node type is one row, defined once in a
// file of its family (nodes/math.cpp, nodes/shapes_csg.cpp, nodes/noise.cpp, nodes/raster.cpp,
// nodes/landform/rows.cpp, ...): its name, inputs (default, range, unit, one-line doc),
// outputs, how it runs, its interval rule and its traits. The compiler, the evaluator, the
// gates, the cost, `graph types` and the docs read the rows. Every file named nodes_NAME.cpp
// under src/field/ defines `NodeFamily nodes_NAME()`; CMake lists them (cmake/node_families.cmake),
// so a new node type is one new file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "field/compile/program.hpp"

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
    const char* doc = nullptr;   // one line; null: the word's shared meaning (compile/input_docs.cpp)
    const char* unit = nullptr;  // null: "m" for a name ending in _m (the project's naming rule), else none
    /// The same input with its own one-line doc.
    InputSpec with(const char* line) const {
        InputSpec s = *this;
        s.doc = line;
        return s;
    }
};

struct Lanes;
struct PointwiseLanes;
struct RangeContext;
// Short names the family files write their rows with.
using PL = PointwiseLanes;
using RC = RangeContext;

/// The ranges of a node of one output: `r` on its port.
inline NodeRanges one(const ValueRange& r) {
    NodeRanges out;
    out[0] = r;
    return out;
}

/// What a row's setup sees once a node's inputs are read: where it is, what the file wrote.
struct NodeSetup {
    std::string at;                                 // "file:line" of the node
    std::string directory;                          // where the graph's files are found ("": the working directory)
    std::function<bool(const char*)> given;         // the file wrote this input
    std::function<std::string(const char*)> where;  // "file:line" of an input as written
    std::function<void(const std::string&)> fail;   // throws GraphError "AT: node 'ID': WHAT"
};

/// How gates treat a node as a guard (run/gates.hpp): the side that decides it alone.
enum class Guard : std::uint8_t { none, min, max, subtract, smooth_union, smooth_subtract, mask };
/// How a gate's bound per sample passes through the node (run/gate_bounds.cpp).
enum class BoundStep : std::uint8_t { none, add, sub, mul, neg, abs, min, max, hypot };
/// A 3D noise of the raw position run on the lattice kernel (run/lattice.cpp).
enum class LatticeKernel : std::uint8_t { none, noise, fbm };
/// A node that is a whole terrain by itself (its node cache a TerrainParams): a graph whose
/// sdf is a `field` node and whose ground is its `ground` with the same numbers runs the
/// terrain's own fused lattice loop, columns and bounds (fused_terrain, nodes/terrain/node.hpp).
enum class WholeTerrain : std::uint8_t { none, field, ground };

/// One node type.
struct NodeType {
    const char* name;
    std::vector<InputSpec> inputs;
    const char* formula;       // one line for `graph types` and the docs
    const char* outputs = "";  // the ports' names, "x,z" for warp2...; "": one output
    // How it evaluates: `pointwise` for a value at a lane from its inputs and the position at
    // that lane alone (run over any split of the lanes, fused in blocks), else `run` over
    // lanes (columns and points alike; a node reading other points reads them itself).
    void (*pointwise)(const Node&, const PointwiseLanes&) = nullptr;
    // Its pointwise loop on the lattice and column paths where that differs from the point
    // path's in the last bits (hypot: sqrt(a a + b b), as the seed's lattice loop; on the
    // point path V8's, as the JavaScript reference). Null: `pointwise` on every path.
    void (*lattice_pointwise)(const Node&, const PointwiseLanes&) = nullptr;
    void (*run)(const Node&, const Lanes&) = nullptr;
    /// Its proven ranges over a box from its inputs' (run/intervals.hpp).
    NodeRanges (*ranges)(const Node&, const RangeContext&) = nullptr;
    /// Checks and preparation once its inputs are read (a raster read, a cache made).
    void (*setup)(Node&, const NodeSetup&) = nullptr;
    /// The points beyond the sample's own at which it reads its field inputs (compile/cost.cpp).
    double (*reads_per_sample)(const Node&) = nullptr;
    unsigned axes = kNone;  // what it depends on beyond its inputs and its absent coordinates
    bool noise = false;     // reads a noise table: never folded to a constant
    bool lod = false;       // takes `lod`: octaves its level cannot show left out (run/lod.hpp)
    LatticeKernel lattice = LatticeKernel::none;
    Guard guard = Guard::none;
    BoundStep bound = BoundStep::none;
    bool finite = true;           // finite wherever its inputs are (a raster's no-data is not)
    bool unsigned_zero = false;   // its values never have the sign bit (a column mask's zero is +0)
    bool bare_is_first = false;   // a reference without a port means the first output
    const char* port_blend = "";  // with grid_m, per port: 'l' bilinear (the default), 'm' the most of the four nodes
    WholeTerrain whole = WholeTerrain::none;
};

/// A file's rows, and where they come in the table's order (lower first).
struct NodeFamily {
    int rank;
    std::vector<NodeType> types;
};

/// Every family (generated: build/generated/node_families.cpp).
std::vector<NodeFamily> node_families();

/// The number of outputs of a type.
int port_count(const NodeType& type);
/// The names of a type's outputs, in port order (one empty name for a single output).
std::vector<std::string> port_names(const NodeType& type);

/// Every node type, in the order the docs list them.
const std::vector<NodeType>& node_types();
/// The type called `name`, or null.
const NodeType* find_node_type(const std::string& name);
/// One line on input `input` of type `type`: its own, or the word's shared meaning
/// (compile/input_docs.cpp); "" for one not described.
std::string input_doc(const NodeType& type, const InputSpec& input);

/// Inputs as rows write them.
namespace rows {
InputSpec value(const char* name, bool required = true, double fallback = 0.0);
InputSpec coordinate(const char* name);
InputSpec number(const char* name, bool required, double fallback, double lo, double hi, bool lo_open = false, bool hi_open = false);
InputSpec point(InputKind kind, const char* name, bool required, double lo = -1e9, double hi = 1e9);
InputSpec scale(const char* name, double fallback = 1.0);
InputSpec field(const char* name, bool required = true, double fallback = 0.0);
InputSpec flavour();
/// fBm settings with the presets' ranges and defaults (FbmShape's).
std::vector<InputSpec> fbm_inputs();
std::vector<InputSpec> join(std::vector<InputSpec> a, const std::vector<InputSpec>& b);
}  // namespace rows

}  // namespace isoterra::graph
