// The agent's flags and the navigation errors as the program's (see nav_cli.hpp).
#include "nav_cli.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace isoterra::app {

void AgentOptions::add_to(CLI::App& cmd) {
    // The ranges of validate_agent, checked as the flags are read; the rules between settings
    // (a cell that divides 32 m, a climb within the height) when the settings are taken.
    const AgentSettings d;
    cmd.add_option("--agent-height", agent.height_m, fmt::format("Agent's height, metres (default {:g})", d.height_m))
        ->check(finite_range(0.5, 10.0));
    cmd.add_option("--agent-radius", agent.radius_m, fmt::format("Agent's radius, metres (default {:g})", d.radius_m))
        ->check(finite_range(0.0, 5.0));
    cmd.add_option("--max-climb", agent.max_climb_m, fmt::format("Highest step walked up, metres (default {:g})", d.max_climb_m))
        ->check(finite_range(0.0, 5.0));
    cmd.add_option("--max-slope", agent.max_slope_deg, fmt::format("Steepest ground walked, degrees (default {:g})", d.max_slope_deg))
        ->check(finite_range(0.0, 85.0));
    cmd.add_option("--cell-size", agent.cell_size_m, fmt::format("Recast's cell, metres dividing 32 (default {:g})", d.cell_size_m))
        ->check(finite_range(0.125, 1.0));
    cmd.add_option("--cell-height", agent.cell_height_m, fmt::format("Recast's cell height, metres (default {:g})", d.cell_height_m))
        ->check(finite_range(0.05, 1.0));
}

AgentSettings AgentOptions::settings() const {
    if (const std::string problem = validate_agent(agent); !problem.empty()) throw UsageError("agent: " + problem);
    return agent;
}

TileRange nav_region(const glm::dvec2& from, const glm::dvec2& to) {
    try {
        return nav_tiles_covering(from, to);
    } catch (const NavError& e) {
        throw UsageError(e.what());
    }
}

NavMesh build_nav(const EditSession& session, const AgentSettings& agent, const TileRange& range, int threads) {
    try {
        return NavMesh(session.field(), session.deltas(), agent, range, threads);
    } catch (const NavError& e) {
        throw UsageError(e.what());
    }
}

NavPath find_nav_path(const EditSession& session, const AgentSettings& agent, const glm::dvec3& a, const glm::dvec3& b, double margin_m,
                      int threads, const std::string& from_what, const std::string& to_what) {
    const glm::dvec2 lo(std::min(a.x, b.x) - margin_m, std::min(a.z, b.z) - margin_m);
    const glm::dvec2 hi(std::max(a.x, b.x) + margin_m, std::max(a.z, b.z) + margin_m);
    const NavMesh nav = build_nav(session, agent, nav_region(lo, hi), threads);
    try {
        return nav.path(a, b, from_what, to_what);
    } catch (const NavError& e) {
        throw UsageError(e.what());
    }
}

}  // namespace isoterra::app
