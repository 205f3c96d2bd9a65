// One line on each input of each node type, for `graph types --json` and the node reference
// (docs/reference/nodes.md): by the input's name, or by "type.input" where a type reads it
// its own way. A test checks every input of every type has one.
#include <map>
#include <string>

#include "graph_nodes.hpp"
#include "../terrain_node.hpp"

namespace isoterra::graph {
namespace {

// The inputs that mean the same in every type that takes them.
const std::map<std::string, std::string>& common_docs() {
    static const std::map<std::string, std::string> docs = {
        {"value", "the constant"},
        {"a", "the first operand"},
        {"b", "the second operand"},
        {"in", "the value the node works on"},
        {"lo", "the lower bound"},
        {"hi", "the upper bound"},
        {"t", "the blend: 0 gives a, 1 gives b"},
        {"exponent", "the power the value is raised to"},
        {"points", "the curve's points [[x, y], ...], x increasing"},
        {"height", "the plane's height"},
        {"center", "the centre [x, y, z]; absent: the origin"},
        {"radius", "the sphere's radius"},
        {"half_extent", "half the box's size along x, y and z"},
        {"k", "how far the blend reaches, metres: the rounding's width"},
        {"x", "the x the node is read at (a warped position, say)"},
        {"y", "the y the node is read at (a warped position, say)"},
        {"z", "the z the node is read at (a warped position, say)"},
        {"scale_m", "the feature size: the noise's coordinates are the position over it"},
        {"vertical_scale_m", "the feature size along y; absent: scale_m"},
        {"offset", "added to the scaled coordinates: another part of the same noise"},
        {"noise", "the noise's flavour: \"seed\" (the seed's bits) or \"fast\""},
        {"octaves", "how many octaves are summed"},
        {"lacunarity", "each octave's frequency over the one before"},
        {"gain", "each octave's amplitude over the one before"},
        {"amplitude", "the first octave's amplitude"},
        {"sharpness", "how narrow the ridge is: the value is multiplied by it first"},
        {"crest", "rounds the ridge's top: hypot(in x sharpness, crest)"},
        {"distance_m", "how far the noise moves a point at most"},
        {"file", "the raster: a 16-bit PNG with its JSON sidecar, or a GeoTIFF (any raster GDAL reads)"},
        {"heights", "[lowest, highest] of a PNG's heights"},
        {"cell_m", "the cells' size: one point per square of this side"},
        {"jitter", "how far a cell's point moves from the cell's centre, 0 to 1 of a cell"},
        {"dx", "the height's gradient along x, metres per metre"},
        {"dz", "the height's gradient along z, metres per metre"},
    };
    return docs;
}

// The inputs a type reads its own way (the landform nodes: docs/guides/landforms.md).
const std::map<std::string, std::string>& type_docs() {
    static const std::map<std::string, std::string> docs = {
        {"smoothstep.from", "the value of in where the output is 0"},
        {"smoothstep.to", "the value of in where the output is 1"},
        {"remap.from", "[a, b]: the range of in"},
        {"remap.to", "[c, d]: what a and b become"},
        {"terrace.step", "the height of one terrace"},
        {"terrace.smoothness", "the share of each step that rises to the next (0: sharp steps)"},
        {"spline.points", "the knots [[x, y], ...], x increasing; y a number or a node"},
        {"heightmap.from", "[x, z] of the first pixel's centre"},
        {"heightmap.to", "[x, z] of the last pixel's centre"},
        {"cellular.offset", "[x, z] added to the position in cells: another set of points"},
        {"dfbm2.damping", "how much steep sums damp the later octaves (0: plain fBm of rotated octaves)"},
        {"erosion.in", "the height to erode, metres"},
        {"erosion.scale_m", "the first octave's gully spacing"},
        {"erosion.strength_m", "the first octave's depth: it moves the height by up to this much either way"},
        {"erosion.onset", "the slope from which the gullies are at full strength; flatter ground fades them"},
        {"erosion.heights", "[valley, peak]: what flat ground fades to"},
        {"curvature.in", "the height whose curvature is taken (x and z only)"},
        {"curvature.step_m", "how far the four neighbouring points are along x and z"},
        {"cellular.cell_m", "the cells' size: one jittered point per square of this side"},
        {"drainage.x", "the x the network is read at (a warped position meanders the rivers)"},
        {"drainage.z", "the z the network is read at"},
        {"drainage.control", "the rivers' level: water runs down it at level 0; below sea_level it is sea"},
        {"drainage.relief", "how far the ground may rise above the control between the valleys"},
        {"drainage.cell_m", "level 0's cell; level k's is cell_m / 2^k"},
        {"drainage.levels", "how many levels of channels"},
        {"drainage.slope", "a valley side's slope at level 0"},
        {"drainage.slope_gain", "the valley sides' slope factor per finer level"},
        {"drainage.floor_m", "a level-0 valley floor's half width (halved per level)"},
        {"drainage.bed_width_m", "a river bed's half width at level 0 (halved per level)"},
        {"drainage.bed_depth_m", "a river bed's depth at level 0 (halved per level)"},
        {"drainage.water_levels", "the levels whose channels carry water (and beds)"},
        {"drainage.concavity", "the exponent of a tributary's profile"},
        {"drainage.junction", "how far downstream a tributary meets, as a share of its distance to the channel"},
        {"drainage.sea_level", "below it the control is sea: an outlet, no channel starts there"},
        {"drainage.smooth_m", "with it, the dx and dz outputs turn smoothly over creases of this width"},
        {"drainage.floodplain",
         "a valley floor's rise from its river per metre: the floor falls towards the river, the water below its banks"},
        {"drainage.water_reach_m", "with it, the water is continuous: each river's level, sinking away over this reach beyond its bank"},
        {"drainage.far_bed_samples",
         "with it, inside a World column's far levels no river bed is narrower than this many samples (level 0 unchanged): "
         "no dashed rivers from afar"},
        {"drainage.meander", "how steeply every channel bends across its line (the tangent of its sharpest turn); 0: straight"},
        {"drainage.meander_cells", "the bends' wavelength, in cells of each channel's level"},
        {"drainage.spring", "the share of a head channel over which its bed widens and deepens from nothing at the source"},
        {"drainage.carve_m", "with it, a river's water lies below the coarser ground out to this far beside its line: it cuts its valley"},
        {"drainage.blend_m", "with it, the valleys meet in a soft minimum of this width: no crease where two valleys meet"},
        {"drainage.meander_vary",
         "how much the bends' wavelength and amplitude vary along and between channels (heads start straight, "
         "dry gullies bend gently, tributaries meet the bent line at the network's angle); 0: a plain sine"},
    };
    return docs;
}

}  // namespace

std::string input_doc(const std::string& type, const std::string& input) {
    if (type == "terrain" || type == "terrain_ground") return terrain_input_doc(input);
    if (const auto own = type_docs().find(type + "." + input); own != type_docs().end()) return own->second;
    const auto common = common_docs().find(input);
    return common == common_docs().end() ? "" : common->second;
}

}  // namespace isoterra::graph
