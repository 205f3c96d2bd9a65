// The landform nodes of field graphs (internal to field/): damped fBm with its
// gradient, the gully erosion filter, monotone splines, folds, slope and curvature masks,
// cellular distance and the drainage network. Each runs over a node's lanes (run/eval.hpp)
// and has a proven range rule (run/intervals.hpp); one file each in landform/.
#pragma once

#include <memory>
#include <vector>

#include "field/run/eval.hpp"
#include "field/run/intervals.hpp"
#include "field/compile/program.hpp"
#include "isoterra/graph.hpp"

namespace isoterra::graph {

/// fold(v) = 1 - |3 |v| - 2|: peaks and valleys from a ridge noise (Minecraft's PV).
double fold_at(double v);
ValueRange fold_range(const ValueRange& in);

/// dfbm2 (nodes/landform/dfbm2.cpp): derivative-damped fBm of 2D noise; ports value, dx, dz.
void run_dfbm2(const Node& node, const NoiseSet& noise, const Lanes& l);
NodeRanges dfbm2_ranges(const Node& node, const RangeContext& c);

/// erosion (nodes/landform/erosion.cpp): gullies running downhill over a height and its gradient;
/// ports height, dx, dz, ridge.
void run_erosion(const Node& node, const NoiseSet& noise, const Lanes& l);
NodeRanges erosion_ranges(const Node& node, const RangeContext& c);

/// spline (nodes/landform/spline.cpp): a monotone cubic through knots whose values may be nodes.
void run_spline(const Node& node, const Lanes& l);
ValueRange spline_range(const Node& node, const RangeContext& c);

/// slope (nodes/landform/slope_curvature.cpp): the slope angle in degrees of a gradient (dx, dz).
void run_slope(const Node& node, const Lanes& l);
ValueRange slope_range(const Node& node, const RangeContext& c);
/// curvature (nodes/landform/slope_curvature.cpp): how far a column input rises above the mean of
/// its four neighbours `step_m` away, per metre of step (ridges > 0, hollows < 0).
void run_curvature(const Node& node, const Lanes& l);
ValueRange curvature_range(const Node& node, const RangeContext& c);

/// cellular (nodes/landform/cellular.cpp): the distance in metres to the nearest of one jittered
/// point per cell of a square grid (Worley's F1); ports distance, x, z (the point).
void run_cellular(const Node& node, const NoiseSet& noise, const Lanes& l);
NodeRanges cellular_ranges(const Node& node, const RangeContext& c);

/// drainage (nodes/landform/drainage.cpp): a river network computed locally; ports height
/// (carved), distance, water, order.
void run_drainage(const Node& node, const Lanes& l);
/// The same with its far levels' beds widened (nodes/landform/drainage_far.cpp): inside a World
/// column, river beds at least `far_bed_samples` samples wide where the level alone shows.
void run_drainage_far(const Node& node, const Lanes& l);
/// True for a drainage node whose far levels widen its beds (so it needs lod weights).
bool widens_far_beds(const Node& node);
/// The channels of drainage node `node` (of `program`) whose sources lie in the rectangle.
std::vector<GraphChannel> drainage_channels(const Program& program, const NoiseSet& noise, const Node& node, const glm::dvec2& lo,
                                            const glm::dvec2& hi);
/// The drainage node's cache of network tiles (made once per compiled node).
std::shared_ptr<NodeCache> make_drainage_cache();
NodeRanges drainage_ranges(const Node& node, const RangeContext& c);
/// The most points at which one sample of drainage node `node` reads its control and relief
/// from a cold cache (every tile it needs built): what compile/cost.cpp counts.
double drainage_reads_per_sample(const Node& node);

}  // namespace isoterra::graph
