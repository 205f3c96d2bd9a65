// The instruction-set paths of Simplex3::lattice_fast, each the same arithmetic (same bits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "isoterra/noise.hpp"

// x86-64 with GCC or Clang has the AVX2 and AVX-512 paths (picked at run time); the
// WebAssembly build with SIMD128 (-msimd128) its four-lane path; other targets the
// one-point path only.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__EMSCRIPTEN__)
#define ISOTERRA_HAVE_SIMD_PATHS 1
#endif
#if defined(__wasm_simd128__)
#define ISOTERRA_HAVE_SIMD128 1
#endif

namespace isoterra {

/// The groups of `lanes` consecutive points (x fastest) that the vector paths run, rows at
/// least `lanes` long: a group may run over the end of one row into the next (its lanes past
/// the end take that row's y and z), and the last group overlaps the one before it (the same
/// points give the same bits), so there is no tail. The coordinates are worked out once.
class LatticeGroups {
public:
    LatticeGroups(const NoiseLattice& l, int lanes)
        : lanes_(lanes), nx_(l.size.x), total_(static_cast<std::size_t>(l.size.y) * l.size.z * l.size.x),
          x_(static_cast<std::size_t>(l.size.x) + lanes), row_y_(static_cast<std::size_t>(l.size.y) * l.size.z), row_z_(row_y_.size()) {
        // The x table runs on past the row's end into the next row's start, so a group that
        // wraps reads its x coordinates in one load.
        for (int i = 0; i < nx_ + lanes; ++i) x_[static_cast<std::size_t>(i)] = l.coordinate(0, i % nx_);
        for (std::size_t r = 0; r < row_y_.size(); ++r) {
            row_y_[r] = l.coordinate(1, static_cast<std::int64_t>(r % l.size.y));
            row_z_[r] = l.coordinate(2, static_cast<std::int64_t>(r / l.size.y));
        }
    }
    /// Moves to the next group (the first at the first call); false past the last.
    bool next() {
        if (started_) n0_ += lanes_, i0_ += lanes_;
        started_ = true;
        if (n0_ >= total_) return false;
        while (i0_ >= nx_) i0_ -= nx_, ++row_;
        n_ = n0_;
        if (n0_ + lanes_ > total_) {  // the last group overlaps the one before it
            n_ = total_ - lanes_;
            row_ = n_ / nx_;
            i0_ = static_cast<int>(n_ - row_ * nx_);
        }
        return true;
    }
    std::size_t first() const { return n_; }             // the group's first point
    int x_index() const { return i0_; }                  // ... its x index in its row
    int row_length() const { return nx_; }               // lanes at x_index() + q >= this are in the next row
    const double* x() const { return x_.data() + i0_; }  // the lanes' x, wrapped
    double y(bool next_row) const { return row_y_[row_ + (next_row && i0_ + lanes_ > nx_)]; }
    double z(bool next_row) const { return row_z_[row_ + (next_row && i0_ + lanes_ > nx_)]; }

private:
    int lanes_, nx_;
    std::size_t total_;
    std::vector<double> x_, row_y_, row_z_;
    std::size_t n0_ = 0, n_ = 0, row_ = 0;
    int i0_ = 0;
    bool started_ = false;
};

/// The hash of corner n = di + 2 dj + 4 dk of skewed cell (i, j, k) (i, j, k taken & 255;
/// pair is the 257 x 257 table of perm[j + perm[k]]), and of all eight at out[n].
inline std::int32_t corner_hash(const std::int32_t* pair, const std::int32_t* hash, int i, int j, int k, int n) {
    return hash[i + (n & 1) + pair[(j + (n >> 1 & 1)) * 257 + k + (n >> 2 & 1)]];
}
inline void cell_corner_hashes(const std::int32_t* pair, const std::int32_t* hash, int i, int j, int k, std::int32_t* out) {
    for (int n = 0; n < 8; ++n) out[n] = corner_hash(pair, hash, i, j, k, n);
}

/// Eight points at a time (simplex_avx2.cpp); rows of at least 8. Call only where the CPU has AVX2.
void lattice_avx2(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out);
/// Sixteen at a time (simplex_avx512.cpp); rows of at least 16. Call only where the CPU has
/// AVX-512 F, DQ, VL and BW.
void lattice_avx512(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out);
/// Four at a time in WebAssembly SIMD128 (simplex_simd128.cpp); rows of at least 4.
void lattice_simd128(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out);

}  // namespace isoterra
