// `isoterra graph check FILE`, `graph export PRESET` and `graph types`: field graphs,
// checked, proven, and made from presets.
#include <cstdio>

#include <fmt/format.h>

#include "cli.hpp"
#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"

namespace isoterra::app {

namespace {

// "X0,Y0,Z0,X1,Y1,Z1" for --box: two corners, ordered.
Box parse_box(const std::string& text) {
    std::size_t comma = std::string::npos;
    for (int i = 0; i < 3; ++i) {
        comma = text.find(',', comma + 1);
        if (comma == std::string::npos) throw UsageError(fmt::format("--box: expected X0,Y0,Z0,X1,Y1,Z1, got '{}'", text_excerpt(text)));
    }
    const Box box{parse_vec3(text.substr(0, comma), "--box"), parse_vec3(text.substr(comma + 1), "--box")};
    for (int a = 0; a < 3; ++a)
        if (!(box.lo[a] <= box.hi[a]))
            throw UsageError(fmt::format("--box: the first corner must be below the second on every axis, got '{}'", text_excerpt(text)));
    return box;
}

}  // namespace

void register_graph(CLI::App& app) {
    auto* graph = app.add_subcommand(
        "graph", "Field graphs (terrain written as nodes): check a graph file, export a preset as one, list the node types");
    graph->require_subcommand(1);

    auto* check = graph->add_subcommand("check", "Validate a graph file; print its node count and the proven range of its sdf over --box");
    static std::string path, box_text = "-16,-16,-16,16,16,16";
    static bool per_node = false;
    check->add_option("FILE", path, "Graph file (TOML)")->required();
    check->add_option("--box", box_text, "X0,Y0,Z0,X1,Y1,Z1: the box the ranges are proven over (default -16,-16,-16,16,16,16)");
    check->add_flag("--nodes", per_node, "Also print every node's proven range");
    check->callback([] {
        const Box box = parse_box(box_text);
        std::unique_ptr<GraphField> g;
        try {
            g = load_graph_file(path);
        } catch (const TerrainError& e) {
            throw UsageError(e.what());
        }
        fmt::print("{}: graph '{}', {} nodes, seed {}, ground output: {}\n", printable(path), printable(g->name(), 100), g->node_count(),
                   g->file_seed(), g->has_ground() ? "yes" : "no");
        for (const GraphRaster& raster : g->rasters()) fmt::print("reads {} (digest {})\n", printable(raster.path), raster.digest);
        const GraphCost cost = g->sample_cost();
        fmt::print("one sample costs {} node runs (sdf){} from a cold start; a graph may cost {:.0e}\n", graph_cost_text(cost.sdf),
                   g->has_ground() ? fmt::format(", {} (ground)", graph_cost_text(cost.ground)) : "", kGraphCostLimit);
        const ValueRange r = g->bounds(box);
        fmt::print("sdf over {},{},{} to {},{},{}: [{}, {}]{}\n", box.lo.x, box.lo.y, box.lo.z, box.hi.x, box.hi.y, box.hi.z, r.lo, r.hi,
                   r.may_cross_zero() ? "" : (r.lo > 0.0 ? " (all air)" : " (all solid)"));
        if (per_node)
            for (const GraphNodeRange& n : g->node_ranges(box))
                fmt::print("  {:<16} {:<16} [{}, {}]\n", n.id, n.type, n.range.lo, n.range.hi);
    });

    auto* exporter = graph->add_subcommand("export", "Print a preset as a graph: the same terrain, bit for bit (save it, edit it)");
    static std::string preset_name, preset_path;
    auto* name_flag = exporter->add_option("PRESET", preset_name, "Built-in preset (see `isoterra presets`)");
    exporter->add_option("--config", preset_path, "A preset file instead of a built-in")->excludes(name_flag);
    exporter->callback([] {
        if (preset_name.empty() && preset_path.empty()) throw UsageError("graph export: name a built-in preset or give --config FILE");
        try {
            // A built-in graph is its own export.
            if (preset_path.empty() && is_graph_text(builtin_preset_text(preset_name))) {
                std::fputs(builtin_preset_text(preset_name).c_str(), stdout);
                return;
            }
            const KnobTerrain p = preset_path.empty() ? builtin_knob_terrain(preset_name) : load_knob_terrain_file(preset_path);
            std::fputs(knob_terrain_to_graph(p).c_str(), stdout);
        } catch (const TerrainError& e) {
            throw UsageError(e.what());
        }
    });

    auto* types = graph->add_subcommand("types",
                                        "List the node types with their inputs (? = optional) and formulas, and the keys any node takes "
                                        "(grid_m, lod, detail_m, far, depth_m)");
    static bool types_json = false;
    types->add_flag("--json", types_json,
                    "Print them as JSON instead: each type's formula, outputs and inputs (kind, required, unit, default, range)");
    types->callback([] { std::fputs((types_json ? describe_graph_node_types_json() : describe_graph_node_types()).c_str(), stdout); });
}

ISOTERRA_SUBCOMMAND(20, register_graph);

}  // namespace isoterra::app
