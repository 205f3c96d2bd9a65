// A field graph after compilation (internal to field/): nodes in an order where every
// input comes before its user, each with what it depends on, its inputs resolved to nodes
// or constants and its numeric settings checked. Shared by the evaluator and the intervals.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "isoterra/field.hpp"

namespace isoterra::graph {

/// An unbounded end of a node's range.
inline constexpr double kInf = std::numeric_limits<double>::infinity();

struct NodeType;

struct HeightRaster;

/// What a node keeps between runs (the drainage node's network tiles): shared by the copies
/// of a compiled program, thread-safe, and never changing a value (a pure cache).
struct NodeCache {
    virtual ~NodeCache() = default;
};

/// The most outputs a node has (warp3: x, y, z; erosion: 4; drainage: 7).
inline constexpr int kMaxPorts = 7;

/// A proven range per output of a node (run/intervals.hpp).
using NodeRanges = std::array<ValueRange, kMaxPorts>;

/// What a value depends on: bits for x, y and z.
enum Axes : unsigned { kNone = 0, kX = 1, kY = 2, kZ = 4, kXZ = kX | kZ, kXYZ = kX | kY | kZ };

/// An input of a node: another node's output (`node` >= 0, and its `port`), or a number.
struct Operand {
    int node = -1;
    int port = 0;
    double constant = 0.0;
    bool is_constant() const { return node < 0; }
};

struct Node {
    std::string id;                  // as the file names it
    std::string type;                // as the file names it
    int line = 0;                    // where the file defines it (0: unknown)
    const NodeType* kind = nullptr;  // its row of the node table (nodes/table.hpp)
    int ports = 1;                   // outputs: 1, or up to kMaxPorts (warp2: x, z; dfbm2: value, dx, dz; ...)
    unsigned axes = kNone;
    /// Value inputs in the order of the node type's table (an absent optional one is the
    /// position's coordinate for noise nodes, flagged by `coordinate_default`).
    std::vector<Operand> in;
    std::array<bool, 3> coordinate_default{true, true, true};
    /// Numbers: scale, offsets, shapes' points, smooth-min widths, curve knots...
    std::vector<double> number;
    FbmShape shape{1, 1.0, 1.0, 1.0};
    std::vector<glm::dvec2> knots;               // curve
    std::string file;                            // heightmap: as the file wrote it
    std::shared_ptr<const HeightRaster> raster;  // heightmap: read when compiled
    bool folded = false;                         // a constant, read by its users as a number: not run
    unsigned ports_read = ~0u;                   // bit p: some node or output reads port p (others may be left unwritten)
    double grid_m = 0.0;                         // > 0: run at the nodes of a global grid this far apart, interpolated between
    std::shared_ptr<NodeCache> cache;            // made when compiled, for nodes that keep one
    bool fast_noise = false;                     // 2D and 3D noises: the fast flavour (FastSimplex2, FastSimplex3), else the seed's
    bool lod = false;       // noises: octaves under two samples' wavelength left out inside World columns (run/lod.hpp)
    double detail_m = 0.0;  // > 0: what the node adds is this small; under two samples, inside World columns the node is `far`
    double far = 0.0;
    double depth_m = 0.0;  // > 0 (with detail_m): left out only where it lies more than this under the ground output
    /// True when the node is of the type called `type_name`.
    bool is(const char* type_name) const;
};

/// True for a 3D noise of the raw position: run on a lattice kernel (Simplex3::lattice_fast, or
/// the fast flavour's noise and fBm) on the lattice path, and the kind of node a gate can skip.
bool is_lattice_noise(const Node& node);

/// A lattice noise needed only where node `guard`'s other input does not decide it alone:
/// `noise` reaches the sdf only through input `side` of `guard`.
struct Gate {
    int noise = -1;
    int guard = -1;
    int side = 0;  // 0: input a, 1: input b
};

/// A mul of column nodes whose side `side` is read by nothing else and holds a noise: over a
/// lattice's columns that side is worked out only where the other is not 0 (run/column_masks.hpp).
struct ColumnMask {
    int mul = -1;
    int side = 0;
    std::vector<int> nodes;  // what only that side reads (itself included), in order
};

/// The compiled graph: nodes in dependency order, the outputs, what the file said about itself.
struct Program {
    std::vector<Node> nodes;
    Operand sdf;
    Operand ground;  // node < 0 and constant NaN: none
    bool has_ground = false;
    // Column outputs for the look of the surface (functions of x and z, like the ground;
    // node < 0 and constant NaN: none): the water surface's height (sea, lakes, rivers), the
    // snow line's height, and where scree lies (0 none .. 1 full).
    Operand water, snow_line, scree;
    double sea_level = -1e9;  // the file's `sea_level`: the sea renderers draw; very low: none
    std::vector<Gate> gates;  // run/gates.hpp
    std::vector<ColumnMask> column_masks;
    std::string name, description, source;
    std::string directory;  // where heightmap files are found ("": the working directory)
    std::uint32_t seed = 20261114;
    MaterialRules materials;
    /// Node runs one sample of each output costs from a cold start: sdf, ground, water,
    /// snow_line, scree (compile/cost.cpp; 0: a constant or none).
    std::array<double, 5> output_cost{};
};

/// Parses and compiles graph TOML, reading `heightmap` files relative to `directory`;
/// throws GraphError (a RasterError for a raster that cannot be read). (compile/compile.cpp)
Program compile_graph(const std::string& text, const std::string& source, const std::string& directory);

}  // namespace isoterra::graph
