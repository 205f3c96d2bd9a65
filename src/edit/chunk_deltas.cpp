// The sparse store of sample deltas: one 32^3 block per edited chunk, found by hashing, plus
// a per-column list of layers so the streaming world knows how high edits reach.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "isoterra/edit.hpp"

namespace isoterra {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return -floor_div(-a, b); }
std::int64_t column_key(int x, int z) { return static_cast<std::int64_t>(x) << 32 ^ static_cast<std::uint32_t>(z); }

// The delta chunks a box of 1 m lattice samples [lo, hi] meets: calls visit(coord, chunk)
// for each existing one, walking the coordinates or the map, whichever is shorter.
template <typename Visit>
void for_each_chunk_meeting(const ChunkDeltas::Map& chunks, const glm::i64vec3& lo, const glm::i64vec3& hi, Visit&& visit) {
    const glm::i64vec3 c0(floor_div(lo.x, kChunkSize), floor_div(lo.y, kChunkSize), floor_div(lo.z, kChunkSize));
    const glm::i64vec3 c1(floor_div(hi.x, kChunkSize), floor_div(hi.y, kChunkSize), floor_div(hi.z, kChunkSize));
    const double walk = double(c1.x - c0.x + 1) * double(c1.y - c0.y + 1) * double(c1.z - c0.z + 1);
    if (walk > double(chunks.size())) {
        for (const auto& [c, chunk] : chunks)
            if (c.x >= c0.x && c.x <= c1.x && c.y >= c0.y && c.y <= c1.y && c.z >= c0.z && c.z <= c1.z) visit(c, *chunk);
        return;
    }
    for (std::int64_t z = c0.z; z <= c1.z; ++z)
        for (std::int64_t y = c0.y; y <= c1.y; ++y)
            for (std::int64_t x = c0.x; x <= c1.x; ++x) {
                const ChunkCoord c{int(x), int(y), int(z), 0};
                auto it = chunks.find(c);
                if (it != chunks.end()) visit(c, *it->second);
            }
}

}  // namespace

bool DeltaChunk::update_range() {
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    lo = *mn;
    hi = *mx;
    return lo != 0.0f || hi != 0.0f;
}

const DeltaChunk* ChunkDeltas::find(const ChunkCoord& c) const {
    auto it = chunks_.find(ChunkCoord{c.x, c.y, c.z, 0});
    return it == chunks_.end() ? nullptr : it->second.get();
}

void ChunkDeltas::set(const ChunkCoord& coord, std::shared_ptr<const DeltaChunk> chunk) {
    const ChunkCoord c{coord.x, coord.y, coord.z, 0};
    auto& layers = layers_[column_key(c.x, c.z)];
    auto at = std::lower_bound(layers.begin(), layers.end(), c.y);
    if (chunk) {
        chunks_[c] = std::move(chunk);
        if (at == layers.end() || *at != c.y) layers.insert(at, c.y);
    } else {
        chunks_.erase(c);
        if (at != layers.end() && *at == c.y) layers.erase(at);
        if (layers.empty()) layers_.erase(column_key(c.x, c.z));
    }
}

void ChunkDeltas::add_to(const Lattice& lat, float* values) const {
    if (chunks_.empty()) return;
    const auto s = static_cast<std::int64_t>(lat.spacing_m);
    const glm::i64vec3 last = lat.origin + glm::i64vec3(lat.size) - std::int64_t{1};
    for_each_chunk_meeting(chunks_, lat.origin * s, last * s, [&](const ChunkCoord& c, const DeltaChunk& chunk) {
        const glm::i64vec3 g0 = glm::i64vec3(c.x, c.y, c.z) * std::int64_t{kChunkSize};
        // The lattice indices whose samples fall inside this delta chunk.
        glm::ivec3 i0, i1;
        for (int a = 0; a < 3; ++a) {
            i0[a] = static_cast<int>(std::max<std::int64_t>(0, ceil_div(g0[a], s) - lat.origin[a]));
            i1[a] = static_cast<int>(std::min<std::int64_t>(lat.size[a] - 1, floor_div(g0[a] + kChunkSize - 1, s) - lat.origin[a]));
        }
        for (int k = i0.z; k <= i1.z; ++k)
            for (int j = i0.y; j <= i1.y; ++j) {
                const int dz = static_cast<int>((lat.origin.z + k) * s - g0.z), dy = static_cast<int>((lat.origin.y + j) * s - g0.y);
                float* row = values + lat.index(0, j, k);
                for (int i = i0.x; i <= i1.x; ++i)
                    row[i] += chunk.values[DeltaChunk::index(static_cast<int>((lat.origin.x + i) * s - g0.x), dy, dz)];
            }
    });
}

double ChunkDeltas::at(const glm::dvec3& p) const {
    if (chunks_.empty()) return 0.0;
    const glm::dvec3 f = glm::floor(p);
    const glm::i64vec3 g(f);
    const glm::dvec3 t = p - f;
    const auto sample = [&](std::int64_t x, std::int64_t y, std::int64_t z) -> double {
        const DeltaChunk* chunk = find({int(floor_div(x, kChunkSize)), int(floor_div(y, kChunkSize)), int(floor_div(z, kChunkSize)), 0});
        if (!chunk) return 0.0;
        return chunk
            ->values[DeltaChunk::index(int(x - floor_div(x, kChunkSize) * kChunkSize), int(y - floor_div(y, kChunkSize) * kChunkSize),
                                       int(z - floor_div(z, kChunkSize) * kChunkSize))];
    };
    double v = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
        const int dx = corner & 1, dy = corner >> 1 & 1, dz = corner >> 2 & 1;
        const double w = (dx ? t.x : 1.0 - t.x) * (dy ? t.y : 1.0 - t.y) * (dz ? t.z : 1.0 - t.z);
        if (w != 0.0) v += w * sample(g.x + dx, g.y + dy, g.z + dz);
    }
    return v;
}

ValueRange ChunkDeltas::range(const Box& box) const {
    ValueRange r{0.0, 0.0};
    if (chunks_.empty()) return r;
    const glm::i64vec3 lo(glm::floor(box.lo)), hi(glm::ceil(box.hi));
    for_each_chunk_meeting(chunks_, lo, hi, [&](const ChunkCoord&, const DeltaChunk& chunk) {
        r.lo = std::min(r.lo, double(chunk.lo));
        r.hi = std::max(r.hi, double(chunk.hi));
    });
    return r;
}

int ChunkDeltas::highest_layer(int x, int z) const {
    int top = INT_MIN;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) {
            auto it = layers_.find(column_key(x + dx, z + dz));
            if (it != layers_.end()) top = std::max(top, it->second.back());
        }
    return top;
}

bool ChunkDeltas::same_as(const ChunkDeltas& other) const {
    if (chunks_.size() != other.chunks_.size()) return false;
    for (const auto& [c, chunk] : chunks_) {
        const DeltaChunk* theirs = other.find(c);
        if (!theirs || std::memcmp(chunk->values.data(), theirs->values.data(), sizeof(float) * DeltaChunk::kSamples) != 0) return false;
    }
    return true;
}

void sample_edited(const Field& base, const ChunkDeltas& deltas, const glm::dvec3* points, std::size_t count, double* out) {
    base.sample_points(points, count, out);
    for (std::size_t i = 0; i < count; ++i) out[i] += deltas.at(points[i]);
}

LatticeUse meshing_lattice_use(const ChunkDeltas& deltas, const ChunkCoord& c) {
    const ValueRange d = deltas.range(c.read_box());
    return d.lo != 0.0 || d.hi != 0.0 ? LatticeUse::values : LatticeUse::surface;
}

void apply_deltas(const ChunkDeltas& deltas, ChunkSamples& samples) {
    if (deltas.empty()) return;
    deltas.add_to(samples.lattice, samples.values.data());
    update_core_range(samples);
}

}  // namespace isoterra
