// drainage, the node over a batch of lanes: the channels the batch sees (drainage_network.cpp
// builds them), bounded over groups of nearby lanes and pruned to those that can matter; each
// lane's lowest valley, its slope rounded by a soft minimum where valleys meet, its distance
// to the nearest channel, its water and order; a batch spread too wide run cell by cell. And
// the node's proven ranges.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "drainage_bounds.hpp"

namespace isoterra::graph::drainage {
namespace {

// A channel that may matter for some lane of a batch, with bounds of its valley there.
struct Candidate {
    const Channel* channel;
    double lowest;  // no lane's valley of it is lower
    double near;    // no lane is nearer to it
    bool unlifted;  // every lane lies where its window does not lift it
    double sway;    // most_offset of its channel
};

// A valley's weight in the soft minimum's slope, e^-x at x widths above the lowest, fades
// out between kSoftFade and kSoftBand widths (e^-4 to e^-6), so that none drops out at once.
constexpr double kSoftFade = 3.0, kSoftBand = 5.0;

// A fixed order of channels (for ties): by level, then by source cell.
bool earlier(const Channel& a, const Channel& b) {
    if (a.level != b.level) return a.level < b.level;
    return a.cj != b.cj ? a.cj < b.cj : a.ci < b.ci;
}

double held_coordinate(double v) { return std::isfinite(v) ? std::clamp(v, -1e12, 1e12) : 0.0; }

// What a group of nearby lanes may need: the candidates among the channels the batch sees,
// bounded over the group's rectangle, pruned to those that can matter and sorted (valleys by
// their lowest, channels by their nearest).
struct Group {
    std::vector<Candidate> valleys, nearest;
    std::vector<const Channel*> rivers;  // water_reach_m: the rivers within reach of the group
};

void prepare(const Network& net, const std::vector<const Channel*>& seen, const glm::dvec2& lo, const glm::dvec2& hi, double ceiling,
             double band, bool nearest, bool rivers, Group& out) {
    const Params& p = net.params();
    out.valleys.clear();
    out.nearest.clear();
    out.rivers.clear();
    const double river_reach = 2.0 * p.reach;
    double nearest_bound = INFINITY;
    for (const Channel* ch : seen) {
        const int k = ch->level;
        const double c = p.cell(k), slope = p.slope_at(k), f = p.floor_at(k);
        const auto rise = [&](double d) { return rise_beyond_floor(d, f); };
        // How far a bent channel strays from its line (meander_vary: up to 2.7 |bend|).
        const double sway = most_offset(*ch);
        const double near = std::max(0.0, segment_box_nearest(ch->q, ch->r, lo, hi) - sway);
        // Unlifted for every lane: the rectangle lies inside the window less its fade (such a
        // channel bounds the lowest valley from above).
        const bool unlifted = window_lift(ch->ci, ch->cj, c, 1.0, lo) == 0.0 && window_lift(ch->ci, ch->cj, c, 1.0, hi) == 0.0;
        if (unlifted) {
            const double far = segment_box_farthest(ch->q, ch->r, lo, hi) + sway;
            // With carve_m a floor rises by the channel's steepest fall too (at its source).
            const double steepest =
                p.carve > 0.0 ? kCarveRise * std::max(0.0, (ch->zq - ch->zr) * ch->gamma) * std::sqrt(ch->inv_len2) : 0.0;
            ceiling = std::min(ceiling, ch->zq + slope * rise(far) + (p.floodplain + steepest) * (far - rise(far)));
            nearest_bound = std::min(nearest_bound, far);
        }
        out.valleys.push_back({ch, valley_at_least(p, *ch, near), near, unlifted, sway});
        if (nearest) out.nearest.push_back({ch, 0.0, near, unlifted, sway});
        if (rivers && k < p.water_levels && near <= river_reach + p.bed_width_at(k)) out.rivers.push_back(ch);
    }
    // A little slack over the bounds' own rounding.
    const double slack = 1e-9 * (std::fabs(ceiling) + 1.0);
    std::erase_if(out.valleys, [&](const Candidate& c) { return c.lowest > ceiling + band + slack; });
    std::erase_if(out.nearest, [&](const Candidate& c) { return c.near > nearest_bound * (1.0 + 1e-9) + 1e-9; });
    std::sort(out.valleys.begin(), out.valleys.end(), [](const Candidate& a, const Candidate& b) { return a.lowest < b.lowest; });
    std::sort(out.nearest.begin(), out.nearest.end(), [](const Candidate& a, const Candidate& b) { return a.near < b.near; });
}

// Lanes per group: the candidates are bounded over a group's rectangle, tighter than the
// batch's, so each lane weighs fewer of them.
constexpr std::size_t kGroupLanes = 96;
// The most cells of the finest level a batch's rectangle may span before its lanes are run
// apart, level-0 cell by level-0 cell (points scattered over thousands of kilometres would
// otherwise ask for every channel between them). One level-0 cell spans at most 65 x 65.
constexpr double kMostBatchCells = 16384.0;

// Runs the lanes of `l` in clusters, one per level-0 cell: each cluster's inputs gathered,
// run, and its outputs put back. Values are the same bits in any batch, so this changes none.
void run_drainage_apart(const Node& node, const Lanes& l, const std::vector<glm::dvec2>& at, double cell0) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> clusters;  // ordered: a fixed order
    for (std::size_t i = 0; i < l.count; ++i) clusters[{cell_of(at[i].x, cell0), cell_of(at[i].y, cell0)}].push_back(i);
    const std::size_t inputs = node.in.size();
    for (const auto& cluster : clusters) {
        const std::vector<std::size_t>& lanes = cluster.second;  // not a structured binding: clang 14 cannot capture one
        const std::size_t m = lanes.size();
        const auto gather = [&](const double* from, std::vector<double>& to) -> const double* {
            if (!from) return nullptr;
            to.resize(m);
            for (std::size_t j = 0; j < m; ++j) to[j] = from[lanes[j]];
            return to.data();
        };
        std::vector<double> x, y, z;
        std::vector<std::vector<double>> in(inputs), out(kMaxPorts);
        std::vector<const double*> in_lanes(inputs);
        for (std::size_t k = 0; k < inputs; ++k) in_lanes[k] = gather(l.in[k], in[k]);
        Lanes sub = l;
        sub.in = in_lanes.data();
        sub.x = gather(l.x, x), sub.y = gather(l.y, y), sub.z = gather(l.z, z);
        sub.count = m;
        for (int port = 0; port < kMaxPorts; ++port)
            if (l.out[port]) out[port].resize(m), sub.out[port] = out[port].data();
        run_drainage(node, sub);
        for (int port = 0; port < kMaxPorts; ++port)
            if (l.out[port])
                for (std::size_t j = 0; j < m; ++j) l.out[port][lanes[j]] = out[port][j];
    }
}

// How much a candidate's valley is lifted at `point` (its window's fade), with the lift's
// gradient.
double lift_at(const Params& p, const Candidate& c, const glm::dvec2& point, glm::dvec2* gradient) {
    if (c.unlifted) return *gradient = glm::dvec2(0.0), 0.0;
    const double cell = p.cell(c.channel->level);
    return window_lift(c.channel->ci, c.channel->cj, cell, p.slope_at(c.channel->level) * cell, point, gradient);
}

// What a lane's valleys make of it: the lowest ground (the envelope where no valley is
// lower), its slope, and the channel whose valley it is (null: none) with that valley.
struct LaneGround {
    double ground = 0.0;
    glm::dvec2 gradient{0.0};
    const Channel* best = nullptr;
    Valley best_valley;
};

// The lowest valley at `at` and, with a soft minimum's width k, the slope rounded where
// valleys meet: the weights of -k ln sum exp(-g / k) over the valleys near the lowest and the
// envelope (whose slope counts as 0), so that the slope turns smoothly over a crease (what the
// erosion filter follows) while the ground keeps its sharp crease and drains (with blend_m it
// turns smoothly too: blend_ground). One pass over
// the candidates (sorted by their lower bounds) keeps each valley within reach of the lowest
// so far in `near_valleys`; the weights come once the lowest is known.
LaneGround lowest_ground(const Network& net, const Group& group, const glm::dvec2& at, double envelope, bool want_slope, double k,
                         double blend, double band, std::vector<std::pair<const Channel*, Valley>>& near_valleys) {
    LaneGround out;
    double& ground = out.ground;
    ground = envelope;
    near_valleys.clear();
    for (const Candidate& c : group.valleys) {
        if (c.lowest > ground + band) break;  // sorted: no later one can be lower or weigh
        // Bounded at the lane itself first (tighter than over the group): most candidates lie
        // too high here, and skipping them before the valley's work skips what the test
        // after it would (with room for the bound's rounding): the same bits.
        const double least = lane_valley_at_least(net.params(), *c.channel, c.sway, at);
        const double above = ground + band + 1e-9 * (std::fabs(ground) + std::fabs(least) + 1.0);
        if (least > above) continue;
        glm::dvec2 lift_gradient;
        const double lifted = lift_at(net.params(), c, at, &lift_gradient);
        if (lifted == INFINITY || least + lifted > above) continue;
        Valley v = net.valley(*c.channel, at, want_slope, k > 0.0);
        v.ground += lifted;
        if (v.ground > ground + band) continue;
        v.gradient += lift_gradient;
        near_valleys.push_back({c.channel, v});
        // Ties go to the lower level, then the lower source cell: the same in any group.
        if (v.ground < ground || (v.ground == ground && out.best && earlier(*c.channel, *out.best)))
            ground = v.ground, out.best = c.channel, out.best_valley = v;
    }
    out.gradient = out.best ? out.best_valley.gradient : glm::dvec2(0.0);
    // Summed in the channels' fixed order, not the group's (its bounds sort the candidates, and
    // a group depends on the lane's neighbours in the batch): the same bits in any batch. The
    // valleys are sorted themselves for blend_ground, else only their indices (cheaper to move).
    const bool sorted = blend > 0.0 && std::isfinite(ground);
    if (sorted)
        std::sort(near_valleys.begin(), near_valleys.end(), [](const auto& a, const auto& b) { return earlier(*a.first, *b.first); });
    if (k > 0.0 && std::isfinite(ground)) {
        const auto weight = [&](double g) {
            const double x = (g - ground) / k;
            return x >= kSoftBand ? 0.0 : std::exp(-x) * (1.0 - smoothstep(kSoftFade, kSoftBand, x));
        };
        thread_local std::vector<std::uint32_t> order;
        order.resize(near_valleys.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
        if (!sorted)
            std::sort(order.begin(), order.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return earlier(*near_valleys[a].first, *near_valleys[b].first); });
        double weights = weight(envelope);
        glm::dvec2 weighted(0.0);
        for (const std::uint32_t i : order) {
            const double w = weight(near_valleys[i].second.ground);
            weights += w;
            weighted += w * near_valleys[i].second.gradient;
        }
        out.gradient = weighted / weights;
    }
    return out;
}

// How far above the lowest a lane weighs valleys: blend_m's reach, smooth_m's band for a slope.
double soft_band(const Params& p, bool want_slope) { return std::max(p.blend, want_slope ? kSoftBand * p.smooth : 0.0); }

// The distance from `at` to the nearest channel of the group's, lifted over the window's
// fade by up to kLift cells as the valleys are; kFar where none is seen.
double nearest_distance(const Params& p, const Group& group, const glm::dvec2& at) {
    double distance = kFar;
    for (const Candidate& c : group.nearest) {
        if (c.near > distance) break;
        const double cell = p.cell(c.channel->level);
        const double lifted = c.unlifted ? 0.0 : window_lift(c.channel->ci, c.channel->cj, cell, cell, at);
        if (lifted == INFINITY) continue;
        const double d = c.channel->bend != 0.0 ? channel_distance(*c.channel, at) : point_segment(at, c.channel->q, c.channel->r);
        distance = std::min(distance, d + lifted);
    }
    return distance;
}

// Whether lanes weigh the rivers near them (with a reach: for water, river, and blend_m's fade).
bool needs_rivers(const Params& p, unsigned ports_read) { return p.reach > 0.0 && ((ports_read & 80u) != 0 || p.blend > 0.0); }

// Bounds every channel the batch sees over the batch's rectangle and drops those whose valley
// no lane can need: what the valleys cannot reach is out; the distance keeps every channel a
// lane may be nearest to (all of them: the batch's nearest bound is loose), so only valleys
// prune; the rivers' water keeps the rivers.
void prune_for_batch(const Network& net, const Lanes& l, const glm::dvec2& lo, const glm::dvec2& hi, std::vector<const Channel*>& seen) {
    const Params& p = net.params();
    double ceiling = -INFINITY;
    for (std::size_t i = 0; i < l.count; ++i) {
        const double e = l.in[kInControl][i] + l.in[kInRelief][i];
        ceiling = std::max(ceiling, std::isnan(e) ? INFINITY : e);
    }
    Group all;
    prepare(net, seen, lo, hi, ceiling, soft_band(p, (l.ports_read & 6u) != 0), false, false, all);
    if ((l.ports_read & 8u) != 0) return;
    if (!needs_rivers(p, l.ports_read)) {
        seen.clear();
        for (const Candidate& c : all.valleys) seen.push_back(c.channel);
        return;
    }
    std::vector<const Channel*> valleys;
    for (const Candidate& c : all.valleys) valleys.push_back(c.channel);
    std::sort(valleys.begin(), valleys.end());
    // In their order: sums over them keep theirs.
    std::erase_if(
        seen, [&](const Channel* ch) { return ch->level >= p.water_levels && !std::binary_search(valleys.begin(), valleys.end(), ch); });
}

// The lanes in groups of nearby ones: a grid over the lanes' rectangle lo..hi.
std::vector<std::vector<std::size_t>> lane_groups(const std::vector<glm::dvec2>& at, const glm::dvec2& lo, const glm::dvec2& hi) {
    const std::size_t n = at.size();
    const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n) / kGroupLanes))));
    const glm::dvec2 span = glm::max(hi - lo, glm::dvec2(1e-300));
    std::vector<std::vector<std::size_t>> groups(static_cast<std::size_t>(side) * side);
    for (std::size_t i = 0; i < n; ++i) {
        const glm::ivec2 g = glm::clamp(glm::ivec2((at[i] - lo) / span * static_cast<double>(side)), 0, side - 1);
        groups[static_cast<std::size_t>(g.y) * side + g.x].push_back(i);
    }
    return groups;
}

}  // namespace
}  // namespace isoterra::graph::drainage

namespace isoterra::graph {

void run_drainage(const Node& node, const Lanes& l) {
    using namespace drainage;
    const std::size_t n = l.count;
    if (n == 0) return;
    Network net(node, *l.program, *l.noise);
    const Params& p = net.params();
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    const double* control = l.in[kInControl];
    const double* relief = l.in[kInRelief];
    std::vector<glm::dvec2> at(n);
    glm::dvec2 lo(INFINITY), hi(-INFINITY);
    for (std::size_t i = 0; i < n; ++i) {
        at[i] = {held_coordinate(xs[i]), held_coordinate(zs[i])};
        lo = glm::min(lo, at[i]), hi = glm::max(hi, at[i]);
    }
    const double fine = p.cell(p.levels - 1);
    if (n > 1 && ((hi.x - lo.x) / fine + 1.0) * ((hi.y - lo.y) / fine + 1.0) > kMostBatchCells)
        return run_drainage_apart(node, l, at, p.cell(0));
    // The channels any lane sees, level by level.
    std::vector<const Channel*> seen;
    for (int k = 0; k < p.levels; ++k) {
        const double c = p.cell(k);
        net.for_each_seen(k, cell_of(lo.x, c), cell_of(lo.y, c), cell_of(hi.x, c), cell_of(hi.y, c),
                          [&](const Channel& ch) { seen.push_back(&ch); });
    }
    // Bounded over the whole batch first: most channels cannot matter to any lane, and each
    // group need not bound them again.
    if (n > kGroupLanes) prune_for_batch(net, l, lo, hi, seen);
    // What is read of it: the slope (ports 1, 2) and the distance (port 3) cost the most.
    const bool want_slope = (l.ports_read & 6u) != 0, want_distance = (l.ports_read & 8u) != 0;
    const bool want_rivers = needs_rivers(p, l.ports_read);
    const double k = want_slope ? p.smooth : 0.0;
    const double band = soft_band(p, want_slope);
    Group group;
    std::vector<std::pair<const Channel*, Valley>> near_valleys;
    for (const std::vector<std::size_t>& lanes : lane_groups(at, lo, hi)) {
        if (lanes.empty()) continue;
        glm::dvec2 glo(INFINITY), ghi(-INFINITY);
        double ceiling = -INFINITY;  // no lane's ground is above this
        for (const std::size_t i : lanes) {
            glo = glm::min(glo, at[i]), ghi = glm::max(ghi, at[i]);
            const double e = control[i] + relief[i];
            ceiling = std::max(ceiling, std::isnan(e) ? INFINITY : e);
        }
        prepare(net, seen, glo, ghi, ceiling, band, want_distance, want_rivers, group);
        for (const std::size_t i : lanes) {
            LaneGround g = lowest_ground(net, group, at[i], control[i] + relief[i], want_slope, k, p.blend, band, near_valleys);
            const bool river = g.best && g.best->level < p.water_levels && in_water(p, *g.best, g.best_valley);
            const RiverWater rw =
                want_rivers ? river_water(net, group.rivers, at[i], g.ground) : RiverWater{river ? g.best_valley.water : kDry, kFar};
            // blend_m rounds the hillsides, not the banks: with a reach it fades in beyond them.
            const double blend = p.reach > 0.0 ? p.blend * smoothstep(0.0, 2.0 * p.reach, rw.beyond) : p.blend;
            if (blend > 0.0 && std::isfinite(g.ground)) {
                const glm::dvec2 lowest = g.best ? g.best_valley.gradient : glm::dvec2(0.0);  // the envelope's counts as 0
                g.ground = blend_ground(g.ground, lowest, control[i] + relief[i], blend, near_valleys, want_slope ? &g.gradient : nullptr);
            }
            l.out[0][i] = g.ground;
            l.out[1][i] = g.gradient.x;
            l.out[2][i] = g.gradient.y;
            l.out[3][i] = nearest_distance(p, group, at[i]);
            l.out[4][i] = rw.water;
            l.out[5][i] = g.best ? static_cast<double>(p.levels - g.best->level) : 0.0;
            l.out[6][i] = rw.beyond;
        }
    }
}

NodeRanges drainage_ranges(const Node& node, const RangeContext& c) {
    using namespace drainage;
    const Params p(node);
    NodeRanges out{};
    // Every water level is a control value or a ground made of them, read at points within
    // the windows of every level around the box, and no valley is lower than its water level
    // less the deepest bed.
    const double reach = 2.0 * (kWindow + 2) * p.cell0 * std::sqrt(2.0);
    const Box grown{c.box.lo - glm::dvec3(reach, 0.0, reach), c.box.hi + glm::dvec3(reach, 0.0, reach)};
    const auto around = node_intervals(c.program, c.noise, grown, nullptr, c.index);
    const ValueRange control = operand_range(around, node.in[kInControl]);
    const ValueRange relief = operand_range(around, node.in[kInRelief]);
    const ValueRange& here_control = c.in[kInControl];
    const ValueRange& here_relief = c.in[kInRelief];
    const double envelope_lo = here_control.lo + here_relief.lo, envelope_hi = here_control.hi + here_relief.hi;
    const double lowest = std::min(envelope_lo, control.lo - p.bed_depth0);
    const double highest_water = std::max(control.hi, control.hi + relief.hi);
    const auto widen = [](double lo, double hi) -> ValueRange {
        if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) return {-INFINITY, INFINITY};
        const double slack = std::max(std::fabs(lo), std::fabs(hi)) * 1e-9 + 1e-9;
        return {lo - slack, hi + slack};
    };
    out[0] = widen(lowest - p.blend, envelope_hi);  // blend_m lowers the minimum by less than blend
    // The steepest a valley gets: its sides' slope, plus a bed's walls, plus the water level's
    // fall along a channel (at most the whole range of water levels over the shortest channel
    // a cell can hold... unbounded in principle: a channel may be very short), so no bound.
    out[1] = out[2] = {-INFINITY, INFINITY};
    out[3] = {0.0, kFar};
    // Water: dry, or a water level (a control value, or above it), which may lie below dry's
    // -10,000 where the control does.
    // With water_reach_m, a river's level sunk by a little beyond its bank, or under a
    // valley cut below its bed (drainage_rivers.cpp).
    out[4] = widen(std::min(kDry, river_water_lowest(p, std::min(control.lo, lowest))), std::max(kDry, highest_water));
    out[5] = {0.0, static_cast<double>(p.levels)};
    out[6] = p.reach > 0.0 ? ValueRange{0.0, 2.0 * p.reach} : ValueRange{kFar, kFar};
    return out;
}

}  // namespace isoterra::graph
