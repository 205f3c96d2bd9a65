// The landform nodes' rows (docs/guides/landforms.md): damped fBm with its gradient, the
// gully erosion filter, monotone splines, folds, slope and curvature masks, cellular
// distance and the drainage network. Their loops and interval rules are one file each here
// (nodes/landform/landform.hpp).
#include <vector>

#include "field/nodes/table.hpp"
#include "landform.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {
namespace {

ISOTERRA_CLONES_WIDE void run_fold(const Node&, const PointwiseLanes& l) {
    const double* a = l.a;
    double* out = l.out;
    for (std::size_t i = 0; i < l.count; ++i) out[i] = fold_at(a[i]);
}

std::vector<InputSpec> drainage_inputs() {
    using namespace rows;
    // clang-format off
    return {
        coordinate("x").with("the x the network is read at (a warped position meanders the rivers)"),
        coordinate("z").with("the z the network is read at"),
        field("control").with("the rivers' level: water runs down it at level 0; below sea_level it is sea"),
        field("relief", false, 0.0).with("how far the ground may rise above the control between the valleys"),
        number("cell_m", false, 6000.0, 10.0, 1e6).with("level 0's cell; level k's is cell_m / 2^k"),
        InputSpec{"levels", InputKind::octaves, false, 4, 1, 7, false, false}.with("how many levels of channels"),
        number("jitter", false, 0.8, 0, 1),
        number("slope", false, 0.5, 0, 100, true).with("a valley side's slope at level 0"),
        number("slope_gain", false, 1.0, 0, 10, true).with("the valley sides' slope factor per finer level"),
        number("floor_m", false, 0.0, 0, 1e5).with("a level-0 valley floor's half width (halved per level)"),
        number("bed_width_m", false, 12.0, 0, 1e4).with("a river bed's half width at level 0 (halved per level)"),
        number("bed_depth_m", false, 2.0, 0, 1e3).with("a river bed's depth at level 0 (halved per level)"),
        number("water_levels", false, 2.0, 0, 7).with("the levels whose channels carry water (and beds)"),
        number("concavity", false, 2.0, 1, 8).with("the exponent of a tributary's profile"),
        number("junction", false, 0.5, 0, 1).with("how far downstream a tributary meets, as a share of its distance to the channel"),
        number("sea_level", false, -1e9, -1e9, 1e5).with("below it the control is sea: an outlet, no channel starts there"),
        number("smooth_m", false, 0.0, 0, 1e4).with("with it, the dx and dz outputs turn smoothly over creases of this width"),
        number("floodplain", false, 0.0, 0, 10).with(
            "a valley floor's rise from its river per metre: the floor falls towards the river, the water below its banks"),
        number("water_reach_m", false, 0.0, 0, 1e4).with(
            "with it, the water is continuous: each river's level, sinking away over this reach beyond its bank"),
        number("far_bed_samples", false, 0.0, 0, 16).with(
            "with it, inside a World column's far levels no river bed is narrower than this many samples (level 0 unchanged): "
            "no dashed rivers from afar"),
        number("meander", false, 0.0, 0, 1.5).with(
            "how steeply every channel bends across its line (the tangent of its sharpest turn); 0: straight"),
        number("meander_cells", false, 0.25, 0.02, 0.5).with("the bends' wavelength, in cells of each channel's level"),
        number("spring", false, 0.0, 0, 1).with(
            "the share of a head channel over which its bed widens and deepens from nothing at the source"),
        number("carve_m", false, 0.0, 0, 1e5).with(
            "with it, a river's water lies below the coarser ground out to this far beside its line: it cuts its valley"),
        number("blend_m", false, 0.0, 0, 1e4).with(
            "with it, the valleys meet in a soft minimum of this width: no crease where two valleys meet"),
        number("meander_vary", false, 0.0, 0, 1).with(
            "how much the bends' wavelength and amplitude vary along and between channels (heads start straight, "
            "dry gullies bend gently, tributaries meet the bent line at the network's angle); 0: a plain sine"),
        number("spring_slope", false, 0.0, 0, 10).with(
            "with it, a river head steeper than this (a tangent) is a dry gully: its water springs where its fall eases to it"),
        number("trunk_carve_m", false, 0.0, 0, 1e5).with(
            "with it, a level-0 river's profile bows (its fall drawn upstream, up to u^4) until its water lies below control + relief "
            "along its line and out to this far beside it: no trunk on a ledge where the land falls sooner than its straight fall"),
    };
    // clang-format on
}

const char* const kDrainageFormula =
    "a river network computed locally: level 0 of one jittered point per cell_m square linked to its lowest neighbour "
    "under `control`, each finer level's points joined to the nearest coarser channel; the ground is the lowest of "
    "`control + relief` and each channel's valley (its water level + slope x distance, a floor rising at `floodplain`, "
    "a river bed; channels bending across their lines at `meander`, irregularly with `meander_vary`, beds growing from a spring over "
    "a head's first `spring`, a head's water springing where its fall eases to `spring_slope`); outputs "
    "'ID.height' (also plain 'ID'), 'ID.dx', 'ID.dz' (its gradient in the valleys, 0 where control + relief is "
    "lower; turning smoothly over smooth_m metres across creases), 'ID.distance' (to the nearest channel), 'ID.water' (its water level "
    "where a river runs, else -10000; "
    "with water_reach_m, the nearest rivers' level out to that far from them, sinking beyond), "
    "'ID.order' (levels - level of the channel whose valley it is), 'ID.river' (with water_reach_m: the distance beyond "
    "the nearest river's bank, 0 in its bed, at most twice the reach; else 1e7)";

}  // namespace

NodeFamily nodes_landform() {
    using namespace rows;
    // clang-format off
    return {50, {
        {.name = "dfbm2",
         .inputs = join(join({coordinate("x"), coordinate("z"), scale("scale_m"), point(InputKind::point2, "offset", false)}, fbm_inputs()),
                        {number("damping", false, 0.25, 0, 1e3).with("how much steep sums damp the later octaves (0: plain fBm of rotated octaves)")}),
         .formula = "derivative-damped fBm: octave i adds amplitude gain^i n_i / (1 + damping |sum of the octaves' noise gradients so far|^2), "
                    "each octave rotated; outputs 'ID.value' (also plain 'ID'), 'ID.dx', 'ID.dz' (its gradient per metre)",
         .outputs = "value,dx,dz", .run = [](const Node& n, const Lanes& l) { run_dfbm2(n, *l.noise, l); }, .ranges = dfbm2_ranges,
         .noise = true, .bare_is_first = true},
        {.name = "erosion",
         .inputs = {coordinate("x"), coordinate("z"), value("in").with("the height to erode, metres"), value("dx"), value("dz"),
                    scale("scale_m", 300.0).with("the first octave's gully spacing"),
                    {"octaves", InputKind::octaves, false, 4, 1, 8, false, false}, {"lacunarity", InputKind::lacunarity, false, 2.0, 1, 4, true, false},
                    {"gain", InputKind::gain, false, 0.4, 0, 1, true, true},
                    number("strength_m", false, 25.0, 0, 1e4).with("the first octave's depth: it moves the height by up to this much either way"),
                    number("onset", false, 0.15, 0, 100, true).with("the slope from which the gullies are at full strength; flatter ground fades them"),
                    point(InputKind::point2, "heights", false, -1e7, 1e7).with("[valley, peak]: what flat ground fades to")},
         .formula = "gullies running down the slope of height `in` with gradient (dx, dz), scale_m apart, octaves branching down their "
                    "sides, faded where the slope is under `onset` (to the valley floor's or the peak's height when heights = "
                    "[valley, peak] is given); outputs 'ID.height' (also plain 'ID'), 'ID.dx', 'ID.dz' (its gradient) and 'ID.ridge' "
                    "(+1 on ridges, -1 in gullies) (docs/guides/landforms.md)",
         .outputs = "height,dx,dz,ridge", .run = [](const Node& n, const Lanes& l) { run_erosion(n, *l.noise, l); },
         .ranges = erosion_ranges, .noise = true, .bare_is_first = true},
        {.name = "spline",
         .inputs = {value("in"), InputSpec{"points", InputKind::knot_values, true, 0, 0, 0, false, false}.with(
                        "the knots [[x, y], ...], x increasing; y a number or a node")},
         .formula = "a monotone cubic (Fritsch-Carlson) through points [[x, y], ...] (x increasing; y a number or a node, so splines "
                    "nest), flat beyond the ends",
         .run = run_spline, .ranges = [](const Node& n, const RC& c) { return one(spline_range(n, c)); }},
        {.name = "fold", .inputs = {value("in")}, .formula = "1 - |3 |in| - 2|: peaks (1) and valleys (-1) from a ridge noise",
         .pointwise = run_fold, .ranges = [](const Node&, const RC& c) { return one(fold_range(c.in[0])); }},
        {.name = "slope", .inputs = {value("dx"), value("dz")}, .formula = "the slope in degrees of a gradient: atan(hypot(dx, dz))",
         .run = run_slope, .ranges = [](const Node& n, const RC& c) { return one(slope_range(n, c)); }},
        {.name = "curvature",
         .inputs = {field("in").with("the height whose curvature is taken (x and z only)"),
                    number("step_m", false, 8.0, 0.01, 1e6).with("how far the four neighbouring points are along x and z")},
         .formula = "(in - the mean of in at the four points step_m away along x and z) / step_m: > 0 on ridges and peaks, < 0 in "
                    "hollows; `in` must not depend on y",
         .run = run_curvature, .ranges = [](const Node& n, const RC& c) { return one(curvature_range(n, c)); },
         .reads_per_sample = [](const Node&) { return 4.0; }, .axes = kXZ},  // it reads its input at other points around (x, z)
        {.name = "cellular",
         .inputs = {coordinate("x"), coordinate("z"),
                    number("cell_m", true, 1.0, 0.1, 1e7).with("the cells' size: one jittered point per square of this side"),
                    number("jitter", false, 1.0, 0, 1),
                    point(InputKind::point2, "offset", false).with("[x, z] added to the position in cells: another set of points")},
         .formula = "the distance in metres to the nearest of one jittered point per cell_m square (Worley F1); outputs "
                    "'ID.distance' (also plain 'ID'), 'ID.x', 'ID.z' (the point)",
         .outputs = "distance,x,z", .run = [](const Node& n, const Lanes& l) { run_cellular(n, *l.noise, l); },
         .ranges = cellular_ranges, .noise = true, .bare_is_first = true},
        {.name = "drainage", .inputs = drainage_inputs(), .formula = kDrainageFormula,
         .outputs = "height,dx,dz,distance,water,order,river", .run = run_drainage_far, .ranges = drainage_ranges,
         .setup = [](Node& n, const NodeSetup&) { n.cache = make_drainage_cache(); }, .reads_per_sample = drainage_reads_per_sample,
         .axes = kXZ, .noise = true, .finite = false, .bare_is_first = true, .port_blend = "lllllml"},
    }};
    // clang-format on
}

}  // namespace isoterra::graph
