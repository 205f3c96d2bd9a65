// Simplex 3D for lattices in WebAssembly SIMD128, four points at a time: the arithmetic of
// Simplex3::fast() (simplex_lattice.cpp) lane by lane, so the page gets the native bits. The
// skew and the simplex order in double (two lanes a vector), the rest in float (four); the
// corners' hashes from one cell's eight when the four points share it (most groups), by a
// byte shuffle, else one lane at a time.
#include "isoterra/noise.hpp"
#include "simplex_lattice_paths.hpp"

#ifdef ISOTERRA_HAVE_SIMD128
#include <wasm_simd128.h>

#include <cstdint>

namespace isoterra {
// (Named: the page builds its stages as unity sources, where unnamed namespaces merge.)
namespace simd128 {

constexpr double kF3 = 1.0 / 3.0;
constexpr double kG3 = 1.0 / 6.0;

// Two points' cell (as float, exact integers), in-cell offsets (float, in the low two lanes)
// and the order of their offsets (compared in double, as the scalar path does: this noise
// jumps across simplex faces, so a different choice near a face would change the value).
struct Skewed2 {
    v128_t fi, fj, fk;  // f64x2
    v128_t x0, y0, z0;  // f32x4, lanes 0 and 1
    v128_t a, b, c;     // i64x2 masks: dx >= dy, dy >= dz, dx >= dz
};

Skewed2 skew2(v128_t x, v128_t y, v128_t z) {
    Skewed2 s;
    const v128_t sum = wasm_f64x2_mul(wasm_f64x2_add(wasm_f64x2_add(x, y), z), wasm_f64x2_splat(kF3));
    s.fi = wasm_f64x2_floor(wasm_f64x2_add(x, sum));
    s.fj = wasm_f64x2_floor(wasm_f64x2_add(y, sum));
    s.fk = wasm_f64x2_floor(wasm_f64x2_add(z, sum));
    const v128_t t = wasm_f64x2_mul(wasm_f64x2_add(wasm_f64x2_add(s.fi, s.fj), s.fk), wasm_f64x2_splat(kG3));
    const v128_t dx = wasm_f64x2_sub(x, wasm_f64x2_sub(s.fi, t));
    const v128_t dy = wasm_f64x2_sub(y, wasm_f64x2_sub(s.fj, t));
    const v128_t dz = wasm_f64x2_sub(z, wasm_f64x2_sub(s.fk, t));
    s.a = wasm_f64x2_ge(dx, dy);
    s.b = wasm_f64x2_ge(dy, dz);
    s.c = wasm_f64x2_ge(dx, dz);
    s.x0 = wasm_f32x4_demote_f64x2_zero(dx);
    s.y0 = wasm_f32x4_demote_f64x2_zero(dy);
    s.z0 = wasm_f32x4_demote_f64x2_zero(dz);
    return s;
}

// Lanes 0 and 1 of two 32-bit vectors as four; the even halves of two 64-bit masks as four.
v128_t join(v128_t lo, v128_t hi) { return wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5); }
v128_t join_masks(v128_t lo, v128_t hi) { return wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6); }
// Two cells' whole parts (exact, small) as 32-bit integers & 255.
v128_t cell_index(v128_t lo, v128_t hi) {
    return wasm_v128_and(join(wasm_i32x4_trunc_sat_f64x2_zero(lo), wasm_i32x4_trunc_sat_f64x2_zero(hi)), wasm_i32x4_splat(255));
}

v128_t dot_grad(v128_t h, v128_t x, v128_t y, v128_t z) {
    // The twelve gradients of the table: h < 4 -> (+-x, +-y), h < 8 -> (+-x, +-z), else
    // (+-y, +-z); bit 0 flips the first term, bit 1 the second.
    const v128_t first = wasm_v128_bitselect(x, y, wasm_i32x4_lt(h, wasm_i32x4_splat(8)));
    const v128_t second = wasm_v128_bitselect(y, z, wasm_i32x4_lt(h, wasm_i32x4_splat(4)));
    const v128_t flip1 = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(1)), 31);
    const v128_t flip2 = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(2)), 30);
    return wasm_f32x4_add(wasm_v128_xor(first, flip1), wasm_v128_xor(second, flip2));
}

v128_t corner(v128_t x, v128_t y, v128_t z, v128_t h) {
    v128_t t = wasm_f32x4_sub(wasm_f32x4_splat(0.6f),
                              wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(x, x), wasm_f32x4_mul(y, y)), wasm_f32x4_mul(z, z)));
    const v128_t zero = wasm_f32x4_splat(0.0f);
    t = wasm_v128_bitselect(t, zero, wasm_f32x4_gt(t, zero));  // t > 0 ? t : 0, as the scalar path (NaN: 0)
    t = wasm_f32x4_mul(t, t);
    return wasm_f32x4_mul(wasm_f32x4_mul(t, t), dot_grad(h, x, y, z));
}

// The last cell whose eight corner hashes (each below 12) were packed as bytes: consecutive
// groups along a row mostly share their cell.
struct CellCube {
    int i = -1, j = -1, k = -1;
    v128_t table = wasm_i32x4_splat(0);
};

// Cell (i, j, k)'s eight corner hashes as bytes 0-7 (corner di + 2 dj + 4 dk), from `last`
// when it is that cell; `last` becomes it.
v128_t cube_bytes(const std::int32_t* pair, const std::int32_t* hash, const int (&c)[3], CellCube& last) {
    const int i = c[0], j = c[1], k = c[2];
    if (i != last.i || j != last.j || k != last.k) {
        std::int32_t cube[8];
        cell_corner_hashes(pair, hash, i, j, k, cube);
        alignas(16) std::uint8_t bytes[16] = {};
        for (int n = 0; n < 8; ++n) bytes[n] = static_cast<std::uint8_t>(cube[n]);
        last = {i, j, k, wasm_v128_load(bytes)};
    }
    return last.table;
}

// The same one lane at a time (points in more than one cell).
void lane_hashes(const std::int32_t* pair, const std::int32_t* hash, v128_t i, v128_t j, v128_t k, v128_t c1, v128_t c2, v128_t* h) {
    alignas(16) std::int32_t ii[4], jj[4], kk[4], o1[4], o2[4], out[4][4];
    wasm_v128_store(ii, i), wasm_v128_store(jj, j), wasm_v128_store(kk, k), wasm_v128_store(o1, c1), wasm_v128_store(o2, c2);
    for (int q = 0; q < 4; ++q) {
        const auto at = [&](int c) { return corner_hash(pair, hash, ii[q], jj[q], kk[q], c); };
        out[0][q] = at(0), out[1][q] = at(o1[q]), out[2][q] = at(o2[q]), out[3][q] = at(7);
    }
    for (int c = 0; c < 4; ++c) h[c] = wasm_v128_load(out[c]);
}

// The hashes of every lane's four corners: the cell's own (corner 0), those at the offsets
// c1 and c2 (corner di + 2 dj + 4 dk of the cell's cube) and the opposite one (7).
void corner_hashes(const std::int32_t* pair, const std::int32_t* hash, v128_t i, v128_t j, v128_t k, v128_t c1, v128_t c2, CellCube& last,
                   v128_t* h) {
    const int first[3] = {wasm_i32x4_extract_lane(i, 0), wasm_i32x4_extract_lane(j, 0), wasm_i32x4_extract_lane(k, 0)};
    const v128_t same =
        wasm_v128_and(wasm_v128_and(wasm_i32x4_eq(i, wasm_i32x4_splat(first[0])), wasm_i32x4_eq(j, wasm_i32x4_splat(first[1]))),
                      wasm_i32x4_eq(k, wasm_i32x4_splat(first[2])));
    // Four points in more than one cell (a group in two cells, picking from both cubes as the
    // AVX2 path does, measured no faster): one lane at a time.
    if (!wasm_i32x4_all_true(same)) return lane_hashes(pair, hash, i, j, k, c1, c2, h);
    // One cell: each lane's hashes picked from its cube by a byte shuffle whose other three
    // bytes ask for none (index 128: 0).
    const v128_t table = cube_bytes(pair, hash, first, last), rest = wasm_i32x4_splat(static_cast<std::int32_t>(0x80808000u));
    h[0] = wasm_i8x16_swizzle(table, rest);
    h[1] = wasm_i8x16_swizzle(table, wasm_v128_or(c1, rest));
    h[2] = wasm_i8x16_swizzle(table, wasm_v128_or(c2, rest));
    h[3] = wasm_i8x16_swizzle(table, wasm_v128_or(wasm_i32x4_splat(7), rest));
}

// Four points, given as two halves of two doubles per axis.
v128_t eval4(const std::int32_t* pair, const std::int32_t* hash, CellCube& last, v128_t xa, v128_t xb, v128_t ya, v128_t yb, v128_t za,
             v128_t zb) {
    const Skewed2 p = skew2(xa, ya, za), q = skew2(xb, yb, zb);
    const v128_t i = cell_index(p.fi, q.fi), j = cell_index(p.fj, q.fj), k = cell_index(p.fk, q.fk);
    const v128_t x0 = join(p.x0, q.x0), y0 = join(p.y0, q.y0), z0 = join(p.z0, q.z0);
    const v128_t a = join_masks(p.a, q.a), b = join_masks(p.b, q.b), c = join_masks(p.c, q.c);
    // The corners' offsets (0 or 1 per axis) as masks, as the scalar path's booleans.
    const v128_t i1 = wasm_v128_and(a, c), j1 = wasm_v128_andnot(b, a), k1 = wasm_v128_not(wasm_v128_or(b, c));
    const v128_t i2 = wasm_v128_or(a, c), j2 = wasm_v128_or(wasm_v128_not(a), b), k2 = wasm_v128_not(wasm_v128_and(b, c));
    const v128_t one = wasm_f32x4_splat(1.0f);
    const auto unit = [&](v128_t m) { return wasm_v128_and(m, one); };  // 1.0f or 0.0f
    const auto bit = [&](v128_t m) { return wasm_v128_and(m, wasm_i32x4_splat(1)); };
    const v128_t g1 = wasm_f32x4_splat(static_cast<float>(kG3)), g2 = wasm_f32x4_splat(static_cast<float>(2.0 * kG3));
    const v128_t g3 = wasm_f32x4_splat(static_cast<float>(3.0 * kG3));
    const v128_t x1 = wasm_f32x4_add(wasm_f32x4_sub(x0, unit(i1)), g1), y1 = wasm_f32x4_add(wasm_f32x4_sub(y0, unit(j1)), g1);
    const v128_t z1 = wasm_f32x4_add(wasm_f32x4_sub(z0, unit(k1)), g1);
    const v128_t x2 = wasm_f32x4_add(wasm_f32x4_sub(x0, unit(i2)), g2), y2 = wasm_f32x4_add(wasm_f32x4_sub(y0, unit(j2)), g2);
    const v128_t z2 = wasm_f32x4_add(wasm_f32x4_sub(z0, unit(k2)), g2);
    const v128_t x3 = wasm_f32x4_add(wasm_f32x4_sub(x0, one), g3), y3 = wasm_f32x4_add(wasm_f32x4_sub(y0, one), g3);
    const v128_t z3 = wasm_f32x4_add(wasm_f32x4_sub(z0, one), g3);
    const auto corner_index = [&](v128_t di, v128_t dj, v128_t dk) {
        return wasm_v128_or(bit(di), wasm_v128_or(wasm_i32x4_shl(bit(dj), 1), wasm_i32x4_shl(bit(dk), 2)));
    };
    v128_t h[4];
    corner_hashes(pair, hash, i, j, k, corner_index(i1, j1, k1), corner_index(i2, j2, k2), last, h);
    const v128_t n0 = corner(x0, y0, z0, h[0]), n1 = corner(x1, y1, z1, h[1]);
    const v128_t n2 = corner(x2, y2, z2, h[2]), n3 = corner(x3, y3, z3, h[3]);
    return wasm_f32x4_mul(wasm_f32x4_add(wasm_f32x4_add(n0, n1), wasm_f32x4_add(n2, n3)), wasm_f32x4_splat(32.0f));
}

}  // namespace simd128

// A lattice in groups of four consecutive points (LatticeGroups); a group whose every point
// is gated reads 0.
void lattice_simd128(const std::int32_t* pair, const std::int32_t* hash, const NoiseLattice& l, float* out) {
    using namespace simd128;
    CellCube last;
    for (LatticeGroups g(l, 4); g.next();) {
        const std::size_t n = g.first();
        if (l.gate && l.gate[n] < l.gate_below && l.gate[n + 1] < l.gate_below && l.gate[n + 2] < l.gate_below &&
            l.gate[n + 3] < l.gate_below) {
            wasm_v128_store(out + n, wasm_f32x4_splat(0.0f));
            continue;
        }
        // Lane q holds x index i0 + q, wrapped into the next row past the end of this one.
        const double* x = g.x();
        v128_t ya, yb, za, zb;
        if (g.x_index() + 4 <= g.row_length()) {
            ya = yb = wasm_f64x2_splat(g.y(false)), za = zb = wasm_f64x2_splat(g.z(false));
        } else {
            double y[4], z[4];
            for (int q = 0; q < 4; ++q) {
                const bool next = g.x_index() + q >= g.row_length();
                y[q] = g.y(next), z[q] = g.z(next);
            }
            ya = wasm_f64x2_make(y[0], y[1]), yb = wasm_f64x2_make(y[2], y[3]), za = wasm_f64x2_make(z[0], z[1]),
            zb = wasm_f64x2_make(z[2], z[3]);
        }
        wasm_v128_store(out + n, eval4(pair, hash, last, wasm_v128_load(x), wasm_v128_load(x + 2), ya, yb, za, zb));
    }
}

}  // namespace isoterra
#endif
