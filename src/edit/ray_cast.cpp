// Picking a point on the edited surface: march the ray in fixed steps, sixty-four points a
// batch (the field is evaluated in batches), then bisect the step where the sign changes.
#include <cmath>

#include "isoterra/edit.hpp"

namespace isoterra {

bool ray_cast(const Field& base, const ChunkDeltas& deltas, const glm::dvec3& origin, const glm::dvec3& direction, double max_m,
              glm::dvec3& hit, double step_m) {
    constexpr int kBatch = 64;
    constexpr double kPrecision = 1e-3;
    glm::dvec3 points[kBatch];
    double values[kBatch];
    double previous_t = 0.0;
    sample_edited(base, deltas, &origin, 1, values);
    if (values[0] <= 0.0) return false;
    for (double t0 = step_m; t0 <= max_m + step_m; t0 += kBatch * step_m) {
        int n = 0;
        for (; n < kBatch && t0 + n * step_m <= max_m + step_m; ++n) points[n] = origin + direction * std::min(t0 + n * step_m, max_m);
        sample_edited(base, deltas, points, n, values);
        for (int i = 0; i < n; ++i) {
            const double t = std::min(t0 + i * step_m, max_m);
            if (values[i] > 0.0) {
                previous_t = t;
                continue;
            }
            double lo = previous_t, hi = t;  // air at lo, ground at hi
            while (hi - lo > kPrecision) {
                const double mid = 0.5 * (lo + hi);
                const glm::dvec3 p = origin + direction * mid;
                double v;
                sample_edited(base, deltas, &p, 1, &v);
                (v > 0.0 ? lo : hi) = mid;
            }
            hit = origin + direction * hi;
            return true;
        }
    }
    return false;
}

}  // namespace isoterra
