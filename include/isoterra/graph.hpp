// Field graphs (stage 2, field/graph/): the field written as data, a TOML file of nodes
// (positions, arithmetic, shapes, CSG, noises, warps) compiled into a flat program, with a
// proven value range for every node over any box. The file format: docs/guides/field-graphs.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isoterra/field.hpp"

namespace isoterra {

/// A bad graph file: what() is one line, "file:line: node 'ID': ...". A TerrainError, as a
/// bad preset is, so whatever reports one reports the other the same way.
class GraphError : public TerrainError {
public:
    using TerrainError::TerrainError;
};

/// A `heightmap` node's raster that cannot be read, or not as the node places it.
class RasterError : public GraphError {
public:
    using GraphError::GraphError;
};

/// A raster a graph reads: the path as resolved and a digest of its bytes.
struct GraphRaster {
    std::string path;
    std::string digest;  // FNV-1a 64 of the file (hex)
};

/// A channel of a `drainage` node's river network: from its source down to its end (a
/// junction with a coarser channel, a neighbour of a trunk, or the sea), with the water
/// levels there, in the node's coordinates (the sample's x and z unless the node is given
/// others).
struct GraphChannel {
    glm::dvec2 from{0.0}, to{0.0};
    double water_from = 0.0, water_to = 0.0;  // water_from >= water_to
    int level = 0;                            // 0: the trunks
    int order = 0;                            // levels - level: the trunks have the highest
    double bend = 0.0, waves = 1.0;           // drainage's meander: its bends across the line from `from` to `to`
    double vary = 0.0, head = 0.0;            // drainage's meander_vary: how its bends wander, over what share of a head they grow
    std::uint64_t coin = 0;                   // ... and the channel's own coin for them
    double gamma = 1.0;                       // its profile: water falls as (1 - t)^gamma along it (trunks straight unless bowed)
    /// Returns the channel's line at share t of the way from its source (0) to its end (1),
    /// its bends included.
    glm::dvec2 point(double t) const;
};

/// The proven range of one node over a box (graph check, tests).
struct GraphNodeRange {
    std::string id;
    std::string type;
    ValueRange range;
};

namespace graph {
struct Program;
}

/// The most node runs one sample of a graph's output may cost, from a cold start
/// (compile/cost.cpp): a node that reads an input at k other points (curvature 4, drainage a
/// few thousand from a cold network cache) runs that input's nodes k times more, and a node
/// on a grid four times, so chains and nests multiply. The presets cost at most 1.13e6
/// (alpine; `isoterra graph check` prints it); a graph past this bound, about 15 s for one
/// sample of chained curvature nodes on 2 cores of a Xeon, is refused when compiled.
inline constexpr double kGraphCostLimit = 1e8;

/// Returns a cost in node runs for messages: "1234" under a million, "3.5e+13" above.
std::string graph_cost_text(double runs);

/// What one sample of a graph's outputs costs in node runs, from a cold start.
struct GraphCost {
    double sdf = 0.0;
    double ground = 0.0;  // 0: no ground output
};

/// What the lattice path skipped: of the samples of 3D noises (simplex3 of the position),
/// those a min, max or CSG node proved unneeded; of the column nodes a mask multiplies
/// (one per node and column), those where the mask was 0.
struct GraphSkipCount {
    std::size_t noise_samples = 0;
    std::size_t skipped = 0;
    std::size_t masked_column_runs = 0;
    std::size_t masked_columns_skipped = 0;
};

/// A field defined by a graph, and its columns (ground and looks from its outputs, the
/// column nodes run once per column). Immutable; every call is thread-safe.
class GraphField final : public Field, public ColumnSource {
public:
    GraphField(std::shared_ptr<const graph::Program> program, std::uint32_t seed);
    ~GraphField() override;

    void sample_points(const glm::dvec3* points, std::size_t count, double* out) const override;
    void sample_lattice(const Lattice& lattice, float* out) const override;
    ValueRange bounds(const Box& box) const override;
    /// Every graph has columns (its column nodes); has_ground() tells whether a ground too.
    const ColumnSource* columns() const override { return this; }
    bool sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use = LatticeUse::values,
                                   const LatticeColumns* columns = nullptr, ColumnLooks* looks = nullptr) const override;
    /// bounds() with the ground output's range narrowed to `ground` (a survey's, which
    /// holds at the samples a chunk of its column reads), when the graph has a ground.
    ValueRange bounds_with_ground(const Box& box, const ValueRange& ground) const override;
    MaterialSample material(const glm::dvec3& p, const glm::dvec3& normal) const override;
    const MaterialRules& material_rules() const override;
    /// The `ground` output per column, when the graph has one.
    bool ground_heights(const Lattice& lattice, float* out) const override;
    /// The column part of lattices with `lattice`'s columns (every node that depends on x and
    /// z only, run once), with the ground heights when the graph has a ground.
    std::shared_ptr<const LatticeColumns> columns_of(const Lattice& lattice) const override;

    /// Returns the proven range of every node over `box`, in the graph's order.
    std::vector<GraphNodeRange> node_ranges(const Box& box) const;
    /// Returns the ground output at (x, z); NaN when the graph has none.
    double ground_height(double x, double z) const override;

    const std::string& name() const;
    const std::string& description() const;
    std::uint32_t seed() const { return seed_; }
    /// The graph's own seed, as its file gives it.
    std::uint32_t file_seed() const;
    /// Nodes after compilation (constants folded), outputs included.
    std::size_t node_count() const;
    /// What one sample of the sdf and of the ground costs (at most kGraphCostLimit each).
    GraphCost sample_cost() const;
    bool has_ground() const override;
    using ColumnSource::ground_bend;
    /// The file's `sea_level` (the sea renderers draw); very low (-1e9) when it has none.
    double sea_level_m() const override;
    /// The same graph with another seed.
    std::unique_ptr<GraphField> with_seed(std::uint32_t seed) const;
    /// Samples `lattice` as sample_lattice() does and counts the noise samples it skipped.
    GraphSkipCount count_skipped(const Lattice& lattice) const;
    /// The rasters its `heightmap` nodes read, in the graph's order.
    std::vector<GraphRaster> rasters() const;
    /// The channels of drainage node `id` whose sources lie in the rectangle from `lo` to `hi`
    /// (x, z), level by level; throws GraphError when the graph has no drainage node `id`.
    /// Thread-safe.
    std::vector<GraphChannel> channels(const std::string& id, const glm::dvec2& lo, const glm::dvec2& hi) const;

private:
    std::shared_ptr<const graph::Program> program_;
    std::uint32_t seed_;
    NoiseSet noise_;
    const TerrainParams* terrain_ = nullptr;  // a terrain node and its ground alone: their fused loop and bounds
};

/// What a world is made from: a knob terrain, or the text of a field graph; and its seed. The
/// programs and the world file take either.
struct TerrainSource {
    KnobTerrain knobs;  // when `graph` is empty
    std::string graph;  // a field graph's TOML text, checked
    std::string name;   // the knob terrain's or the graph's name
    std::uint32_t seed = 20261114;
    std::string directory;             // where a graph's heightmap files are ("": the working directory)
    std::vector<GraphRaster> rasters;  // what a graph's heightmap nodes read, with digests
    double graph_sea_level_m = -1e9;   // a graph's `sea_level`
    /// A graph as compiled when it was read, shared by copies: make_field() builds on it
    /// (no second compile) while `graph` and `directory` are what it was compiled from.
    struct Compiled {
        std::string text, directory;
        std::shared_ptr<const GraphField> field;
    };
    std::shared_ptr<const Compiled> compiled;

    bool is_graph() const { return !graph.empty(); }
    /// The sea level renderers draw: the knob terrain's or the graph's; very low (-1e9): none.
    double sea_level_m() const { return is_graph() ? graph_sea_level_m : knobs.terrain.sea_level_m; }
    /// Builds the field with `seed`. Throws GraphError only for text that was not checked.
    std::shared_ptr<const Field> make_field() const;
    /// The text to store (a world file's): the knob terrain's TOML, or the graph's text with its
    /// `seed` line set to `seed`; parse_terrain_source() reads it back to the same terrain.
    std::string to_text() const;
};

/// Returns how many graphs this process has compiled (parse_graph, load_graph_file): what
/// tests count to see that a command compiles its graph once.
std::size_t graph_compile_count();

/// Reads a knob terrain or a graph (a graph has a [node] table) from TOML `text`; `source` names
/// it in errors, a graph's heightmap files are read relative to `directory`. Throws
/// TerrainError (a KnobTerrainError for a knob terrain, a GraphError for a graph).
TerrainSource parse_terrain_source(const std::string& text, const std::string& source, const std::string& directory = "");
/// Reads a knob terrain or graph file (heightmap files relative to its folder); throws
/// TerrainError naming the file.
TerrainSource load_terrain_file(const std::string& path);
/// A built-in terrain (a preset: a knob terrain or field graph in presets/*.toml) as a terrain source; throws
/// KnobTerrainError for an unknown name.
TerrainSource builtin_terrain(const std::string& name);
/// A built-in terrain when `preset_or_path` is one's name, else the knob terrain or graph file at
/// that path (what the C API and the Python module take). Throws TerrainError: for a name
/// without '/' or '.' that is no built-in's, the unknown preset's message naming them all.
TerrainSource find_terrain(const std::string& preset_or_path);
/// Sets `terrain.seed` from a user's integer, negative ones as their 32-bit pattern (as
/// --seed does); throws TerrainError ("seed: expected ...") outside [-2^31, 2^32).
void set_terrain_seed(TerrainSource& terrain, std::int64_t seed);
/// The names of every built-in terrain (every preset), knob terrains and graphs, sorted.
std::vector<std::string> builtin_terrain_names();
/// `knobs` as a terrain source, with its own seed.
TerrainSource terrain_of(const KnobTerrain& knobs);

/// Parses and compiles graph TOML `text`; `source` names it in errors; `heightmap` files
/// are read relative to `directory`. Throws GraphError (RasterError for a raster).
std::unique_ptr<GraphField> parse_graph(const std::string& text, const std::string& source, const std::string& directory = "");
/// Reads, parses and compiles a graph file, its heightmap files relative to its folder;
/// throws GraphError naming the file.
std::unique_ptr<GraphField> load_graph_file(const std::string& path);
/// Returns true when TOML `text` is a graph rather than a knob terrain: a line opens a `[node]`
/// or `[node.ID]` table or sets a `node` key (a knob terrain has none).
bool is_graph_text(const std::string& text);
/// Returns `knobs` written as a graph: its terrain node for node, the same bits on the
/// point and lattice paths, the same materials (isoterra graph export).
std::string knob_terrain_to_graph(const KnobTerrain& knobs);
/// The heights a `heightmap` node accepts: within +-1e7 m (`isoterra heightmap` refuses to
/// write others, so every file it writes can be read back).
inline constexpr double kRasterHeightLimit_m = 1e7;
/// A height raster's pixels and placement, as a `heightmap` node reads them.
struct HeightRasterPixels {
    int width = 0, height = 0;
    std::vector<float> heights;     // metres, row by row (row r at z = from.y + r (to.y - from.y) / (height - 1)); NaN: no data
    glm::dvec2 from{0.0}, to{0.0};  // (x, z) of the centres of pixel (0, 0) and pixel (width - 1, height - 1)
};
/// Reads `path` as a `heightmap` node without placement does (a grey PNG with the sidecar
/// `isoterra heightmap` writes, or any raster GDAL reads, north -z), keeping no-data pixels
/// as NaN. Returns its pixels and placement. `planned_bytes_per_pixel`: what the caller will
/// hold per pixel after (a landform measure's arrays), planned with the reading's own arrays
/// against the memory budget once the size is known and before any pixel is read. Throws
/// RasterError (one line), MemoryBudgetError. Thread-safe.
HeightRasterPixels read_height_raster(const std::string& path, double planned_bytes_per_pixel = 0.0);

/// Returns the node type names, in the docs' order.
std::vector<std::string> graph_node_types();
/// Returns the inputs and formula of each node type, one line each, then the notes, for
/// `graph types`.
std::string describe_graph_node_types();
/// Returns the keys any node may take (grid_m, lod, detail_m, far, depth_m), a line each.
std::string graph_node_type_notes();
/// Returns every node type as JSON (`graph types --json`): {"node_types": [{name, formula,
/// outputs, inputs: [{name, doc, kind, required, unit, default, min, max, min_open, max_open}]}],
/// "keys_any_node_takes": the notes}; a null default or bound: none.
std::string describe_graph_node_types_json();

}  // namespace isoterra
