// The terrain nodes' rows: the seed's terrain function as one node, `terrain` (the field
// over x, y and z), and its ground height, `terrain_ground` (x and z, the same knobs). Their
// loops, ranges and knobs are node.cpp (the terrain's own code).
#include <deque>
#include <string>
#include <vector>

#include "node.hpp"
#include "field/run/eval.hpp"
#include "field/run/intervals.hpp"
#include "field/nodes/table.hpp"

namespace isoterra::graph {
namespace {

// The knobs with their one-line docs (kept for the table's life: a row holds pointers).
std::vector<InputSpec> documented_knobs() {
    static std::deque<std::string> docs;
    std::vector<InputSpec> inputs = terrain_node_inputs();
    for (InputSpec& s : inputs) {
        docs.push_back(terrain_input_doc(s.name));
        s.doc = docs.back().c_str();
    }
    return inputs;
}

void knobs(Node& node, const NodeSetup& s) { node.cache = make_terrain_cache(node, s.at); }

}  // namespace

NodeFamily nodes_terrain() {
    // clang-format off
    return {60, {
        {.name = "terrain", .inputs = documented_knobs(),
         .formula = "the seed's terrain (a classic preset's knobs; booleans 0 or 1): fBm hills, ridged mountains, overhangs, tunnel caves",
         .run = [](const Node& n, const Lanes& l) { run_terrain(n, *l.noise, l); },
         .ranges = [](const Node& n, const RC& c) { return one(terrain_range(n, c.noise, c.box)); },
         .setup = knobs, .axes = kXYZ, .noise = true, .whole = WholeTerrain::field},
        {.name = "terrain_ground", .inputs = documented_knobs(),
         .formula = "the terrain node's ground height at x and z, before overhangs and caves (the same knobs)",
         .run = [](const Node& n, const Lanes& l) { run_terrain_ground(n, *l.noise, l); },
         .ranges = [](const Node& n, const RC& c) { return one(terrain_ground_range(n, c.noise, c.box)); },
         .setup = knobs, .axes = kXZ, .noise = true, .whole = WholeTerrain::ground},
    }};
    // clang-format on
}

}  // namespace isoterra::graph
