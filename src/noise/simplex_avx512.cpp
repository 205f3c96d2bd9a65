// Simplex 3D for lattices, sixteen points at a time in AVX-512: the operations of the AVX2
// path (simplex_avx2.cpp) and of Simplex3::fast(), in the same order and precision (skew and
// simplex order in double, the rest in float, no fused multiply-adds), so every path gives
// the same bits. Twice the lanes, and mask registers in place of comparison vectors.
#include <cstdint>
#include <vector>

#include "isoterra/noise.hpp"
#include "simplex_lattice_paths.hpp"

#ifdef ISOTERRA_HAVE_SIMD_PATHS
// GCC 12's AVX-512 headers start some conversions from an undefined vector, which its
// uninitialised-use warning reports from inside them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

namespace isoterra {

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx512bw")
#pragma GCC diagnostic ignored "-Wpsabi"
namespace {

constexpr double kF3 = 1.0 / 3.0;
constexpr double kG3 = 1.0 / 6.0;

struct Skewed {
    __m512i i, j, k;    // the cell, & 255
    __m512 x0, y0, z0;  // offsets inside it
    __mmask16 a, b, c;  // x0 >= y0, y0 >= z0, x0 >= z0, compared in double
};

// Eight points' skew in double (as skew4 of the AVX2 path): cell, in-cell offsets as float,
// and the offsets' order as masks.
__attribute__((always_inline)) inline void skew8(__m512d x, __m512d y, __m512d z, __m256i& i, __m256i& j, __m256i& k, __m256& x0,
                                                 __m256& y0, __m256& z0, __mmask8& a, __mmask8& b, __mmask8& c) {
    constexpr int down = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;
    const __m512d s = _mm512_mul_pd(_mm512_add_pd(_mm512_add_pd(x, y), z), _mm512_set1_pd(kF3));
    const __m512d fi = _mm512_roundscale_pd(_mm512_add_pd(x, s), down);
    const __m512d fj = _mm512_roundscale_pd(_mm512_add_pd(y, s), down);
    const __m512d fk = _mm512_roundscale_pd(_mm512_add_pd(z, s), down);
    const __m512d t = _mm512_mul_pd(_mm512_add_pd(_mm512_add_pd(fi, fj), fk), _mm512_set1_pd(kG3));
    const __m512d dx = _mm512_sub_pd(x, _mm512_sub_pd(fi, t));
    const __m512d dy = _mm512_sub_pd(y, _mm512_sub_pd(fj, t));
    const __m512d dz = _mm512_sub_pd(z, _mm512_sub_pd(fk, t));
    a = _mm512_cmp_pd_mask(dx, dy, _CMP_GE_OQ);
    b = _mm512_cmp_pd_mask(dy, dz, _CMP_GE_OQ);
    c = _mm512_cmp_pd_mask(dx, dz, _CMP_GE_OQ);
    x0 = _mm512_cvtpd_ps(dx);
    y0 = _mm512_cvtpd_ps(dy);
    z0 = _mm512_cvtpd_ps(dz);
    i = _mm512_cvttpd_epi32(fi);
    j = _mm512_cvttpd_epi32(fj);
    k = _mm512_cvttpd_epi32(fk);
}

__attribute__((always_inline)) inline Skewed skew16(const __m512d (&x)[2], const __m512d (&y)[2], const __m512d (&z)[2]) {
    __m256i i[2], j[2], k[2];
    __m256 x0[2], y0[2], z0[2];
    __mmask8 a[2], b[2], c[2];
    for (int h = 0; h < 2; ++h) skew8(x[h], y[h], z[h], i[h], j[h], k[h], x0[h], y0[h], z0[h], a[h], b[h], c[h]);
    const auto join_i = [](__m256i lo, __m256i hi) {
        return _mm512_and_si512(_mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1), _mm512_set1_epi32(255));
    };
    const auto join_f = [](__m256 lo, __m256 hi) { return _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1); };
    const auto join_m = [](__mmask8 lo, __mmask8 hi) { return static_cast<__mmask16>(lo | (hi << 8)); };
    return {join_i(i[0], i[1]),   join_i(j[0], j[1]), join_i(k[0], k[1]), join_f(x0[0], x0[1]), join_f(y0[0], y0[1]),
            join_f(z0[0], z0[1]), join_m(a[0], a[1]), join_m(b[0], b[1]), join_m(c[0], c[1])};
}

__attribute__((always_inline)) inline __m512 corner(__m512 x, __m512 y, __m512 z, __m512i h) {
    // The twelve gradients: h < 8 takes x first (else y), h < 4 takes y second (else z);
    // bit 0 flips the first term, bit 1 the second.
    const __m512 first = _mm512_mask_blend_ps(_mm512_cmplt_epi32_mask(h, _mm512_set1_epi32(8)), y, x);
    const __m512 second = _mm512_mask_blend_ps(_mm512_cmplt_epi32_mask(h, _mm512_set1_epi32(4)), z, y);
    const __m512 flip1 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_and_si512(h, _mm512_set1_epi32(1)), 31));
    const __m512 flip2 = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_and_si512(h, _mm512_set1_epi32(2)), 30));
    const __m512 dot = _mm512_add_ps(_mm512_xor_ps(first, flip1), _mm512_xor_ps(second, flip2));
    __m512 t =
        _mm512_sub_ps(_mm512_set1_ps(0.6f), _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(x, x), _mm512_mul_ps(y, y)), _mm512_mul_ps(z, z)));
    t = _mm512_max_ps(t, _mm512_setzero_ps());
    t = _mm512_mul_ps(t, t);
    return _mm512_mul_ps(_mm512_mul_ps(t, t), dot);
}

// Two cubes of eight hashes, each stored with one 256-bit store: read back 256 bits at a time,
// the stores forward to the loads (a 512-bit load across two of them waited for both to reach
// the cache: 9 % of the kernel's time under perf).
__attribute__((always_inline)) inline __m512i two_cubes(const std::int32_t* table) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_load_si256(reinterpret_cast<const __m256i*>(table))),
                              _mm256_load_si256(reinterpret_cast<const __m256i*>(table + 8)), 1);
}

__attribute__((always_inline)) inline __m512 eval16(const std::int32_t* pair, const std::int32_t* hash, const Skewed& s) {
    const __m512 g1 = _mm512_set1_ps(static_cast<float>(kG3));
    const __m512 g2 = _mm512_set1_ps(static_cast<float>(2.0 * kG3));
    const __m512 g3 = _mm512_set1_ps(static_cast<float>(3.0 * kG3));
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512 zero = _mm512_setzero_ps();
    // Corner offsets from the simplex order, as masks (see the AVX2 path).
    const __mmask16 i1 = s.a & s.c, j1 = ~s.a & s.b, k1 = ~(s.b | s.c);
    const __mmask16 i2 = s.a | s.c, j2 = ~s.a | s.b, k2 = ~(s.b & s.c);
    const auto unit = [&](__mmask16 m) { return _mm512_mask_blend_ps(m, zero, one); };
    const __m512 x1 = _mm512_add_ps(_mm512_sub_ps(s.x0, unit(i1)), g1), y1 = _mm512_add_ps(_mm512_sub_ps(s.y0, unit(j1)), g1),
                 z1 = _mm512_add_ps(_mm512_sub_ps(s.z0, unit(k1)), g1);
    const __m512 x2 = _mm512_add_ps(_mm512_sub_ps(s.x0, unit(i2)), g2), y2 = _mm512_add_ps(_mm512_sub_ps(s.y0, unit(j2)), g2),
                 z2 = _mm512_add_ps(_mm512_sub_ps(s.z0, unit(k2)), g2);
    const __m512 x3 = _mm512_add_ps(_mm512_sub_ps(s.x0, one), g3), y3 = _mm512_add_ps(_mm512_sub_ps(s.y0, one), g3),
                 z3 = _mm512_add_ps(_mm512_sub_ps(s.z0, one), g3);

    // A lane's corner (di, dj, dk) is entry di + 2 dj + 4 dk of its cell's cube of hashes.
    const __m512i zi = _mm512_setzero_si512();
    const auto bit = [&](__mmask16 m, int value) { return _mm512_mask_blend_epi32(m, zi, _mm512_set1_epi32(value)); };
    const __m512i c0 = zi, c3 = _mm512_set1_epi32(7);
    const __m512i c1 = _mm512_or_si512(bit(i1, 1), _mm512_or_si512(bit(j1, 2), bit(k1, 4)));
    const __m512i c2 = _mm512_or_si512(bit(i2, 1), _mm512_or_si512(bit(j2, 2), bit(k2, 4)));
    alignas(64) std::int32_t ii[16], jj[16], kk[16];
    _mm512_store_si512(ii, s.i);
    _mm512_store_si512(jj, s.j);
    _mm512_store_si512(kk, s.k);
    const auto cube = [&](int lane, std::int32_t* out) { cell_corner_hashes(pair, hash, ii[lane], jj[lane], kk[lane], out); };
    // Along a group the skewed cell only steps forward (x grows, and with it all three
    // skewed coordinates) or starts again at a row's end, so the lanes' cells come in runs.
    // Up to four runs (nearly always, at the terrain's scales): their cubes make one table of
    // 32 hashes and each corner is one two-table permute. More: gathers.
    const __m512i previous = _mm512_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    const auto differs = [&](__m512i v) { return _mm512_cmpneq_epi32_mask(v, _mm512_permutexvar_epi32(previous, v)); };
    unsigned starts = static_cast<unsigned>(differs(s.i) | differs(s.j) | differs(s.k));  // lanes that begin a run, but lane 0
    __m512i h0, h1, h2, h3;
    if (__builtin_popcount(starts) <= 3) {
        alignas(64) std::int32_t table[32] = {};
        cube(0, table);
        // Each lane's run, times 8: its cube's place in the table.
        __m512i run = zi;
        const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        for (int r = 1; starts != 0; ++r, starts &= starts - 1) {
            const int first = __builtin_ctz(starts);
            cube(first, table + 8 * r);
            run = _mm512_mask_add_epi32(run, _mm512_cmpge_epi32_mask(lanes, _mm512_set1_epi32(first)), run, _mm512_set1_epi32(8));
        }
        const __m512i low = two_cubes(table), high = two_cubes(table + 16);
        const auto pick = [&](__m512i c) { return _mm512_permutex2var_epi32(low, _mm512_or_si512(c, run), high); };
        h0 = pick(c0);
        h1 = pick(c1);
        h2 = pick(c2);
        h3 = pick(c3);
    } else {
        // hash(corner) = perm[i + perm[j + perm[k]]] % 12 from the 257 x 257 pair table.
        const __m512i row = _mm512_set1_epi32(257), ione = _mm512_set1_epi32(1);
        const auto h = [&](__m512i c) {
            const __m512i di = _mm512_and_si512(c, ione), dj = _mm512_and_si512(_mm512_srli_epi32(c, 1), ione),
                          dk = _mm512_srli_epi32(c, 2);
            const __m512i jk = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_add_epi32(s.j, dj), row), _mm512_add_epi32(s.k, dk));
            const __m512i pj = _mm512_i32gather_epi32(jk, pair, 4);
            return _mm512_i32gather_epi32(_mm512_add_epi32(_mm512_add_epi32(s.i, di), pj), hash, 4);
        };
        h0 = h(c0);
        h1 = h(c1);
        h2 = h(c2);
        h3 = h(c3);
    }
    const __m512 n0 = corner(s.x0, s.y0, s.z0, h0);
    const __m512 n1 = corner(x1, y1, z1, h1);
    const __m512 n2 = corner(x2, y2, z2, h2);
    const __m512 n3 = corner(x3, y3, z3, h3);
    const __m512 sum = _mm512_add_ps(_mm512_add_ps(n0, n1), _mm512_add_ps(n2, n3));
    return _mm512_mul_ps(sum, _mm512_set1_ps(32.0f));
}

}  // namespace

// A lattice in groups of sixteen consecutive points (LatticeGroups).
void lattice_avx512(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (LatticeGroups g(l, 16); g.next();) {
        const std::size_t n = g.first();
        if (l.gate && _mm512_cmp_ps_mask(_mm512_loadu_ps(l.gate + n), _mm512_set1_ps(l.gate_below), _CMP_LT_OQ) == 0xffff) {
            _mm512_storeu_ps(out + n, _mm512_setzero_ps());
            continue;
        }
        const double ya = g.y(false), za = g.z(false), yb = g.y(true), zb = g.z(true);
        // Lanes past the row's end take the next row's y and z.
        const __mmask16 next =
            _mm512_cmpgt_epi32_mask(_mm512_add_epi32(_mm512_set1_epi32(g.x_index()), lanes), _mm512_set1_epi32(g.row_length() - 1));
        const __mmask8 next_lo = static_cast<__mmask8>(next), next_hi = static_cast<__mmask8>(next >> 8);
        const __m512d x[2] = {_mm512_loadu_pd(g.x()), _mm512_loadu_pd(g.x() + 8)};
        const __m512d y[2] = {_mm512_mask_blend_pd(next_lo, _mm512_set1_pd(ya), _mm512_set1_pd(yb)),
                              _mm512_mask_blend_pd(next_hi, _mm512_set1_pd(ya), _mm512_set1_pd(yb))};
        const __m512d z[2] = {_mm512_mask_blend_pd(next_lo, _mm512_set1_pd(za), _mm512_set1_pd(zb)),
                              _mm512_mask_blend_pd(next_hi, _mm512_set1_pd(za), _mm512_set1_pd(zb))};
        _mm512_storeu_ps(out + n, eval16(pair, hash, skew16(x, y, z)));
    }
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

}  // namespace isoterra
#endif
