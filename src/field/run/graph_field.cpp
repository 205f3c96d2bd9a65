// GraphField: a compiled graph as a Field. Values come from the evaluator, bounds from the
// intervals of the sdf output, materials from the graph's rules with depth measured from
// its ground output.
#include <atomic>
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "field/compile/toml_files.hpp"
#include "field/compile/toml_shape.hpp"
#include "eval.hpp"
#include "intervals.hpp"
#include "lod.hpp"
#include "field/nodes/table.hpp"
#include "field/raster/height_raster.hpp"
#include "field/nodes/landform/landform.hpp"
#include "field/nodes/terrain/function.hpp"
#include "field/nodes/terrain/node.hpp"
#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"

namespace isoterra {

GraphField::GraphField(std::shared_ptr<const graph::Program> program, std::uint32_t seed)
    : program_(std::move(program)), seed_(seed), noise_(seed), terrain_(graph::fused_terrain(*program_)) {
    // A graph of a terrain node and its ground (a classic preset): its overhangs bend the
    // surface from the ground.
    if (terrain_) ground_bend_m_ = TerrainFunction(*terrain_, noise_).most_bend();
}

GraphField::~GraphField() = default;

// A graph of a terrain node and its ground alone runs the terrain function whole: its fused
// lattice loop, its columns and its bounds (the same values as node by node, faster).
void GraphField::sample_points(const glm::dvec3* points, std::size_t count, double* out) const {
    if (terrain_) return TerrainFunction(*terrain_, noise_).sample_points(points, count, out);
    graph::run_points(*program_, noise_, points, count, program_->sdf, out);
}

void GraphField::sample_lattice(const Lattice& lattice, float* out) const {
    if (terrain_) return TerrainFunction(*terrain_, noise_).sample_lattice_and_ground(lattice, out, nullptr, LatticeUse::values, nullptr);
    graph::run_lattice(*program_, noise_, lattice, out, {});
}

bool GraphField::sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use,
                                           const LatticeColumns* columns, ColumnLooks* looks) const {
    if (terrain_) {
        if (looks) looks->clear();
        TerrainFunction(*terrain_, noise_).sample_lattice_and_ground(lattice, values, ground, use, columns);
        return true;
    }
    const auto* given = columns && columns->fits(lattice) ? dynamic_cast<const graph::ColumnValues*>(columns->field_data.get()) : nullptr;
    graph::run_lattice(*program_, noise_, lattice, values, {ground, looks}, nullptr, given);
    return program_->has_ground;
}

std::shared_ptr<const LatticeColumns> GraphField::columns_of(const Lattice& lattice) const {
    if (terrain_) return TerrainFunction(*terrain_, noise_).columns_of(lattice);
    auto values = std::make_shared<graph::ColumnValues>(graph::column_values(*program_, noise_, lattice));
    auto out = std::make_shared<LatticeColumns>();
    out->origin = values->origin;
    out->size = values->size;
    out->spacing_m = values->spacing_m;
    out->lod_column_samples = values->lod_column_samples;
    out->lod_exact_samples = values->lod_exact_samples;
    if (program_->has_ground) {
        const graph::Operand& g = program_->ground;
        const double* h = g.is_constant() ? nullptr : values->get(g.node, g.port);
        out->height.resize(values->count);
        for (std::size_t c = 0; c < values->count; ++c) out->height[c] = h ? h[c] : g.constant;
    }
    out->field_data = std::move(values);
    return out;
}

ValueRange GraphField::bounds(const Box& box) const {
    if (terrain_) return TerrainFunction(*terrain_, noise_).bounds(box);
    return graph::operand_range(graph::node_intervals(*program_, noise_, box), program_->sdf);
}

ValueRange GraphField::bounds_with_ground(const Box& box, const ValueRange& ground) const {
    if (terrain_) return TerrainFunction(*terrain_, noise_).bounds_with_ground(box, ground);
    if (!program_->has_ground || program_->ground.is_constant() || !(ground.lo <= ground.hi)) return bounds(box);
    const graph::PinnedRange pin{program_->ground, ground};
    return graph::operand_range(graph::node_intervals(*program_, noise_, box, &pin), program_->sdf);
}

std::vector<GraphNodeRange> GraphField::node_ranges(const Box& box) const {
    const auto ranges = graph::node_intervals(*program_, noise_, box);
    std::vector<GraphNodeRange> out;
    for (std::size_t n = 0; n < program_->nodes.size(); ++n) {
        const graph::Node& node = program_->nodes[n];
        if (node.ports == 1) {
            out.push_back({node.id, node.type, ranges[n][0]});
            continue;
        }
        const std::vector<std::string> names = graph::port_names(*graph::find_node_type(node.type));
        for (int port = 0; port < node.ports; ++port)
            out.push_back({fmt::format("{}.{}", node.id, names[static_cast<std::size_t>(port)]), node.type,
                           ranges[n][static_cast<std::size_t>(port)]});
    }
    return out;
}

double GraphField::ground_height(double x, double z) const {
    if (terrain_) return TerrainFunction(*terrain_, noise_).surface_height(x, z);
    if (!program_->has_ground) return std::nan("");
    double h = 0.0;
    graph::run_columns(*program_, noise_, &x, &z, 1, program_->ground, &h);
    return h;
}

bool GraphField::ground_heights(const Lattice& lattice, float* out) const {
    if (!program_->has_ground) return false;
    if (terrain_) {
        TerrainFunction(*terrain_, noise_).ground_heights(lattice, out);
        return true;
    }
    const std::size_t n = static_cast<std::size_t>(lattice.size.x) * lattice.size.z;
    std::vector<double> xs(n), zs(n), h(n);
    for (int k = 0; k < lattice.size.z; ++k)
        for (int i = 0; i < lattice.size.x; ++i) {
            const glm::dvec3 p = lattice.position(i, 0, k);
            xs[static_cast<std::size_t>(k) * lattice.size.x + i] = p.x;
            zs[static_cast<std::size_t>(k) * lattice.size.x + i] = p.z;
        }
    const std::vector<double> lod = graph::lod_weights(*program_, lattice);  // in a World column: as its chunks sample it
    graph::run_columns(*program_, noise_, xs.data(), zs.data(), n, program_->ground, h.data(),
                       {lod.empty() ? nullptr : lod.data(), lattice.spacing_m});
    for (std::size_t c = 0; c < n; ++c) out[c] = static_cast<float>(h[c]);
    return true;
}

MaterialSample GraphField::material(const glm::dvec3& p, const glm::dvec3& normal) const {
    const double depth = program_->has_ground ? ground_height(p.x, p.z) - p.y : 0.0;
    return program_->materials.classify(p.y, normal, depth);
}

const MaterialRules& GraphField::material_rules() const { return program_->materials; }
const std::string& GraphField::name() const { return program_->name; }
const std::string& GraphField::description() const { return program_->description; }
std::uint32_t GraphField::file_seed() const { return program_->seed; }
bool GraphField::has_ground() const { return program_->has_ground; }
double GraphField::sea_level_m() const { return program_->sea_level; }

std::size_t GraphField::node_count() const {
    std::size_t n = 0;
    for (const graph::Node& node : program_->nodes) n += node.folded ? 0 : 1;
    return n;
}

GraphCost GraphField::sample_cost() const { return {program_->output_cost[0], program_->output_cost[1]}; }

GraphSkipCount GraphField::count_skipped(const Lattice& lattice) const {
    std::vector<float> values(lattice.count());
    graph::LatticeStats stats;
    graph::run_lattice(*program_, noise_, lattice, values.data(), {}, &stats);
    std::size_t noises = 0;
    for (const graph::Node& node : program_->nodes) noises += graph::is_lattice_noise(node);
    return {noises * lattice.count(), stats.skipped_samples, stats.masked_column_runs, stats.masked_columns_skipped};
}

std::vector<GraphRaster> GraphField::rasters() const {
    std::vector<GraphRaster> out;
    for (const graph::Node& node : program_->nodes)
        if (node.raster) out.push_back({node.raster->path, node.raster->digest});
    return out;
}

std::vector<GraphChannel> GraphField::channels(const std::string& id, const glm::dvec2& lo, const glm::dvec2& hi) const {
    for (const graph::Node& node : program_->nodes)
        if (node.id == id && node.is("drainage")) return graph::drainage_channels(*program_, noise_, node, lo, hi);
    throw GraphError(fmt::format("{}: no drainage node '{}'", program_->source, text_excerpt(id, 60)));
}

namespace {
std::atomic<std::size_t> compiles{0};
}  // namespace

std::size_t graph_compile_count() { return compiles.load(); }

std::unique_ptr<GraphField> parse_graph(const std::string& text, const std::string& source, const std::string& directory) {
    ++compiles;
    auto program = std::make_shared<graph::Program>(graph::compile_graph(text, source, directory));
    if (program->name.empty()) program->name = source;
    const std::uint32_t seed = program->seed;
    return std::make_unique<GraphField>(std::move(program), seed);
}

std::unique_ptr<GraphField> load_graph_file(const std::string& path) {
    std::string text;
    try {
        text = detail::read_small_file(path, "graph", std::size_t{1} << 20);
    } catch (const TerrainError& e) {
        throw GraphError(e.what());
    }
    return parse_graph(text, path, detail::folder_of(path));
}

bool is_graph_text(const std::string& text) {
    // Read as TOML, a graph is a table with a `node` table and a preset never has one: any
    // spelling of the key (quoted, dotted, a header), and nothing inside a string counts.
    try {
        detail::check_toml_shape(text, "text", std::size_t{1} << 20, 8);
        return toml::parse(text).contains("node");
    } catch (const std::exception&) {
        // Not TOML: a look at the lines, in one pass, so that the graph's parser rather than
        // the preset's names what is wrong in a graph ("[node]", "node.ID = ...").
        for (std::size_t start = 0; start < text.size();) {
            const std::size_t end = std::min(text.find('\n', start), text.size());
            std::size_t i = start;
            while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '[' || text[i] == '"')) ++i;
            if (text.compare(i, 4, "node") == 0 && i + 4 < end && text[i + 4] != '\0' && std::strchr("].\" =", text[i + 4])) return true;
            start = end + 1;
        }
        return false;
    }
}

std::vector<std::string> graph_node_types() {
    std::vector<std::string> names;
    for (const graph::NodeType& t : graph::node_types()) names.push_back(t.name);
    return names;
}

std::string describe_graph_node_types() {
    std::string out;
    for (const graph::NodeType& t : graph::node_types()) {
        std::string inputs;
        for (const graph::InputSpec& s : t.inputs) inputs += (inputs.empty() ? "" : ", ") + std::string(s.name) + (s.required ? "" : "?");
        out += fmt::format("{:<16} ({}): {}\n", t.name, inputs, t.formula);
    }
    return out + "\n" + graph_node_type_notes();
}

std::string graph_node_type_notes() {
    return "Any node of x and z alone may take grid_m = G: run at the nodes of a global G m grid, interpolated between.\n"
           "A noise (simplex2, fbm2, ridged2, simplex3, fbm3) may take lod = true: in the World, a coarse level leaves out "
           "its octaves under two of its samples.\n"
           "Any node of one output may take detail_m = D and far = F: in the World, a level whose two samples span more "
           "than D takes F instead (docs/guides/field-graphs.md, \"Detail where it shows\").\n"
           "Such a node of x, y and z may also take depth_m = H: F only where it lies more than H m under the ground "
           "output (caves no ray from above reaches).\n";
}

}  // namespace isoterra
