// Stage 3 of the pipeline: chunks. A chunk is 32 samples a side; at LOD n its samples are
// 2^n m apart, so it covers 32 * 2^n m. Chunk (cx, cy, cz) at LOD 0 starts at world
// (32 cx, 32 cy, 32 cz). Samples are taken in global integer sample coordinates with the
// padding a mesher asks for, so neighbouring chunks compute identical shared samples.
#pragma once

#include <cstdint>
#include <vector>

#include "isoterra/field.hpp"

namespace isoterra {

inline constexpr int kChunkSize = 32;

/// Returns a / b rounded towards minus infinity (b > 0): the chunk index of sample a when
/// b = kChunkSize.
inline std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// A chunk's place in the world and its level of detail.
struct ChunkCoord {
    int x = 0, y = 0, z = 0;
    int lod = 0;
    bool operator==(const ChunkCoord&) const = default;
    /// Returns the metres between samples: 2^lod.
    double spacing_m() const { return static_cast<double>(1 << lod); }
    /// Returns the world position of the chunk's first core sample.
    glm::dvec3 origin_m() const { return glm::dvec3(x, y, z) * (kChunkSize * spacing_m()); }
    /// Returns the box of samples the chunk's meshers may read: its core and two samples
    /// beyond it on each side (padding and the gradients at its ends).
    Box read_box() const {
        const double sp = spacing_m();
        return {origin_m() - 2.0 * sp, origin_m() + (kChunkSize + 2.0) * sp};
    }
};

/// A hash of a chunk coordinate, for hash maps.
struct ChunkKey {
    std::size_t operator()(const ChunkCoord& c) const {
        return (static_cast<std::size_t>(c.x) * 73856093u) ^ (static_cast<std::size_t>(c.y) * 19349663u) ^
               (static_cast<std::size_t>(c.z) * 83492791u) ^ (static_cast<std::size_t>(c.lod) * 2654435761u);
    }
};

/// Extra samples around the chunk's 33 core samples per axis (0..32), below and above.
struct Padding {
    int lo = 0;
    int hi = 0;
};

/// A chunk's samples: the core samples 0..32 per axis plus the padding, x fastest.
struct ChunkSamples {
    ChunkCoord coord;
    Padding pad;
    Lattice lattice;
    std::vector<float> values;
    std::vector<float> ground;  // ground height per (x, z) column, when the field has one
    bool has_ground = false;
    ColumnLooks looks;          // water, snow line and scree per (x, z) column, where the field has them
    double sea_level_m = -1e9;  // the field's sea level (Field::sea_level_m), for sand
    ValueRange core_range;      // the values over the 33^3 core samples

    /// Returns the value at core-relative sample (i, j, k); -pad.lo <= i <= 32 + pad.hi.
    float at(int i, int j, int k) const { return values[lattice.index(i + pad.lo, j + pad.lo, k + pad.lo)]; }
    /// Returns true when the core holds both solid and air, i.e. a surface to mesh.
    bool has_surface() const { return core_range.lo <= 0.0 && core_range.hi > 0.0; }
};

/// Returns the lattice of a chunk's samples with `pad`.
Lattice chunk_lattice(const ChunkCoord& c, const Padding& pad);

/// Samples `field` over the chunk into `out`, reusing its buffers, with the ground heights
/// and the column looks of its lattice; `use` as in Field::sample_lattice_and_ground
/// (`surface`: for meshing only). Thread-safe for distinct `out` objects.
void sample_chunk(const Field& field, const ChunkCoord& c, const Padding& pad, ChunkSamples& out, LatticeUse use = LatticeUse::values);
/// Recomputes `samples.core_range` from its values (after something changed them).
void update_core_range(ChunkSamples& samples);

}  // namespace isoterra
