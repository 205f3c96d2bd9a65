// Simplex 3D for lattices in float, one point at a time: the arithmetic of the AVX2 and
// AVX-512 paths lane by lane (skew and simplex order in double, the rest in float, the same
// order), so a CPU without them gets the same bits. lattice_fast picks the widest path the
// CPU has (noise_path.cpp).
#include <cmath>
#include <cstdint>

#include "isoterra/noise.hpp"
#include "simplex_lattice_paths.hpp"

namespace isoterra {

float Simplex3::fast(double x, double y, double z) const {
    // The AVX2 lane's operations one by one: skew in double, the rest in float, same order.
    constexpr double f3 = 1.0 / 3.0, g3 = 1.0 / 6.0;
    const double s = (x + y + z) * f3;
    const double fi = std::floor(x + s), fj = std::floor(y + s), fk = std::floor(z + s);
    const double t = (fi + fj + fk) * g3;
    const double dx = x - (fi - t), dy = y - (fj - t), dz = z - (fk - t);
    const float x0 = static_cast<float>(dx), y0 = static_cast<float>(dy), z0 = static_cast<float>(dz);
    const int i = static_cast<std::int32_t>(fi) & 255, j = static_cast<std::int32_t>(fj) & 255, k = static_cast<std::int32_t>(fk) & 255;
    const bool a = dx >= dy, b = dy >= dz, c = dx >= dz;
    const int i1 = a && c, j1 = !a && b, k1 = !(b || c), i2 = a || c, j2 = !a || b, k2 = !(b && c);
    const float g1 = static_cast<float>(g3), g2 = static_cast<float>(2.0 * g3), g3f = static_cast<float>(3.0 * g3);
    const auto corner = [&](float cx, float cy, float cz, int di, int dj, int dk) {
        const int h = corner_hash(pair_.data(), hash12_.data(), i, j, k, di + 2 * dj + 4 * dk);
        const float first = h < 8 ? cx : cy, second = h < 4 ? cy : cz;
        const float dot = (h & 1 ? -first : first) + (h & 2 ? -second : second);
        float tt = 0.6f - ((cx * cx + cy * cy) + cz * cz);
        tt = tt > 0.0f ? tt : 0.0f;
        tt *= tt;
        return (tt * tt) * dot;
    };
    const float n0 = corner(x0, y0, z0, 0, 0, 0);
    const float n1 = corner((x0 - i1) + g1, (y0 - j1) + g1, (z0 - k1) + g1, i1, j1, k1);
    const float n2 = corner((x0 - i2) + g2, (y0 - j2) + g2, (z0 - k2) + g2, i2, j2, k2);
    const float n3 = corner((x0 - 1.0f) + g3f, (y0 - 1.0f) + g3f, (z0 - 1.0f) + g3f, 1, 1, 1);
    return ((n0 + n1) + (n2 + n3)) * 32.0f;
}

void Simplex3::lattice_fast(const NoiseLattice& l, float* out) const {
#ifdef ISOTERRA_HAVE_SIMD_PATHS
    const NoisePath path = noise_path();
    if (path == NoisePath::avx512 && l.size.x >= 16 && l.size.y * l.size.z >= 1) {
        lattice_avx512(pair_.data(), hash12_.data(), l, out);
        return;
    }
    if (path >= NoisePath::avx2 && l.size.x >= 8 && l.size.y * l.size.z >= 1) {
        lattice_avx2(pair_.data(), hash12_.data(), l, out);
        return;
    }
#endif
#ifdef ISOTERRA_HAVE_SIMD128
    if (l.size.x >= 4 && l.size.y * l.size.z >= 1) {
        lattice_simd128(pair_.data(), hash12_.data(), l, out);
        return;
    }
#endif
    // Gated points read 0 here one by one; the AVX2 path gates whole groups. Callers use
    // the gate only where the value cannot matter (see TerrainFunction::sample_lattice_and_ground).
    std::size_t n = 0;
    for (int k = 0; k < l.size.z; ++k)
        for (int j = 0; j < l.size.y; ++j)
            for (int i = 0; i < l.size.x; ++i, ++n)
                out[n] = l.gate && l.gate[n] < l.gate_below ? 0.0f : fast(l.coordinate(0, i), l.coordinate(1, j), l.coordinate(2, k));
}

}  // namespace isoterra
