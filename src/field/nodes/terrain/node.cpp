// The terrain nodes: the seed's terrain function over a node's lanes, its proven ranges, and
// a classic preset as a graph of them.
#include "node.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"
#include "function.hpp"

namespace isoterra::graph {
namespace {

struct TerrainCache final : NodeCache {
    TerrainParams params;
};

const TerrainParams& params_of(const Node& node) { return static_cast<const TerrainCache&>(*node.cache).params; }

}  // namespace

std::vector<InputSpec> terrain_node_inputs() {
    std::vector<InputSpec> out;
    for (const TerrainKnob& k : terrain_knobs())
        out.push_back({k.name, InputKind::number, false, k.fallback, k.kind == TerrainKnob::boolean ? 0.0 : k.lo,
                       k.kind == TerrainKnob::boolean ? 1.0 : k.hi, k.lo_open, k.hi_open});
    return out;
}

std::shared_ptr<NodeCache> make_terrain_cache(const Node& node, const std::string& at) {
    auto cache = std::make_shared<TerrainCache>();
    const std::vector<TerrainKnob>& knobs = terrain_knobs();
    for (std::size_t i = 0; i < knobs.size(); ++i) {
        const double v = node.number[i];
        const auto bad = [&](const char* expected) {
            throw GraphError(fmt::format("{}: node '{}': input '{}': expected {}, got {}", at, node.id, knobs[i].name, expected, v));
        };
        if (knobs[i].kind == TerrainKnob::boolean && v != 0.0 && v != 1.0) bad("0 (false) or 1 (true)");
        if (knobs[i].kind == TerrainKnob::integer && v != std::floor(v)) bad("an integer");
        set_terrain_knob(cache->params, i, v);
    }
    if (!(cache->params.mountain_to > cache->params.mountain_from))
        throw GraphError(fmt::format("{}: node '{}': input 'mountain_to': expected a number > mountain_from ({}), got {}", at, node.id,
                                     cache->params.mountain_from, cache->params.mountain_to));
    return cache;
}

void run_terrain(const Node& node, const NoiseSet& noise, const Lanes& l) {
    thread_local std::vector<glm::dvec3> points;
    points.resize(l.count);
    for (std::size_t i = 0; i < l.count; ++i) points[i] = {l.x[i], l.y[i], l.z[i]};
    TerrainFunction(params_of(node), noise).sample_points(points.data(), l.count, l.out[0]);
}

void run_terrain_ground(const Node& node, const NoiseSet& noise, const Lanes& l) {
    TerrainFunction(params_of(node), noise).heights(l.x, l.z, l.count, l.out[0]);
}

ValueRange terrain_range(const Node& node, const NoiseSet& noise, const Box& box) {
    return TerrainFunction(params_of(node), noise).bounds(box);
}

ValueRange terrain_ground_range(const Node& node, const NoiseSet& noise, const Box& box) {
    return TerrainFunction(params_of(node), noise).ground_range(box.lo.x, box.lo.z, box.hi.x, box.hi.z, false);
}

const TerrainParams* fused_terrain(const Program& program) {
    if (program.sdf.is_constant() || !program.has_ground || program.ground.is_constant()) return nullptr;
    const Node& sdf = program.nodes[static_cast<std::size_t>(program.sdf.node)];
    const Node& ground = program.nodes[static_cast<std::size_t>(program.ground.node)];
    if (sdf.kind->whole != WholeTerrain::field || ground.kind->whole != WholeTerrain::ground || sdf.number != ground.number) return nullptr;
    // What the fused loop does not do: a grid, detail left out far away, column looks.
    if (sdf.grid_m > 0.0 || ground.grid_m > 0.0 || sdf.detail_m > 0.0 || ground.detail_m > 0.0) return nullptr;
    for (const Operand* look : {&program.water, &program.snow_line, &program.scree})
        if (!look->is_constant() || !std::isnan(look->constant)) return nullptr;
    return &params_of(sdf);
}

}  // namespace isoterra::graph

namespace isoterra {

std::string classic_graph_text(const KnobTerrain& preset) {
    std::string knobs;
    const std::vector<TerrainKnob>& list = terrain_knobs();
    for (std::size_t i = 0; i < list.size(); ++i) {
        std::string v = fmt::format("{}", terrain_knob(preset.terrain, i));  // the shortest text of the same double
        if (v.find_first_of(".eEn") == std::string::npos) v += ".0";         // a TOML float (-0.0 stays -0.0)
        knobs += fmt::format(", {} = {}", list[i].name, v);
    }
    return fmt::format(
        "format = 1\n\n[node]\nterrain = {{ type = \"terrain\"{} }}\nground = {{ type = \"terrain_ground\"{} }}\n\n"
        "[output]\nsdf = \"terrain\"\nground = \"ground\"\n",
        knobs, knobs);
}

std::shared_ptr<const graph::Program> classic_program(const KnobTerrain& preset) {
    auto program =
        std::make_shared<graph::Program>(graph::compile_graph(classic_graph_text(preset), "preset " + text_excerpt(preset.name, 100), ""));
    program->name = preset.name;
    program->description = preset.description;
    program->seed = preset.seed;
    program->materials = preset.terrain.materials;
    program->materials.surface_reach_m = std::max(preset.terrain.overhang_plains_m, preset.terrain.overhang_mountains_m);
    program->sea_level = preset.terrain.sea_level_m;
    return program;
}

std::unique_ptr<Field> make_terrain(const KnobTerrain& preset, std::uint32_t seed) {
    return std::make_unique<GraphField>(classic_program(preset), seed);
}

}  // namespace isoterra

namespace isoterra::graph {

std::string terrain_input_doc(const std::string& input) {
    static const std::map<std::string, std::string> docs = {
        {"iso_level", "the surface sits where the terrain's own value equals this"},
        {"base_height_m", "the ground's height before hills and mountains"},
        {"hill_scale_m", "how wide the largest hills are"},
        {"hill_height_m", "how far the hills rise and fall"},
        {"hill_octaves", "the hills' fBm octaves"},
        {"hill_lacunarity", "the hills' frequency factor per octave"},
        {"hill_gain", "the hills' amplitude factor per octave"},
        {"reshape", "1: hills as ((n + 1) / 2 * fudge) ^ exponent * multiplier (seed 002), 0: n * hill_height_m"},
        {"reshape_exponent", "the reshaped hills' exponent"},
        {"reshape_fudge", "the reshaped hills' factor before the power"},
        {"reshape_multiplier_m", "the reshaped hills' height factor"},
        {"mountain_scale_m", "how wide the mountainous regions are"},
        {"mountain_from", "the mountain noise's lowland end (smoothstep from here)"},
        {"mountain_to", "the mountain noise's mountain end (smoothstep to here); above mountain_from"},
        {"ridge_scale_m", "how wide the ridges are"},
        {"ridge_octaves", "the ridges' fBm octaves"},
        {"ridge_lacunarity", "the ridges' frequency factor per octave"},
        {"ridge_gain", "the ridges' amplitude factor per octave"},
        {"ridge_sharpness", "how sharp the ridges' crests are"},
        {"ridge_crest", "how round the crests are instead of a sharp crease"},
        {"ridge_exponent", "the ridges' exponent: high gives steep ridges and wide valleys"},
        {"ridge_height_m", "how high the ridges rise where the mountains are whole"},
        {"warp_scale_m", "the domain warp's feature size"},
        {"warp_distance_m", "how far the domain warp moves x and z; 0: none"},
        {"overhang_scale_m", "the overhangs' horizontal feature size"},
        {"overhang_vertical_scale_m", "the overhangs' vertical feature size"},
        {"overhang_plains_m", "how far the overhangs push the ground in the lowlands"},
        {"overhang_mountains_m", "how far the overhangs push the ground in the mountains"},
        {"caves", "1: tunnel caves where two noises are both near 0; 0: none"},
        {"cave_scale_m", "the tunnels' horizontal feature size"},
        {"cave_vertical_scale_m", "the tunnels' vertical feature size"},
        {"cave_width", "a tunnel's half width in noise units"},
        {"cave_metres_per_unit", "metres per noise unit of the tunnels' distance"},
        {"cave_entrance_depth_m", "tunnels narrow within this depth of the ground"},
        {"cave_entrance_narrowing", "how much the tunnels narrow there"},
        {"cave_blend_m", "the tunnels' smooth-minimum width; 0: a hard minimum (sharp edges)"},
    };
    const auto found = docs.find(input);
    return found == docs.end() ? "" : found->second;
}

}  // namespace isoterra::graph
