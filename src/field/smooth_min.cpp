// The polynomial smooth minimum (Quilez): blends two fields over a width k in metres.
#include <algorithm>

#include "isoterra/field.hpp"

namespace isoterra {

double smooth_min_weight(double a, double b, double k) { return std::clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0); }

double smooth_min(double a, double b, double k) {
    const double h = smooth_min_weight(a, b, k);
    // Where a is the minimum by k or more, a itself (b + (a - b) would round): the terrain's
    // lattice path skips b there, so both paths give the same bits.
    return h >= 1.0 ? a : b + (a - b) * h - k * h * (1.0 - h);
}

}  // namespace isoterra
