// FastSimplex3: splits a lattice's coordinates (fast_simplex_tables.hpp) and hands them to
// the widest path the CPU has; the four-lane path here is the baseline (SSE2, or SIMD128 in
// the WebAssembly build) and the one-point path, so every CPU gets the same bits.
#include "fast_simplex_kernel.hpp"
#include "fast_simplex_tables.hpp"
#include "isoterra/noise.hpp"

namespace isoterra {
namespace {

constexpr int kPad = 16;  // the widest path's lanes: how far the x parts run on past a row

// Fills `t` (kept per thread by the caller: a chunk a call, and its buffers are reused).
void split_lattice(const NoiseLattice& l, const FbmShape& shape, std::uint32_t seed, FastLatticeTables& t) {
    t.octaves = fast_octaves(shape, seed);
    const int octaves = t.octaves.count;
    t.nx = l.size.x;
    t.rows = static_cast<std::size_t>(l.size.y) * static_cast<std::size_t>(l.size.z);
    t.x_stride = static_cast<std::size_t>(t.nx) + kPad;
    for (auto& x : t.x_hash) x.resize(t.x_stride * octaves);
    t.x_part.resize(t.x_stride * octaves);
    t.rows_yz.resize(t.rows * octaves);
    thread_local std::vector<std::uint32_t> yw, zw;
    thread_local std::vector<float> yf, zf;
    yw.resize(l.size.y), zw.resize(l.size.z), yf.resize(l.size.y), zf.resize(l.size.z);
    for (int o = 0; o < octaves; ++o) {
        const double frequency = t.octaves.frequency[o];
        for (std::size_t i = 0; i < t.x_stride; ++i) {
            const std::size_t at = o * t.x_stride + i;
            std::uint32_t u;
            split_fast_coordinate(l.coordinate(0, static_cast<std::int64_t>(i % t.nx)) * frequency, u, t.x_part[at]);
            const FastHashTerms terms = fast_x_terms(u);
            for (int axis = 0; axis < 3; ++axis) t.x_hash[axis][at] = terms.term[axis];
        }
        for (int j = 0; j < l.size.y; ++j) split_fast_coordinate(l.coordinate(1, j) * frequency, yw[j], yf[j]);
        for (int k = 0; k < l.size.z; ++k) split_fast_coordinate(l.coordinate(2, k) * frequency, zw[k], zf[k]);
        FastRowParts* row = t.rows_yz.data() + o * t.rows;
        for (int k = 0; k < l.size.z; ++k)
            for (int j = 0; j < l.size.y; ++j) {
                const FastHashTerms terms = fast_row_terms(yw[j], zw[k], seed + static_cast<std::uint32_t>(o));
                *row++ = {{terms.term[0], terms.term[1], terms.term[2]}, yf[j], zf[k]};
            }
    }
}

void run_lattice(const FastLatticeTables& t, float* out) {
    const std::size_t total = t.rows * static_cast<std::size_t>(t.nx);
    if (total == 0) return;
#ifdef ISOTERRA_HAVE_SIMD_PATHS
    const NoisePath path = noise_path();
    if (path == NoisePath::avx512 && total >= 16) return fast_lattice_avx512(t, out);
    if (path >= NoisePath::avx2 && total >= 8) return fast_lattice_avx2(t, out);
#endif
    fast_lattice_groups<4>(t, out);
}

}  // namespace

void FastSimplex3::lattice(const NoiseLattice& l, float* out) const { fbm_lattice(l, FbmShape{1, 2.0, 0.5, 1.0}, out); }

void FastSimplex3::fbm_lattice(const NoiseLattice& l, const FbmShape& shape, float* out) const {
    thread_local FastLatticeTables tables;
    split_lattice(l, shape, seed_, tables);
    run_lattice(tables, out);
    if (tables.rows_yz.capacity() > (1u << 16)) tables = FastLatticeTables{};  // not kept past 1.3 MB
}

float FastSimplex3::fbm(double x, double y, double z, const FbmShape& shape) const {
    float out = 0.0f;
    fbm_points(&x, &y, &z, 1, shape, &out);
    return out;
}

void FastSimplex3::fbm_points(const double* x, const double* y, const double* z, std::size_t count, const FbmShape& shape,
                              float* out) const {
    const double* const xyz[3] = {x, y, z};
    if (count > 0) fast_points<4>(xyz, count, fast_octaves(shape, seed_), out);
}

float FastSimplex3::operator()(double x, double y, double z) const { return fbm(x, y, z, FbmShape{1, 2.0, 0.5, 1.0}); }

}  // namespace isoterra
