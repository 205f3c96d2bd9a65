// Swapping regions between levels of detail only when the replacement is ready, so the shown
// columns never leave a hole where something was shown, never overlap, and always stay
// balanced (neighbours at most one level apart), as the transitions need; with a triangle
// budget, the swaps that add triangles wait while they would take the view past it.
#include "lod_swaps.hpp"

#include <algorithm>
#include <vector>

namespace isoterra::detail {
namespace {

struct Swap {
    std::vector<LodColumn> out, in;
    bool ready = true;
};

// The swaps from `shown` towards `target`, and `shown` less the columns outside the target.
struct SwapPlan {
    std::vector<Swap> swaps;
    LodColumnSet base;
};

SwapPlan plan_swaps(const LodColumnSet& shown, const LodColumnSet& target, int levels, const std::function<bool(const LodColumn&)>& ready) {
    SwapPlan plan;
    std::vector<Swap>& swaps = plan.swaps;
    std::unordered_map<LodColumn, std::size_t, LodColumnHash> split_of;  // shown column -> its split
    std::unordered_map<LodColumn, std::size_t, LodColumnHash> join_of;   // target column -> its join
    // Shown columns inside a target column: joined into it.
    for (const LodColumn& s : shown) {
        if (target.count(s)) continue;
        for (int l = s.level + 1; l < levels; ++l) {
            const LodColumn a = s.ancestor(l);
            if (!target.count(a)) continue;
            auto [it, fresh] = join_of.emplace(a, swaps.size());
            if (fresh) swaps.push_back({{}, {a}, ready(a)});
            swaps[it->second].out.push_back(s);
            break;
        }
    }
    // Target columns: inside a shown column (a split), or where nothing is shown.
    for (const LodColumn& t : target) {
        if (shown.count(t) || join_of.count(t)) continue;
        const LodColumn holder = covering(shown, t, levels);
        if (holder.level > t.level) {
            auto [it, fresh] = split_of.emplace(holder, swaps.size());
            if (fresh) swaps.push_back({{holder}, {}, true});
            swaps[it->second].in.push_back(t);
            swaps[it->second].ready = swaps[it->second].ready && ready(t);
        } else {
            swaps.push_back({{}, {t}, ready(t)});
        }
    }
    // Shown columns with no target column over or under them: outside the view, dropped.
    plan.base = shown;
    for (const LodColumn& s : shown) {
        if (target.count(s) || split_of.count(s)) continue;
        bool joined = false;
        for (int l = s.level + 1; l < levels && !joined; ++l) joined = target.count(s.ancestor(l)) > 0;
        if (!joined) plan.base.erase(s);
    }
    return plan;
}

// Applies the swaps `on`, then takes back those that leave two touching columns more than
// one level apart, until none do.
LodColumnSet apply_balanced(const SwapPlan& plan, const std::vector<std::size_t>& on, int levels) {
    LodColumnSet next = plan.base;
    std::vector<bool> applied(plan.swaps.size(), false);
    std::unordered_map<LodColumn, std::size_t, LodColumnHash> brought_by;
    const auto apply = [&](std::size_t i, bool in) {
        const Swap& w = plan.swaps[i];
        applied[i] = in;
        for (const LodColumn& c : in ? w.out : w.in) next.erase(c), brought_by.erase(c);
        for (const LodColumn& c : in ? w.in : w.out) {
            next.insert(c);
            if (in) brought_by[c] = i;
        }
    };
    for (const std::size_t i : on) apply(i, true);
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<std::size_t> undo;
        for (const LodColumn& c : next)
            for (int dz = -1; dz <= 1; ++dz)
                for (int dx = -1; dx <= 1; ++dx) {
                    if (dx == 0 && dz == 0) continue;
                    const LodColumn holder = covering(next, c.moved(dx, dz), levels);
                    if (holder.level <= c.level + 1) continue;
                    for (const LodColumn& x : {c, holder}) {
                        auto it = brought_by.find(x);
                        if (it != brought_by.end()) undo.push_back(it->second);
                    }
                }
        for (const std::size_t i : undo)
            if (applied[i]) apply(i, false), changed = true;
    }
    return next;
}

}  // namespace

std::size_t ShownBudget::total(const LodColumnSet& columns, int levels) const {
    std::size_t sum = 0;
    for (const LodColumn& c : columns) sum += triangles(c, neighbourhood_in(columns, c, levels));
    return sum;
}

LodColumnSet next_shown(const LodColumnSet& shown, const LodColumnSet& target, int levels,
                        const std::function<bool(const LodColumn&)>& ready, const ShownBudget* limit, bool* held) {
    const SwapPlan plan = plan_swaps(shown, target, levels, ready);
    const bool budgeted = limit && limit->budget > 0;
    // The ready swaps: those that add triangles (counted beside their own level), nearest
    // the focus first, after those that do not.
    std::vector<std::size_t> on;
    std::vector<std::pair<double, std::size_t>> adding;  // distance, swap
    for (std::size_t i = 0; i < plan.swaps.size(); ++i) {
        const Swap& w = plan.swaps[i];
        if (!w.ready) continue;
        double gain = 0.0, distance = 1e300;
        if (budgeted)
            for (const auto& [columns, sign] : {std::pair{&w.in, 1.0}, std::pair{&w.out, -1.0}})
                for (const LodColumn& c : *columns) {
                    gain += sign * static_cast<double>(limit->triangles(c, Neighbourhood{}));
                    distance = std::min(distance, c.distance_xz(limit->focus));
                }
        if (gain > 0.0) adding.emplace_back(distance, i);
        else on.push_back(i);
    }
    const std::size_t shrinking = on.size();
    std::sort(adding.begin(), adding.end());
    const auto with_first = [&](std::size_t k) {
        on.resize(shrinking);
        for (std::size_t j = 0; j < k; ++j) on.push_back(adding[j].second);
        return apply_balanced(plan, on, levels);
    };
    LodColumnSet all = with_first(adding.size());
    if (!budgeted) return all;
    // Within the budget, or within what is shown now when that is over it already.
    const std::size_t total_all = limit->total(all, levels);
    if (total_all <= limit->budget) return all;
    const std::size_t cap = std::max(limit->budget, limit->total(shown, levels));
    if (total_all <= cap) return all;
    if (held) *held = true;
    LodColumnSet best = with_first(0);
    if (limit->total(best, levels) > cap) return shown;
    // The most of the nearest within the cap (the total grows with k but for the balance
    // taking some back, so bisect, then keep the answer only if it fits).
    std::size_t lo = 0, hi = adding.size();
    while (hi - lo > 1) {
        const std::size_t mid = (lo + hi) / 2;
        LodColumnSet next = with_first(mid);
        if (limit->total(next, levels) <= cap) lo = mid, best = std::move(next);
        else hi = mid;
    }
    return best;
}

}  // namespace isoterra::detail
