// Detail a level cannot show, left out inside World columns (internal to field/). A noise
// node with `lod` drops its octaves whose wavelength is under two samples of a lattice in a
// World column (Lattice::lod_column_samples), a node with `detail_m` gives way to its `far`
// value there, by a weight per (x, z) column: 0 (every detail) up to e samples from the
// column's x and z faces (e = Lattice::lod_exact_samples, the mesher's seam reach: what
// transitions and seams between levels read); 1 (the level's detail alone) from e + 2 in;
// half at e + 1, so the surface stays continuous. The weight is a function of the global
// position and level alone: neighbouring chunks of a level agree at every sample, padding
// included, and the faces' samples are those of the whole function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "eval.hpp"
#include "field/compile/program.hpp"

namespace isoterra::graph {

/// Per (x, z) column of `lattice` (x fastest): 0 every detail .. 1 only what its spacing
/// shows; empty when the lattice is not in a World column or `program` leaves nothing out.
std::vector<double> lod_weights(const Program& program, const Lattice& lattice);

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

/// The `count` values of a node left out at lanes of lod weights `weight`, blended toward
/// `far` (the bits as they are at weight 0, `far` at weight 1).
void blend_to_far(double* values, const double* weight, std::size_t count, double far);

/// A lattice noise (is_lattice_noise) inside a World column: its whole shape (`every`), and
/// what its level keeps of it: `simplified` false, all of it, but not read where the weight
/// is 1 (so not worked out there); else the first `shown.octaves` octaves, or none (`far`
/// instead).
struct LodNoise {
    FbmShape every, shown;
    bool simplified = false;
    double far = 0.0;
};
/// Runs `run(gated, shape, out)` (a lattice noise of `shape` over `lattice` with its gate
/// narrowed) to work out `noise`'s every detail only in the (x, z) columns of weight under 1
/// and its level's part only over 0, and blends them into `out` (laid out as `lattice`, a
/// whole one or one y-slab).
using SubLatticeRun = std::function<void(const NoiseLattice& gated, const FbmShape& shape, float* out)>;
void run_lod_noise(const NoiseLattice& lattice, const double* weight, const LodNoise& noise, const SubLatticeRun& run, float* out);
/// The lattice noise `node` at `lattice`'s level as run_lod_noise takes it; false when it
/// keeps every detail there and is read everywhere (`read_inside`).
bool lod_noise_of(const Node& node, const Lattice& lattice, bool read_inside, LodNoise& out);

/// Per node: true when the sdf needs it only through nodes left out inside the World column
/// `lattice` lies in, so its lanes of weight 1 are never read (empty: not in a World column).
std::vector<bool> read_only_where_shown(const Program& program, const Lattice& lattice);

/// Widens per-lane bounds [lo, hi] of a node left out to hold its `far` where it is blended
/// toward it (weight over 0): the blend lies between the two; where the weight is 1 the node
/// is `far` alone.
void widen_to_far(const double* weight, double far, double* lo, double* hi, std::size_t count);

/// The weights of the nodes left out only deep under the ground (`depth_m`) inside the World
/// column a lattice lies in, one y-slab at a time: the column's weight (lod_weights) times a
/// ramp from 0 at `depth_m` under the ground output to 1 two samples deeper. The depth is
/// global, so the chunks of a level agree at every sample, and the faces keep every detail.
class DepthWeights {
public:
    /// `column` the lattice's lod weights (empty: none), `ground` the ground output per column
    /// (null: the program's ground is a number).
    DepthWeights(const Program& program, const Lattice& lattice, const std::vector<double>& column, const double* ground);
    bool empty() const { return depths_.empty(); }
    /// Per node of the program, its weights in the slab at height `y_m` (null: the column's).
    const double* const* at_height(double y_m);

private:
    const double* column_ = nullptr;
    const double* ground_ = nullptr;
    std::vector<double> ground_number_;  // the ground, when a number, per column
    double spacing_m_ = 0.0;
    std::size_t lanes_ = 0;
    std::vector<double> depths_;                // the distinct depth_m values
    std::vector<std::vector<double>> weights_;  // per depth: the slab's weights
    std::vector<const double*> per_node_;
};

}  // namespace isoterra::graph
