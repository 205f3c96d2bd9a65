#include "stage_layering.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

#include "temp_files.hpp"

namespace isoterra::layout {
namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t`");
    if (first == std::string::npos) return {};
    const auto last = text.find_last_not_of(" \t`");
    return text.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream stream(text);
    while (std::getline(stream, part, separator)) parts.push_back(part);
    return parts;
}

std::string join(const std::set<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text.empty() ? "nothing" : text;
}

// CMake text without its comments: a '#' that starts a line or follows a blank.
std::string without_comments(const std::string& cmake_lists) {
    std::string kept;
    for (const auto& line : split(cmake_lists, '\n')) {
        std::size_t cut = line.size();
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
                cut = i;
                break;
            }
        }
        kept += line.substr(0, cut) + '\n';
    }
    return kept;
}

// The #include lines of one file that break the plan for its stage.
void check_includes(const fs::path& root, const fs::path& file, const std::string& stage, const StagePlan& plan,
                    std::vector<std::string>& violations) {
    static const std::regex include_line(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
    const auto allowed = reachable_stages(plan, stage);
    const auto shown = fs::relative(file, root).generic_string();
    for (const auto& line : split(test::read_bytes(file), '\n')) {
        std::smatch match;
        if (!std::regex_search(line, match, include_line)) continue;
        const std::string included = match[1];
        if (included.rfind("isoterra/", 0) == 0) {
            const auto header = included.substr(9);
            const auto owner = plan.header_stage.find(header);
            if (owner == plan.header_stage.end())
                violations.push_back(shown + ": includes " + included + ", which is no stage's public header");
            else if (!allowed.contains(owner->second))
                violations.push_back(shown + ": includes " + included + " (stage " + owner->second + "), which " + stage + " may not use");
            continue;
        }
        const auto resolved = (file.parent_path() / included).lexically_normal();
        if (!fs::exists(resolved)) continue;  // a system, library or generated header
        const auto inside_src = fs::relative(resolved, root / "src");
        if (inside_src.empty()) continue;
        const auto other = inside_src.begin()->string();
        if (other == ".." || other == stage || other == "simd") continue;
        violations.push_back(shown + ": includes src/" + inside_src.generic_string() + ", a private header of " + other);
    }
}

}  // namespace

StagePlan read_stage_plan(const std::string& architecture_md) {
    StagePlan plan;
    for (const auto& line : split(architecture_md, '\n')) {
        if (line.rfind("| `src/", 0) != 0) continue;
        const auto cells = split(line, '|');  // "", stage, owns, may use, public header
        if (cells.size() < 5) continue;
        const auto folder = trim(cells[1]);  // src/<stage>/
        const auto stage = folder.substr(4, folder.size() - 5);
        auto& uses = plan.may_use[stage];
        for (const auto& name : split(cells[3], ',')) {
            const auto used = trim(name);
            if (!used.empty() && used != "nothing") uses.insert(used);
        }
        static const std::regex header_name(R"(`([a-z_]+\.hpp)`)");
        for (std::sregex_iterator it(cells[4].begin(), cells[4].end(), header_name), end; it != end; ++it)
            plan.header_stage[(*it)[1]] = stage;
    }
    return plan;
}

std::set<std::string> reachable_stages(const StagePlan& plan, const std::string& stage) {
    std::set<std::string> reached{stage};
    std::vector<std::string> pending{stage};
    while (!pending.empty()) {
        const auto next = pending.back();
        pending.pop_back();
        const auto row = plan.may_use.find(next);
        if (row == plan.may_use.end()) continue;
        for (const auto& used : row->second)
            if (reached.insert(used).second) pending.push_back(used);
    }
    return reached;
}

std::map<std::string, std::set<std::string>> read_cmake_stage_links(const std::string& cmake_lists) {
    std::map<std::string, std::set<std::string>> links;
    const auto text = without_comments(cmake_lists);
    static const std::regex call(R"(isoterra_stage\(\s*([a-z_]+)([^)]*)\))");
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it) {
        auto& uses = links[(*it)[1]];
        std::istringstream words((*it)[2]);
        std::string word;
        bool in_uses = false;
        while (words >> word) {
            if (word == "USES" || word == "LINKS" || word == "SOURCES") in_uses = word == "USES";
            else if (in_uses) uses.insert(word);
        }
    }
    return links;
}

std::vector<std::string> layering_violations(const fs::path& root) {
    std::vector<std::string> violations;
    const auto plan = read_stage_plan(test::read_bytes(root / "docs" / "design" / "architecture.md"));
    if (plan.may_use.empty()) return {"docs/design/architecture.md: no stage table (rows starting | `src/<stage>/` |)"};

    // Each stage with code is a CMake target linking exactly the stages of its row.
    const auto links = read_cmake_stage_links(test::read_bytes(root / "CMakeLists.txt"));
    for (const auto& [stage, uses] : plan.may_use) {
        const bool has_code = stage != "simd";
        const auto target = links.find(stage);
        if (has_code && target == links.end()) violations.push_back("CMakeLists.txt: no isoterra_stage(" + stage + " ...)");
        else if (has_code && target->second != uses)
            violations.push_back("CMakeLists.txt: stage " + stage + " links " + join(target->second) +
                                 " but docs/design/architecture.md says it may use " + join(uses));
    }
    for (const auto& [stage, uses] : links)
        if (!plan.may_use.contains(stage))
            violations.push_back("CMakeLists.txt: stage " + stage + " is not in docs/design/architecture.md's table");

    std::vector<std::pair<fs::path, std::string>> files;  // file, its stage
    for (const auto& folder : fs::directory_iterator(root / "src")) {
        const auto stage = folder.path().filename().string();
        if (!folder.is_directory()) continue;
        if (!plan.may_use.contains(stage)) {
            violations.push_back("src/" + stage + "/: not in docs/design/architecture.md's stage table");
            continue;
        }
        for (const auto& entry : fs::recursive_directory_iterator(folder.path()))
            if (entry.is_regular_file()) files.emplace_back(entry.path(), stage);
    }
    for (const auto& entry : fs::directory_iterator(root / "include" / "isoterra")) {
        const auto name = entry.path().filename().string();
        if (entry.path().extension() != ".hpp") continue;  // isoterra.h is the C API's, not a stage's
        const auto owner = plan.header_stage.find(name);
        if (owner == plan.header_stage.end()) violations.push_back("include/isoterra/" + name + ": no stage names it as its public header");
        else files.emplace_back(entry.path(), owner->second);
    }
    std::sort(files.begin(), files.end());
    for (const auto& [file, stage] : files) check_includes(root, file, stage, plan, violations);
    return violations;
}

}  // namespace isoterra::layout
