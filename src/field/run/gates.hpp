// Skipping a noise where its value cannot matter (internal to field/). A lattice noise
// (simplex3 of the raw position) whose every path to the sdf passes through one side of a
// min, max or CSG node is needed only where the other side does not decide that node on its
// own. Per lattice, the side's proven range gives a threshold; per sample, the other side's
// value against it gives the gate the lattice kernel skips by. Skipped samples read 0, a
// value the noise can take, so the deciding node's result is the same bits either way.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "field/compile/program.hpp"
#include "isoterra/field.hpp"

namespace isoterra::graph {

/// The node visits the search for gates may make (each guard costs two walks of the graph).
inline constexpr double kGateSearchVisits = 2e7;

/// Finds the gates of `program`'s lattice noises (Program::gates); run by the compiler.
/// Gives up past kGateSearchVisits: the gates found by then, or none when checking them
/// would pass it (a noise without a gate is computed everywhere: slower, the same bits).
void find_gates(Program& program);

/// The nodes that read, directly or not, a noise one of `gates` skips (they run after it).
std::vector<bool> reads_gated(const Program& program, const std::vector<Gate>& gates);

/// The number the other side is compared with over a lattice, from the nodes' ranges
/// there; NaN when the ranges decide nothing (the noise is then computed everywhere).
double gate_threshold(const Program& program, const Gate& gate, const std::vector<NodeRanges>& ranges);

/// Writes one gate value per lane from the other side's values `other`: below 0 where the
/// noise is not needed.
void gate_values(const Program& program, const Gate& gate, double threshold, const double* other, float* out, std::size_t count);

/// A node on the way from a gated noise to its guard's side, and the input the noise's value
/// comes in by (run/gate_bounds.cpp).
struct GateStep {
    int node = -1;
    int on = 0;
    bool lo = true, hi = true;  // the ends of its range per lane that the next step needs
};

/// The way from `gate`'s noise to its guard's side, for bounds per sample: one node after
/// another, each reading the last by one input, each of a type with a bound rule (add, sub,
/// mul, neg, abs, min, max, hypot), its other inputs run before the noise in `order` (the
/// per-sample nodes as the lattice runs them). Empty where there is no such way.
std::vector<GateStep> gate_path(const Program& program, const Gate& gate, const std::vector<int>& order);

namespace eval {
class Workspace;
}

/// gate_values, and also below 0 where the side's bound at the lane (the noise anywhere in
/// `noise_range`, the rest of `path`'s inputs read from `work`) decides the guard.
void bounded_gate_values(const Program& program, const Gate& gate, double threshold, const ValueRange& noise_range,
                         const std::vector<GateStep>& path, eval::Workspace& work, const double* other, float* out, std::size_t count);

}  // namespace isoterra::graph
