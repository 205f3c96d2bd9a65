// Swapping regions between levels of detail only when the replacement is ready, so the shown
// columns never leave a hole where something was shown, never overlap, and always stay
// balanced (neighbours at most one level apart), as the transitions need.
#include "lod_swaps.hpp"

#include <map>
#include <vector>

namespace isoterra::detail {
namespace {

struct Swap {
    std::vector<LodColumn> out, in;
    bool ready = true;
    bool applied = false;
};

}  // namespace

LodColumnSet next_shown(const LodColumnSet& shown, const LodColumnSet& target, int levels,
                        const std::function<bool(const LodColumn&)>& ready) {
    std::vector<Swap> swaps;
    std::unordered_map<LodColumn, std::size_t, LodColumnHash> split_of;  // shown column -> its split
    std::unordered_map<LodColumn, std::size_t, LodColumnHash> join_of;   // target column -> its join
    // Shown columns inside a target column: joined into it.
    for (const LodColumn& s : shown) {
        if (target.count(s)) continue;
        for (int l = s.level + 1; l < levels; ++l) {
            const LodColumn a = s.ancestor(l);
            if (!target.count(a)) continue;
            auto [it, fresh] = join_of.emplace(a, swaps.size());
            if (fresh) swaps.push_back({{}, {a}, ready(a), false});
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
            if (fresh) swaps.push_back({{holder}, {}, true, false});
            swaps[it->second].in.push_back(t);
            swaps[it->second].ready = swaps[it->second].ready && ready(t);
        } else {
            swaps.push_back({{}, {t}, ready(t), false});
        }
    }
    // Shown columns with no target column over or under them: outside the view, dropped.
    LodColumnSet next = shown;
    for (const LodColumn& s : shown) {
        if (target.count(s) || split_of.count(s)) continue;
        bool joined = false;
        for (int l = s.level + 1; l < levels && !joined; ++l) joined = target.count(s.ancestor(l)) > 0;
        if (!joined) next.erase(s);
    }
    // Apply every ready swap, then take back those that leave two touching columns more
    // than one level apart, until none do.
    std::unordered_map<LodColumn, std::size_t, LodColumnHash> brought_by;
    const auto apply = [&](std::size_t i, bool on) {
        Swap& w = swaps[i];
        w.applied = on;
        for (const LodColumn& c : on ? w.out : w.in) next.erase(c), brought_by.erase(c);
        for (const LodColumn& c : on ? w.in : w.out) {
            next.insert(c);
            if (on) brought_by[c] = i;
        }
    };
    for (std::size_t i = 0; i < swaps.size(); ++i)
        if (swaps[i].ready) apply(i, true);
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
            if (swaps[i].applied) apply(i, false), changed = true;
    }
    return next;
}

}  // namespace isoterra::detail
