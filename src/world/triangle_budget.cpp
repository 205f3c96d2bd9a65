// A triangle budget: the ring (R, columns per ring of each level) narrowed until what the
// target would show is estimated within the budget. The estimate takes the columns measured
// around the focus as typical of their level: a level's ring holds about the same columns
// at any level, and the finer levels, which resolve more caves and roughness, count more.
#include "triangle_budget.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "coarse_first.hpp"

namespace isoterra::detail {

LodColumnSet budget_probe(const LodTarget& target, int levels, const glm::dvec3& focus) {
    LodColumnSet out;
    for (const LodColumnSet* set : {&target.leaves, &target.split})
        for (const LodColumn& c : *set)
            if (c.level == levels - 1 || near_focus(c, focus)) out.insert(c);
    return out;
}

double estimated_triangles(const LodColumnSet& leaves, const std::unordered_map<LodColumn, std::size_t, LodColumnHash>& measured,
                           int levels) {
    std::vector<double> sum(static_cast<std::size_t>(levels), 0.0), count(static_cast<std::size_t>(levels), 0.0);
    for (const auto& [c, triangles] : measured) {
        if (c.level < 0 || c.level >= levels) continue;
        sum[static_cast<std::size_t>(c.level)] += static_cast<double>(triangles);
        count[static_cast<std::size_t>(c.level)] += 1.0;
    }
    // A level with none measured takes the nearest coarser level's mean.
    std::vector<double> mean(static_cast<std::size_t>(levels), 0.0);
    for (int level = levels - 1; level >= 0; --level) {
        const auto l = static_cast<std::size_t>(level);
        mean[l] = count[l] > 0.0 ? sum[l] / count[l] : level + 1 < levels ? mean[l + 1] : 0.0;
    }
    double total = 0.0;
    for (const LodColumn& c : leaves) {
        const auto it = measured.find(c);
        total +=
            it != measured.end() ? static_cast<double>(it->second) : mean[static_cast<std::size_t>(std::clamp(c.level, 0, levels - 1))];
    }
    return total;
}

double ring_within_budget(double ring, std::size_t budget, const std::function<double(double)>& estimate_for) {
    constexpr double kStep = 0.25, kNarrowest = 2.0;  // a ring of 2 still meets the meshers' balance
    const auto steps = static_cast<int>(std::floor((ring - kNarrowest) / kStep));
    const auto ring_at = [&](int k) { return ring - k * kStep; };
    if (steps <= 0 || estimate_for(ring) <= static_cast<double>(budget)) return ring;
    // The estimate at step `lo` exceeds the budget; find the first step at or below it.
    int lo = 0, hi = steps;
    if (estimate_for(ring_at(hi)) > static_cast<double>(budget)) return ring_at(hi);
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        (estimate_for(ring_at(mid)) > static_cast<double>(budget) ? lo : hi) = mid;
    }
    return ring_at(hi);
}

}  // namespace isoterra::detail
