// The drainage node's parts (internal to landform/): its settings per level, the windows
// through which a point sees channels, a channel and the valley it carves, and the network
// whose channels are built in cached tiles. drainage_network.cpp builds the network,
// drainage.cpp runs the node over a batch of lanes with it; what both read stays here, the
// valley inline (it is the inner loop of both).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "landform.hpp"

namespace isoterra::graph::drainage {

constexpr int kWindow = 2;                // a point sees the channels whose sources lie this many cells around its own
constexpr double kFade = 1.0;             // ... lifted out of the way over the outer cell of that window,
constexpr double kLift = 1.5;             // ... by up to this many times the level's slope times its cell
constexpr double kReach = 1.5;            // cells: a finer level's point joins no channel farther than this
constexpr int kTile = 8;                  // cells a side of a cached tile
constexpr double kDry = -1e4;             // the water output where no river runs
constexpr double kFar = 1e7;              // the distance output where no channel is seen
constexpr std::size_t kMostTiles = 8192;  // the cache's bound (about 6 KB a tile)
constexpr double kCarveRise = 2.0;        // carve_m: a floor rises at this many times its channel's fall
constexpr std::size_t kOwnNumbers = 23;   // the node's own numbers (nodes/table.cpp); a far level's copy adds one

// The node's settings, and what they give per level (worked out once: valleys are the
// inner loop).
struct Params {
    double cell0, jitter, slope, slope_gain, floor0, bed_width0, bed_depth0;
    int levels, water_levels;
    double concavity, junction, sea_level, smooth;
    // Both 0 in graphs written before them (their bits kept): the floors' rise from the river
    // (valley floors falling towards it, the water below its banks), and how far from its
    // rivers the water output gives their level (bilinear on a grid without a staircase).
    double floodplain = 0.0, reach = 0.0;
    // Also 0 in older graphs (straight channels, today's beds): how steeply the channels bend
    // from their lines (the tangent of the sharpest turn), their bends' wavelength in cells of
    // each level, and the share of a head channel over which its bed widens and deepens from
    // nothing (a spring).
    double meander = 0.0, meander_cells = 0.25, spring = 0.0;
    // Both 0 in older graphs (their bits kept): how far beside a river's line its water must
    // lie below the coarser ground (drainage_carve.cpp), and the width of the soft minimum
    // that blends the valleys into the height (no crease where two valleys meet).
    double carve = 0.0, blend = 0.0;
    // 0 in older graphs (a plain sine, their bits kept): how much the bends' wavelength and
    // amplitude vary along and between channels, with heads that start straight, the dry
    // levels' gullies bending gently and tributaries meeting the bent line at the network's
    // angle (drainage_meander.cpp, drainage_junction.cpp).
    double vary = 0.0;
    // 0 in older graphs (their bits kept): the steepest fall (a tangent) of a river head's
    // water; above it the head is a dry gully and its water springs where the profile's fall
    // eases to it (drainage_rivers.cpp). The ground is the same either way.
    double spring_slope = 0.0;
    // 0 in older graphs (straight trunk profiles, their bits kept): how far beside a trunk's
    // line its water must lie below control + relief; its profile bows (drainage_carve.cpp).
    double trunk_carve = 0.0;
    // None of floodplain, carve and spring: a straight channel's valley needs none of their terms.
    bool plain = true;
    struct Level {
        double cell, slope, floor, bed_width, bed_depth;
    };
    Level level[8];

    explicit Params(const Node& node) {
        const std::vector<double>& p = node.number;
        cell0 = p[0], jitter = p[1], slope = p[2], slope_gain = p[3], floor0 = p[4], bed_width0 = p[5], bed_depth0 = p[6];
        water_levels = static_cast<int>(p[7]);
        concavity = p[8], junction = p[9], sea_level = p[10], smooth = p[11];
        if (p.size() > 13) floodplain = p[12], reach = p[13];
        if (p.size() > 17) meander = p[15], meander_cells = p[16], spring = p[17];
        if (p.size() > 19) carve = p[18], blend = p[19];
        if (p.size() > 20) vary = p[20];
        if (p.size() > 21) spring_slope = p[21];
        if (p.size() > 22) trunk_carve = p[22];
        levels = std::clamp(node.shape.octaves, 1, 8);
        plain = !(floodplain > 0.0) && !(carve > 0.0) && !(spring > 0.0);
        for (int k = 0; k < 8; ++k) {
            const bool river = k < water_levels;
            level[k] = {std::ldexp(cell0, -k), slope * std::pow(slope_gain, k), std::ldexp(floor0, -k),
                        river ? std::ldexp(bed_width0, -k) : 0.0, river ? std::ldexp(bed_depth0, -k) : 0.0};
        }
        // A far level's copy of the node (drainage_far.cpp): no river's bed narrower than the
        // number after its own at its lanes; its channels are the node's own (Network::tile
        // builds with own_beds()).
        if (p.size() > kOwnNumbers)
            for (int k = 0; k < std::min(water_levels, 8); ++k) level[k].bed_width = std::max(level[k].bed_width, p[kOwnNumbers]);
    }
    Params own_beds() const {
        Params own = *this;
        for (int k = 0; k < std::min(water_levels, 8); ++k) own.level[k].bed_width = std::ldexp(bed_width0, -k);
        return own;
    }
    double cell(int k) const { return level[k].cell; }
    double slope_at(int k) const { return level[k].slope; }
    double floor_at(int k) const { return level[k].floor; }
    double bed_width_at(int k) const { return level[k].bed_width; }
    double bed_depth_at(int k) const { return level[k].bed_depth; }
};

// u^gamma, by multiplication for the whole exponents presets use.
inline double power(double u, double gamma) {
    // clang-format off
    switch (static_cast<int>(gamma)) {
        case 0: if (gamma == 0.0) return 1.0; break;
        case 1: if (gamma == 1.0) return u; break;
        case 2: if (gamma == 2.0) return u * u; break;
        case 3: if (gamma == 3.0) return u * u * u; break;
        case 4: if (gamma == 4.0) { const double u2 = u * u; return u2 * u2; } break;
        default: break;
    }
    // clang-format on
    return std::pow(u, gamma);
}

// The Node::in slots read here (x and z are slots 0 and 1, read through the grid).
constexpr std::size_t kInControl = 2, kInRelief = 3;

// How much a channel's valley is lifted at point `at`: 0 well inside the window of cells
// around its source; over the window's outer cell it rises smoothly, past kLift x `rise` (the
// level's slope times its cell) halfway, without bound at the edge; infinity outside. So the lowest valley a point sees does
// not jump where a channel leaves its window: by then the channel lies above the valleys of
// the channels nearer the point (whose sources' windows hold it well inside).
inline double window_lift(std::int64_t ci, std::int64_t cj, double cell, double rise, const glm::dvec2& at,
                          glm::dvec2* gradient = nullptr) {
    // Along each axis, how far inside the fade it lies (eased: smooth across the fade's inner
    // edge); their product, so corners turn smoothly too.
    const double x0 = static_cast<double>(ci - kWindow) * cell, x1 = static_cast<double>(ci + kWindow + 1) * cell;
    const double z0 = static_cast<double>(cj - kWindow) * cell, z1 = static_cast<double>(cj + kWindow + 1) * cell;
    const double fade = kFade * cell;
    const auto axis = [&](double v, double lo, double hi, double* slope) {
        const bool low = v - lo < hi - v;
        const double e = (low ? v - lo : hi - v) / fade;
        if (e >= 1.0) return *slope = 0.0, 1.0;
        if (!(e > 0.0)) return *slope = 0.0, 0.0;
        *slope = 6.0 * e * (1.0 - e) / fade * (low ? 1.0 : -1.0);
        return e * e * (3.0 - 2.0 * e);
    };
    double sx = 0.0, sz = 0.0;
    const double fx = axis(at.x, x0, x1, &sx), fz = axis(at.y, z0, z1, &sz);
    if (gradient) *gradient = glm::dvec2(0.0);
    if (fx == 1.0 && fz == 1.0) return 0.0;
    if (fx == 0.0 || fz == 0.0) return INFINITY;
    // kLift rise (1 - F)^2 / F: 0 with a level slope where F reaches 1, without bound at the
    // window's edge (F = 0), so a channel is out of the way, whatever its valley, before it goes.
    const double inside = fx * fz;
    const double lift = kLift * rise * (1.0 - inside) * (1.0 - inside) / inside;
    if (gradient) *gradient = kLift * rise * (1.0 - 1.0 / (inside * inside)) * glm::dvec2(sx * fz, fx * sz);
    return lift;
}

// How a channel's bends wander (meander_vary, drainage_meander.cpp): its phase runs at
// pi waves (1 + sum warp cos(2 pi warp_k t + warp_phase)), its amplitude swells by
// 1 + swell sin(2 pi swell_k t + swell_phase) over that rate (a longer bend is a wider one)
// and grows from nothing over a head's first `head` share; `coin` and `vary` make it again.
struct Wander {
    double vary = 0.0, head = 0.0;
    std::uint64_t coin = 0;
    double warp[2] = {0.0, 0.0}, warp_k[2] = {1.0, 1.0}, warp_phase[2] = {0.0, 0.0};
    double swell = 0.0, swell_k = 1.0, swell_phase = 0.0;
    double widest = 1.0, longest = 1.0;  // the most its amplitude and wavelength grow
};

// A channel: from its source q down to r, water levels zq >= zr, the level falling as
// zr + (zq - zr) u^gamma with u the share of the way still to go (1 at the source).
struct Channel {
    glm::dvec2 q{0.0}, r{0.0};
    double zq = 0.0, zr = 0.0;
    double gamma = 1.0;
    double inv_len2 = 0.0;
    std::int64_t ci = 0, cj = 0;  // the source's cell at its level
    int level = 0;
    bool taper = false;  // the bed grows from nothing at the source (a channel's head)
    // Its bends (drainage_meander.cpp): offset `bend` sin(pi waves t) across its line, eased
    // to nothing and level at both ends; 0: straight.
    double bend = 0.0, waves = 1.0;
    // With meander_vary: the sine's phase and amplitude wander (shape_bends); vary 0: a plain sine.
    Wander wander;
};

// A channel's offset across its line at share t of the way from its source, and the offset's
// derivative in t (drainage_meander.cpp).
double meander_offset(const Channel& c, double t, double* slope);
// The most a channel's line strays across its straight line (|offset| at any t): the bound
// a batch's pruning of channels relies on (drainage.cpp).
double most_offset(const Channel& c);
// The bend at share t as felt at signed distance s across the line: whole out to twice the
// bend, faded to nothing by four bends and half a wavelength (else every valley side would
// ripple with its channel's bends), with its derivatives in t and s.
double felt_offset(const Channel& c, double t, double s, double* dt, double* ds);
// The channel's line at share t, bends included.
glm::dvec2 channel_point(const Channel& c, double t);
// The distance from `at` to the channel (its bends as felt there) and the share t of its closest point.
double channel_distance(const Channel& c, const glm::dvec2& at, double* share = nullptr);
// Gives channel c (its ends, length, level and taper set) its bends, their side from `hash`.
void bend_channel(const Params& p, std::uint64_t hash, Channel& c);
// Gives channel c (its waves set) the wander of vary, coin and head (see Wander).
void shape_bends(double vary, std::uint64_t coin, double head, Channel& c);
// With meander_vary (drainage_junction.cpp): where a tributary from q meets channel c, near
// share t0 of it: the share nearest t0 at which it arrives at atan(1 / junction) to c's own
// downstream direction there, within kJunctionSlack; t0 where none is within two waves.
double natural_junction(const Channel& c, const glm::dvec2& q, double t0, double junction);
constexpr double kJunctionSlack = 0.2618;  // 15 degrees

struct Tile {
    std::vector<Channel> channels;  // those whose sources lie in the tile's cells
};

inline std::int64_t cell_of(double v, double cell) { return static_cast<std::int64_t>(std::floor(std::clamp(v / cell, -1e15, 1e15))); }
inline std::int64_t tile_of(std::int64_t c) { return c >= 0 ? c / kTile : -((-c + kTile - 1) / kTile); }

// What one channel makes at a point: the closest point's water level, the distance, and the
// valley's ground there (with its gradient, when asked).
struct Valley {
    double ground = 0.0, water = 0.0, distance = 0.0;
    glm::dvec2 gradient{0.0};
    double width = 0.0;  // the bed's half-width at the closest point (where the water runs)
    double share = 0.0;  // the closest point's share of the way from the source
};

// How far a valley's sides have risen at distance d from its line beyond its floor f: level
// over the floor, eased in over another f, then straight.
inline double rise_beyond_floor(double d, double f) { return d <= f ? 0.0 : d < 2.0 * f ? (d - f) * (d - f) / (2.0 * f) : d - 1.5 * f; }

class DrainageCache;  // drainage_network.cpp

// The channels of a drainage node, built tile by tile (and kept in its cache) on demand.
class Network {
public:
    Network(const Node& node, const Program& program, const NoiseSet& noise);
    const Params& params() const { return p_; }

    // A level's jittered point of cell (i, j).
    glm::dvec2 point(int level, std::int64_t i, std::int64_t j) const;
    // The channels whose sources lie in tile (tx, tz) of `level`: cached, else built.
    std::shared_ptr<const Tile> tile(int level, std::int64_t tx, std::int64_t tz);

    // The valley of channel `c` at point `at`, with its gradient when `slope` is set (the
    // derivative of each term: the water level along the channel, the sides, the bed).
    Valley valley(const Channel& c, const glm::dvec2& at, bool slope = false, bool smooth_ends = false) const {
        return p_.plain && c.bend == 0.0 ? valley_of<false>(c, at, slope, smooth_ends) : valley_of<true>(c, at, slope, smooth_ends);
    }

    // The lowest valley at `at` of the channels of levels below `below` that it sees, or
    // `ceiling` when none is lower; `best` gets the channel (null: none).
    double lowest_valley(const glm::dvec2& at, int below, double ceiling, const Channel** best);

    // Calls f for every channel of `level` whose source cell lies within kWindow of a cell
    // in [i0, i1] x [j0, j1], tile by tile in a fixed order.
    template <class F>
    void for_each_seen(int level, std::int64_t i0, std::int64_t j0, std::int64_t i1, std::int64_t j1, F&& f) {
        const std::int64_t a0 = i0 - kWindow, a1 = i1 + kWindow, b0 = j0 - kWindow, b1 = j1 + kWindow;
        for (std::int64_t tz = tile_of(b0); tz <= tile_of(b1); ++tz)
            for (std::int64_t tx = tile_of(a0); tx <= tile_of(a1); ++tx) {
                held_.push_back(tile(level, tx, tz));  // kept alive while the caller holds references
                for (const Channel& ch : held_.back()->channels)
                    if (ch.ci >= a0 && ch.ci <= a1 && ch.cj >= b0 && ch.cj <= b1) f(ch);
            }
    }

    // The control (or relief) at points, evaluated by the graph.
    void read(std::size_t slot, const std::vector<glm::dvec2>& at, std::vector<double>& out) const;

private:
    // valley(), compiled twice: Full false leaves out the bends, carve_m, the spring and the
    // floodplain (a straight channel of a graph without them: the terms they add are 0 there,
    // so the same arithmetic in the same order, without the tests for them in the inner loop).
    template <bool Full>
    Valley valley_of(const Channel& c, const glm::dvec2& at, bool slope, bool smooth_ends) const {
        const glm::dvec2 qr = c.r - c.q;
        const double along = glm::dot(at - c.q, qr) * c.inv_len2;
        const double t = std::clamp(along, 0.0, 1.0);
        glm::dvec2 closest = c.q + t * qr;
        // Bent: the closest point moved across the line by the bend there (near the bent line's
        // nearest point while its turns are gentle next to their wavelength), faded across the valley side.
        double bend_dt = 0.0, bend_ds = 0.0;
        glm::dvec2 across_line(0.0);
        if (Full && c.bend != 0.0) {
            across_line = glm::dvec2(-qr.y, qr.x) * std::sqrt(c.inv_len2);
            closest += felt_offset(c, t, glm::dot(at - closest, across_line), &bend_dt, &bend_ds) * across_line;
        }
        const glm::dvec2 off = at - closest;
        const double d = glm::length(off);
        const double u = 1.0 - t;
        // A river runs down to the sea, not along its floor: below the sea level its valley
        // lies at the sea level, and the sea floor (the control) is lower than it there.
        const double level = c.zr + (c.zq - c.zr) * power(u, c.gamma);
        const double water = std::max(level, p_.sea_level);
        // Beyond the floor the sides rise at the level's slope, eased in over another floor width.
        const Params::Level& lv = p_.level[c.level];
        const double f = lv.floor;
        const double beyond = rise_beyond_floor(d, f);
        double ground = water + lv.slope * beyond;
        // The floor falls towards the river, flattening out where the sides rise; with carve_m it also rises at twice
        // the channel's own fall there (a torrent's valley is a V: no cell beside it lies below the water up to twice as far upstream).
        const double fall =
            Full && p_.carve > 0.0 && level >= p_.sea_level ? kCarveRise * (c.zq - c.zr) * c.gamma * power(u, c.gamma - 1.0) : 0.0;
        const double floor_rise = !Full ? 0.0 : fall > 0.0 ? p_.floodplain + fall * std::sqrt(c.inv_len2) : p_.floodplain;
        if (floor_rise > 0.0) ground += floor_rise * (d - beyond);
        // With a spring a head's bed widens and deepens from nothing over its first share; without, over its first quarter.
        const bool spring = Full && p_.spring > 0.0;
        const double grow = spring && c.taper ? smoothstep(0.0, p_.spring, t) : 1.0;
        const double width = lv.bed_width * grow;
        const double taper = spring ? grow : c.taper ? std::min(1.0, 4.0 * t) : 1.0;
        // The bed's cross-section, (1 - (d / w)^2)^2: level with the banks at its edge.
        const double b = d < width ? 1.0 - (d / width) * (d / width) : 0.0;
        const double across = b * b;
        ground -= lv.bed_depth * taper * across;
        Valley v{ground, water, d};
        v.width = width, v.share = t;
        if (slope) {
            const glm::dvec2 dt = along > 0.0 && along < 1.0 ? qr * c.inv_len2 : glm::dvec2(0.0);
            glm::dvec2 dd = d > 0.0 ? off / d : glm::dvec2(0.0);
            if (Full && c.bend != 0.0) dd -= glm::dot(dd, across_line) * (bend_dt * dt + bend_ds * across_line);
            const double dwater = level >= p_.sea_level ? -(c.zq - c.zr) * c.gamma * power(u, c.gamma - 1.0) : 0.0;
            const double drise = d <= f ? 0.0 : d < 2.0 * f ? (d - f) / f : 1.0;
            const double dacross = d < width ? -4.0 * b * d / (width * width) : 0.0;
            const double dtaper = c.taper && 4.0 * t < 1.0 ? 4.0 : 0.0;
            double dbed = dtaper * across;  // the rate of taper x across along t, at a fixed distance
            if (spring) {
                // The spring's depth grows, and its cross-section widens under a fixed point.
                const double s = t / p_.spring;
                const double dgrow = c.taper && s < 1.0 ? 6.0 * s * (1.0 - s) / p_.spring : 0.0;
                const double widen = d < width ? 4.0 * b * d * d / (width * width * width) * lv.bed_width * dgrow : 0.0;
                dbed = dgrow * across + taper * widen;
            }
            v.gradient = dwater * dt + lv.slope * drise * dd - lv.bed_depth * (taper * dacross * dd + dbed * dt);
            if (floor_rise > 0.0) v.gradient += floor_rise * (1.0 - drise) * dd;
            if (fall > 0.0 && c.gamma != 1.0 && u > 0.0) {
                const double dfall = -kCarveRise * (c.zq - c.zr) * c.gamma * (c.gamma - 1.0) * power(u, c.gamma - 2.0);
                v.gradient += dfall * std::sqrt(c.inv_len2) * (d - beyond) * dt;
            }
            if (smooth_ends) {
                // For the slope a later node follows: the fall along the channel eased in and out over the
                // first and last 5 % beyond its ends, where the exact slope turns at once to the cone around the end point's.
                const double ease = smoothstep(-0.05, 0.05, along) * (1.0 - smoothstep(0.95, 1.05, along));
                const glm::dvec2 axis = qr * std::sqrt(c.inv_len2);
                const double fall = dwater * std::sqrt(c.inv_len2);
                v.gradient = v.gradient - dwater * dt + ease * fall * axis;
            }
        }
        return v;
    }

    std::uint64_t bend_hash(int level, std::int64_t i, std::int64_t j) const;  // a channel's coin for its bends
    Tile trunks(std::int64_t tx, std::int64_t tz) const;
    Tile tributaries(int level, std::int64_t tx, std::int64_t tz);

    const Node& node_;
    Params p_;
    const Program& program_;
    const NoiseSet& noise_;
    DrainageCache* cache_;
    std::vector<std::shared_ptr<const Tile>> held_;
};

// water_reach_m (drainage_rivers.cpp): the water by the rivers near `at` (kDry where none is
// within twice the reach) and how far beyond the nearest bank it lies (0 in a bed, at most
// twice the reach), from the rivers that may reach it and the lane's lowest ground.
struct RiverWater {
    double water = kDry, beyond = 0.0;
};
RiverWater river_water(const Network& net, const std::vector<const Channel*>& rivers, const glm::dvec2& at, double ground);
// The lowest the water port gives with these settings where no control nor ground is lower.
double river_water_lowest(const Params& p, double lowest);
// spring_slope: the share of channel c from its source that is dry (0: all wet, 1: all dry).
double wet_start(const Params& p, const Channel& c);
// Without water_reach_m: whether a point whose valley v is channel c's lies in its water (its bed, past its spring).
inline bool in_water(const Params& p, const Channel& c, const Valley& v) {
    return v.distance < v.width && (p.spring_slope <= 0.0 || v.share >= wet_start(p, c));
}

// blend_m (drainage_blend.cpp): the smooth minimum of width w of the envelope and the valleys
// near a lane whose exact minimum is m (with slope `lowest`); its slope too when asked.
double blend_ground(double m, const glm::dvec2& lowest, double envelope, double w,
                    const std::vector<std::pair<const Channel*, Valley>>& near_valleys, glm::dvec2* gradient);

// carve_m (drainage_carve.cpp): lowers the profiles of a water-carrying level's channels,
// just built, until their water lies below the coarser ground along and beside their lines.
void carve_channels(Network& net, int level, std::vector<Channel>& channels);
// trunk_carve_m (drainage_carve.cpp): bows the profiles of level 0's channels, just built (their
// ends' levels kept: the network's water stays continuous), until their water lies below
// control + relief along and beside their lines, so no trunk crosses low ground on a ledge.
void bow_trunks(const Network& net, std::vector<Channel>& channels);
constexpr double kMostBow = 4.0;  // the steepest bow: u^4 (whole exponents: the same bits everywhere)

}  // namespace isoterra::graph::drainage
