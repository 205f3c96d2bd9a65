// The raster node: a height read from a file (height_raster.hpp), bilinear between pixels.
// The raster is read when the graph compiles, relative to the graph file: a graph that
// compiles has every raster it needs.
#include <optional>
#include <string>

#include <fmt/format.h>

#include "field/run/eval.hpp"
#include "field/run/intervals.hpp"
#include "table.hpp"
#include "field/raster/height_raster.hpp"
#include "isoterra/graph.hpp"

namespace isoterra::graph {
namespace {

void run_heightmap(const Node& node, const Lanes& l) {
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    for (std::size_t i = 0; i < l.count; ++i) l.out[0][i] = node.raster->at(xs[i], zs[i]);
}

NodeRanges heightmap_ranges(const Node& node, const RangeContext& c) {
    const ValueRange u = c.axis(node, 0, c.x()), v = c.axis(node, 1, c.z());
    NodeRanges out;
    out[0] = interval::widen(node.raster->range(u.lo, u.hi, v.lo, v.hi));
    return out;
}

void read_raster(Node& node, const NodeSetup& s) {
    RasterPlacement placement;
    const auto given = [&](const char* key, std::size_t first) -> std::optional<glm::dvec2> {
        if (!s.given(key)) return std::nullopt;
        return glm::dvec2(node.number[first], node.number[first + 1]);
    };
    placement.from = given("from", 0), placement.to = given("to", 2), placement.heights = given("heights", 4);
    const std::string at = s.where("file");
    if (placement.from.has_value() != placement.to.has_value())
        throw GraphError(fmt::format(
            "{}: node '{}': inputs 'from' and 'to' go together: the first and the last pixel centres, [x, z] in metres", at, node.id));
    const std::string path = node.file.front() == '/' || s.directory.empty() ? node.file : s.directory + "/" + node.file;
    try {
        node.raster = load_height_raster(path, placement);
    } catch (const RasterError& e) {
        throw RasterError(fmt::format("{}: node '{}': {}", at, node.id, e.what()));
    }
}

}  // namespace

NodeFamily nodes_raster() {
    using namespace rows;
    // clang-format off
    return {40, {
        {.name = "heightmap",
         .inputs = {{"file", InputKind::file, true, 0, 0, 0, false, false}, coordinate("x"), coordinate("z"),
                    point(InputKind::point2, "from", false).with("[x, z] of the first pixel's centre"),
                    point(InputKind::point2, "to", false).with("[x, z] of the last pixel's centre"),
                    point(InputKind::point2, "heights", false, -1e7, 1e7)},
         .formula = "the height in metres of a raster at (x, z), bilinear: a 16-bit PNG with its sidecar (from `isoterra heightmap`) "
                    "or a GeoTIFF; from/to: the first and last pixel centres [x, z], heights: [lowest, highest] of a PNG",
         .run = run_heightmap, .ranges = heightmap_ranges, .setup = read_raster, .finite = false},
    }};
    // clang-format on
}

}  // namespace isoterra::graph
