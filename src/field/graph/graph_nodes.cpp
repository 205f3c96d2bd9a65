// The table of node types. Ranges keep every value finite for finite inputs: scales as the
// presets allow them, octave settings as the presets', blend widths and steps positive.
#include "graph_nodes.hpp"

#include "../terrain_node.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace isoterra::graph {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

InputSpec value(const char* name, bool required = true, double fallback = 0.0) {
    return {name, InputKind::value, required, fallback, -kInf, kInf, false, false};
}
InputSpec coordinate(const char* name) { return {name, InputKind::coordinate, false, 0.0, -kInf, kInf, false, false}; }
InputSpec number(const char* name, bool required, double fallback, double lo, double hi, bool lo_open = false, bool hi_open = false) {
    return {name, InputKind::number, required, fallback, lo, hi, lo_open, hi_open};
}
InputSpec point(InputKind kind, const char* name, bool required, double lo = -1e9, double hi = 1e9) {
    return {name, kind, required, 0.0, lo, hi, false, false};
}
InputSpec scale(const char* name, double fallback = 1.0) { return number(name, false, fallback, 0.1, 1e7); }
InputSpec field(const char* name, bool required = true, double fallback = 0.0) {
    return {name, InputKind::field, required, fallback, -kInf, kInf, false, false};
}
// fBm settings with the presets' ranges and defaults (FbmShape's).
std::vector<InputSpec> fbm_inputs() {
    return {{"octaves", InputKind::octaves, false, 5, 1, 12, false, false},
            {"lacunarity", InputKind::lacunarity, false, 2.0, 1, 4, true, false},
            {"gain", InputKind::gain, false, 0.5, 0, 1, true, true},
            {"amplitude", InputKind::amplitude, false, 0.5, 0, 1e4, true, false}};
}
InputSpec flavour() { return {"noise", InputKind::flavour, false, 0.0, 0.0, 0.0, false, false}; }
std::vector<InputSpec> join(std::vector<InputSpec> a, const std::vector<InputSpec>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}
std::vector<InputSpec> ridge_inputs() {
    return {number("sharpness", false, 1.0, 0, 100, true), number("crest", false, 0.0, 0, 100), number("exponent", false, 1.0, 1, 8)};
}

}  // namespace

const std::vector<NodeType>& node_types() {
    // clang-format off
    static const std::vector<NodeType> types = {
        {"x", Op::x, 1, "", {}, "the sample's x in metres"},
        {"y", Op::y, 1, "", {}, "the sample's y (up) in metres"},
        {"z", Op::z, 1, "", {}, "the sample's z in metres"},
        {"const", Op::constant, 1, "", {number("value", true, 0, -1e300, 1e300)}, "value"},
        {"add", Op::add, 1, "", {value("a"), value("b")}, "a + b"},
        {"sub", Op::sub, 1, "", {value("a"), value("b")}, "a - b"},
        {"mul", Op::mul, 1, "", {value("a"), value("b")}, "a * b"},
        {"min", Op::min, 1, "", {value("a"), value("b")}, "the smaller of a and b"},
        {"max", Op::max, 1, "", {value("a"), value("b")}, "the larger of a and b"},
        {"neg", Op::neg, 1, "", {value("in")}, "-in"},
        {"abs", Op::abs, 1, "", {value("in")}, "|in|"},
        {"clamp", Op::clamp, 1, "", {value("in"), value("lo"), value("hi")}, "min(max(in, lo), hi)"},
        {"lerp", Op::lerp, 1, "", {value("a"), value("b"), value("t")}, "a + (b - a) * t"},
        {"smoothstep", Op::smoothstep, 1, "",
         {value("in"), number("from", true, 0, -1e9, 1e9), number("to", true, 0, -1e9, 1e9)},
         "t * t * (3 - 2 t), t = (in - from) / (to - from) clamped to [0, 1]"},
        {"pow", Op::pow, 1, "", {value("in"), number("exponent", true, 1, 0, 16, true)}, "max(in, 0) ^ exponent"},
        {"remap", Op::remap, 1, "", {value("in"), point(InputKind::point2, "from", true), point(InputKind::point2, "to", true)},
         "c + (in - a) * ((d - c) / (b - a)) for from = [a, b], to = [c, d]; not clamped"},
        {"curve", Op::curve, 1, "", {value("in"), point(InputKind::knots, "points", true)},
         "piecewise linear through points [[x, y], ...] (x increasing), flat beyond the ends"},
        {"terrace", Op::terrace, 1, "", {value("in"), number("step", true, 1, 0, 1e9, true), number("smoothness", false, 0, 0, 1)},
         "steps of `step`: flat for (1 - smoothness) of each step, then a smoothstep up to the next"},
        {"hypot", Op::hypot, 1, "", {value("a"), value("b")}, "sqrt(a * a + b * b)"},
        {"plane", Op::plane, 1, "", {value("height", false, 0.0)}, "y - height: solid below"},
        {"sphere", Op::sphere, 1, "", {point(InputKind::point3, "center", false), value("radius")}, "|p - center| - radius"},
        {"box", Op::box, 1, "",
         {point(InputKind::point3, "center", false), point(InputKind::point3, "half_extent", true, 0, 1e9)},
         "the exact distance to a box"},
        {"union", Op::union_, 1, "", {value("a"), value("b")}, "min(a, b)"},
        {"intersect", Op::intersect, 1, "", {value("a"), value("b")}, "max(a, b)"},
        {"subtract", Op::subtract, 1, "", {value("a"), value("b")}, "max(a, -b): a with b cut away"},
        {"smooth_union", Op::smooth_union, 1, "", {value("a"), value("b"), number("k", true, 1, 0, 1e6, true)},
         "smooth_min(a, b, k): min(a, b) rounded over k metres"},
        {"smooth_subtract", Op::smooth_subtract, 1, "", {value("a"), value("b"), number("k", true, 1, 0, 1e6, true)},
         "-smooth_min(-a, b, k): a with b cut away, rounded over k metres"},
        {"simplex2", Op::simplex2, 1, "",
         {coordinate("x"), coordinate("z"), scale("scale_m"), point(InputKind::point2, "offset", false), flavour()},
         "2D simplex noise at (x / scale_m + offset[0], z / scale_m + offset[1]), in [-1, 1]; noise = \"fast\" for the fast "
         "flavour"},
        {"fbm2", Op::fbm2, 1, "",
         join({coordinate("x"), coordinate("z"), scale("scale_m"), point(InputKind::point2, "offset", false), flavour()},
              fbm_inputs()),
         "fBm of 2D simplex noise at (x / scale_m + offset[0], z / scale_m + offset[1]); noise = \"fast\" for the fast "
         "flavour (octave o: seed + o)"},
        {"ridged2", Op::ridged2, 1, "",
         join(join({coordinate("x"), coordinate("z"), scale("scale_m"), point(InputKind::point2, "offset", false), flavour()},
                   fbm_inputs()),
              ridge_inputs()),
         "ridge_profile of fbm2: 1 at the noise's zero lines, in [0, 1]"},
        {"simplex3", Op::simplex3, 1, "",
         {coordinate("x"), coordinate("y"), coordinate("z"), scale("scale_m"), scale("vertical_scale_m", kNaN),
          point(InputKind::point3, "offset", false), flavour()},
         "3D simplex noise at (x / scale_m, y / vertical_scale_m, z / scale_m) + offset, in [-1, 1]; noise = \"fast\" "
         "for the fast flavour"},
        {"fbm3", Op::fbm3, 1, "",
         join({coordinate("x"), coordinate("y"), coordinate("z"), scale("scale_m"), scale("vertical_scale_m", kNaN),
               point(InputKind::point3, "offset", false), flavour()},
              fbm_inputs()),
         "fBm of 3D simplex noise; noise = \"fast\" for the fast flavour (octave o: seed + o)"},
        {"ridge_profile", Op::ridge_profile, 1, "", join({value("in")}, ridge_inputs()),
         "max(1 - hypot(in * sharpness, crest), 0) ^ exponent, in [0, 1]"},
        {"warp2", Op::warp2, 2, "x,z",
         {coordinate("x"), coordinate("z"), scale("scale_m"), number("distance_m", true, 0, 0, 1e6)},
         "(x, z) moved by up to distance_m by 2D noise; outputs 'ID.x' and 'ID.z'"},
        {"warp3", Op::warp3, 3, "x,y,z",
         {coordinate("x"), coordinate("y"), coordinate("z"), scale("scale_m"), number("distance_m", true, 0, 0, 1e6)},
         "(x, y, z) moved by up to distance_m by 3D noise; outputs 'ID.x', 'ID.y' and 'ID.z'"},
        {"heightmap", Op::heightmap, 1, "",
         {{"file", InputKind::file, true, 0, 0, 0, false, false}, coordinate("x"), coordinate("z"),
          point(InputKind::point2, "from", false), point(InputKind::point2, "to", false),
          point(InputKind::point2, "heights", false, -1e7, 1e7)},
         "the height in metres of a raster at (x, z), bilinear: a 16-bit PNG with its sidecar (from `isoterra heightmap`) "
         "or a GeoTIFF; from/to: the first and last pixel centres [x, z], heights: [lowest, highest] of a PNG"},
        // Landforms (docs/guides/landforms.md).
        {"dfbm2", Op::dfbm2, 3, "value,dx,dz",
         join(join({coordinate("x"), coordinate("z"), scale("scale_m"), point(InputKind::point2, "offset", false)}, fbm_inputs()),
              {number("damping", false, 0.25, 0, 1e3)}),
         "derivative-damped fBm: octave i adds amplitude gain^i n_i / (1 + damping |sum of the octaves' noise gradients so far|^2), "
         "each octave rotated; outputs 'ID.value' (also plain 'ID'), 'ID.dx', 'ID.dz' (its gradient per metre)",
         true},
        {"erosion", Op::erosion, 4, "height,dx,dz,ridge",
         {coordinate("x"), coordinate("z"), value("in"), value("dx"), value("dz"), scale("scale_m", 300.0),
          {"octaves", InputKind::octaves, false, 4, 1, 8, false, false}, {"lacunarity", InputKind::lacunarity, false, 2.0, 1, 4, true, false},
          {"gain", InputKind::gain, false, 0.4, 0, 1, true, true}, number("strength_m", false, 25.0, 0, 1e4),
          number("onset", false, 0.15, 0, 100, true), point(InputKind::point2, "heights", false, -1e7, 1e7)},
         "gullies running down the slope of height `in` with gradient (dx, dz), scale_m apart, octaves branching down their "
         "sides, faded where the slope is under `onset` (to the valley floor's or the peak's height when heights = "
         "[valley, peak] is given); outputs 'ID.height' (also plain 'ID'), 'ID.dx', 'ID.dz' (its gradient) and 'ID.ridge' "
         "(+1 on ridges, -1 in gullies) (docs/guides/landforms.md)",
         true},
        {"spline", Op::spline, 1, "", {value("in"), {"points", InputKind::knot_values, true, 0, 0, 0, false, false}},
         "a monotone cubic (Fritsch-Carlson) through points [[x, y], ...] (x increasing; y a number or a node, so splines "
         "nest), flat beyond the ends"},
        {"fold", Op::fold, 1, "", {value("in")}, "1 - |3 |in| - 2|: peaks (1) and valleys (-1) from a ridge noise"},
        {"slope", Op::slope, 1, "", {value("dx"), value("dz")}, "the slope in degrees of a gradient: atan(hypot(dx, dz))"},
        {"curvature", Op::curvature, 1, "", {field("in"), number("step_m", false, 8.0, 0.01, 1e6)},
         "(in - the mean of in at the four points step_m away along x and z) / step_m: > 0 on ridges and peaks, < 0 in "
         "hollows; `in` must not depend on y"},
        {"cellular", Op::cellular, 3, "distance,x,z",
         {coordinate("x"), coordinate("z"), number("cell_m", true, 1.0, 0.1, 1e7), number("jitter", false, 1.0, 0, 1),
          point(InputKind::point2, "offset", false)},
         "the distance in metres to the nearest of one jittered point per cell_m square (Worley F1); outputs "
         "'ID.distance' (also plain 'ID'), 'ID.x', 'ID.z' (the point)",
         true},
        {"drainage", Op::drainage, 7, "height,dx,dz,distance,water,order,river",
         {coordinate("x"), coordinate("z"), field("control"), field("relief", false, 0.0),
          number("cell_m", false, 6000.0, 10.0, 1e6), {"levels", InputKind::octaves, false, 4, 1, 7, false, false},
          number("jitter", false, 0.8, 0, 1), number("slope", false, 0.5, 0, 100, true), number("slope_gain", false, 1.0, 0, 10, true),
          number("floor_m", false, 0.0, 0, 1e5), number("bed_width_m", false, 12.0, 0, 1e4), number("bed_depth_m", false, 2.0, 0, 1e3),
          number("water_levels", false, 2.0, 0, 7), number("concavity", false, 2.0, 1, 8), number("junction", false, 0.5, 0, 1),
          number("sea_level", false, -1e9, -1e9, 1e5), number("smooth_m", false, 0.0, 0, 1e4), number("floodplain", false, 0.0, 0, 10),
          number("water_reach_m", false, 0.0, 0, 1e4), number("far_bed_samples", false, 0.0, 0, 16),
          number("meander", false, 0.0, 0, 1.5), number("meander_cells", false, 0.25, 0.02, 0.5), number("spring", false, 0.0, 0, 1),
          number("carve_m", false, 0.0, 0, 1e5), number("blend_m", false, 0.0, 0, 1e4),
          number("meander_vary", false, 0.0, 0, 1)},
         "a river network computed locally: level 0 of one jittered point per cell_m square linked to its lowest neighbour "
         "under `control`, each finer level's points joined to the nearest coarser channel; the ground is the lowest of "
         "`control + relief` and each channel's valley (its water level + slope x distance, a floor rising at `floodplain`, "
         "a river bed; channels bending across their lines at `meander`, irregularly with `meander_vary`, beds growing from a spring over a head's first `spring`); outputs "
         "'ID.height' (also plain 'ID'), 'ID.dx', 'ID.dz' (its gradient in the valleys, 0 where control + relief is "
         "lower; turning smoothly over smooth_m metres across creases), 'ID.distance' (to the nearest channel), 'ID.water' (its water level where a river runs, else -10000; "
         "with water_reach_m, the nearest rivers' level out to that far from them, sinking beyond), "
         "'ID.order' (levels - level of the channel whose valley it is), 'ID.river' (with water_reach_m: the distance beyond "
         "the nearest river's bank, 0 in its bed, at most twice the reach; else 1e7)",
         true, "lllllml"},
        {"terrain", Op::terrain, 1, "", terrain_node_inputs(),
         "the seed's terrain (a classic preset's knobs; booleans 0 or 1): fBm hills, ridged mountains, overhangs, tunnel caves"},
        {"terrain_ground", Op::terrain_ground, 1, "", terrain_node_inputs(),
         "the terrain node's ground height at x and z, before overhangs and caves (the same knobs)"},
    };
    // clang-format on
    return types;
}

std::vector<std::string> port_names(const NodeType& type) {
    std::vector<std::string> names;
    const std::string all = type.port_names;
    for (std::size_t start = 0; start <= all.size();) {
        const std::size_t end = std::min(all.find(',', start), all.size());
        names.push_back(all.substr(start, end - start));
        start = end + 1;
    }
    return names;
}

const NodeType* find_node_type(const std::string& name) {
    for (const NodeType& t : node_types())
        if (name == t.name) return &t;
    return nullptr;
}

}  // namespace isoterra::graph
