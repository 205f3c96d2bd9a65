// The lattice path's parts (internal to field/): which nodes a lattice runs per column
// and per sample, and its column part (run/columns.cpp), worked out once per (x, z) column.
#pragma once

#include <cstddef>
#include <vector>

#include "eval.hpp"
#include "field/compile/program.hpp"

namespace isoterra::graph {

/// The sdf's nodes a lattice runs once per column (`column` true) or per sample, in order.
std::vector<int> sdf_nodes(const Program& program, bool column);
/// The column outputs a graph has (ground, water, snow line, scree).
std::vector<Operand> column_outputs(const Program& program);
/// The nodes whose values the per-sample nodes `samples` read at every sample: their inputs,
/// the gates' deciding sides, and the sdf itself.
std::vector<bool> read_per_sample(const Program& program, const std::vector<int>& samples);
/// The column outputs `sinks` wants, each from the column part (or the output's number).
void put_column_outputs(const Program& program, const ColumnValues& column_work, std::size_t ncol, const ColumnSinks& sinks);

}  // namespace isoterra::graph
