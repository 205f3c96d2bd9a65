// Running a compiled graph (internal to field/graph/): every node over arrays of lanes, the
// column part once per (x, z) column of a lattice, 3D noises of the raw position on the
// lattice kernel, as the built-in terrain samples them.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/vec3.hpp>

#include "graph_program.hpp"
#include "isoterra/noise.hpp"

namespace isoterra::graph {

/// True for nodes that read a noise table.
bool is_noise(Op op);
/// Returns the value of a node whose inputs are all numbers and that reads no position or noise.
double evaluate_constant(const Node& node);

/// The nodes `output` needs, as a mask over the program's nodes; with `cut` >= 0, without
/// following input `slot` of node `cut` (what would still be needed if that input were not).
std::vector<bool> needed_mask(const Program& program, const Operand& output, int cut = -1, int slot = 0);

/// Writes `output` at `count` points (double precision, the point path).
void run_points(const Program& program, const NoiseSet& noise, const glm::dvec3* points, std::size_t count,
                const Operand& output, double* out);
/// Writes `output`, which depends on x and z only, at `count` columns.
void run_columns(const Program& program, const NoiseSet& noise, const double* xs, const double* zs, std::size_t count,
                 const Operand& output, double* out);
/// What gating saved on a lattice: samples of gated noises, and those skipped.
struct LatticeStats {
    std::size_t gated_samples = 0, skipped_samples = 0;
};

/// Writes the sdf over `lattice` (floats, x fastest) and, when `ground` is not null and the
/// graph has a ground output, the ground per column. The lattice path: 3D noises of the raw
/// position in single precision (Simplex3::lattice_fast), hypot as sqrt(a a + b b), gated
/// noises skipped where they cannot matter (graph_gates.hpp); `stats` counts them.
void run_lattice(const Program& program, const NoiseSet& noise, const Lattice& lattice, float* values, float* ground,
                 LatticeStats* stats = nullptr);

}  // namespace isoterra::graph
