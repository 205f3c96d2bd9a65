// Simplex noise (Perlin 2001, Gustavson's formulation) that reproduces npm simplex-noise
// 4.0.3 bit for bit: the same permutation shuffle, gradient tables, corner order and
// arithmetic order. The library is compiled with -ffp-contract=off so no FMA changes a bit.
#include <cmath>
#include <cstdint>

#include "isoterra/noise.hpp"
#include "simplex2_cell.hpp"

namespace isoterra {
namespace {

using simplex2::js_floor;
constexpr double kF3 = 1.0 / 3.0;
constexpr double kG3 = 1.0 / 6.0;

// The twelve gradients both tables index with (value % 12): the 2D table uses x and y of
// its own list, the 3D one the cube-edge midpoints.
constexpr double kGrad2[12][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0, 1}, {0, -1}};
constexpr double kGrad3[12][3] = {{1, 1, 0},  {-1, 1, 0},  {1, -1, 0}, {-1, -1, 0}, {1, 0, 1},  {-1, 0, 1},
                                  {1, 0, -1}, {-1, 0, -1}, {0, 1, 1},  {0, -1, 1},  {0, 1, -1}, {0, -1, -1}};

// Fisher-Yates over 0..255 driven by `random`, then the table repeated once so that
// index sums up to 511 need no wrap.
std::array<std::uint8_t, 512> shuffled_table(Mulberry32& random) {
    std::array<std::uint8_t, 512> p{};
    for (int i = 0; i < 256; ++i) p[i] = static_cast<std::uint8_t>(i);
    for (int i = 0; i < 255; ++i) {
        const int r = i + static_cast<int>(random.next() * (256 - i));
        const std::uint8_t swap = p[i];
        p[i] = p[r];
        p[r] = swap;
    }
    for (int i = 256; i < 512; ++i) p[i] = p[i - 256];
    return p;
}

}  // namespace

Simplex2::Simplex2(Mulberry32& random) : perm_(shuffled_table(random)) {
    for (int i = 0; i < 512; ++i) {
        grad_x_[i] = kGrad2[perm_[i] % 12][0];
        grad_y_[i] = kGrad2[perm_[i] % 12][1];
        perm32_[i] = perm_[i];
    }
}

double Simplex2::operator()(double x, double y) const {
    const auto [x0, y0, x1, y1, x2, y2, i1, j1, ii, jj] = simplex2::cell_of(x, y);

    double n0 = 0, n1 = 0, n2 = 0;
    double t0 = 0.5 - x0 * x0 - y0 * y0;
    if (t0 >= 0) {
        const int g = ii + perm_[jj];
        t0 *= t0;
        n0 = t0 * t0 * (grad_x_[g] * x0 + grad_y_[g] * y0);
    }
    double t1 = 0.5 - x1 * x1 - y1 * y1;
    if (t1 >= 0) {
        const int g = ii + i1 + perm_[jj + j1];
        t1 *= t1;
        n1 = t1 * t1 * (grad_x_[g] * x1 + grad_y_[g] * y1);
    }
    double t2 = 0.5 - x2 * x2 - y2 * y2;
    if (t2 >= 0) {
        const int g = ii + 1 + perm_[jj + 1];
        t2 *= t2;
        n2 = t2 * t2 * (grad_x_[g] * x2 + grad_y_[g] * y2);
    }
    return 70.0 * (n0 + n1 + n2);
}

Simplex3::Simplex3(Mulberry32& random) : perm_(shuffled_table(random)) {
    for (int i = 0; i < 512; ++i) {
        grad_x_[i] = kGrad3[perm_[i] % 12][0];
        grad_y_[i] = kGrad3[perm_[i] % 12][1];
        grad_z_[i] = kGrad3[perm_[i] % 12][2];
        perm32_[i] = perm_[i];
        hash12_[i] = perm_[i] % 12;
    }
    pair_.resize(257 * 257);
    for (int j = 0; j <= 256; ++j)
        for (int k = 0; k <= 256; ++k) pair_[j * 257 + k] = perm_[j + perm_[k]];
}

double Simplex3::operator()(double x, double y, double z) const {
    const double s = (x + y + z) * kF3;
    const std::int32_t i = js_floor(x + s);
    const std::int32_t j = js_floor(y + s);
    const std::int32_t k = js_floor(z + s);
    const double t = (static_cast<double>(i) + static_cast<double>(j) + static_cast<double>(k)) * kG3;
    const double x0 = x - (i - t);
    const double y0 = y - (j - t);
    const double z0 = z - (k - t);

    // Which of the six tetrahedra of the skewed cube holds the point: the corners are
    // visited in the order of the coordinates' sizes.
    int i1, j1, k1, i2, j2, k2;
    if (x0 >= y0) {
        if (y0 >= z0) {
            i1 = 1, j1 = 0, k1 = 0, i2 = 1, j2 = 1, k2 = 0;
        } else if (x0 >= z0) {
            i1 = 1, j1 = 0, k1 = 0, i2 = 1, j2 = 0, k2 = 1;
        } else {
            i1 = 0, j1 = 0, k1 = 1, i2 = 1, j2 = 0, k2 = 1;
        }
    } else {
        if (y0 < z0) {
            i1 = 0, j1 = 0, k1 = 1, i2 = 0, j2 = 1, k2 = 1;
        } else if (x0 < z0) {
            i1 = 0, j1 = 1, k1 = 0, i2 = 0, j2 = 1, k2 = 1;
        } else {
            i1 = 0, j1 = 1, k1 = 0, i2 = 1, j2 = 1, k2 = 0;
        }
    }
    const double x1 = x0 - i1 + kG3, y1 = y0 - j1 + kG3, z1 = z0 - k1 + kG3;
    const double x2 = x0 - i2 + 2.0 * kG3, y2 = y0 - j2 + 2.0 * kG3, z2 = z0 - k2 + 2.0 * kG3;
    const double x3 = x0 - 1.0 + 3.0 * kG3, y3 = y0 - 1.0 + 3.0 * kG3, z3 = z0 - 1.0 + 3.0 * kG3;
    const int ii = i & 255;
    const int jj = j & 255;
    const int kk = k & 255;

    double n0 = 0, n1 = 0, n2 = 0, n3 = 0;
    double t0 = 0.6 - x0 * x0 - y0 * y0 - z0 * z0;
    if (t0 >= 0) {
        const int g = ii + perm_[jj + perm_[kk]];
        t0 *= t0;
        n0 = t0 * t0 * (grad_x_[g] * x0 + grad_y_[g] * y0 + grad_z_[g] * z0);
    }
    double t1 = 0.6 - x1 * x1 - y1 * y1 - z1 * z1;
    if (t1 >= 0) {
        const int g = ii + i1 + perm_[jj + j1 + perm_[kk + k1]];
        t1 *= t1;
        n1 = t1 * t1 * (grad_x_[g] * x1 + grad_y_[g] * y1 + grad_z_[g] * z1);
    }
    double t2 = 0.6 - x2 * x2 - y2 * y2 - z2 * z2;
    if (t2 >= 0) {
        const int g = ii + i2 + perm_[jj + j2 + perm_[kk + k2]];
        t2 *= t2;
        n2 = t2 * t2 * (grad_x_[g] * x2 + grad_y_[g] * y2 + grad_z_[g] * z2);
    }
    double t3 = 0.6 - x3 * x3 - y3 * y3 - z3 * z3;
    if (t3 >= 0) {
        const int g = ii + 1 + perm_[jj + 1 + perm_[kk + 1]];
        t3 *= t3;
        n3 = t3 * t3 * (grad_x_[g] * x3 + grad_y_[g] * y3 + grad_z_[g] * z3);
    }
    return 32.0 * (n0 + n1 + n2 + n3);
}

NoiseSet::NoiseSet(std::uint32_t seed_) : NoiseSet(Mulberry32(seed_), seed_) {}
NoiseSet::NoiseSet(Mulberry32 random, std::uint32_t seed_) : noise2(random), noise3(random), seed(seed_) {}

}  // namespace isoterra
