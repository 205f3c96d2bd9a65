// A surface-net cell's edge crossings and trilinear normal, four lanes at a time in GCC/Clang
// vector types: SSE2 on x86-64, SIMD128 in the page. Each lane does the operation the scalar
// definitions (edge_crossing, trilinear_blend of lattice_gradient) do, in the same order, so
// every target gets the same bits (MeshDigest natively, web_page_core against the program).
#include <cstring>

#include "vertex_attributes.hpp"

namespace isoterra::detail {
namespace {

typedef float F4 __attribute__((vector_size(16)));
typedef float F2 __attribute__((vector_size(8)));
typedef double D2 __attribute__((vector_size(16)));
typedef std::int32_t I4 __attribute__((vector_size(16)));

F4 load4(const float* p) {
    F4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// (lo[0], lo[1], hi[0], hi[1]).
F4 load_pairs(const float* lo, const float* hi) {
    F2 a, b;
    std::memcpy(&a, lo, sizeof a);
    std::memcpy(&b, hi, sizeof b);
    return __builtin_shufflevector(a, b, 0, 1, 2, 3);
}

F4 select(I4 mask, F4 yes, F4 no) { return reinterpret_cast<F4>((reinterpret_cast<I4>(yes) & mask) | (reinterpret_cast<I4>(no) & ~mask)); }

// a < b ? b : a and b < a ? b : a (std::max and std::min with b second): one instruction on
// x86, which returns its second operand unless the first is greater (less).
F4 at_least(F4 a, F4 b) {
#if defined(__SSE2__) && defined(__GNUC__) && !defined(__clang__)
    return __builtin_ia32_maxps(a, b);
#else
    return select(a < b, b, a);
#endif
}
F4 at_most(F4 a, F4 b) {
#if defined(__SSE2__) && defined(__GNUC__) && !defined(__clang__)
    return __builtin_ia32_minps(a, b);
#else
    return select(b < a, b, a);
#endif
}

// cell_crossings from the corners 0-3 and 4-7. Four edges a vector: x (corners 0-1, 2-3,
// 4-5, 6-7), y (0-2, 1-3, 4-6, 5-7), z (0-4, 1-5, 2-6, 3-7). Snapped in float, which holds
// t * 2^16 exactly: the nearest integer, ties to even, as snap_fraction finds it in double;
// then clamped as edge_crossing clamps (max before min, as std::clamp's compares).
void crossings_of(F4 lo, F4 hi, float t[12]) {
    const F4 from[3] = {__builtin_shufflevector(lo, hi, 0, 2, 4, 6), __builtin_shufflevector(lo, hi, 0, 1, 4, 5), lo};
    const F4 to[3] = {__builtin_shufflevector(lo, hi, 1, 3, 5, 7), __builtin_shufflevector(lo, hi, 2, 3, 6, 7), hi};
    const F4 round = F4{} + 12582912.0f;  // 1.5 * 2^23
    const F4 step = F4{} + 1.0f / 65536.0f;
    const F4 first = F4{} + static_cast<float>(kCrossingMargin), last = F4{} + static_cast<float>(1.0 - kCrossingMargin);
    for (int axis = 0; axis < 3; ++axis) {
        const F4 q = from[axis] / (from[axis] - to[axis]);
        const I4 inside = (q >= 0.0f) & (q <= 1.0f);  // false for NaN: the middle of the edge
        const F4 snapped = ((q * 65536.0f + round) - round) * step;
        const F4 kept = at_most(at_least(snapped, first), last);
        const F4 value = select(inside, kept, F4{} + 0.5f);
        std::memcpy(t + 4 * axis, &value, sizeof value);
    }
}

// Bit c for each corner c below 0.
int solid_corners(F4 lo, F4 hi) {
    const I4 a = lo < 0.0f, b = hi < 0.0f;
#if defined(__SSE2__) && defined(__GNUC__) && !defined(__clang__)
    return __builtin_ia32_movmskps(reinterpret_cast<F4>(a)) | __builtin_ia32_movmskps(reinterpret_cast<F4>(b)) << 4;
#else
    const I4 bit = {1, 2, 4, 8};
    const I4 m = (a & bit) | ((b & bit) << 4);
    return m[0] | m[1] | m[2] | m[3];
#endif
}

// The four products of the corners 0-3 or 4-7 (weights w, gradients' x, y and z), added to
// `sum` (x, y, z, 0) one corner after the other: transposed to one (x, y, z, 0) per corner.
F4 add_corners(F4 sum, F4 w, F4 gx, F4 gy, F4 gz) {
    const F4 px = w * gx, py = w * gy, pz = w * gz, zero{};
    const F4 t0 = __builtin_shufflevector(px, py, 0, 4, 1, 5), t1 = __builtin_shufflevector(px, py, 2, 6, 3, 7);
    const F4 t2 = __builtin_shufflevector(pz, zero, 0, 4, 1, 5), t3 = __builtin_shufflevector(pz, zero, 2, 6, 3, 7);
    sum += __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    sum += __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    sum += __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    sum += __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
    return sum;
}

}  // namespace

void cell_crossings(const float f[8], float t[12]) { crossings_of(load4(f), load4(f + 4), t); }

int cell_crossings(const ChunkSamples& s, int i, int j, int k, float t[12]) {
    // The corners as two vectors straight from the lattice: written one by one and read as
    // vectors, they would wait for the stores (no store forwarding).
    const std::ptrdiff_t dy = s.lattice.size.x, dz = dy * s.lattice.size.y;
    const float* v = s.values.data() + s.lattice.index(i + s.pad.lo, j + s.pad.lo, k + s.pad.lo);
    const F4 lo = load_pairs(v, v + dy), hi = load_pairs(v + dz, v + dy + dz);
    crossings_of(lo, hi, t);
    return solid_corners(lo, hi);
}

glm::vec3 blend_central_differences(const ChunkSamples& s, int i, int j, int k, const glm::dvec3& local) {
    // The eight corners' differences as rows of four lanes in corner order (x fastest), the
    // weights likewise (each a product in double taken to float), then summed per corner in
    // corner order: trilinear_blend's operations on the same values.
    const std::ptrdiff_t dy = s.lattice.size.x, dz = dy * s.lattice.size.y;
    const float* v = s.values.data() + s.lattice.index(i + s.pad.lo, j + s.pad.lo, k + s.pad.lo);
    const auto along_x = [](const float* row0, const float* row1) {  // corners (0, 1) of two rows
        const F4 a = load4(row0 - 1), b = load4(row1 - 1);
        return __builtin_shufflevector(a, b, 2, 3, 6, 7) - __builtin_shufflevector(a, b, 0, 1, 4, 5);
    };
    const F4 gx_lo = along_x(v, v + dy), gx_hi = along_x(v + dz, v + dy + dz);
    const F4 gy_lo = load_pairs(v + dy, v + 2 * dy) - load_pairs(v - dy, v);
    const F4 gy_hi = load_pairs(v + dz + dy, v + dz + 2 * dy) - load_pairs(v + dz - dy, v + dz);
    const F4 gz_y0 = load_pairs(v + dz, v + 2 * dz) - load_pairs(v - dz, v);                      // corners 0, 1, 4, 5
    const F4 gz_y1 = load_pairs(v + dy + dz, v + dy + 2 * dz) - load_pairs(v + dy - dz, v + dy);  // 2, 3, 6, 7
    const F4 gz_lo = __builtin_shufflevector(gz_y0, gz_y1, 0, 1, 4, 5), gz_hi = __builtin_shufflevector(gz_y0, gz_y1, 2, 3, 6, 7);
    const D2 wx = {1 - local.x, local.x};
    const D2 wxy0 = wx * (1 - local.y), wxy1 = wx * local.y;
    const auto weights = [&](double wz) {  // corners (0, 1, 2, 3) at this z
        return __builtin_shufflevector(__builtin_convertvector(wxy0 * wz, F2), __builtin_convertvector(wxy1 * wz, F2), 0, 1, 2, 3);
    };
    F4 sum{};
    sum = add_corners(sum, weights(1 - local.z), gx_lo, gy_lo, gz_lo);
    sum = add_corners(sum, weights(local.z), gx_hi, gy_hi, gz_hi);
    return {sum[0], sum[1], sum[2]};
}

}  // namespace isoterra::detail
