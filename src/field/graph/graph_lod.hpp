// Detail a level cannot show, left out inside World columns (internal to field/graph/). A noise
// node with `lod` drops its octaves whose wavelength is under two samples of a lattice in a
// World column (Lattice::lod_column_samples), by a weight per (x, z) column: 0 (every octave)
// within two samples of the column's x and z faces, where neighbouring levels meet and
// transitions and seams read the values; 1 (the level's octaves only) from four samples in;
// a linear blend between, so the surface stays continuous. The weight is a function of the
// global position and level alone: neighbouring chunks of a level agree at every sample,
// padding included, and the faces' samples are those of the whole function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "graph_eval.hpp"
#include "graph_program.hpp"

namespace isoterra::graph {

/// Per (x, z) column of `lattice` (x fastest): 0 every octave .. 1 only those its spacing
/// shows; empty when the lattice is not in a World column.
std::vector<double> lod_weights(const Lattice& lattice);

/// The octaves of `shape` (a noise node's: simplex nodes have one) whose wavelength, the
/// node's scale over the lacunarity to the octave's power, is at least two samples
/// `spacing_m` apart: all of them for octaves of a lacunarity of 1 or under.
int kept_octaves(const Node& node, const FbmShape& shape, double spacing_m);

/// Runs a noise of `shape` at `count` lanes (the lanes' indices in `lanes`, or null: lanes
/// 0 .. count-1), writing `count` values to `out`.
using OctaveRun = std::function<void(const FbmShape& shape, const std::size_t* lanes, std::size_t count, double* out)>;

/// Writes the noise of `shape` at every lane of `l` to `out` through `run`: every octave,
/// or inside a World column those the lanes' level shows, blended by l.lod_weight. Lanes of
/// weight 0 get the bits of every octave run as if there were no level.
void run_lod_octaves(const Node& node, const FbmShape& shape, const Lanes& l, const OctaveRun& run, double* out);

/// True when what node `node` adds is under two samples `spacing_m` apart (its `detail_m`):
/// inside a World column it is then its `far` value.
bool detail_dropped(const Node& node, double spacing_m);

/// True when lattice noise `node` (one octave: simplex3) is left out inside the World column
/// `lattice` lies in: its one octave (`lod`) or its detail (`detail_m`).
bool dropped_at_level(const Node& node, const Lattice& lattice);
/// What such a noise is where left out: its `far` for `detail_m`, else 0.
double far_at_level(const Node& node, const Lattice& lattice);

/// The `count` values of a node left out at lanes of lod weights `weight`, blended toward
/// `far` (the bits as they are at weight 0, `far` at weight 1).
void blend_to_far(float* values, const double* weight, std::size_t count, double far);
void blend_to_far(double* values, const double* weight, std::size_t count, double far);

/// Per node: true when the sdf needs it only through nodes left out inside the World column
/// `lattice` lies in, so its lanes of weight 1 are never read (empty: not in a World column).
std::vector<bool> read_only_where_shown(const Program& program, const Lattice& lattice);

/// Closes a gate (NoiseLattice::gate, below 0: skipped) where the lod weight is 1.
void close_lod_gate(float* gate, const double* weight, std::size_t count);

}  // namespace isoterra::graph
