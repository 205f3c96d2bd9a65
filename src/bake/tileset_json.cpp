// The tileset files (3D Tiles 1.1, explicit tiling): tileset.json holds the root columns,
// each a reference to its job's own tileset file; a job's file holds its subtree of tiles,
// and its deepest tiles refer to the tileset files of the jobs below. Tiles are boxes in a
// Z-up frame; glTF content is Y-up and turned by the client (+90 degrees about x).
#include <algorithm>

#include <glm/common.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bake_files.hpp"

namespace isoterra {

std::vector<double> tiles_box(const Box& box) {
    const glm::dvec3 c = 0.5 * (box.lo + box.hi), h = 0.5 * (box.hi - box.lo);
    return {c.x, -c.z, c.y, h.x, 0.0, 0.0, 0.0, h.z, 0.0, 0.0, 0.0, h.y};
}

namespace detail {

namespace {

using Json = nlohmann::ordered_json;

// A path from one file in the bake folder to another, both relative to the folder.
std::string relative(const std::string& from_file, const std::string& to_file) {
    std::string up;
    for (char ch : from_file)
        if (ch == '/') up += "../";
    return up + to_file;
}

Box united(const Box& a, const Box& b) { return {glm::min(a.lo, b.lo), glm::max(a.hi, b.hi)}; }

}  // namespace

std::string root_tileset_json(const BakePlan& plan, const std::vector<Box>& root_boxes) {
    const BakeSettings& s = plan.settings();
    const int top = s.levels - 1;
    Json children = Json::array();
    Box all = root_boxes.front();
    std::size_t i = 0;
    for (int z = s.z0; z <= s.z1; ++z)
        for (int x = s.x0; x <= s.x1; ++x, ++i) {
            all = united(all, root_boxes[i]);
            children.push_back({{"boundingVolume", {{"box", tiles_box(root_boxes[i])}}},
                                {"geometricError", tile_geometric_error(top)},
                                {"content", {{"uri", job_tileset_path({top, x, z})}}}});
        }
    // The root places the region's centre at the frame's origin (x east, y = -z north, z up).
    const glm::dvec2 centre = 0.5 * (s.from_m() + s.to_m());
    Json root = {{"boundingVolume", {{"box", tiles_box(all)}}},
                 {"geometricError", 2.0 * tile_geometric_error(std::max(top, 1))},
                 {"refine", "REPLACE"},
                 {"transform", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -centre.x, centre.y, 0, 1}},
                 {"children", children}};
    Json doc = {{"asset", {{"version", "1.1"}, {"generator", "isoterra 0.1.0"}}},
                {"geometricError", 4.0 * tile_geometric_error(std::max(top, 1))},
                {"root", root}};
    return doc.dump(1) + "\n";
}

std::string job_tileset_json(const BakeJob& job, const std::vector<JobTile>& tiles, const std::vector<Box>& child_boxes) {
    const std::string self = job_tileset_path(job.root);
    const auto roots = job.child_roots();
    // The tiles of each level in (z, x) order, as BakeJob::tiles() lists them: tile i of a
    // level with n a side has its children at level + 1's (2 z + dz) * 2n + 2 x + dx.
    std::vector<std::size_t> first(static_cast<std::size_t>(job.depth) + 1, 0);
    for (int d = 0; d < job.depth; ++d) first[d + 1] = first[d] + (std::size_t{1} << (2 * d));
    std::vector<Json> built(tiles.size());
    std::vector<Box> boxes(tiles.size());
    for (int d = job.depth - 1; d >= 0; --d) {
        const int n = 1 << d;
        for (int z = 0; z < n; ++z)
            for (int x = 0; x < n; ++x) {
                const std::size_t i = first[d] + static_cast<std::size_t>(z) * n + x;
                const JobTile& t = tiles[i];
                Json children = Json::array();
                Box box = t.box;
                for (int dz = 0; dz < 2; ++dz)
                    for (int dx = 0; dx < 2; ++dx) {
                        if (d + 1 < job.depth) {
                            const std::size_t c = first[d + 1] + static_cast<std::size_t>(2 * z + dz) * (2 * n) + 2 * x + dx;
                            box = united(box, boxes[c]);
                            children.push_back(built[c]);
                        } else if (!roots.empty()) {
                            const std::size_t c = static_cast<std::size_t>(2 * z + dz) * (2 * n) + 2 * x + dx;
                            box = united(box, child_boxes[c]);
                            children.push_back({{"boundingVolume", {{"box", tiles_box(child_boxes[c])}}},
                                                {"geometricError", tile_geometric_error(roots[c].level)},
                                                {"content", {{"uri", relative(self, job_tileset_path(roots[c]))}}}});
                        }
                    }
                boxes[i] = box;
                Json tile = {{"boundingVolume", {{"box", tiles_box(box)}}}, {"geometricError", tile_geometric_error(t.column.level)}};
                if (d == 0) tile["refine"] = "REPLACE";
                if (t.has_content) tile["content"] = {{"uri", relative(self, tile_content_path(t.column))}};
                if (!children.empty()) tile["children"] = children;
                built[i] = std::move(tile);
            }
    }
    Json doc = {{"asset", {{"version", "1.1"}, {"generator", "isoterra 0.1.0"}}},
                {"geometricError", tile_geometric_error(job.root.level)},
                {"root", built[0]}};
    return doc.dump() + "\n";
}

}  // namespace detail
}  // namespace isoterra
