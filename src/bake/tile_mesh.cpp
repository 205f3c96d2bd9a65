// A tile: one column of chunks at its level, surveyed and meshed exactly as the World does
// (run_world_job), merged into one mesh at the column's corner, with skirts on its sides.
#include <algorithm>
#include <cmath>

#include <glm/common.hpp>

#include "isoterra/bake.hpp"

namespace isoterra {
namespace {

// A column surveyed as the World surveys it, and the chunk layers that can hold a surface
// (below the lowest all is rock, above the highest all is air).
struct Survey {
    WorldJobResult result;
    WorldJob chunk;  // a chunk job of the column, y to be set
    int lowest = 0, highest = -1;
};

Survey survey(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer) {
    WorldJob job;
    job.survey = true;
    job.coord = {c.x, 0, c.z, c.level};
    job.mesher = mesher;
    job.lowest_layer = lowest_layer;
    Survey s;
    run_world_job(field, deltas, job, s.result);
    s.chunk = job;
    s.chunk.survey = false;
    s.chunk.ground = s.result.ground;
    const int top = std::max(s.result.top, edited_top_layer(deltas, c));
    for (int y = s.result.bottom; y <= top; ++y) {
        s.chunk.coord.y = y;
        const ValueRange r = world_chunk_range(field, deltas, s.chunk);
        if (r.lo > 0.0 || r.hi <= 0.0) continue;
        if (s.highest < s.lowest) s.lowest = y;
        s.highest = y;
    }
    return s;
}

Box column_box(const LodColumn& c, int bottom, int top) {
    const double size = c.size_m(), spacing = std::ldexp(1.0, c.level);
    const glm::dvec3 lo(c.x * size - spacing, bottom * size - spacing, c.z * size - spacing);
    const glm::dvec3 hi((c.x + 1) * size + spacing, (top + 1) * size + spacing, (c.z + 1) * size + spacing);
    return {lo, hi};
}

// The layers that can hold a surface; a column with none gets its lowest layer's box.
Box survey_box(const Survey& s, const LodColumn& c) {
    return s.highest < s.lowest ? column_box(c, s.result.bottom, s.result.bottom) : column_box(c, s.lowest, s.highest);
}

}  // namespace

Box tile_survey_box(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer) {
    return survey_box(survey(field, deltas, c, mesher, lowest_layer), c);
}

BakedTile bake_tile(const Field& field, const ChunkDeltas* deltas, const LodColumn& c, Mesher mesher, int lowest_layer) {
    Survey s = survey(field, deltas, c, mesher, lowest_layer);
    BakedTile tile;
    tile.column = c;
    const double size = c.size_m(), spacing = std::ldexp(1.0, c.level);
    tile.mesh.origin = glm::dvec3(c.x * size, 0.0, c.z * size);
    WorldJobResult chunk;
    for (int y = s.lowest; y <= s.highest; ++y) {
        s.chunk.coord.y = y;
        chunk.mesh.clear();
        run_world_job(field, deltas, s.chunk, chunk, s.result.lattice_columns.get());
        if (chunk.built) tile.mesh.append(chunk.mesh);
    }
    // Walls four samples deep: deeper than a coarser neighbour's surface departs from this
    // one's along their shared side; not below the lowest layer that can hold a surface.
    tile.box = survey_box(s, c);
    add_skirts(tile.mesh, size, spacing, 4.0 * spacing, tile.box.lo.y + spacing);
    if (tile.mesh.vertex_count() > 0) {
        glm::dvec3 lo(tile.mesh.positions[0]), hi = lo;
        for (const glm::vec3& p : tile.mesh.positions) lo = glm::min(lo, glm::dvec3(p)), hi = glm::max(hi, glm::dvec3(p));
        tile.box = {tile.mesh.origin + lo, tile.mesh.origin + hi};
    }
    return tile;
}

}  // namespace isoterra
