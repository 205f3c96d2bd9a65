// The terrain nodes of field graphs (internal to field/): the seed's terrain function
// (nodes/terrain/function.hpp) as one node, `terrain` (the field over x, y and z), with its ground
// height as `terrain_ground` (over x and z, the same knobs). A classic preset is a graph of
// the two (classic_graph_text); a graph whose sdf and ground are exactly such a pair runs the
// function's fused lattice loop and proven bounds whole (fused_terrain).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "field/run/eval.hpp"
#include "field/nodes/table.hpp"
#include "field/compile/program.hpp"

namespace isoterra::graph {

/// The inputs of both terrain node types: the knobs of a classic preset, their ranges and
/// defaults (booleans as 0 or 1).
std::vector<InputSpec> terrain_node_inputs();
/// One line on input `input` of the terrain node types ("" for none of theirs).
std::string terrain_input_doc(const std::string& input);
/// The knobs of a compiled terrain node as parameters; throws GraphError "at: node 'id':
/// input 'k': ..." for an integer or boolean knob given another number, or mountain_to not
/// above mountain_from.
std::shared_ptr<NodeCache> make_terrain_cache(const Node& node, const std::string& at);

/// terrain: the field at the lanes' positions; terrain_ground: the ground height at x and z.
void run_terrain(const Node& node, const NoiseSet& noise, const Lanes& l);
void run_terrain_ground(const Node& node, const NoiseSet& noise, const Lanes& l);
/// Their proven ranges over `box`.
ValueRange terrain_range(const Node& node, const NoiseSet& noise, const Box& box);
ValueRange terrain_ground_range(const Node& node, const NoiseSet& noise, const Box& box);

/// The parameters of `program`'s terrain node when the program is a terrain node (its sdf)
/// and that node's ground (its ground output) and nothing else a caller reads; else null.
const TerrainParams* fused_terrain(const Program& program);

}  // namespace isoterra::graph

namespace isoterra {
/// The graph text of a classic preset's terrain: its terrain node and its ground as the sdf
/// and ground outputs.
std::string classic_graph_text(const KnobTerrain& preset);
/// A classic preset compiled: classic_graph_text's graph with the preset's name, description,
/// seed, materials (their surface reach the most the overhangs bend) and sea level.
std::shared_ptr<const graph::Program> classic_program(const KnobTerrain& preset);
}  // namespace isoterra
