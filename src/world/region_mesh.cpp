// A region of chunks of one level meshed at once, without a World: each chunk sampled with its
// mesher's padding, edited, meshed; the same bits as the World's chunks of that level
// (without transitions: a region has one level).
#include <atomic>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "isoterra/base.hpp"
#include "isoterra/world.hpp"

namespace isoterra {

std::vector<ChunkCoord> chunks_covering(const glm::dvec3& from, const glm::dvec3& to, double limit, int lod) {
    static const char* kAxes[3] = {"X", "Y", "Z"};
    if (lod < 0 || lod > kMaxRegionLod) throw RegionError(fmt::format("level of detail {} is not in [0, {}]", lod, kMaxRegionLod));
    const double size = kChunkSize * std::ldexp(1.0, lod);
    glm::dvec3 lo, hi;
    double count = 1.0;
    for (int a = 0; a < 3; ++a) {
        if (!(std::isfinite(from[a]) && std::isfinite(to[a]) && from[a] < to[a]))
            throw RegionError(fmt::format("{} must grow from the first corner to the second, got {} to {}", kAxes[a], from[a], to[a]));
        lo[a] = std::floor(from[a] / size);
        hi[a] = std::ceil(to[a] / size) - 1;
        if (coordinate_problem(from[a])[0] || coordinate_problem(to[a])[0])
            throw RegionError("the region reaches past +-1e8 m, where the world ends");
        count *= hi[a] - lo[a] + 1;
    }
    if (count > limit) throw RegionError(fmt::format("the region spans {:.0f} chunks, more than {:.0f}", count, limit));
    check_memory_budget(count * sizeof(ChunkCoord), fmt::format("the list of a region's {:.0f} chunks", count));
    std::vector<ChunkCoord> chunks;
    chunks.reserve(static_cast<std::size_t>(count));
    for (int z = static_cast<int>(lo.z); z <= hi.z; ++z)
        for (int y = static_cast<int>(lo.y); y <= hi.y; ++y)
            for (int x = static_cast<int>(lo.x); x <= hi.x; ++x) chunks.push_back({x, y, z, lod});
    return chunks;
}

std::vector<MeshBuffers> mesh_chunks(const Field& field, const ChunkDeltas* deltas, const std::vector<ChunkCoord>& chunks, Mesher mesher,
                                     int threads, const std::function<void(std::size_t, std::size_t)>& progress, double copies) {
    static const ChunkDeltas kNoEdits;
    const ChunkDeltas& edits = deltas ? *deltas : kNoEdits;
    const std::string what =
        fmt::format("meshing {} chunks{}", chunks.size(), copies > 1 ? fmt::format(" ({:g} copies held)", copies) : std::string());
    check_memory_budget(copies * expected_mesh_bytes(chunks), what);
    const double budget = memory_budget().bytes / copies;
    std::atomic<std::size_t> held{chunks.size() * sizeof(MeshBuffers)};
    std::vector<MeshBuffers> meshes(chunks.size());
    parallel_for(
        chunks.size(), threads,
        [&](std::size_t i) {
            thread_local ChunkSamples samples;
            thread_local MeshScratch scratch;
            const ChunkCoord& c = chunks[i];
            sample_chunk(field, c, mesher_padding(mesher), samples, meshing_lattice_use(edits, c));
            apply_deltas(edits, samples);
            mesh_chunk(mesher, samples, field.material_rules(), scratch, meshes[i]);
            // More surface than expected (cliffs, caves): stop once the meshes outgrow the budget.
            if (const std::size_t now = held += meshes[i].byte_size(); static_cast<double>(now) > budget)
                check_memory_budget(copies * static_cast<double>(now), what + " (surfaces larger than expected)");
        },
        progress);
    return meshes;
}

MeshBuffers merge_meshes(const std::vector<MeshBuffers>& meshes) {
    MeshBuffers all;
    for (const auto& m : meshes) all.append(m);
    return all;
}

}  // namespace isoterra
