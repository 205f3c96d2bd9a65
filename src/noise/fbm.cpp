// Fractal Brownian motion: octaves of one noise, each finer and weaker than the last.
// The loop keeps the tutorial's order of operations so its heights come out bit-exact.
#include <algorithm>
#include <cmath>

#include "isoterra/noise.hpp"

namespace isoterra {

double FbmShape::max_abs() const {
    double sum = 0.0;
    double a = amplitude;
    for (int i = 0; i < octaves; ++i, a *= gain) sum += std::fabs(a);
    return sum;
}

double FbmShape::variation(double noise_lipschitz, double distance) const {
    double sum = 0.0, a = std::fabs(amplitude), frequency = 1.0;
    for (int i = 0; i < octaves; ++i, a *= gain, frequency *= lacunarity)
        sum += std::min(2.0 * a, a * frequency * noise_lipschitz * distance);
    return sum;
}

double fbm2(const Simplex2& noise, double x, double y, const FbmShape& shape) {
    double sum = 0.0;
    double a = shape.amplitude;
    for (int i = 0; i < shape.octaves; ++i) {
        sum += noise(x, y) * a;
        x *= shape.lacunarity;
        y *= shape.lacunarity;
        a *= shape.gain;
    }
    return sum;
}

double fbm3(const Simplex3& noise, double x, double y, double z, const FbmShape& shape) {
    double sum = 0.0;
    double a = shape.amplitude;
    for (int i = 0; i < shape.octaves; ++i) {
        sum += noise(x, y, z) * a;
        x *= shape.lacunarity;
        y *= shape.lacunarity;
        z *= shape.lacunarity;
        a *= shape.gain;
    }
    return sum;
}

}  // namespace isoterra
