// Coarse first: the inner nodes of the level tree's coarsest levels as stand-ins for their
// finer columns. The coarsest (a level above those wanted, whose columns hold wanted ones
// only) are few and built first, so the whole view is shown within a fraction of the time
// the target levels take; each region then refines as soon as its quarters can be shown,
// and the stand-ins go once finer columns are shown inside them.
#include "coarse_first.hpp"

#include <cmath>
#include <vector>

namespace isoterra::detail {
namespace {

// Whether the finer columns under `c` tile it (c itself excluded).
bool tiled_by_finer(const LodColumnSet& shown, const LodColumn& c) {
    if (c.level == 0) return false;
    for (int k = 0; k < 4; ++k) {
        const LodColumn q = c.child(k);
        if (!shown.count(q) && !tiled_by_finer(shown, q)) return false;
    }
    return true;
}

}  // namespace

bool near_focus(const LodColumn& c, const glm::dvec3& focus) {
    const double s = c.size_m();
    return std::fabs(std::floor(focus.x / s) - c.x) <= kStandInReach && std::fabs(std::floor(focus.z / s) - c.z) <= kStandInReach;
}

LodColumnSet stand_ins(const LodTarget& target, const LodColumnSet& shown, int levels, const glm::dvec3& focus, int depth,
                       bool around_focus) {
    LodColumnSet inside;  // strict ancestors of shown columns
    for (const LodColumn& s : shown)
        for (LodColumn a = s; a.level + 1 < levels;) {
            a = a.parent();
            if (!inside.insert(a).second) break;  // its ancestors are in already
        }
    LodColumnSet out;
    for (const LodColumn& c : target.split)
        if (!inside.count(c) && (c.level >= levels - depth || (around_focus && near_focus(c, focus)))) out.insert(c);
    return out;
}

LodColumnSet staged_target(const LodTarget& target, const LodColumnSet& stand_ins, const LodColumnSet& shown, int levels,
                           const std::function<bool(const LodColumn&)>& ready) {
    // Whether a node of the tree can be shown whole now, at its own level or finer.
    std::unordered_map<LodColumn, bool, LodColumnHash> memo;
    // (A stand-in root's quarter outside the tree wants nothing: it can be shown at once.)
    const auto in_tree = [&](const LodColumn& c) { return target.leaves.count(c) || target.split.count(c); };
    std::function<bool(const LodColumn&)> can_show = [&](const LodColumn& c) -> bool {
        if (shown.count(c) || ready(c) || !in_tree(c)) return true;
        if (!target.split.count(c)) return false;
        if (const auto it = memo.find(c); it != memo.end()) return it->second;
        bool all = true;
        for (int k = 0; k < 4 && all; ++k) all = can_show(c.child(k));
        memo.emplace(c, all);
        return all;
    };
    // Followed down where every quarter can be shown, except at the stand-ins `held` whole.
    const auto descend = [&](const LodColumnSet& held) {
        LodColumnSet out;
        std::vector<LodColumn> stack;
        for (const LodColumnSet* set : {&target.leaves, &target.split})
            for (const LodColumn& c : *set)
                if (c.level == levels - 1) stack.push_back(c);
        while (!stack.empty()) {
            const LodColumn c = stack.back();
            stack.pop_back();
            if (!target.split.count(c)) {
                out.insert(c);
                continue;
            }
            const bool showable = stand_ins.count(c) && (shown.count(c) || ready(c));
            bool quarters = true;
            for (int k = 0; k < 4 && quarters; ++k) quarters = can_show(c.child(k));
            if (showable && (!quarters || held.count(c))) {
                out.insert(c);
                continue;
            }
            for (int k = 0; k < 4; ++k)
                if (in_tree(c.child(k))) stack.push_back(c.child(k));
        }
        return out;
    };
    // A region followed down further than its neighbours allow (more than one level finer
    // than a column beside it) could never be swapped in: its stand-in is held whole until
    // the neighbours are finer too.
    LodColumnSet held;
    for (;;) {
        LodColumnSet out = descend(held);
        bool more = false;
        for (const LodColumn& c : out)
            for (int dz = -1; dz <= 1; ++dz)
                for (int dx = -1; dx <= 1; ++dx) {
                    if (dx == 0 && dz == 0) continue;
                    const LodColumn beside = covering(out, c.moved(dx, dz), levels);
                    if (beside.level <= c.level + 1) continue;
                    const LodColumn a = c.ancestor(beside.level - 1);
                    if (stand_ins.count(a) && (shown.count(a) || ready(a)) && held.insert(a).second) more = true;
                }
        if (!more) return out;
    }
}

bool view_covered(const LodColumnSet& shown, const LodColumnSet& leaves, int levels, const glm::dvec3& focus, double view_distance_m) {
    for (const LodColumn& c : leaves)
        if (c.distance_xz(focus) < view_distance_m && covering(shown, c, levels).level < 0 && !tiled_by_finer(shown, c)) return false;
    return true;
}

}  // namespace isoterra::detail
