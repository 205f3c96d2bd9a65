// Simplex 3D for lattices, eight points at a time in AVX2 single precision with hardware
// gathers. The skew to the simplex grid and the cell's corner are worked out in double, so
// only offsets inside one cell (|d| < 1) go to float: far from the origin the noise keeps
// its precision. Agrees with Simplex3::operator() within 2e-6 (tests/noise), and gives the
// bits of Simplex3::fast() (simplex_lattice.cpp), the one-point path for other CPUs.
#include <array>
#include <vector>

#include "isoterra/noise.hpp"
#include "simplex_lattice_paths.hpp"

#ifdef ISOTERRA_HAVE_SIMD_PATHS
#include <immintrin.h>
#endif

namespace isoterra {

#ifdef ISOTERRA_HAVE_SIMD_PATHS
// Compiled for AVX2 and only called after a CPU check (Simplex3::lattice_fast).
#pragma GCC push_options
#pragma GCC target("avx2")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
namespace {

constexpr double kF3 = 1.0 / 3.0;
constexpr double kG3 = 1.0 / 6.0;

// Four 64-bit comparison masks as four 32-bit ones.
__attribute__((always_inline)) inline __m128 narrow_mask(__m256d m) {
    const __m256i low = _mm256_permutevar8x32_epi32(_mm256_castpd_si256(m), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
    return _mm_castsi128_ps(_mm256_castsi256_si128(low));
}

// The corner cell, in-cell offsets (as float) and the offsets' order of four points. The
// order is compared in double, exactly as the scalar path does: this noise jumps across
// simplex faces (its kernel reaches past the simplex), so a different choice near a face
// would change the value by the jump, not by a rounding.
__attribute__((always_inline)) inline void skew4(__m256d x, __m256d y, __m256d z, __m128i& i, __m128i& j, __m128i& k, __m128& x0,
                                                 __m128& y0, __m128& z0, __m128& a, __m128& b, __m128& c) {
    const __m256d s = _mm256_mul_pd(_mm256_add_pd(_mm256_add_pd(x, y), z), _mm256_set1_pd(kF3));
    const __m256d fi = _mm256_floor_pd(_mm256_add_pd(x, s));
    const __m256d fj = _mm256_floor_pd(_mm256_add_pd(y, s));
    const __m256d fk = _mm256_floor_pd(_mm256_add_pd(z, s));
    const __m256d t = _mm256_mul_pd(_mm256_add_pd(_mm256_add_pd(fi, fj), fk), _mm256_set1_pd(kG3));
    const __m256d dx = _mm256_sub_pd(x, _mm256_sub_pd(fi, t));
    const __m256d dy = _mm256_sub_pd(y, _mm256_sub_pd(fj, t));
    const __m256d dz = _mm256_sub_pd(z, _mm256_sub_pd(fk, t));
    a = narrow_mask(_mm256_cmp_pd(dx, dy, _CMP_GE_OQ));
    b = narrow_mask(_mm256_cmp_pd(dy, dz, _CMP_GE_OQ));
    c = narrow_mask(_mm256_cmp_pd(dx, dz, _CMP_GE_OQ));
    x0 = _mm256_cvtpd_ps(dx);
    y0 = _mm256_cvtpd_ps(dy);
    z0 = _mm256_cvtpd_ps(dz);
    i = _mm256_cvttpd_epi32(fi);
    j = _mm256_cvttpd_epi32(fj);
    k = _mm256_cvttpd_epi32(fk);
}

__attribute__((always_inline)) inline __m256 dot_grad(__m256i h, __m256 x, __m256 y, __m256 z) {
    // The twelve gradients of the table: h < 4 -> (+-x, +-y), h < 8 -> (+-x, +-z),
    // else (+-y, +-z); bit 0 flips the first term, bit 1 the second.
    const __m256 lt8 = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(8), h));
    const __m256 lt4 = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(4), h));
    const __m256 first = _mm256_blendv_ps(y, x, lt8);
    const __m256 second = _mm256_blendv_ps(z, y, lt4);
    const __m256 flip1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(1)), 31));
    const __m256 flip2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(2)), 30));
    return _mm256_add_ps(_mm256_xor_ps(first, flip1), _mm256_xor_ps(second, flip2));
}

__attribute__((always_inline)) inline __m256 corner(__m256 x, __m256 y, __m256 z, __m256i h) {
    __m256 t =
        _mm256_sub_ps(_mm256_set1_ps(0.6f), _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z)));
    t = _mm256_max_ps(t, _mm256_setzero_ps());
    t = _mm256_mul_ps(t, t);
    return _mm256_mul_ps(_mm256_mul_ps(t, t), dot_grad(h, x, y, z));
}

// The hashes of every lane's four corners, in h: the cell's own, the two beyond it by the
// offsets (i1, j1, k1) and (i2, j2, k2) (0 or 1 each), and the opposite one.
__attribute__((always_inline)) inline void corner_hashes(const std::int32_t* pair, const std::int32_t* hash, __m256i i, __m256i j,
                                                         __m256i k, __m256i i1, __m256i j1, __m256i k1, __m256i i2, __m256i j2, __m256i k2,
                                                         __m256i* h) {
    const __m256i ione = _mm256_set1_epi32(1);
    // hash(corner) = perm[i + perm[j + perm[k]]] % 12: the inner two levels come from one
    // 257 x 257 table (pair[j * 257 + k] = perm[j + perm[k]]), so two gathers per corner.
    const __m256i row = _mm256_set1_epi32(257);
    const auto gathered = [&](__m256i di, __m256i dj, __m256i dk) {
        const __m256i jk = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_add_epi32(j, dj), row), _mm256_add_epi32(k, dk));
        const __m256i pj = _mm256_i32gather_epi32(pair, jk, 4);
        return _mm256_i32gather_epi32(hash, _mm256_add_epi32(_mm256_add_epi32(i, di), pj), 4);
    };
    const __m256i zero = _mm256_setzero_si256();
    // Eight consecutive points lie in one skewed cell, or in two: the first lane's and the
    // last lane's (about a third of the groups at the tutorial's scales). Then the eight
    // hashes of each cell's cube come from sixteen plain loads and every lane picks its
    // corners by a permute, instead of eight gathers (slow on AMD's cores).
    const std::array<int, 3> first{_mm256_extract_epi32(i, 0), _mm256_extract_epi32(j, 0), _mm256_extract_epi32(k, 0)};
    const std::array<int, 3> last{_mm256_extract_epi32(i, 7), _mm256_extract_epi32(j, 7), _mm256_extract_epi32(k, 7)};
    const auto in_cell = [&](const std::array<int, 3>& c) {
        return _mm256_and_si256(
            _mm256_and_si256(_mm256_cmpeq_epi32(i, _mm256_set1_epi32(c[0])), _mm256_cmpeq_epi32(j, _mm256_set1_epi32(c[1]))),
            _mm256_cmpeq_epi32(k, _mm256_set1_epi32(c[2])));
    };
    const auto cube_of = [&](const std::array<int, 3>& c) {
        alignas(32) std::int32_t cube[8];
        cell_corner_hashes(pair, hash, c[0], c[1], c[2], cube);
        return _mm256_load_si256(reinterpret_cast<const __m256i*>(cube));
    };
    // A lane's corner (di, dj, dk) is entry di + 2 dj + 4 dk of its cube.
    const auto corner_index = [&](__m256i di, __m256i dj, __m256i dk) {
        return _mm256_or_si256(di, _mm256_or_si256(_mm256_slli_epi32(dj, 1), _mm256_slli_epi32(dk, 2)));
    };
    const __m256i c1 = corner_index(i1, j1, k1), c2 = corner_index(i2, j2, k2);
    const __m256i c0 = zero, c3 = _mm256_set1_epi32(7);
    const __m256i in_first = in_cell(first);
    if (_mm256_movemask_epi8(in_first) == -1) {
        const __m256i cube = cube_of(first);
        h[0] = _mm256_permutevar8x32_epi32(cube, c0);
        h[1] = _mm256_permutevar8x32_epi32(cube, c1);
        h[2] = _mm256_permutevar8x32_epi32(cube, c2);
        h[3] = _mm256_permutevar8x32_epi32(cube, c3);
    } else if (_mm256_movemask_epi8(_mm256_or_si256(in_first, in_cell(last))) == -1) {
        const __m256i a = cube_of(first), b = cube_of(last);
        const auto pick = [&](__m256i c) {
            return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(b, c), _mm256_permutevar8x32_epi32(a, c), in_first);
        };
        h[0] = pick(c0);
        h[1] = pick(c1);
        h[2] = pick(c2);
        h[3] = pick(c3);
    } else {
        h[0] = gathered(zero, zero, zero);
        h[1] = gathered(i1, j1, k1);
        h[2] = gathered(i2, j2, k2);
        h[3] = gathered(ione, ione, ione);
    }
}

}  // namespace

// Eight points, given as two halves of four doubles per axis.
__attribute__((always_inline)) inline __m256 eval8(const std::int32_t* pair, const std::int32_t* hash, __m256d xa_, __m256d xb_,
                                                   __m256d ya_, __m256d yb_, __m256d za_, __m256d zb_) {
    const __m256 g1 = _mm256_set1_ps(static_cast<float>(kG3));
    const __m256 g2 = _mm256_set1_ps(static_cast<float>(2.0 * kG3));
    const __m256 g3 = _mm256_set1_ps(static_cast<float>(3.0 * kG3));
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256i mask255 = _mm256_set1_epi32(255);
    const __m256i ione = _mm256_set1_epi32(1);
    const __m256 all = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    __m128i ia, ja, ka, ib, jb, kb;
    __m128 xa, ya, za, xb, yb, zb, aa, ba, ca, ab, bb, cb;
    skew4(xa_, ya_, za_, ia, ja, ka, xa, ya, za, aa, ba, ca);
    skew4(xb_, yb_, zb_, ib, jb, kb, xb, yb, zb, ab, bb, cb);
    const __m256i i = _mm256_and_si256(_mm256_set_m128i(ib, ia), mask255);
    const __m256i j = _mm256_and_si256(_mm256_set_m128i(jb, ja), mask255);
    const __m256i k = _mm256_and_si256(_mm256_set_m128i(kb, ka), mask255);
    const __m256 x0 = _mm256_set_m128(xb, xa), y0 = _mm256_set_m128(yb, ya), z0 = _mm256_set_m128(zb, za);

    // Corner offsets from the order of x0, y0, z0 (compared in double above), as masks.
    const __m256 a = _mm256_set_m128(ab, aa), b = _mm256_set_m128(bb, ba), c = _mm256_set_m128(cb, ca);
    const __m256 i1 = _mm256_and_ps(a, c), j1 = _mm256_andnot_ps(a, b), k1 = _mm256_andnot_ps(_mm256_or_ps(b, c), all);
    const __m256 i2 = _mm256_or_ps(a, c), j2 = _mm256_or_ps(_mm256_andnot_ps(a, all), b), k2 = _mm256_andnot_ps(_mm256_and_ps(b, c), all);
    const auto bit = [&](__m256 m) { return _mm256_and_si256(_mm256_castps_si256(m), ione); };
    const auto unit = [&](__m256 m) { return _mm256_and_ps(m, one); };

    const __m256 x1 = _mm256_add_ps(_mm256_sub_ps(x0, unit(i1)), g1), y1 = _mm256_add_ps(_mm256_sub_ps(y0, unit(j1)), g1),
                 z1 = _mm256_add_ps(_mm256_sub_ps(z0, unit(k1)), g1);
    const __m256 x2 = _mm256_add_ps(_mm256_sub_ps(x0, unit(i2)), g2), y2 = _mm256_add_ps(_mm256_sub_ps(y0, unit(j2)), g2),
                 z2 = _mm256_add_ps(_mm256_sub_ps(z0, unit(k2)), g2);
    const __m256 x3 = _mm256_add_ps(_mm256_sub_ps(x0, one), g3), y3 = _mm256_add_ps(_mm256_sub_ps(y0, one), g3),
                 z3 = _mm256_add_ps(_mm256_sub_ps(z0, one), g3);

    __m256i h[4];
    corner_hashes(pair, hash, i, j, k, bit(i1), bit(j1), bit(k1), bit(i2), bit(j2), bit(k2), h);
    const __m256 n0 = corner(x0, y0, z0, h[0]);
    const __m256 n1 = corner(x1, y1, z1, h[1]);
    const __m256 n2 = corner(x2, y2, z2, h[2]);
    const __m256 n3 = corner(x3, y3, z3, h[3]);
    const __m256 sum = _mm256_add_ps(_mm256_add_ps(n0, n1), _mm256_add_ps(n2, n3));
    return _mm256_mul_ps(sum, _mm256_set1_ps(32.0f));
}

// A lattice in groups of eight consecutive points (LatticeGroups).
void lattice_avx2(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (LatticeGroups g(l, 8); g.next();) {
        const std::size_t n = g.first();
        if (l.gate && _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(l.gate + n), _mm256_set1_ps(l.gate_below), _CMP_LT_OQ)) == 0xff) {
            _mm256_storeu_ps(out + n, _mm256_setzero_ps());
            continue;
        }
        const double ya = g.y(false), za = g.z(false), yb = g.y(true), zb = g.z(true);
        // Lane l holds x index i0 + l, wrapped into the next row past the end of this one.
        const __m256i idx = _mm256_add_epi32(_mm256_set1_epi32(g.x_index()), lanes);
        const __m256i next = _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(g.row_length() - 1));
        const __m256d wrap_a = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(next)));
        const __m256d wrap_b = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(next, 1)));
        const __m256d y_a = _mm256_blendv_pd(_mm256_set1_pd(ya), _mm256_set1_pd(yb), wrap_a);
        const __m256d y_b = _mm256_blendv_pd(_mm256_set1_pd(ya), _mm256_set1_pd(yb), wrap_b);
        const __m256d z_a = _mm256_blendv_pd(_mm256_set1_pd(za), _mm256_set1_pd(zb), wrap_a);
        const __m256d z_b = _mm256_blendv_pd(_mm256_set1_pd(za), _mm256_set1_pd(zb), wrap_b);
        const __m256d ua = _mm256_loadu_pd(g.x()), ub = _mm256_loadu_pd(g.x() + 4);
        _mm256_storeu_ps(out + n, eval8(pair, hash, ua, ub, y_a, y_b, z_a, z_b));
    }
}
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

}  // namespace isoterra
