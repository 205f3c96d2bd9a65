// Ridges: a noise is 0 along winding lines; one minus its size peaks there.
#include <algorithm>
#include <cmath>

#include "isoterra/noise.hpp"

namespace isoterra {

double js_hypot(double a, double b) {
    a = std::fabs(a);
    b = std::fabs(b);
    const double largest = std::max(a, b);
    if (largest == 0.0) return 0.0;
    if (std::isinf(largest)) return largest;
    // Kahan-compensated sum of the squares of the scaled inputs, as V8 does it.
    double sum = 0.0;
    double compensation = 0.0;
    for (const double v : {a, b}) {
        const double r = v / largest;
        const double summand = r * r - compensation;
        const double preliminary = sum + summand;
        compensation = (preliminary - sum) - summand;
        sum = preliminary;
    }
    return std::sqrt(sum) * largest;
}

double ridge_profile(double n, double sharpness, double crest, double exponent) {
    // hypot with a small `crest` rounds the fold of |n| so the crest has no crease.
    const double ridge = std::max(1.0 - js_hypot(n * sharpness, crest), 0.0);
    return std::pow(ridge, exponent);
}

}  // namespace isoterra
