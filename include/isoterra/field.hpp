// Stage 2 of the pipeline: the scalar field. One sign everywhere: f < 0 is solid, f > 0 is
// air, the surface is f = 0 and the gradient points out of the ground (into the air).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "isoterra/noise.hpp"

namespace isoterra {

/// An axis-aligned box in metres.
struct Box {
    glm::dvec3 lo{0.0};
    glm::dvec3 hi{0.0};
};

/// A closed range of field values.
struct ValueRange {
    double lo = 0.0;
    double hi = 0.0;
    /// Returns true if the range holds both solid (< 0) and air (> 0) values or touches 0.
    bool may_cross_zero() const { return lo <= 0.0 && hi >= 0.0; }
};

/// A regular lattice of samples in global integer sample coordinates: sample (i, j, k) sits
/// at (origin + (i, j, k)) * spacing_m metres. Values are stored x fastest, then y, then z.
struct Lattice {
    glm::i64vec3 origin{0};
    glm::ivec3 size{0};
    double spacing_m = 1.0;
    /// > 0: the lattice lies in a World column of chunks this many samples wide, whose x and z
    /// faces lie at multiples of it and are where it meets other levels. Inside such columns
    /// a field may leave out detail its spacing cannot show (a graph's `lod` and `detail_m`);
    /// the samples `lod_exact_samples` or fewer from a face keep every detail, so the seams
    /// between levels read the same values on both sides. 0: every detail everywhere.
    int lod_column_samples = 0;
    int lod_exact_samples = 2;  // the mesher's seam reach (MesherInfo::seam_reach)

    std::size_t count() const { return static_cast<std::size_t>(size.x) * size.y * static_cast<std::size_t>(size.z); }
    std::size_t index(int i, int j, int k) const { return (static_cast<std::size_t>(k) * size.y + j) * size.x + i; }
    glm::dvec3 position(int i, int j, int k) const {
        return glm::dvec3(static_cast<double>(origin.x + i), static_cast<double>(origin.y + j), static_cast<double>(origin.z + k)) *
               spacing_m;
    }
    /// Returns the box the samples span.
    Box bounds() const { return {position(0, 0, 0), position(size.x - 1, size.y - 1, size.z - 1)}; }
};

// ---------------------------------------------------------------------------------------
// The limits every door shares (field/limits.cpp): the program's flags and files, the C API
// and the Python module all call these, so each refuses the same inputs with the same words.

/// The largest |coordinate| in metres the library and the program take from a user: chunk
/// indices stay far inside int range at every level, and doubles keep 1e-8 m of precision.
inline constexpr double kCoordinateLimit_m = 1e8;
/// The most samples one lattice may have.
inline constexpr double kMaxLatticeSamples = 1e9;
/// What sampling a lattice is planned to hold against the memory budget: per sample (its
/// value's 4 bytes, the blocks' lanes) and per column of x and z (a graph keeps its column
/// nodes' values there). Measured peaks (docs/design/reliability.md): at most 15 bytes a
/// sample beside the values, and 440 bytes a column (alpine).
inline constexpr double kLatticeBytesPerSample = 32.0;
inline constexpr double kLatticeBytesPerColumn = 1024.0;

/// A value past the limits: not finite, past kCoordinateLimit_m, a lattice too large or
/// reaching past the world's end. what() is one line naming the argument.
class LimitError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Returns "" when `v` may be a coordinate (finite, within kCoordinateLimit_m), else why not:
/// "a coordinate is not finite" or "coordinates must lie within +-1e8 m".
const char* coordinate_problem(double v);
/// Throws LimitError "WHAT: coordinates must lie within +-1e8 m, got 2e+08" unless `v` may be
/// a coordinate.
void check_coordinate(double v, const std::string& what);
/// The same for each of a point's coordinates.
void check_point(const glm::dvec3& p, const std::string& what);
/// Throws LimitError unless `lattice` has a finite positive spacing, every size at least 1,
/// at most kMaxLatticeSamples samples and its first and last samples within
/// kCoordinateLimit_m; MemoryBudgetError when sampling it (kLatticeBytesPerSample a sample,
/// kLatticeBytesPerColumn a column) would not fit the memory budget.
void check_lattice(const Lattice& lattice, const std::string& what);
/// Returns the lattice of `size` samples `spacing_m` apart whose first sample lies at
/// `origin_m` (a whole multiple of the spacing), checked by check_lattice; throws LimitError
/// for an origin that is not such a multiple or lies past the world's end, before any
/// conversion that could wrap.
Lattice lattice_at(const glm::dvec3& origin_m, const glm::ivec3& size, double spacing_m, const std::string& what);

/// What a lattice's values are for. `values`: every value. `surface`: what a mesher reads.
/// A sample whose lattice neighbours within four steps (its own too) are all provably air
/// may then hold any positive value instead of its own: no mesher reads it (vertices lie on
/// edges with a sign change, normals come from samples at most two steps from their ends,
/// and those edges are at most two steps long), so the field may skip computing it. Meshes
/// are the same bits either way.
enum class LatticeUse { values, surface };

/// What a field keeps per column of a lattice besides the ground heights, as its own type (a
/// graph's column nodes, a terrain node's overhang strengths); only the field that made it
/// reads it back.
struct FieldColumns {
    virtual ~FieldColumns() = default;
};

/// What a field works out once per (x, z) column of a lattice, for every lattice with the same
/// columns (the chunks of one column of a world, whatever their rows): made by
/// Field::columns_of(), passed back to Field::sample_lattice_and_ground().
struct LatticeColumns {
    glm::i64vec2 origin{0};  // x and z of the first column, in samples
    glm::ivec2 size{0};      // columns along x and z
    double spacing_m = 1.0;
    int lod_column_samples = 0;  // as the lattice's (Lattice::lod_column_samples)
    int lod_exact_samples = 2;
    std::vector<double> height;                      // the ground height per column, x fastest
    std::shared_ptr<const FieldColumns> field_data;  // what else the field keeps per column
    /// Returns true when `lattice` has exactly these columns.
    bool fits(const Lattice& lattice) const {
        return origin.x == lattice.origin.x && origin.y == lattice.origin.z && size.x == lattice.size.x && size.y == lattice.size.z &&
               spacing_m == lattice.spacing_m && lod_column_samples == lattice.lod_column_samples &&
               lod_exact_samples == lattice.lod_exact_samples;
    }
};

/// Per (x, z) column of a lattice (x fastest), what shapes the look of the surface besides
/// its ground height; an empty vector: the field has none.
struct ColumnLooks {
    std::vector<float> water;      // the water surface's height (sea, lake, river); dry where below the ground or NaN
    std::vector<float> snow_line;  // the snow line's height there (else MaterialRules::snow_line_m)
    std::vector<float> scree;      // how much scree lies there: 0 none .. 1 all
    void clear() {
        water.clear();
        snow_line.clear();
        scree.clear();
    }
    /// Returns true when the field gave none of them.
    bool empty() const { return water.empty() && snow_line.empty() && scree.empty(); }
};

/// The surface materials, in the order the renderer's palette uses (new ones go last, so
/// the numbers of the older ones, and the meshes made with them, stay).
enum class Material : std::uint8_t { grass = 0, soil = 1, rock = 2, snow = 3, sand = 4, scree = 5 };
inline constexpr int kMaterialCount = 6;
/// Returns the lower-case name of a material ("grass").
const char* material_name(Material m);

/// A material channel value: the dominant material, the runner-up, and how much of the
/// runner-up shows (0 = none, 0.5 = an even mix).
struct MaterialSample {
    Material primary = Material::grass;
    Material secondary = Material::grass;
    float blend = 0.0f;
};

/// The column looks at one point of the surface (ColumnLooks between its columns, with the
/// sea level folded into `water_m`): what besides height, slope and depth picks its material.
/// The defaults change nothing.
struct PointLooks {
    double water_m = -1e300;  // the water level there (the higher of the water surface and the sea); very low: none
    double snow_line_m = std::numeric_limits<double>::quiet_NaN();  // NaN: MaterialRules::snow_line_m
    double scree = 0.0;                                             // 0 none .. 1 all (gentle ground only)
    /// Returns true when these looks change nothing.
    bool none() const { return !(water_m > -1e299) && std::isnan(snow_line_m) && !(scree > 0.0); }
};

/// Where each material shows: thresholds in metres and degrees.
struct MaterialRules {
    double rock_slope_deg = 40.0;    // steeper than this is bare rock
    double slope_blend_deg = 8.0;    // half-width of the grass/rock transition
    double snow_line_m = 120.0;      // snow above this height...
    double snow_blend_m = 15.0;      // ...fading in over this half-width
    double snow_max_slope_deg = 50;  // snow does not stick to steeper faces
    double soil_depth_m = 12.0;      // below the column's ground, soil down to here, then rock
    double surface_reach_m = 0.0;    // open ground may lie this far below the column's height
                                     // (the overhangs' reach): still surface, not underground
    double sand_height_m = 0.0;      // sand on gentle ground up to this far above the water (and
                                     // under it); 0: no sand anywhere

    /// Returns the material at height `y` with the surface's unit `normal`, `depth_m`
    /// below the column's ground (0 on the open surface). Thread-safe.
    /// (One call; for many, a MaterialClassifier does the set-up once.)
    MaterialSample classify(double y, const glm::dvec3& normal, double depth_m) const;
    /// The same with the looks of the point's column (water, snow line, scree). Thread-safe.
    MaterialSample classify(double y, const glm::dvec3& normal, double depth_m, const PointLooks& looks) const;
};

/// The inputs of MaterialClassifier::classify for many points, one array each (`looks` may be
/// null: none anywhere). Only the normal's y enters the rules.
struct MaterialPoints {
    const double* y = nullptr;
    const double* normal_y = nullptr;
    const double* depth_m = nullptr;
    const PointLooks* looks = nullptr;
};

/// MaterialRules::classify() for many vertices, with the same results: each blend band's
/// start and inverse width computed once, and no acos where the normal is flatter than
/// every slope band starts or steeper than every band ends (the angle cannot matter there).
class MaterialClassifier {
public:
    explicit MaterialClassifier(const MaterialRules& rules);
    /// Returns MaterialRules::classify(y, normal, depth_m). Thread-safe.
    MaterialSample operator()(double y, const glm::dvec3& normal, double depth_m) const;
    /// Returns MaterialRules::classify(y, normal, depth_m, looks). Thread-safe.
    MaterialSample operator()(double y, const glm::dvec3& normal, double depth_m, const PointLooks& looks) const;
    /// Writes out[v] = (*this)(y[v], normal with y normal_y[v], depth_m[v], looks[v]) for
    /// v < count: the same results, several points at a time. Thread-safe.
    void classify(const MaterialPoints& points, std::size_t count, MaterialSample* out) const;

private:
    struct Step {  // smoothstep from `from` over a band, as a multiply
        Step(double from, double to);
        double from, inv_width;
    };
    Step steep_, snow_line_, snow_slope_, below_, facing_down_, deep_;
    double surface_reach_m_;
    double snow_blend_m_, sand_height_m_;
    double flat_ny_;   // normal.y above this: below every slope band
    double steep_ny_;  // normal.y below this: above every slope band
};

/// What a field works out per (x, z) column besides its values: the ground height, the
/// column looks (water, snow line, scree) and the work the chunks of one column share. A
/// field graph provides it (GraphField: its ground and look outputs, its column nodes);
/// other fields (shapes, CSG) have none: Field::columns() returns null. Thread-safe.
class ColumnSource {
public:
    virtual ~ColumnSource() = default;

    /// True when the columns have a ground height (a graph with a `ground` output), though it
    /// may still be NaN or infinite at some columns.
    virtual bool has_ground() const = 0;

    /// Returns the ground height at (x, z), or NaN when there is none.
    virtual double ground_height(double x, double z) const = 0;

    /// Writes the ground height of each (x, z) column of `lattice` (size.x * size.z floats,
    /// x fastest) and returns true, or returns false when there is none.
    virtual bool ground_heights(const Lattice& lattice, float* out) const = 0;

    /// How far the surface departs from the ground height of ground_heights(), up or down:
    /// the ground's proven range over a region is the heights' range widened by this (a
    /// terrain node's overhangs); 0 for most graphs.
    double ground_bend() const { return ground_bend_m_; }

    /// The field's bounds() of `box` given `ground`, a proven range of the bent ground over
    /// the box's square (heights widened by ground_bend()), for callers that keep it.
    virtual ValueRange bounds_with_ground(const Box& box, const ValueRange& ground) const = 0;

    /// The field's sample_lattice() and ground_heights() together, for `use`, with the
    /// columns from columns_of(lattice) when given (null: worked out here; the same bits
    /// either way); with `looks`, also the column looks (the vectors of those the field lacks
    /// left empty). Returns what ground_heights() returns.
    virtual bool sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use,
                                           const LatticeColumns* columns, ColumnLooks* looks) const = 0;

    /// Returns the per-column work of lattices with `lattice`'s columns, to share between
    /// them (the chunks of one column of a world).
    virtual std::shared_ptr<const LatticeColumns> columns_of(const Lattice& lattice) const = 0;

protected:
    /// Set once by a source whose surface departs from its ground (ground_bend()).
    double ground_bend_m_ = 0.0;
};

/// A scalar field over all of space: sampling, bounds, the look of its surface, and its
/// columns when it has them. Implementations are immutable after construction, so every
/// const call is thread-safe.
class Field {
public:
    virtual ~Field() = default;

    /// Writes the values at `count` points to `out`. Thread-safe.
    virtual void sample_points(const glm::dvec3* points, std::size_t count, double* out) const = 0;

    /// Writes the values on `lattice` to `out` (lattice.count() floats, x fastest).
    /// The default samples one row at a time; terrain fields work per column. Thread-safe.
    virtual void sample_lattice(const Lattice& lattice, float* out) const;

    /// Returns a range that holds every value in `box` (conservative: never too narrow).
    /// Thread-safe.
    virtual ValueRange bounds(const Box& box) const = 0;

    /// Returns the material at surface point `p` whose unit normal is `normal`.
    /// The default classifies by slope and height with default rules. Thread-safe.
    virtual MaterialSample material(const glm::dvec3& p, const glm::dvec3& normal) const;

    /// Returns the rules that colour this field's surface. Thread-safe.
    virtual const MaterialRules& material_rules() const;

    /// Returns the sea level: the water renderers draw as a level, and the one sand lies by;
    /// very low (-1e9) when there is none (the default). Thread-safe.
    virtual double sea_level_m() const { return -1e9; }

    /// Returns what the field works out per column (ground, looks, shared column work), or
    /// null when it has no columns (the default). Thread-safe.
    virtual const ColumnSource* columns() const { return nullptr; }

    // What columns() gives, for any field: a field without columns has no ground (false,
    // NaN, a bend of 0), bounds a box by bounds(), samples by sample_lattice() with no looks,
    // and shares no column work (null). Thread-safe.

    /// ColumnSource::ground_heights(), or false.
    bool ground_heights(const Lattice& lattice, float* out) const;
    /// ColumnSource::ground_height(), or NaN.
    double ground_height(double x, double z) const;
    /// ground_height(), by its name from before the terrain function became a graph
    /// node (issue 54), so that consumers' code keeps building.
    double surface_height(double x, double z) const { return ground_height(x, z); }
    /// ColumnSource::has_ground(), or false.
    bool has_ground() const;
    /// ColumnSource::ground_bend(), or 0.
    double ground_bend() const;
    /// ColumnSource::bounds_with_ground(), or bounds(box).
    ValueRange bounds_with_ground(const Box& box, const ValueRange& ground) const;
    /// ColumnSource::sample_lattice_and_ground(), or sample_lattice() with `looks` cleared
    /// and false.
    bool sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use = LatticeUse::values,
                                   const LatticeColumns* columns = nullptr, ColumnLooks* looks = nullptr) const;
    /// ColumnSource::columns_of(), or null.
    std::shared_ptr<const LatticeColumns> columns_of(const Lattice& lattice) const;

    /// Returns the value at one point (a batch of one). Thread-safe.
    double value(const glm::dvec3& p) const;

    /// Returns the gradient at `p` by central differences of step `h` metres. Thread-safe.
    glm::dvec3 gradient(const glm::dvec3& p, double h = 0.05) const;
};

// ---------------------------------------------------------------------------------------
// Shapes and CSG (field/shapes.cpp, field/csg.cpp). Shapes are exact signed distances.

/// Returns min(a, b): the union of two solids.
inline double op_union(double a, double b) { return a < b ? a : b; }
/// Returns max(a, -b): solid a with solid b cut away.
inline double op_subtract(double a, double b) { return a > -b ? a : -b; }
/// Returns max(a, b): where both are solid.
inline double op_intersect(double a, double b) { return a > b ? a : b; }
/// Returns the weight (0..1) of `a` in smooth_min(a, b, k): the factor materials blend by.
inline double smooth_min_weight(double a, double b, double k) { return std::clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0); }
/// Returns the polynomial smooth minimum (Quilez) of a and b with blend width k metres
/// (k > 0); it lies at most k/4 below min(a, b), and is exactly it where |a - b| >= k.
/// (Inline, so that loops over lanes of it vectorise.)
inline double smooth_min(double a, double b, double k) {
    const double h = smooth_min_weight(a, b, k);
    // Where a is the minimum by k or more, a itself (b + (a - b) would round): the terrain's
    // lattice path skips b there, so both paths give the same bits.
    return h >= 1.0 ? a : b + (a - b) * h - k * h * (1.0 - h);
}
/// Returns the smooth union (smooth_min) of two solids, blend width k metres.
inline double op_smooth_union(double a, double b, double k) { return smooth_min(a, b, k); }
/// Returns a with b cut away, the edge rounded over k metres.
inline double op_smooth_subtract(double a, double b, double k) { return -smooth_min(-a, b, k); }
/// Returns the smooth step from 0 at `from` to 1 at `to`: t * t * (3 - 2 t) with t the
/// position of v between them, clamped to [0, 1].
inline double smoothstep(double from, double to, double v) {
    const double t = std::min(std::max((v - from) / (to - from), 0.0), 1.0);
    return t * t * (3.0 - 2.0 * t);
}
/// Returns the signed distance from p to a ball: |p - centre| - radius.
double sphere_distance(const glm::dvec3& p, const glm::dvec3& centre, double radius);
/// Returns the exact signed distance from p to an axis-aligned box.
double box_distance(const glm::dvec3& p, const glm::dvec3& centre, const glm::dvec3& half_extent);

/// The half-space below a plane: f = dot(normal, p) - offset, with a unit `normal`
/// pointing into the air.
std::unique_ptr<Field> make_plane(const glm::dvec3& normal, double offset);
/// A solid ball: f = |p - centre| - radius.
std::unique_ptr<Field> make_sphere(const glm::dvec3& centre, double radius);
/// A solid axis-aligned box with rounded-free edges: the exact box SDF.
std::unique_ptr<Field> make_box(const glm::dvec3& centre, const glm::dvec3& half_extent);

enum class CsgOp { union_, subtract, intersect, smooth_union, smooth_subtract };
/// Combines two fields; `blend_m` is the blend width of the smooth operations (> 0).
std::unique_ptr<Field> make_csg(CsgOp op, std::shared_ptr<const Field> a, std::shared_ptr<const Field> b, double blend_m = 0.0);

// ---------------------------------------------------------------------------------------
// The terrain function's knob terrains (field/compile/knob_terrain.cpp) and the terrain they describe (field/nodes/terrain/node.cpp).

/// Every knob of the terrain function. Scales are feature sizes in metres, heights in
/// metres; the defaults are the terrain of the seed-000 tutorial.
struct TerrainParams {
    double iso_level = 0.0;  // the surface sits where the terrain's own value equals this
    double base_height_m = 12.0;

    double hill_scale_m = 400.0;
    double hill_height_m = 40.0;
    FbmShape hill_fbm{5, 2.0, 0.5, 0.5};
    // Seed-002 reshaping of the hills: ((n + 1) / 2 * fudge) ^ exponent * multiplier
    // instead of n * hill_height_m, when enabled.
    bool reshape = false;
    double reshape_exponent = 2.0;
    double reshape_fudge = 1.0;
    double reshape_multiplier_m = 60.0;

    double mountain_scale_m = 1500.0;
    double mountain_from = -0.1;  // smoothstep edges on the mountain noise
    double mountain_to = 0.4;
    double ridge_scale_m = 500.0;
    FbmShape ridge_fbm{4, 2.0, 0.5, 0.5};
    double ridge_sharpness = 1.6;
    double ridge_crest = 0.15;
    double ridge_exponent = 3.0;
    double ridge_height_m = 150.0;

    double warp_scale_m = 600.0;
    double warp_distance_m = 0.0;  // 0 = no domain warp

    double overhang_scale_m = 50.0;
    double overhang_vertical_scale_m = 35.0;
    double overhang_plains_m = 1.0;
    double overhang_mountains_m = 10.0;

    bool caves = true;
    double cave_scale_m = 100.0;
    double cave_vertical_scale_m = 50.0;
    double cave_width = 0.09;            // tunnel half-width in noise units
    double cave_metres_per_unit = 50.0;  // converts the noise distance to metres
    double cave_entrance_depth_m = 4.0;  // tunnels narrow within this depth of the ground
    double cave_entrance_narrowing = 0.6;
    double cave_blend_m = 0.0;  // 0 = hard min, else smooth-min width

    double sea_level_m = -1e9;  // water for renderers; very low = none

    MaterialRules materials;
};

/// A knob terrain (a classic preset file): the terrain function's knobs, named and seeded,
/// one flat TOML table (presets/*.toml that are not field graphs). "Preset" alone means any
/// built-in terrain, graphs included (`--preset`, builtin_terrain_names()).
struct KnobTerrain {
    std::string name;
    std::string description;
    std::uint32_t seed = 20261114;
    TerrainParams terrain;
};

/// A terrain that cannot be had as asked: a bad preset or graph file or value, an unknown
/// name, a file that cannot be read. what() is one line naming where ("file:line: ...").
/// Its kinds: KnobTerrainError (a knob terrain's), GraphError and RasterError (a field graph's,
/// graph.hpp); what reads either throws this base (a file too large, nested too deep).
class TerrainError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A bad knob terrain file or value, or an unknown built-in name: what() is one line, "file:line: key 'k': expected ..., got ...".
class KnobTerrainError : public TerrainError {
public:
    using TerrainError::TerrainError;
};

/// Parses knob terrain TOML `text`; `source` names it in errors. Throws KnobTerrainError. Thread-safe.
KnobTerrain parse_knob_terrain(const std::string& text, const std::string& source);
/// Returns the built-in knob terrains' names, sorted: the presets/*.toml that are not graphs
/// (every built-in: builtin_terrain_names() in graph.hpp). Thread-safe.
std::vector<std::string> builtin_knob_terrain_names();
/// Returns the TOML text of a built-in preset or graph; throws KnobTerrainError for an unknown name.
const std::string& builtin_preset_text(const std::string& name);
/// Parses a built-in knob terrain by name; throws KnobTerrainError for an unknown name or a graph.
KnobTerrain builtin_knob_terrain(const std::string& name);
/// Reads and parses a knob terrain file; throws KnobTerrainError naming the file on any problem.
KnobTerrain load_knob_terrain_file(const std::string& path);
/// Returns `knobs` as TOML text that parse_knob_terrain reads back to the same values.
std::string knob_terrain_to_toml(const KnobTerrain& knobs);

/// Builds the field a knob terrain describes, with `seed` in place of its own: a graph of
/// the `terrain` node (the procedural terrain: hills, ridged mountains, overhangs and tunnel
/// caves, as minus the seed-000 density) and its ground, a GraphField (isoterra/graph.hpp).
/// Immutable; every call is thread-safe.
std::unique_ptr<Field> make_terrain(const KnobTerrain& knobs, std::uint32_t seed);

}  // namespace isoterra
