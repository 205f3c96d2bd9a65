// What `isoterra navmesh` and `isoterra path` share: the agent's flags, the region and the
// navigation mesh built with the program's errors.
#pragma once

#include "cli.hpp"
#include "edit_session.hpp"
#include "isoterra/nav.hpp"

namespace isoterra::app {

/// The exit code of `path` when both points are on walkable ground and no path joins them.
inline constexpr int kNoPathExitCode = 3;

/// --agent-height, --agent-radius, --max-climb, --max-slope, --cell-size, --cell-height.
struct AgentOptions {
    AgentSettings agent;
    void add_to(CLI::App& cmd);
    /// Returns the settings; throws UsageError naming the flag of one out of range.
    AgentSettings settings() const;
};

/// Returns the tiles covering [from, to) in x and z; throws UsageError for a bad region.
TileRange nav_region(const glm::dvec2& from, const glm::dvec2& to);

/// Builds the navigation mesh of `range` over the session's terrain and edits; throws
/// UsageError for input the library refuses.
NavMesh build_nav(const EditSession& session, const AgentSettings& agent, const TileRange& range, int threads);

/// Returns the path from `a` to `b` over the tiles around both, `margin_m` more on every
/// side (for detours); throws UsageError naming `from_what` or `to_what` for a point off
/// walkable ground or a region the library refuses, NoPathError when nothing joins them.
NavPath find_nav_path(const EditSession& session, const AgentSettings& agent, const glm::dvec3& a, const glm::dvec3& b, double margin_m,
                      int threads, const std::string& from_what, const std::string& to_what);

}  // namespace isoterra::app
