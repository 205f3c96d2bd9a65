// Coarse first: the inner nodes of the level tree's coarsest levels as stand-ins for their
// finer columns. The coarsest are few and built first, so the whole view is shown within a
// fraction of the time the target levels take; each region then refines as soon as its four
// quarters can be shown, and the stand-ins go once finer columns are shown inside them.
#include "coarse_first.hpp"

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

LodColumnSet stand_ins(const LodTarget& target, const LodColumnSet& shown, int levels, int depth) {
    LodColumnSet inside;  // strict ancestors of shown columns
    for (const LodColumn& s : shown)
        for (LodColumn a = s; a.level + 1 < levels;) {
            a = a.parent();
            if (!inside.insert(a).second) break;  // its ancestors are in already
        }
    LodColumnSet out;
    for (const LodColumn& c : target.split)
        if (!inside.count(c) && c.level >= levels - depth) out.insert(c);
    return out;
}

LodColumnSet staged_target(const LodTarget& target, const LodColumnSet& stand_ins, const LodColumnSet& shown, int levels,
                           const std::function<bool(const LodColumn&)>& ready) {
    // Whether a node of the tree can be shown whole now, at its own level or finer.
    std::unordered_map<LodColumn, bool, LodColumnHash> memo;
    std::function<bool(const LodColumn&)> can_show = [&](const LodColumn& c) -> bool {
        if (shown.count(c) || ready(c)) return true;
        if (!target.split.count(c)) return false;
        if (const auto it = memo.find(c); it != memo.end()) return it->second;
        bool all = true;
        for (int k = 0; k < 4 && all; ++k) all = can_show(c.child(k));
        memo.emplace(c, all);
        return all;
    };
    LodColumnSet out;
    std::vector<LodColumn> stack;
    for (const LodColumn& c : target.leaves)
        if (c.level == levels - 1) stack.push_back(c);
    for (const LodColumn& c : target.split)
        if (c.level == levels - 1) stack.push_back(c);
    while (!stack.empty()) {
        const LodColumn c = stack.back();
        stack.pop_back();
        if (!target.split.count(c)) {
            out.insert(c);
            continue;
        }
        bool quarters = true;
        for (int k = 0; k < 4 && quarters; ++k) quarters = can_show(c.child(k));
        if (!quarters && stand_ins.count(c) && (shown.count(c) || ready(c))) {
            out.insert(c);
            continue;
        }
        for (int k = 0; k < 4; ++k) stack.push_back(c.child(k));
    }
    return out;
}

bool view_covered(const LodColumnSet& shown, const LodColumnSet& leaves, int levels) {
    for (const LodColumn& c : leaves)
        if (covering(shown, c, levels).level < 0 && !tiled_by_finer(shown, c)) return false;
    return true;
}

}  // namespace isoterra::detail
