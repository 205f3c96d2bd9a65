#include "cli.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "isoterra/io.hpp"

namespace isoterra::app {

void FieldOptions::add_to(CLI::App& cmd) {
    preset_flag = cmd.add_option("--preset", preset_name, "Built-in preset (see `isoterra presets`)");
    config_flag = cmd.add_option("--config", config_path, "Knob terrain or field graph file (TOML) instead of a built-in");
    preset_flag->excludes(config_flag);
    seed_flag =
        cmd.add_option("--seed", seed, "World seed (default: the preset's)")->transform(decimal_integer(-2147483648LL, 4294967295LL));
}

bool FieldOptions::given() const {
    return (preset_flag && preset_flag->count() > 0) || (config_flag && config_flag->count() > 0) || (seed_flag && seed_flag->count() > 0);
}

TerrainSource FieldOptions::load() const {
    TerrainSource terrain;
    try {
        terrain = config_path.empty() ? builtin_terrain(preset_name) : load_terrain_file(config_path);
    } catch (const TerrainError& e) {
        throw UsageError(e.what());
    }
    try {
        if (seed) set_terrain_seed(terrain, *seed);
    } catch (const TerrainError& e) {
        throw UsageError(fmt::format("--{}", e.what()));  // "--seed: expected ..."
    }
    return terrain;
}

std::shared_ptr<const Field> FieldOptions::build() const { return load().make_field(); }

void WorldOptions::add_to(CLI::App& cmd, int max_radius, bool live_view) {
    live = live_view;
    cmd.add_option("--radius", radius, "Chunks per ring of each level of detail (default 8)")->transform(decimal_integer(1, max_radius));
    cmd.add_option("--view-distance", view_distance_m,
                   "Metres the world reaches, in levels of detail twice as coarse ring after ring (default 8000)")
        ->check(finite_range(16.0, 200000.0));
    cmd.add_option("--threads", threads, "Worker threads (default: cores - 1, at least 1)")->transform(decimal_integer(0, 256));
    cmd.add_option("--mesher", mesher_name, mesher_names(" | "));
    cmd.add_option("--chunk-triangles", chunk_triangles,
                   "Simplify marching cubes' chunks of level 1 and coarser towards N triangles, by at most about half their spacing "
                   "(default 0: none)")
        ->transform(decimal_integer(0, std::int64_t{1} << 24));
    cmd.add_option("--triangle-budget", triangle_budget,
                   "Triangles the whole view may show: the rings narrow below --radius until the view is estimated within it, "
                   "from the columns around the camera (default 6000000; 0: no limit)")
        ->transform(decimal_integer(0, std::int64_t{1} << 32));
    // What is shown only once settled (render, mesh --around) needs no stand-ins.
    if (live)
        cmd.add_flag("--no-coarse-first", no_coarse_first,
                     "Build each column at its target level only (by default the coarsest levels come first and stand in)");
}

WorldSettings WorldOptions::settings() const {
    WorldSettings s;
    s.view_radius = radius;
    s.view_distance_m = view_distance_m;
    s.threads = threads;
    s.mesher = mesher_flag(mesher_name);
    s.coarse_first = live && !no_coarse_first;
    s.chunk_triangles = chunk_triangles;
    s.triangle_budget = triangle_budget;
    return s;
}

void throw_write_error(const IoError& e) {
    if (e.failed()) throw Failure(e.what());
    throw UsageError(e.what());
}

void require_writable(const std::string& path) {
    try {
        check_output_file(path);
    } catch (const IoError& e) {
        throw_write_error(e);
    }
}

bool parse_decimal(const std::string& text, double& out) {
    // Digits, a point, an exponent and signs only: strtod alone would take "0x10" (hex), "inf",
    // "nan" and leading blanks.
    if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(out);
}

CLI::Validator finite_range(double lo, double hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            double v = 0.0;
            if (!parse_decimal(text, v) || v < lo || v > hi)
                return fmt::format("expected a number from {} to {}, got '{}'", lo, hi, text_excerpt(text));
            return {};
        },
        fmt::format("NUMBER in [{} - {}]", lo, hi));
}

CLI::Validator decimal_integer(std::int64_t lo, std::int64_t hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            const std::size_t sign = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
            const std::string number = text.substr(text[0] == '+' ? 1 : 0);  // from_chars takes '-' only
            std::int64_t v = 0;
            const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), v);  // base 10 only
            if (text.size() == sign || text.find_first_not_of("0123456789", sign) != std::string::npos || error != std::errc() ||
                end != number.data() + number.size() || v < lo || v > hi)
                return fmt::format("expected a decimal whole number from {} to {}, got '{}'", lo, hi, text_excerpt(text));
            text = std::to_string(v);
            return {};
        },
        fmt::format("DECIMAL in [{} - {}]", lo, hi));
}

Mesher mesher_flag(const std::string& name) {
    Mesher m;
    if (!parse_mesher(name, m)) throw UsageError(fmt::format("--mesher: unknown mesher '{}' ({})", name, mesher_names(", ")));
    return m;
}

void require_extension(const std::string& path, const std::string& extension, const std::string& flag) {
    if (path.size() <= extension.size() || path.compare(path.size() - extension.size(), extension.size(), extension) != 0)
        throw UsageError(fmt::format("{}: '{}' does not end in {}", flag, path, extension));
}

namespace {

std::vector<double> parse_list(const std::string& text, const std::string& flag, std::size_t count) {
    std::vector<double> values;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ',')) {
        // Blanks around a number are allowed ("1, 2, 3"), nothing else but the number.
        const std::size_t first = part.find_first_not_of(" \t"), last = part.find_last_not_of(" \t");
        const std::string number = first == std::string::npos ? "" : part.substr(first, last - first + 1);
        double v = 0.0;
        if (!parse_decimal(number, v))
            throw UsageError(fmt::format("{}: expected {} finite numbers separated by commas, got '{}'", flag, count, text_excerpt(text)));
        if (const char* why = coordinate_problem(v); *why) throw UsageError(fmt::format("{}: {}, got '{}'", flag, why, text_excerpt(text)));
        values.push_back(v);
    }
    if (values.size() != count)
        throw UsageError(fmt::format("{}: expected {} finite numbers separated by commas, got '{}'", flag, count, text_excerpt(text)));
    return values;
}

}  // namespace

glm::dvec3 parse_vec3(const std::string& text, const std::string& flag) {
    const auto v = parse_list(text, flag, 3);
    return {v[0], v[1], v[2]};
}

glm::dvec2 parse_vec2(const std::string& text, const std::string& flag) {
    const auto v = parse_list(text, flag, 2);
    return {v[0], v[1]};
}

void EyeOptions::add_to(CLI::App& cmd) {
    cmd.add_option("--eye", eye, "Camera position X,Y,Z (metres; default: where the viewer starts, 40 m above the ground)");
    cmd.add_option("--target", target, "Point the camera looks at X,Y,Z (with --eye)");
}

std::optional<std::pair<glm::dvec3, glm::dvec3>> EyeOptions::camera() const {
    if (eye.empty() != target.empty()) throw UsageError("--eye/--target: give both, or neither for the viewer's start");
    if (eye.empty()) return std::nullopt;
    const glm::dvec3 e = parse_vec3(eye, "--eye"), t = parse_vec3(target, "--target");
    if (e == t) throw UsageError("--eye/--target: the camera needs a direction; they are the same point");
    return std::pair{e, t};
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

namespace {
// Filled while the program's statics are made, before main().
std::vector<std::pair<int, void (*)(CLI::App&)>>& listed_subcommands() {
    static std::vector<std::pair<int, void (*)(CLI::App&)>> listed;
    return listed;
}
}  // namespace

bool list_subcommand(int order, void (*add)(CLI::App& app)) {
    listed_subcommands().emplace_back(order, add);
    return true;
}

void add_subcommands(CLI::App& app) {
    auto listed = listed_subcommands();
    std::sort(listed.begin(), listed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [order, add] : listed) add(app);
}

}  // namespace isoterra::app
