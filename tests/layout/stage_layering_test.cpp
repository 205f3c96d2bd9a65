// The stages keep to the plan of docs/design/architecture.md: every file of src/<stage>/ and every
// public header includes only the stages its row lets it use, no stage reaches into another's
// private headers, and CMakeLists.txt links each stage target to exactly its row's stages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "stage_layering.hpp"
#include "temp_files.hpp"

namespace fs = std::filesystem;
using namespace isoterra::layout;

namespace {

void write_text(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

}  // namespace

TEST(StageLayering, the_table_names_every_stage_folder_and_what_each_may_use) {
    const auto plan = read_stage_plan(isoterra::test::read_bytes(fs::path(ISOTERRA_SOURCE_DIR) / "docs" / "design" / "architecture.md"));
    std::set<std::string> folders;
    for (const auto& entry : fs::directory_iterator(fs::path(ISOTERRA_SOURCE_DIR) / "src"))
        if (entry.is_directory()) folders.insert(entry.path().filename().string());
    std::set<std::string> rows;
    for (const auto& [stage, uses] : plan.may_use) rows.insert(stage);
    EXPECT_EQ(rows, folders);
    EXPECT_EQ(plan.may_use.at("bake"), (std::set<std::string>{"base", "io", "world"}));
    EXPECT_TRUE(plan.may_use.at("noise").empty());
    EXPECT_EQ(plan.header_stage.at("graph.hpp"), "field");
    // What a stage may include reaches through the stages it uses.
    EXPECT_EQ(reachable_stages(plan, "mesh"), (std::set<std::string>{"mesh", "grid", "field", "noise", "base"}));
    EXPECT_FALSE(reachable_stages(plan, "bake").contains("measure"));
    EXPECT_EQ(reachable_stages(plan, "noise"), std::set<std::string>{"noise"});
}

TEST(StageLayering, the_cmake_stage_targets_link_exactly_what_the_table_allows) {
    const auto links = read_cmake_stage_links(isoterra::test::read_bytes(fs::path(ISOTERRA_SOURCE_DIR) / "CMakeLists.txt"));
    EXPECT_EQ(links.size(), 13u);
    EXPECT_EQ(links.at("nav"), (std::set<std::string>{"base", "edit", "world"}));
    EXPECT_EQ(links.at("store"), (std::set<std::string>{"base", "edit", "field"}));
    EXPECT_EQ(links.at("session"), (std::set<std::string>{"store", "world"}));
    EXPECT_TRUE(links.at("base").empty());
}

TEST(StageLayering, every_include_in_the_tree_keeps_to_the_plan) {
    const auto violations = layering_violations(ISOTERRA_SOURCE_DIR);
    for (const auto& violation : violations) ADD_FAILURE() << violation;
    EXPECT_TRUE(violations.empty());
}

// A small tree with one of each fault: the check names each, and nothing else.
TEST(StageLayering, a_wrong_include_a_private_header_and_a_wrong_link_are_each_found) {
    const fs::path root = isoterra::test::fresh_folder("layering_tree");
    write_text(root / "docs" / "design" / "architecture.md",
               "| stage | owns | may use | public header |\n|---|---|---|---|\n"
               "| `src/base/` | shared | nothing | `base.hpp` |\n"
               "| `src/grid/` | chunks | base | `grid.hpp` |\n"
               "| `src/mesh/` | meshers | grid | `mesh.hpp` |\n"
               "| `src/store/` | files | base | `store.hpp` |\n"
               "| `src/simd/` | internal headers | nothing | — |\n");
    write_text(root / "CMakeLists.txt",
               "# isoterra_stage(NAME [USES stage...])\n"
               "isoterra_stage(base LINKS fmt::fmt)\nisoterra_stage(grid USES base)\n"
               "isoterra_stage(mesh USES grid\n    LINKS m)  # two lines\nisoterra_stage(store USES base grid)\n");
    for (const auto* header : {"base.hpp", "grid.hpp", "mesh.hpp", "store.hpp"})
        write_text(root / "include" / "isoterra" / header, "#pragma once\n");
    write_text(root / "include" / "isoterra" / "grid.hpp", "#pragma once\n#include \"isoterra/base.hpp\"\n");
    write_text(root / "src" / "simd" / "clones.hpp", "#pragma once\n");
    write_text(root / "src" / "base" / "private.hpp", "#pragma once\n");
    // mesh may use grid and, through it, base: these are fine.
    write_text(root / "src" / "mesh" / "mesher.cpp",
               "#include \"isoterra/mesh.hpp\"\n#include \"isoterra/base.hpp\"\n#include \"simd/clones.hpp\"\n"
               "#include <vector>\n#include \"../../src/simd/clones.hpp\"\n");
    // base may use nothing; store reaches into base's private header.
    write_text(root / "src" / "base" / "shared.cpp", "#include \"isoterra/base.hpp\"\n  #  include <isoterra/mesh.hpp>\n");
    write_text(root / "src" / "store" / "file.cpp", "#include \"isoterra/store.hpp\"\n#include \"../base/private.hpp\"\n");

    const auto violations = layering_violations(root);
    const std::vector<std::string> expected{
        "CMakeLists.txt: stage store links base, grid but docs/design/architecture.md says it may use base",
        "src/base/shared.cpp: includes isoterra/mesh.hpp (stage mesh), which base may not use",
        "src/store/file.cpp: includes src/base/private.hpp, a private header of base",
    };
    EXPECT_EQ(violations, expected);
    fs::remove_all(root);
}
