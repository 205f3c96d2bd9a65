// A bake's settings (bake.json), its jobs in their fixed order, and where each file goes.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isoterra/base.hpp"
#include "isoterra/bake.hpp"

namespace isoterra {

std::string BakeSettings::to_json() const {
    nlohmann::ordered_json j;
    j["format"] = "isoterra bake 1";
    j["terrain"] = {{"name", terrain_name}, {"seed", seed}, {"sha256", terrain_sha256}};
    j["world_edits_sha256"] = world_sha256;
    j["levels"] = levels;
    j["job_levels"] = job_levels;
    j["root_columns"] = {{"level", levels - 1}, {"x", {x0, x1}}, {"z", {z0, z1}}};
    j["from_m"] = {from_m().x, from_m().y};
    j["to_m"] = {to_m().x, to_m().y};
    j["mesher"] = mesher_name(mesher);
    j["heightmaps"] = heightmaps;
    j["floor_m"] = lowest_layer * kChunkSize;
    if (compress) j["compressed_glb"] = true;  // absent in plain bakes: their files stay as they were
    return j.dump(2) + "\n";
}

BakeSettings BakeSettings::from_json(const std::string& text, const std::string& source) {
    BakeSettings s;
    try {
        const auto j = nlohmann::json::parse(text);
        if (j.at("format") != "isoterra bake 1") throw BakeError(fmt::format("{}: not a bake of this version (format)", source));
        s.terrain_name = j.at("terrain").at("name").get<std::string>();
        s.seed = j.at("terrain").at("seed").get<std::uint32_t>();
        s.terrain_sha256 = j.at("terrain").at("sha256").get<std::string>();
        s.world_sha256 = j.at("world_edits_sha256").get<std::string>();
        // Whole numbers read as 64-bit and checked before they become ints (an edited file
        // with 5e9 wrapped around).
        const auto whole = [&](const nlohmann::json& v, std::int64_t lo, std::int64_t hi) {
            if (!v.is_number_integer()) throw BakeError(fmt::format("{}: {} is not a whole number", source, text_excerpt(v.dump(), 40)));
            const auto n = v.get<std::int64_t>();
            if (n < lo || n > hi || (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)))
                throw BakeError(fmt::format("{}: {} is out of range [{}, {}]", source, text_excerpt(v.dump(), 40), lo, hi));
            return static_cast<int>(n);
        };
        s.levels = whole(j.at("levels"), 1, 16);
        s.job_levels = whole(j.at("job_levels"), 1, 8);
        const auto& r = j.at("root_columns");
        constexpr std::int64_t kColumns = 1 << 30;
        s.x0 = whole(r.at("x").at(0), -kColumns, kColumns), s.x1 = whole(r.at("x").at(1), -kColumns, kColumns);
        s.z0 = whole(r.at("z").at(0), -kColumns, kColumns), s.z1 = whole(r.at("z").at(1), -kColumns, kColumns);
        if (!parse_mesher(j.at("mesher").get<std::string>(), s.mesher)) throw BakeError(fmt::format("{}: unknown mesher", source));
        s.heightmaps = j.at("heightmaps").get<bool>();
        s.lowest_layer = whole(j.at("floor_m"), -100000000, 0) / kChunkSize;
        s.compress = j.value("compressed_glb", false);
    } catch (const nlohmann::json::exception& e) {
        throw BakeError(fmt::format("{}: not a bake's settings ({})", source, text_excerpt(e.what(), 80)));
    }
    const double columns = (static_cast<double>(s.x1) - s.x0 + 1) * (static_cast<double>(s.z1) - s.z0 + 1);
    const glm::dvec2 from = s.from_m(), to = s.to_m();
    if (s.x1 < s.x0 || s.z1 < s.z0 || columns > 1e6 || std::fabs(from.x) > kCoordinateLimit_m || std::fabs(from.y) > kCoordinateLimit_m ||
        std::fabs(to.x) > kCoordinateLimit_m || std::fabs(to.y) > kCoordinateLimit_m)
        throw BakeError(fmt::format("{}: root columns out of range (at most a million, within {:g} m)", source, kCoordinateLimit_m));
    return s;
}

glm::dvec2 BakeSettings::from_m() const {
    const double size = LodColumn{levels - 1, 0, 0}.size_m();
    return {x0 * size, z0 * size};
}

glm::dvec2 BakeSettings::to_m() const {
    const double size = LodColumn{levels - 1, 0, 0}.size_m();
    return {(x1 + 1.0) * size, (z1 + 1.0) * size};
}

std::string world_edits_sha256(const ChunkDeltas& deltas) {
    if (deltas.empty()) return "";
    std::vector<ChunkCoord> coords;
    for (const auto& [c, chunk] : deltas.chunks()) coords.push_back(c);
    std::sort(coords.begin(), coords.end(),
              [](const ChunkCoord& a, const ChunkCoord& b) { return std::tie(a.y, a.z, a.x) < std::tie(b.y, b.z, b.x); });
    Sha256 h;
    for (const ChunkCoord& c : coords) {
        h.update(fmt::format("{} {} {}\n", c.x, c.y, c.z));
        const auto& v = deltas.find(c)->values;
        h.update(std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)));
    }
    return h.hex();
}

std::vector<LodColumn> BakeJob::tiles() const {
    std::vector<LodColumn> out;
    for (int d = 0; d < depth; ++d) {
        const int n = 1 << d;
        for (int z = 0; z < n; ++z)
            for (int x = 0; x < n; ++x) out.push_back({root.level - d, root.x * n + x, root.z * n + z});
    }
    return out;
}

std::vector<LodColumn> BakeJob::child_roots() const {
    std::vector<LodColumn> out;
    if (root.level - depth < 0) return out;
    const int n = 1 << depth;
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x) out.push_back({root.level - depth, root.x * n + x, root.z * n + z});
    return out;
}

BakePlan::BakePlan(BakeSettings settings) : settings_(std::move(settings)) {
    const BakeSettings& s = settings_;
    // Planned before the list is made: each job's entry and its line in the root tileset, and
    // a line per tile in the listing that finishing and verifying hash (path and SHA-256).
    double jobs = 0, tiles = 0;
    const double columns = (static_cast<double>(s.x1) - s.x0 + 1) * (static_cast<double>(s.z1) - s.z0 + 1);
    for (int top = s.levels - 1; top >= 0; top -= s.job_levels) {
        const double n = std::ldexp(1.0, s.levels - 1 - top);
        jobs += columns * n * n;
        tiles += columns * n * n * (std::ldexp(1.0, 2 * std::min(s.job_levels, top + 1)) - 1) / 3;
    }
    check_memory_budget(jobs * (sizeof(BakeJob) + 160.0) + tiles * 128.0,
                        fmt::format("a bake of {:.0f} jobs and {:.0f} tiles", jobs, tiles));
    // Jobs start at the roots' level and every job_levels levels below; each reaches down
    // job_levels levels or to level 0.
    for (int top = s.levels - 1; top >= 0; top -= s.job_levels) {
        const int depth = std::min(s.job_levels, top + 1);
        const int n = 1 << (s.levels - 1 - top);
        for (int z = s.z0 * n; z < (s.z1 + 1) * n; ++z)
            for (int x = s.x0 * n; x < (s.x1 + 1) * n; ++x) {
                jobs_.push_back({{top, x, z}, depth});
                tile_count_ += static_cast<std::size_t>(((1ull << (2 * depth)) - 1) / 3);
            }
    }
}

namespace {
std::string column_path(const char* folder, const LodColumn& c, const char* extension) {
    return fmt::format("{}/{}/{}/{}{}", folder, c.level, c.x, c.z, extension);
}
}  // namespace

std::string tile_content_path(const LodColumn& c) { return column_path("content", c, ".glb"); }
std::string job_tileset_path(const LodColumn& root) { return column_path("tiles", root, ".json"); }
std::string job_manifest_path(const LodColumn& root) { return column_path("jobs", root, ".json"); }
std::string height_tile_path(const LodColumn& c) { return column_path("height", c, ".png"); }

double tile_geometric_error(int level) { return level == 0 ? 0.0 : std::ldexp(1.0, level); }

}  // namespace isoterra
