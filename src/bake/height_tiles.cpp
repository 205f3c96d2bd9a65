// Heightmap tiles: a 33 x 33 grid of heights per tile at its level's spacing, the last row
// and column shared with the next tile, as 16-bit grey PNG with one fixed mapping to metres.
#include <algorithm>
#include <climits>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bake_files.hpp"
#include "isoterra/edit.hpp"

namespace isoterra::detail {

namespace {

// The height of the first solid below the highest edit over (x, z), or the ground's where
// no edit reaches.
double surface_height(const Field& field, const ChunkDeltas* deltas, double x, double z) {
    const double ground = field.ground_height(x, z);
    if (!deltas || deltas->empty()) return ground;
    const int cx = static_cast<int>(std::floor(x / kChunkSize)), cz = static_cast<int>(std::floor(z / kChunkSize));
    const int layer = deltas->highest_layer(cx, cz);
    if (layer == INT_MIN) return ground;
    const double top = std::max(ground + 1.0, (layer + 1.0) * kChunkSize + 1.0);
    glm::dvec3 hit;
    if (ray_cast(field, *deltas, {x, top, z}, {0.0, -1.0, 0.0}, top - kHeightOffset_m, hit, 0.25)) return hit.y;
    return ground;
}

}  // namespace

std::string height_tile_png(const Field& field, const ChunkDeltas* deltas, const LodColumn& c) {
    const double spacing = std::ldexp(1.0, c.level), x0 = c.x * c.size_m(), z0 = c.z * c.size_m();
    std::vector<std::uint16_t> pixels(static_cast<std::size_t>(kHeightSamples) * kHeightSamples);
    for (int k = 0; k < kHeightSamples; ++k)
        for (int i = 0; i < kHeightSamples; ++i) {
            const double h = surface_height(field, deltas, x0 + i * spacing, z0 + k * spacing);
            const double p = std::clamp(std::round((h - kHeightOffset_m) / kHeightScale_m), 0.0, 65535.0);
            pixels[static_cast<std::size_t>(k) * kHeightSamples + i] = static_cast<std::uint16_t>(p);
        }
    return encode_png(height_tile_path(c), kHeightSamples, kHeightSamples, 1, 16, pixels.data());
}

std::string heights_json(const BakePlan& plan) {
    const BakeSettings& s = plan.settings();
    nlohmann::ordered_json j;
    j["format"] = "16-bit grey PNG, one per tile: height/LEVEL/X/Z.png";
    j["samples"] = kHeightSamples;
    j["height_m"] = "offset_m + pixel * scale_m (0 and 65535 also stand for anything below or above)";
    j["offset_m"] = kHeightOffset_m;
    j["scale_m"] = kHeightScale_m;
    j["pixel"] =
        "column i, row k of tile (LEVEL, X, Z) is the height at x = X * tile_m + i * spacing_m, "
        "z = Z * tile_m + k * spacing_m (world metres, y up); the last row and column repeat the "
        "next tile's first";
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (int l = s.levels - 1; l >= 0; --l) {
        const LodColumn c{l, 0, 0};
        levels.push_back({{"level", l}, {"tile_m", c.size_m()}, {"spacing_m", std::ldexp(1.0, l)}});
    }
    j["levels"] = levels;
    j["from_m"] = {s.from_m().x, s.from_m().y};
    j["to_m"] = {s.to_m().x, s.to_m().y};
    return j.dump(2) + "\n";
}

}  // namespace isoterra::detail
