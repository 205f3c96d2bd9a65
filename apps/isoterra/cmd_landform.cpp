// `isoterra landform`: whether the ground looks like land. Samples the ground of a preset or
// graph over a region (or reads a raster), then prints what landform/ measures: relief,
// closed pits, slope-area concavity, Hack's exponent, hypsometry and slopes; --flow writes
// the flow accumulation map with a sidecar that turns pixels back into square metres.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isoterra/io.hpp"
#include "isoterra/measure.hpp"
#include "landform_rivers.hpp"
#include "region.hpp"

namespace isoterra::app {
namespace {

struct LandformCommand {
    FieldOptions field;
    std::string raster, from = "-15000,-15000", to = "15000,15000", flow, rivers;
    double step = 75.0, river_area_km2 = 1.0;
    std::optional<double> sea_level;
    bool json = false, quiet = false, force = false;
    CLI::Option *raster_flag = nullptr, *from_flag = nullptr, *to_flag = nullptr;
};

constexpr int kSideLimit = 8192;  // as `heightmap` has it, unless --force

// What was measured and where, for the report.
struct Source {
    std::string kind, name;  // "preset", "graph" or "raster"; its name or path
    std::optional<std::uint32_t> seed;
    std::optional<double> sea_level_m;  // none: no sea
};

// The ground of the field over the --from/--to/--step grid, a row per job on every core.
// With --rivers, through the field's lattice (whole multiples of the step), which gives
// the water surface too.
HeightGrid sample_ground(const LandformCommand& opt, Source& source, std::vector<double>& water) {
    const TerrainSource terrain = opt.field.load();
    source.kind = terrain.is_graph() ? "graph" : "preset";
    source.name = opt.field.config_path.empty() ? opt.field.preset_name : opt.field.config_path;
    source.seed = terrain.seed;
    const ImageGrid g = image_grid(opt.from, opt.to, opt.step, kSideLimit, opt.force);
    if (g.width < 3 || g.height < 3)
        throw UsageError(fmt::format("--from/--to/--step: the region holds {}x{} samples; landform needs at least 3x3", g.width, g.height));
    check_memory_budget(static_cast<double>(g.width) * g.height * kLandformBytesPerCell,
                        fmt::format("landform of {}x{} cells", g.width, g.height));
    const auto field = terrain.make_field();
    if (!field->has_ground()) throw UsageError("landform: this field graph has no ground output ([output] ground = \"ID\")");
    const double sea = opt.sea_level ? *opt.sea_level : terrain.sea_level_m();
    if (sea > -1e9) source.sea_level_m = sea;
    if (!opt.rivers.empty()) {
        try {
            FieldGround ground = sample_field_ground(*field, g.from, g.to, opt.step, default_threads());
            water = std::move(ground.water);
            return std::move(ground.grid);
        } catch (const std::invalid_argument& e) {
            throw UsageError(fmt::format("--from/--to/--step: {}", e.what()));
        }
    }
    HeightGrid grid;
    grid.width = g.width, grid.height = g.height;
    grid.dx_m = grid.dz_m = opt.step;
    grid.origin = g.from;
    grid.heights.resize(grid.count());
    parallel_for(static_cast<std::size_t>(grid.height), default_threads(), "landform rows", opt.quiet, [&](std::size_t r) {
        for (int c = 0; c < grid.width; ++c)
            grid.heights[r * grid.width + c] = field->ground_height(g.from.x + c * opt.step, g.from.y + static_cast<double>(r) * opt.step);
    });
    return grid;
}

// A raster on its own pixel grid; x and z spacing as its placement gives them.
HeightGrid read_raster(const LandformCommand& opt, Source& source) {
    source.kind = "raster";
    source.name = opt.raster;
    if (opt.sea_level) source.sea_level_m = *opt.sea_level;
    HeightRasterPixels px;
    try {
        px = read_height_raster(opt.raster, kLandformBytesPerCell);
    } catch (const TerrainError& e) {
        throw UsageError(fmt::format("--raster: {}", e.what()));
    }
    if ((px.width > kSideLimit || px.height > kSideLimit) && !opt.force)
        throw UsageError(
            fmt::format("--raster: {} has {}x{} pixels, more than {} a side; add --force", opt.raster, px.width, px.height, kSideLimit));
    if (px.width < 3 || px.height < 3)
        throw UsageError(fmt::format("--raster: {} has {}x{} pixels; landform needs at least 3x3", opt.raster, px.width, px.height));
    HeightGrid grid;
    grid.width = px.width, grid.height = px.height;
    grid.dx_m = std::fabs(px.to.x - px.from.x) / (px.width - 1);
    grid.dz_m = std::fabs(px.to.y - px.from.y) / (px.height - 1);
    grid.origin = px.from;
    grid.heights.assign(px.heights.begin(), px.heights.end());
    return grid;
}

double share(std::size_t part, std::size_t whole) { return whole ? static_cast<double>(part) / static_cast<double>(whole) : 0.0; }

nlohmann::ordered_json report_json(const Source& source, const HeightGrid& grid, const LandformReport& r, const ChannelRange& channels) {
    nlohmann::ordered_json out;
    out["source"] = {{"kind", source.kind}, {"name", source.name}};
    if (source.seed) out["source"]["seed"] = *source.seed;
    const glm::dvec2 last = grid.origin + glm::dvec2((grid.width - 1) * grid.dx_m, (grid.height - 1) * grid.dz_m);
    out["region"] = {{"from", {grid.origin.x, grid.origin.y}},
                     {"to", {last.x, last.y}},
                     {"step_x", grid.dx_m},
                     {"step_z", grid.dz_m},
                     {"width", grid.width},
                     {"height", grid.height}};
    out["sea_level_m"] = source.sea_level_m ? nlohmann::ordered_json(*source.sea_level_m) : nlohmann::ordered_json(nullptr);
    out["relief_m"] = r.heights.relief_m;
    out["min_m"] = r.heights.min_m;
    out["max_m"] = r.heights.max_m;
    out["mean_m"] = r.heights.mean_m;
    out["cells"] = r.cells;
    out["land_cells"] = r.land_cells;
    out["sea_share"] = share(r.sea_cells, r.cells);
    out["no_data_share"] = share(r.no_data_cells, r.cells);
    out["pit_share"] = r.pit_share;
    out["theta"] = r.theta();
    out["theta_intercept"] = r.concavity.intercept;
    out["theta_r2"] = r.concavity.r2;
    out["theta_cells"] = r.concavity.count;
    out["hack_h"] = r.hack.slope;
    out["hack_r2"] = r.hack.r2;
    out["hack_cells"] = r.hack.count;
    out["channel_area_km2"] = {channels.min_area_m2 / 1e6, channels.max_area_m2 / 1e6};
    out["hypsometric_integral"] = r.heights.integral;
    out["mean_slope_deg"] = r.slopes.mean_deg;
    out["median_slope_deg"] = r.slopes.median_deg;
    out["slope_share_over_30"] = r.slopes.share_over_30;
    out["slope_share_over_45"] = r.slopes.share_over_45;
    nlohmann::ordered_json bins = nlohmann::ordered_json::array();
    for (std::size_t b = 0; b < r.slopes.bin_share.size(); ++b)
        bins.push_back(
            {{"from", b * SlopeStatistics::kBinDeg}, {"to", (b + 1) * SlopeStatistics::kBinDeg}, {"share", r.slopes.bin_share[b]}});
    out["slope_histogram_deg"] = bins;
    return out;
}

void print_text(const Source& source, const HeightGrid& grid, const LandformReport& r, double sample_s, double measure_s) {
    const glm::dvec2 last = grid.origin + glm::dvec2((grid.width - 1) * grid.dx_m, (grid.height - 1) * grid.dz_m);
    fmt::print("landform of {} '{}'{}: {}x{} cells of {:g} x {:g} m, from {:g},{:g} to {:g},{:g}\n", source.kind,
               printable(source.name, 200), source.seed ? fmt::format(" (seed {})", *source.seed) : "", grid.width, grid.height, grid.dx_m,
               grid.dz_m, grid.origin.x, grid.origin.y, last.x, last.y);
    fmt::print("land            {} of {} cells; {}; no data {:.1f} %\n", r.land_cells, r.cells,
               source.sea_level_m
                   ? fmt::format("sea {:.1f} % (ground below {:g} m)", 100.0 * share(r.sea_cells, r.cells), *source.sea_level_m)
                   : std::string("no sea level"),
               100.0 * share(r.no_data_cells, r.cells));
    fmt::print("relief          {:.1f} m ({:.1f} .. {:.1f} m, mean {:.1f} m)\n", r.heights.relief_m, r.heights.min_m, r.heights.max_m,
               r.heights.mean_m);
    fmt::print("hypsometry      integral {:.3f} (mean - min) / (max - min)\n", r.heights.integral);
    fmt::print("closed pits     {:.1f} % of the land filled more than 1 m deep\n", 100.0 * r.pit_share);
    fmt::print("concavity       theta {:.3f} (S ~ A^-theta; log10 ks {:.3f}, r2 {:.3f}, {} cells of 0.05-50 km2)\n", r.theta(),
               r.concavity.intercept, r.concavity.r2, r.concavity.count);
    fmt::print("Hack            h {:.3f} (L ~ A^h; r2 {:.3f}, {} cells)\n", r.hack.slope, r.hack.r2, r.hack.count);
    fmt::print("slopes          mean {:.1f} deg, median {:.1f} deg; over 30 deg {:.2f} %, over 45 deg {:.2f} %\n", r.slopes.mean_deg,
               r.slopes.median_deg, 100.0 * r.slopes.share_over_30, 100.0 * r.slopes.share_over_45);
    double most = 0.0;
    for (const double s : r.slopes.bin_share) most = std::max(most, s);
    for (std::size_t b = 0; b < r.slopes.bin_share.size(); ++b) {
        const double s = r.slopes.bin_share[b];
        if (s == 0.0 && b * SlopeStatistics::kBinDeg >= 45.0) continue;
        fmt::print("  {:>2g}-{:<2g} deg {:6.2f} % {}\n", b * SlopeStatistics::kBinDeg, (b + 1) * SlopeStatistics::kBinDeg, 100.0 * s,
                   std::string(most > 0.0 ? static_cast<std::size_t>(std::lround(s / most * 40.0)) : 0, '#'));
    }
    fmt::print("time            {:.2f} s reading, {:.3f} s measuring\n", sample_s, measure_s);
}

// The map and its sidecar, each written atomically; a sidecar that fails takes the map
// with it, so no map is left without the key to its pixels.
void write_flow_map(const std::string& path, const HeightGrid& grid, const FlowAccumulation& flow, const std::vector<CellKind>& kinds,
                    const Source& source) {
    const FlowMap map = flow_map(flow, kinds);
    const glm::dvec2 last = grid.origin + glm::dvec2((grid.width - 1) * grid.dx_m, (grid.height - 1) * grid.dz_m);
    nlohmann::ordered_json side;
    side["image"] = path.substr(path.find_last_of('/') + 1);
    side["width"] = grid.width;
    side["height"] = grid.height;
    side["step_x_m"] = grid.dx_m;
    side["step_z_m"] = grid.dz_m;
    side["from_xz_m"] = {grid.origin.x, grid.origin.y};
    side["to_xz_m"] = {last.x, last.y};
    side["source"] = {{"kind", source.kind}, {"name", source.name}};
    side["log10_min_area_m2"] = map.log10_min_m2;
    side["log10_max_area_m2"] = map.log10_max_m2;
    side["pixel_to_area"] =
        "area_m2 = 10^(log10_min_area_m2 + (pixel - 1) / 65534 * (log10_max_area_m2 - log10_min_area_m2)) for pixel >= 1; "
        "pixel 0 is sea or no data; row 0 is from_z, column 0 is from_x";
    const std::string sidecar = path.substr(0, path.size() - 4) + ".json";
    try {
        // Both or neither: the image is no use without its sidecar.
        write_files_atomically(
            {{path, encode_png(path, grid.width, grid.height, 1, 16, map.pixels.data())}, {sidecar, side.dump(2) + "\n"}});
    } catch (const IoError& e) {
        throw_write_error(e);
    }
    std::fprintf(stderr, "wrote %s (%dx%d, flow accumulation) and %s\n", printable(path).c_str(), grid.width, grid.height,
                 printable(sidecar).c_str());
}

}  // namespace

void register_landform(CLI::App& app) {
    static LandformCommand opt;
    auto* cmd = app.add_subcommand(
        "landform", "Measure whether the ground looks like land: pits, concavity, Hack's exponent, hypsometry, slopes; the flow map");
    opt.field.add_to(*cmd);
    opt.raster_flag =
        cmd->add_option("--raster", opt.raster, "Measure a raster instead: a 16-bit PNG with its sidecar, or what GDAL reads");
    opt.from_flag = cmd->add_option("--from", opt.from, "Corner X,Z (metres; default -15000,-15000)");
    opt.to_flag = cmd->add_option("--to", opt.to, "Opposite corner X,Z (default 15000,15000)");
    auto* step_flag = cmd->add_option("--step", opt.step, "Metres between samples (default 75)")->check(finite_range(0.001, 1e6));
    cmd->add_option("--sea-level", opt.sea_level, "Ground below this is sea, left out (default: the preset's; none for rasters)")
        ->check(finite_range(-1e9, 1e9));
    cmd->add_option("--flow", opt.flow, "Write the flow accumulation map: a 16-bit PNG (log-scaled) and a JSON sidecar");
    cmd->add_option("--rivers", opt.rivers,
                    "Write the river network: GeoJSON LineStrings [x, z, water level], one a reach between junctions, with "
                    "`order` (Strahler) and `width_m`; the report says how much they wander");
    cmd->add_option("--river-area", opt.river_area_km2, "With --rivers: the drainage area where a channel starts, km2 (default 1)")
        ->check(finite_range(1e-6, 1e6));
    cmd->add_flag("--json", opt.json, "Print one JSON object");
    cmd->add_flag("--force", opt.force, "Allow grids over 8192 cells a side");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    for (CLI::Option* o : {opt.field.preset_flag, opt.field.config_flag, opt.field.seed_flag, opt.from_flag, opt.to_flag, step_flag})
        opt.raster_flag->excludes(o);
    cmd->callback([] {
        if (!opt.field.given() && opt.raster_flag->count() == 0)
            throw UsageError("landform: give --preset NAME, --config FILE or --raster FILE");
        if (opt.from_flag->count() != opt.to_flag->count()) throw UsageError("--from/--to: give both or neither");
        if (!opt.flow.empty()) require_extension(opt.flow, ".png", "--flow");
        if (!opt.rivers.empty()) require_extension(opt.rivers, ".geojson", "--rivers");

        Source source;
        const auto start = std::chrono::steady_clock::now();
        std::vector<double> water;
        const HeightGrid grid = opt.raster_flag->count() ? read_raster(opt, source) : sample_ground(opt, source, water);
        const auto sampled = std::chrono::steady_clock::now();
        LandformOptions options;
        options.sea_level_m = source.sea_level_m ? *source.sea_level_m : -INFINITY;
        std::vector<CellKind> kinds;
        FlowAccumulation flow;
        LandformReport report;
        try {
            report = measure_landform(grid, options, &kinds, opt.flow.empty() ? nullptr : &flow);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        const auto measured = std::chrono::steady_clock::now();
        if (!opt.flow.empty()) write_flow_map(opt.flow, grid, flow, kinds, source);
        std::vector<RiverReach> reaches;
        RiverWander wander;
        if (!opt.rivers.empty()) {
            RiverOptions ro;
            ro.sea_level_m = options.sea_level_m;
            ro.min_area_m2 = opt.river_area_km2 * 1e6;
            reaches = river_network(grid, ro, water.empty() ? nullptr : &water);
            write_rivers(opt.rivers, reaches, ro, source.name);
            wander = measure_wander(reaches);
        }
        if (opt.json) {
            auto out = report_json(source, grid, report, options.channels);
            if (!opt.rivers.empty()) out["rivers"] = wander_json(wander, reaches.size());
            fmt::print("{}\n", out.dump(2));
            return;
        }
        const auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
        print_text(source, grid, report, seconds(start, sampled), seconds(sampled, measured));
        if (!opt.rivers.empty()) fmt::print("{}", wander_text(wander, reaches.size()));
    });
}

ISOTERRA_SUBCOMMAND(80, register_landform);

}  // namespace isoterra::app
