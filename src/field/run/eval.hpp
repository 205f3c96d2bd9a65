// Running a compiled graph (internal to field/): every node over arrays of lanes, the
// column part once per (x, z) column of a lattice, 3D noises of the raw position on the
// lattice kernel, as the built-in terrain samples them.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "field/compile/program.hpp"
#include "isoterra/noise.hpp"

namespace isoterra::graph {

/// Inside a World column (Lattice::lod_column_samples): per lane how far what the level cannot
/// show is left out (run/lod.hpp), and the samples' spacing. Null weights: every detail.
/// A node left out only deep under the ground (`depth_m`) has weights of its own per lane
/// (`node_weight`, indexed by node; null there or null whole: `weight`).
struct LodLanes {
    const double* weight = nullptr;
    double spacing_m = 0.0;
    const double* const* node_weight = nullptr;
    const double* weight_of(int node) const {
        const double* own = node_weight ? node_weight[node] : nullptr;
        return own ? own : weight;
    }
};

/// Where a node's lanes are, for the function that runs it: its inputs, the positions, its
/// outputs, and the program and noise it belongs to (for inputs read at other points).
struct Lanes {
    const double* const* in = nullptr;  // one per input of the node, in the table's order
    const double* x = nullptr;
    const double* y = nullptr;  // null for the column part of a lattice
    const double* z = nullptr;
    double* out[kMaxPorts] = {};
    std::size_t count = 0;
    unsigned ports_read = ~0u;  // the outputs something reads (bit per port): the rest may be left as they are
    const Program* program = nullptr;
    const NoiseSet* noise = nullptr;
    LodLanes lod;
};

/// A pointwise node's lanes (NodeType::pointwise): its inputs (null past its count), the
/// position, its one output.
struct PointwiseLanes {
    const double *a = nullptr, *b = nullptr, *c = nullptr;
    const double *x = nullptr, *y = nullptr, *z = nullptr;
    double* out = nullptr;
    std::size_t count = 0;
};

/// A noise node's coordinate lanes: its input `axis_slot`, or `position` when the file gave none.
const double* coordinate(const Node& node, const Lanes& l, int axis_slot, const double* position);

/// True for nodes that read a noise table.
bool is_noise(const Node& node);
/// Returns the value of a node whose inputs are all numbers and that reads no position or noise.
double evaluate_constant(const Node& node);

/// The nodes `output` needs, as a mask over the program's nodes; with `cut` >= 0, without
/// following input `slot` of node `cut` (what would still be needed if that input were not).
std::vector<bool> needed_mask(const Program& program, const Operand& output, int cut = -1, int slot = 0);
/// The same for several outputs at once.
std::vector<bool> needed_mask(const Program& program, const std::vector<Operand>& outputs, int cut = -1, int slot = 0);
/// The same for `output`, following no input of the nodes `opaque` marks.
std::vector<bool> needed_mask(const Program& program, const Operand& output, const std::vector<bool>& opaque);

/// Writes `output` at `count` points (double precision, the point path).
void run_points(const Program& program, const NoiseSet& noise, const glm::dvec3* points, std::size_t count, const Operand& output,
                double* out);
/// Writes `output`, which depends on x and z only, at `count` columns, inside a World column
/// with `lod`'s weights (one per column).
void run_columns(const Program& program, const NoiseSet& noise, const double* xs, const double* zs, std::size_t count,
                 const Operand& output, double* out, const LodLanes& lod = {});
/// What gating saved on a lattice: samples of gated noises, and those skipped.
struct LatticeStats {
    std::size_t gated_samples = 0, skipped_samples = 0;
    std::size_t masked_column_runs = 0, masked_columns_skipped = 0;  // run/column_masks.hpp
};

/// Where run_lattice writes the column outputs, one float per (x, z) column of the lattice
/// (x fastest); null: not wanted (or the graph has no such output).
struct ColumnSinks {
    float* ground = nullptr;
    ColumnLooks* looks = nullptr;  // water, snow line, scree: resized for those the graph has, cleared for the rest
};

/// The column part of a lattice's program: per (x, z) column (x fastest), the values of the
/// column nodes the rest reads (the samples' column inputs, the gates' deciding sides) and
/// of the column outputs. What a World column's survey works out once for all its chunks.
struct ColumnValues : FieldColumns {
    glm::i64vec2 origin{0};  // x and z of the first column, in samples
    glm::ivec2 size{0};
    double spacing_m = 1.0;
    int lod_column_samples = 0;  // the lattice's: its `lod` noises simplified inside World columns
    int lod_exact_samples = 2;
    std::size_t count = 0;
    std::vector<int> slot;  // per node and port (node * kMaxPorts + port): the buffer, or -1
    std::vector<std::vector<double>> buffers;
    /// Returns the values of a node's port, or null when they were not kept.
    const double* get(int node, int port) const;
    /// Returns true when `lattice` has exactly these columns.
    bool fits(const Lattice& lattice) const;
};

/// Returns the column part of `lattice` (every y of it shares it).
ColumnValues column_values(const Program& program, const NoiseSet& noise, const Lattice& lattice, LatticeStats* stats = nullptr);

/// Writes the sdf over `lattice` (floats, x fastest) and the column outputs `sinks` asks
/// for, with the column part from `given` when it fits the lattice. The lattice path: 3D noises of the raw position in single precision
/// (Simplex3::lattice_fast), the rows' lattice_pointwise loops, gated noises skipped where they
/// cannot matter (run/gates.hpp); `stats` counts them.
void run_lattice(const Program& program, const NoiseSet& noise, const Lattice& lattice, float* values, const ColumnSinks& sinks,
                 LatticeStats* stats = nullptr, const ColumnValues* given = nullptr);

}  // namespace isoterra::graph
