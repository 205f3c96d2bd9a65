// What the bake's files share inside src/bake/.
#pragma once

#include <string>
#include <vector>

#include "isoterra/bake.hpp"

namespace isoterra::detail {

/// A tile of a job as its tileset file needs it.
struct JobTile {
    LodColumn column;
    bool has_content = false;
    Box box;
};

/// Returns tileset.json: the root columns (with `root_boxes` from tile_survey_box, in (z, x)
/// order) as references to their jobs' tileset files.
std::string root_tileset_json(const BakePlan& plan, const std::vector<Box>& root_boxes);
/// Returns a job's tileset file: its `tiles` (in BakeJob::tiles() order) and, under its
/// deepest ones, references to the jobs below with `child_boxes` (BakeJob::child_roots() order).
std::string job_tileset_json(const BakeJob& job, const std::vector<JobTile>& tiles, const std::vector<Box>& child_boxes);
/// Returns the 16-bit PNG of a column's heights (kHeightSamples a side, at its own level's
/// spacing from its corner; row 0 at the least z): the ground, or where edits reach, the
/// first solid along a vertical ray.
std::string height_tile_png(const Field& field, const ChunkDeltas* deltas, const LodColumn& c);
/// Returns height/heights.json: the tiles' size, levels and the pixel-to-metres mapping.
std::string heights_json(const BakePlan& plan);

}  // namespace isoterra::detail
