// drainage with blend_m: the valleys blended into the ground by a smooth minimum (issue 53),
// so that no crease shows where two valleys meet.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

// The ground is the level s at which the valleys within w above it weigh 1 together, sum of
// (1 - (g - s) / w)^2 over those with g - s < w = 1 (a smooth minimum of any number of valleys,
// after the quadratic one of two): where one valley is the lowest by w or more (a river in its
// bed, a floor) s is its value; where n meet, s lies below them by w (1 - 1/sqrt n) at most, and
// turns smoothly, no crease, as the lowest changes. Its slope is the valleys' slopes weighted by
// (1 - (g - s) / w). With a = 1 - (g - m) / w, y = (m - s) / w: with the k largest a active,
// k y^2 - 2 A y + B - 1 = 0 (A, B: their sum and sum of squares).
double blend_ground(double m, const glm::dvec2& lowest, double envelope, double w,
                    const std::vector<std::pair<const Channel*, Valley>>& near_valleys, glm::dvec2* gradient) {
    std::vector<std::pair<double, glm::dvec2>> terms;  // a and the slope, the valleys' fixed order, then by a
    const auto add = [&](double g, const glm::dvec2& slope) {
        const double a = 1.0 - (g - m) / w;
        if (a > 0.0) terms.push_back({a, slope});
    };
    add(envelope, glm::dvec2(0.0));
    for (const auto& [channel, v] : near_valleys) add(v.ground, v.gradient);
    std::stable_sort(terms.begin(), terms.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    double sum = 0.0, squares = 0.0, y = 0.0;
    std::size_t active = 0;
    while (active < terms.size()) {
        const double a = terms[active].first;
        if (active > 0 && a <= y) break;  // it weighs nothing at this level, nor any after it
        ++active, sum += a, squares += a * a;
        const double k = static_cast<double>(active);
        y = (sum - std::sqrt(std::max(0.0, sum * sum - k * (squares - 1.0)))) / k;
    }
    if (gradient) {
        glm::dvec2 weighted(0.0);
        double weights = 0.0;
        for (std::size_t i = 0; i < active; ++i) {
            const double c = terms[i].first - y;
            weights += c, weighted += c * terms[i].second;
        }
        *gradient = weights > 0.0 ? weighted / weights : lowest;
    }
    return m - w * y;
}

}  // namespace isoterra::graph::drainage
