// `isoterra presets` and `isoterra preset show NAME`.
#include <cstdio>

#include <fmt/format.h>

#include "cli.hpp"

namespace isoterra::app {

void register_presets(CLI::App& app) {
    auto* list = app.add_subcommand("presets", "List the built-in presets and field graphs, one line each");
    list->callback([] {
        for (const std::string& name : builtin_terrain_names()) {
            const TerrainSource t = builtin_terrain(name);
            fmt::print("{:<10} {}\n", name, t.is_graph() ? parse_graph(t.graph, name)->description() : t.knobs.description);
        }
    });

    auto* preset = app.add_subcommand("preset", "Show a built-in preset or field graph");
    preset->require_subcommand(1);
    auto* show = preset->add_subcommand("show", "Print a built-in preset or graph as TOML (save it, edit it, use --config)");
    static std::string name;
    show->add_option("NAME", name, "Preset name")->required();
    show->callback([] {
        try {
            fmt::print("{}", builtin_preset_text(name));
        } catch (const KnobTerrainError& e) {
            throw UsageError(e.what());
        }
    });
}

ISOTERRA_SUBCOMMAND(10, register_presets);

}  // namespace isoterra::app
