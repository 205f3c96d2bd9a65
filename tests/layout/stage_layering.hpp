// The layering plan of docs/design/architecture.md, read from its stage table, and the places where
// the tree departs from it: an #include of a stage a stage may not use, another stage's
// private header, or a CMake stage target that links other stages than its row names.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace isoterra::layout {

struct StagePlan {
    // stage -> the stages its "may use" column names (empty for "nothing")
    std::map<std::string, std::set<std::string>> may_use;
    // public header file name -> its stage ("field.hpp" -> "field")
    std::map<std::string, std::string> header_stage;
};

// The rows of the stage table whose first cell is `src/<stage>/`.
StagePlan read_stage_plan(const std::string& architecture_md);

// The stages a stage may include: its own, those it may use, and what those may use in turn
// (their public headers bring their own).
std::set<std::string> reachable_stages(const StagePlan& plan, const std::string& stage);

// stage -> the stages after USES in each `isoterra_stage(NAME USES ...)` of a CMakeLists.txt.
std::map<std::string, std::set<std::string>> read_cmake_stage_links(const std::string& cmake_lists);

// Every departure from the plan in the tree at `root` (docs/design/architecture.md, CMakeLists.txt,
// src/, include/isoterra/), one line each, naming the file and what it should not do.
std::vector<std::string> layering_violations(const std::filesystem::path& root);

}  // namespace isoterra::layout
