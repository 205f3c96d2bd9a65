// Shared pieces of the isoterra subcommands: error kinds with their exit codes, the
// --preset/--config/--seed trio, and parsing of "X,Y,Z" flags.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <CLI/CLI.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "isoterra/field.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/io.hpp"
#include "isoterra/world.hpp"

namespace isoterra::app {

/// Bad input from the user (a flag, a file, a value): exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
/// Something failed although the input was fine (a write, a resource): exit code 1.
struct Failure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// --preset NAME | --config FILE, and --seed N, for every generating subcommand.
struct FieldOptions {
    std::string preset_name = "tutorial";
    std::string config_path;
    std::optional<std::int64_t> seed;

    CLI::Option* preset_flag = nullptr;
    CLI::Option* config_flag = nullptr;
    CLI::Option* seed_flag = nullptr;

    void add_to(CLI::App& cmd);
    /// True when --preset, --config or --seed was given.
    bool given() const;
    /// Returns the chosen preset or graph with the --seed override applied; throws UsageError.
    TerrainSource load() const;
    /// Returns the field the options describe; throws UsageError.
    std::shared_ptr<const Field> build() const;
};

/// --radius, --view-distance, --threads, --mesher, --chunk-triangles and --triangle-budget, for every
/// subcommand that streams a World; --no-coarse-first for those that show it while it
/// streams (`live`).
struct WorldOptions {
    int radius = 8;
    double view_distance_m = 8000.0;
    int threads = 0;
    std::string mesher_name = meshers().front().name;
    bool live = false, no_coarse_first = false;
    std::size_t chunk_triangles = 0;
    std::size_t triangle_budget = WorldSettings{}.triangle_budget;

    void add_to(CLI::App& cmd, int max_radius, bool live_view = false);
    /// Returns the settings; throws UsageError for an unknown mesher.
    WorldSettings settings() const;
};

/// Throws a file that could not be written as the program's error: Failure (exit 1) when the
/// machine failed it (a full disk), UsageError (exit 2) when the path is unusable.
[[noreturn]] void throw_write_error(const IoError& e);
/// Throws now, as throw_write_error would later, when `path` cannot be written (its folder
/// missing or not writable, a device there): checked before a command's work and before it
/// creates a world file, so a command that cannot finish leaves nothing behind.
void require_writable(const std::string& path);
/// Parses a finite decimal number ("12", "-1.5e3"): no hex, inf, nan or blanks. Returns false
/// for anything else.
bool parse_decimal(const std::string& text, double& out);
/// A CLI11 check that a number lies in [lo, hi]; unlike CLI::Range it refuses nan.
CLI::Validator finite_range(double lo, double hi);
/// The check every integer flag takes: decimal digits with an optional minus sign, a value in
/// [lo, hi]. CLI11 alone reads "010" as octal 8 and "0x10" as hex; here 010 is ten (leading
/// zeros are decimal, as in coordinates; a sign may lead) and hex, binary, exponents, blanks
/// and separators are refused. The text is handed on to CLI11 without its leading zeros.
CLI::Validator decimal_integer(std::int64_t lo, std::int64_t hi);

/// Returns the mesher a --mesher value names; throws UsageError for an unknown one.
Mesher mesher_flag(const std::string& name);
/// Throws UsageError unless `path` ends in `extension` (".png"), naming `flag`.
void require_extension(const std::string& path, const std::string& extension, const std::string& flag);

/// Parses "X,Y,Z" for flag `flag`; throws UsageError naming the flag.
glm::dvec3 parse_vec3(const std::string& text, const std::string& flag);
/// Parses "A,B" for flag `flag`; throws UsageError naming the flag.
glm::dvec2 parse_vec2(const std::string& text, const std::string& flag);

/// --eye X,Y,Z and --target X,Y,Z: a camera given by flags (render, view).
struct EyeOptions {
    std::string eye, target;
    void add_to(CLI::App& cmd);
    /// The eye and the target, or none when neither flag is given; throws UsageError for
    /// one without the other or both at one point.
    std::optional<std::pair<glm::dvec3, glm::dvec3>> camera() const;
};

/// True when stderr is a terminal (progress lines go there only then).
bool stderr_is_terminal();

/// Lists a subcommand: its file says ISOTERRA_SUBCOMMAND(order, register_fn) once, at
/// namespace scope, and main() adds every one listed (add_subcommands), lowest order first
/// (the order of `isoterra --help`). Returns true.
bool list_subcommand(int order, void (*add)(CLI::App& app));
void add_subcommands(CLI::App& app);
/// Ends the program's --help and each subcommand's with "Guide: PAGE", the docs page that
/// explains it (guide_pages.cpp); call after add_subcommands.
void add_guide_footers(CLI::App& app);
#define ISOTERRA_SUBCOMMAND(order, add) [[maybe_unused]] static const bool add##_listed = list_subcommand(order, add)

}  // namespace isoterra::app
