// Ordinary least squares in log-log space, the fit behind the concavity index and Hack's
// exponent. Sums are centred on the means (two passes) so that many points of nearly equal
// log area lose no precision.
#include <cmath>

#include "isoterra/measure.hpp"

namespace isoterra {

LogLogFit fit_log_log(const std::vector<double>& x, const std::vector<double>& y) {
    LogLogFit fit;
    const std::size_t n = std::min(x.size(), y.size());
    double sx = 0.0, sy = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        if (x[i] > 0.0 && y[i] > 0.0) {
            sx += std::log10(x[i]), sy += std::log10(y[i]);
            ++fit.count;
        }
    if (fit.count < 3) return fit;
    const double mx = sx / fit.count, my = sy / fit.count;
    double sxx = 0.0, sxy = 0.0, syy = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        if (x[i] > 0.0 && y[i] > 0.0) {
            const double u = std::log10(x[i]) - mx, v = std::log10(y[i]) - my;
            sxx += u * u, sxy += u * v, syy += v * v;
        }
    if (!(sxx > 0.0)) return fit;
    fit.slope = sxy / sxx;
    fit.intercept = my - fit.slope * mx;
    // r2 of a line through points that all lie on it (syy = 0): a perfect fit.
    fit.r2 = syy > 0.0 ? sxy * sxy / (sxx * syy) : 1.0;
    return fit;
}

}  // namespace isoterra
