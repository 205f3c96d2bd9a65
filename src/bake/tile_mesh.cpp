// A tile: one column of chunks at its level, surveyed and meshed exactly as the World does
// (run_world_job), merged into one mesh at the column's corner, with skirts on its sides.
#include <algorithm>
#include <climits>
#include <cmath>

#include <glm/common.hpp>

#include "isoterra/bake.hpp"

namespace isoterra {
namespace {

struct Survey {
    WorldJobResult result;
    int top = 0;
};

Survey survey(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer) {
    WorldJob job;
    job.survey = true;
    job.coord = {c.x, 0, c.z, c.level};
    job.mesher = mesher;
    job.lowest_layer = lowest_layer;
    Survey s;
    run_world_job(field, deltas, job, s.result);
    s.top = std::max(s.result.top, edited_top_layer(deltas, c));
    return s;
}

Box column_box(const LodColumn& c, int bottom, int top) {
    const double size = c.size_m(), spacing = std::ldexp(1.0, c.level);
    const glm::dvec3 lo(c.x * size - spacing, bottom * size - spacing, c.z * size - spacing);
    const glm::dvec3 hi((c.x + 1) * size + spacing, (top + 1) * size + spacing, (c.z + 1) * size + spacing);
    return {lo, hi};
}

}  // namespace

Box tile_survey_box(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer) {
    const Survey s = survey(field, deltas, c, mesher, lowest_layer);
    return column_box(c, s.result.bottom, std::max(s.top, s.result.bottom));
}

BakedTile bake_tile(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer) {
    const Survey s = survey(field, deltas, c, mesher, lowest_layer);
    BakedTile tile;
    tile.column = c;
    const double size = c.size_m(), spacing = std::ldexp(1.0, c.level);
    tile.mesh.origin = glm::dvec3(c.x * size, 0.0, c.z * size);
    WorldJob job;
    job.coord = {c.x, 0, c.z, c.level};
    job.mesher = mesher;
    job.ground = s.result.ground;
    job.lowest_layer = lowest_layer;
    WorldJobResult chunk;
    for (int y = s.result.bottom; y <= s.top; ++y) {
        job.coord.y = y;
        chunk.mesh.clear();
        run_world_job(field, deltas, job, chunk, s.result.lattice_columns.get());
        if (chunk.built) tile.mesh.append(chunk.mesh);
    }
    // Walls four samples deep: deeper than a coarser neighbour's surface departs from this
    // one's along their shared side, down to no lower than the floor's layer.
    const Box survey_box = column_box(c, s.result.bottom, std::max(s.top, s.result.bottom));
    add_skirts(tile.mesh, size, spacing, 4.0 * spacing, survey_box.lo.y + spacing);
    tile.box = survey_box;
    if (tile.mesh.vertex_count() > 0) {
        glm::dvec3 lo(tile.mesh.positions[0]), hi = lo;
        for (const glm::vec3& p : tile.mesh.positions) lo = glm::min(lo, glm::dvec3(p)), hi = glm::max(hi, glm::dvec3(p));
        tile.box = {tile.mesh.origin + lo, tile.mesh.origin + hi};
    }
    return tile;
}

}  // namespace isoterra
