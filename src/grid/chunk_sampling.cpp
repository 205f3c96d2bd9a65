// Sampling a chunk: its lattice in global sample coordinates, the values, the ground height
// and the looks (water, snow line, scree) per column (for materials and water), and the value
// range of the core that decides whether it is meshed at all.
#include <algorithm>
#include <array>
#include <limits>

#include "isoterra/grid.hpp"

namespace isoterra {

Lattice chunk_lattice(const ChunkCoord& c, const Padding& pad) {
    Lattice lat;
    lat.spacing_m = c.spacing_m();
    lat.origin = glm::i64vec3(static_cast<std::int64_t>(c.x) * kChunkSize - pad.lo, static_cast<std::int64_t>(c.y) * kChunkSize - pad.lo,
                              static_cast<std::int64_t>(c.z) * kChunkSize - pad.lo);
    const int n = kChunkSize + 1 + pad.lo + pad.hi;
    lat.size = glm::ivec3(n);
    return lat;
}

void sample_chunk(const Field& field, const ChunkCoord& c, const Padding& pad, ChunkSamples& out, LatticeUse use) {
    out.coord = c;
    out.pad = pad;
    out.lattice = chunk_lattice(c, pad);
    out.values.resize(out.lattice.count());
    out.ground.resize(static_cast<std::size_t>(out.lattice.size.x) * out.lattice.size.z);
    out.has_ground = field.sample_lattice_and_ground(out.lattice, out.values.data(), out.ground.data(), use, nullptr, &out.looks);
    out.sea_level_m = field.sea_level_m();

    update_core_range(out);
}

void update_core_range(ChunkSamples& out) {
    const int pad = out.pad.lo;
    // Per column of the rows first (lanes side by side, which vectorises: a running minimum
    // of one value does not, the compiler may not reorder it), then over the columns. NaN
    // samples (a hostile field) are skipped: std::min and max keep their first argument.
    // Which zero a range of -0 and +0 ends on may differ from one value at a time; no
    // comparison tells them apart.
    constexpr int n = kChunkSize + 1;
    std::array<float, n> lo, hi;
    lo.fill(std::numeric_limits<float>::infinity());
    hi.fill(-std::numeric_limits<float>::infinity());
    const auto take_row = [&](const float* __restrict row, float* __restrict l, float* __restrict h) {
        for (int i = 0; i < n; ++i) {
            l[i] = std::min(l[i], row[i]);
            h[i] = std::max(h[i], row[i]);
        }
    };
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j) take_row(&out.values[out.lattice.index(pad, j + pad, k + pad)], lo.data(), hi.data());
    out.core_range = {*std::min_element(lo.begin(), lo.end()), *std::max_element(hi.begin(), hi.end())};
}

}  // namespace isoterra
