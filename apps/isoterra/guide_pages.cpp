// The docs page that explains each subcommand, named last in its --help ("Guide: ..."); a
// subcommand's own subcommands (graph check, edit sphere) name their parent's page. The
// pages are checked to exist by the docs tests (tests/docs/).
#include <map>
#include <string>

#include "cli.hpp"

namespace isoterra::app {
namespace {

const std::map<std::string, std::string>& guide_pages() {
    static const std::map<std::string, std::string> pages = {
        {"presets", "docs/getting-started/first-terrain.md"},
        {"preset", "docs/getting-started/first-terrain.md"},
        {"graph", "docs/guides/field-graphs.md"},
        {"sample", "docs/guides/field-graphs.md"},
        {"heightmap", "docs/getting-started/first-terrain.md"},
        {"mesh", "docs/getting-started/first-terrain.md"},
        {"slice", "docs/guides/field-graphs.md"},
        {"stats", "docs/guides/field-graphs.md"},
        {"landform", "docs/guides/landforms.md"},
        {"render", "docs/getting-started/first-terrain.md"},
        {"view", "docs/getting-started/first-terrain.md"},
        {"fly", "docs/guides/levels-of-detail.md"},
        {"bake", "docs/guides/baking.md"},
        {"navmesh", "docs/guides/navigation.md"},
        {"path", "docs/guides/navigation.md"},
        {"edit", "docs/getting-started/first-edit.md"},
        {"undo", "docs/getting-started/first-edit.md"},
        {"redo", "docs/getting-started/first-edit.md"},
        {"history", "docs/getting-started/first-edit.md"},
        {"bench", "docs/design/benchmarks.md"},
    };
    return pages;
}

void add_guide_line(CLI::App& cmd, const std::string& page) {
    const std::string footer = cmd.get_footer();
    cmd.footer(footer + (footer.empty() ? "" : "\n\n") + "Guide: " + page);
    for (CLI::App* sub : cmd.get_subcommands({})) add_guide_line(*sub, page);
}

}  // namespace

void add_guide_footers(CLI::App& app) {
    const std::string footer = app.get_footer();
    app.footer(footer + (footer.empty() ? "" : "\n\n") + "Guide: docs/index.md (getting started, guides, the reference of every command)");
    for (CLI::App* cmd : app.get_subcommands({})) {
        const auto page = guide_pages().find(cmd->get_name());
        if (page != guide_pages().end()) add_guide_line(*cmd, page->second);
    }
}

}  // namespace isoterra::app
