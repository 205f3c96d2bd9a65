// Which columns of which level a world shows around a focus: a quadtree over the coarsest
// level's columns, split by distance (to the column's box, with hysteresis), then balanced so
// that columns touching by a side or a corner differ by at most one level, which is what
// the meshers' transitions (and the seams of surface nets at a column's corners) can join.
#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/common.hpp>

#include "isoterra/world.hpp"

namespace isoterra {
namespace {

// The eight neighbours of a column: four sides (in Side order -x, +x, then -z, +z) and the
// four corners (in Corner order).
constexpr int kSideOffsets[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
constexpr int kSideOf[4] = {side_neg_x, side_pos_x, side_neg_z, side_pos_z};
constexpr int kCornerOffsets[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};

double distance_to_box(const glm::dvec3& p, const glm::dvec3& lo, const glm::dvec3& hi) {
    const glm::dvec3 d = glm::max(glm::max(lo - p, p - hi), glm::dvec3(0.0));
    return std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

}  // namespace

double LodColumn::distance_xz(const glm::dvec3& p) const {
    const double s = size_m();
    const double dx = std::max({x * s - p.x, p.x - (x + 1) * s, 0.0}), dz = std::max({z * s - p.z, p.z - (z + 1) * s, 0.0});
    return std::sqrt(dx * dx + dz * dz);
}

LodColumn LodColumn::ancestor(int at_level) const {
    LodColumn c = *this;
    while (c.level < at_level) c = c.parent();
    return c;
}

int lod_levels_for(double view_distance_m, int chunks_per_ring) {
    int levels = 1;
    while (levels < 20 && chunks_per_ring * kChunkSize * std::ldexp(1.0, levels - 1) < view_distance_m) ++levels;
    return levels;
}

LodColumn covering(const LodColumnSet& columns, const LodColumn& c, int levels) {
    for (LodColumn a = c; a.level < levels; a = a.parent())
        if (columns.count(a)) return a;
    return {-1, 0, 0};
}

Neighbourhood neighbourhood_in(const LodColumnSet& columns, const LodColumn& c, int levels) {
    Neighbourhood n;
    const auto relative = [&](const LodColumn& beside) -> std::int8_t {
        const LodColumn holder = covering(columns, beside, levels);
        if (holder.level >= 0) return static_cast<std::int8_t>(std::clamp(holder.level - c.level, -1, 1));
        // Nothing at this level or above: finer columns there, or nothing shown at all.
        if (beside.level == 0) return 0;
        for (int k = 0; k < 4; ++k)
            if (columns.count(beside.child(k))) return -1;
        return 0;
    };
    for (int s = 0; s < 4; ++s) n.side[kSideOf[s]] = relative(c.moved(kSideOffsets[s][0], kSideOffsets[s][1]));
    for (int d = 0; d < 4; ++d) n.diagonal[d] = relative(c.moved(kCornerOffsets[d][0], kCornerOffsets[d][1]));
    return n;
}

bool lod_balanced(const LodColumnSet& columns, int levels) {
    for (const LodColumn& c : columns)
        for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dz == 0) continue;
                const LodColumn holder = covering(columns, c.moved(dx, dz), levels);
                if (holder.level > c.level + 1) return false;
            }
    return true;
}

LodTarget select_lod(const glm::dvec3& focus, const LodParams& p, const LodTarget& previous,
                     const std::function<ValueRange(const LodColumn&)>& height_range,
                     const std::function<void(const std::vector<LodColumn>&)>& heights_ahead) {
    LodTarget out;
    const int top = p.levels - 1 - std::clamp(p.stand_in_roots, 0, p.levels - 1);
    const double root = kChunkSize * std::ldexp(1.0, top);
    // The coarsest columns near enough: a margin of half a column so they are ready before
    // they come into view, and another half before a shown one is let go.
    const double reach = p.view_distance_m + 0.5 * root;
    const int x0 = static_cast<int>(std::floor((focus.x - reach - root) / root)),
              x1 = static_cast<int>(std::floor((focus.x + reach + root) / root));
    const int z0 = static_cast<int>(std::floor((focus.z - reach - root) / root)),
              z1 = static_cast<int>(std::floor((focus.z + reach + root) / root));
    std::vector<LodColumn> level;
    for (int z = z0; z <= z1; ++z)
        for (int x = x0; x <= x1; ++x) {
            const LodColumn c{top, x, z};
            const bool had = previous.leaves.count(c) || previous.split.count(c);
            if (c.distance_xz(focus) < reach + (had ? 0.5 * root : 0.0)) {
                level.push_back(c);
                // The levels above that only stand in: inner nodes over these roots alone.
                for (LodColumn a = c.parent(); a.level < p.levels; a = a.parent()) out.split.insert(a);
            }
        }
    // Level by level, so that a caller can work out each level's heights together.
    for (std::vector<LodColumn> finer; !level.empty(); level.swap(finer), finer.clear()) {
        if (heights_ahead && level.front().level > 0) heights_ahead(level);
        for (const LodColumn& c : level) {
            bool split = false;
            if (c.level > 0) {
                const double s = c.size_m();
                const ValueRange h = height_range(c);
                const double d = distance_to_box(focus, {c.x * s, h.lo, c.z * s}, {(c.x + 1) * s, h.hi, (c.z + 1) * s});
                const double threshold = p.chunks_per_ring * 0.5 * s * (previous.split.count(c) ? 1.0 + p.hysteresis : 1.0);
                split = d < threshold;
            }
            if (split) {
                out.split.insert(c);
                for (int k = 0; k < 4; ++k) finer.push_back(c.child(k));
            } else {
                out.leaves.insert(c);
            }
        }
    }
    // Balance: split any leaf that touches one two or more levels finer, until none does.
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<LodColumn> to_split;
        for (const LodColumn& c : out.leaves)
            for (int dz = -1; dz <= 1; ++dz)
                for (int dx = -1; dx <= 1; ++dx) {
                    if (dx == 0 && dz == 0) continue;
                    const LodColumn holder = covering(out.leaves, c.moved(dx, dz), p.levels);
                    if (holder.level > c.level + 1) to_split.push_back(holder);
                }
        for (const LodColumn& c : to_split) {
            if (!out.leaves.erase(c)) continue;
            out.split.insert(c);
            for (int k = 0; k < 4; ++k) out.leaves.insert(c.child(k));
            changed = true;
        }
    }
    return out;
}

}  // namespace isoterra
