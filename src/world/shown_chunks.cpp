// The owner's side of a World kept on the CPU: what a renderer would hold and draw.
#include <algorithm>
#include <tuple>

#include "isoterra/world.hpp"

namespace isoterra {

void ShownChunks::apply(const ChunkUpdate& u) {
    if (u.dropped) {
        if (const auto it = chunks_.find(u.coord); it != chunks_.end()) {
            bytes_ -= it->second.mesh.byte_size() + it->second.water.byte_size();
            if (it->second.visible) drawn_ -= it->second.drawn;
            chunks_.erase(it);
        }
        return;
    }
    Entry& e = chunks_[u.coord];
    if (e.visible) drawn_ -= e.drawn;
    if (u.mesh) {
        bytes_ -= e.mesh.byte_size() + e.water.byte_size();
        e.triangles = u.mesh->triangle_count();
        e.water_triangles = u.water ? u.water->triangle_count() : 0;
        if (keep_meshes_) {
            e.mesh = *u.mesh;
            if (u.water) e.water = *u.water;
            else e.water.clear();
        } else {
            e.mesh.clear();
            e.mesh.ranges = u.mesh->ranges;
        }
        bytes_ += e.mesh.byte_size() + e.water.byte_size();
    }
    e.visible = u.visible;
    e.neighbours = u.neighbours;
    e.drawn = drawn_triangles(e.mesh.ranges, e.triangles, e.neighbours);
    if (e.visible) drawn_ += e.drawn;
}

std::size_t drawn_triangles(const std::vector<IndexRange>& ranges, std::size_t triangles, const Neighbourhood& n) {
    if (ranges.empty()) return triangles;
    std::size_t count = 0;
    for (const IndexRange& r : ranges)
        if (r.when.holds(n)) count += r.count / 3;
    return count;
}

std::size_t ShownChunks::triangles_drawn() const { return drawn_; }

std::vector<std::size_t> ShownChunks::triangles_per_level() const {
    std::vector<std::size_t> out;
    for (const auto& [c, e] : chunks_) {
        if (!e.visible) continue;
        if (out.size() <= static_cast<std::size_t>(c.lod)) out.resize(static_cast<std::size_t>(c.lod) + 1, 0);
        out[static_cast<std::size_t>(c.lod)] += e.drawn;
    }
    return out;
}

std::vector<std::size_t> ShownChunks::visible_per_level() const {
    std::vector<std::size_t> out;
    for (const auto& [c, e] : chunks_) {
        if (!e.visible) continue;
        if (out.size() <= static_cast<std::size_t>(c.lod)) out.resize(static_cast<std::size_t>(c.lod) + 1, 0);
        ++out[static_cast<std::size_t>(c.lod)];
    }
    return out;
}

std::vector<std::pair<ChunkCoord, MeshBuffers>> ShownChunks::drawn() const {
    std::vector<std::pair<ChunkCoord, MeshBuffers>> out;
    for (const auto& [c, e] : chunks_)
        if (e.visible) out.emplace_back(c, select_for_neighbours(e.mesh, e.neighbours));
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first.lod, a.first.x, a.first.y, a.first.z) < std::tie(b.first.lod, b.first.x, b.first.y, b.first.z);
    });
    return out;
}

std::vector<std::pair<ChunkCoord, MeshBuffers>> ShownChunks::drawn_water() const {
    std::vector<std::pair<ChunkCoord, MeshBuffers>> out;
    for (const auto& [c, e] : chunks_)
        if (e.visible && !e.water.indices.empty()) out.emplace_back(c, e.water);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return std::tie(a.first.lod, a.first.x, a.first.y, a.first.z) < std::tie(b.first.lod, b.first.x, b.first.y, b.first.z);
    });
    return out;
}

std::size_t ShownChunks::water_triangles_drawn() const {
    std::size_t n = 0;
    for (const auto& [c, e] : chunks_)
        if (e.visible) n += e.water_triangles;
    return n;
}

LodColumnSet ShownChunks::visible_columns() const {
    LodColumnSet out;
    for (const auto& [c, e] : chunks_)
        if (e.visible) out.insert({c.lod, c.x, c.z});
    return out;
}

const MeshBuffers* ShownChunks::mesh(const ChunkCoord& c) const {
    const auto it = chunks_.find(c);
    return it == chunks_.end() ? nullptr : &it->second.mesh;
}

const MeshBuffers* ShownChunks::water(const ChunkCoord& c) const {
    const auto it = chunks_.find(c);
    return it == chunks_.end() ? nullptr : &it->second.water;
}

}  // namespace isoterra
