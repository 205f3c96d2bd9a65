// drainage: a river network computed locally, after Dendry (Gaillard et al., I3D 2019), and
// the valleys it carves. Level k has one jittered point per square cell of cell_m / 2^k.
// A level-0 point links to its lowest neighbour under `control` (the rivers' level); a
// point of a finer level joins the nearest coarser channel (moved downstream by `junction`
// of its distance, so tributaries meet at an angle), starting from the ground the coarser
// levels made there, so water levels fall downstream at every level. The ground is the
// lowest of `control + relief` and every channel's valley: its water level (a concave
// profile for the finer levels) plus slope x distance beyond a floor, less a river bed.
// A channel counts for a point when its source lies within two cells of the point's cell
// at that level (the same rule everywhere), so every value is a pure function of the point.
// Channels are built in tiles of 8 x 8 cells, kept in a cache shared by the node's users.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "../landform_nodes.hpp"

namespace isoterra::graph {
namespace {

constexpr int kWindow = 2;     // a point sees the channels whose sources lie this many cells around its own
constexpr double kFade = 1.0;  // ... lifted out of the way over the outer cell of that window,
constexpr double kLift = 1.5;  // ... by up to this many times the level's slope times its cell
constexpr double kReach = 1.5; // cells: a finer level's point joins no channel farther than this
constexpr int kTile = 8;       // cells a side of a cached tile
constexpr double kDry = -1e4;  // the water output where no river runs
constexpr double kFar = 1e7;   // the distance output where no channel is seen
constexpr std::size_t kMostTiles = 8192;  // the cache's bound (about 6 KB a tile)

// The node's settings, and what they give per level (worked out once: valleys are the
// inner loop).
struct Params {
    double cell0, jitter, slope, slope_gain, floor0, bed_width0, bed_depth0;
    int levels, water_levels;
    double concavity, junction, sea_level, smooth;
    struct Level {
        double cell, slope, floor, bed_width, bed_depth;
    };
    Level level[8];

    explicit Params(const Node& node) {
        const std::vector<double>& p = node.number;
        cell0 = p[0], jitter = p[1], slope = p[2], slope_gain = p[3], floor0 = p[4], bed_width0 = p[5], bed_depth0 = p[6];
        water_levels = static_cast<int>(p[7]);
        concavity = p[8], junction = p[9], sea_level = p[10], smooth = p[11];
        levels = std::clamp(node.shape.octaves, 1, 8);
        for (int k = 0; k < 8; ++k) {
            const bool river = k < water_levels;
            level[k] = {std::ldexp(cell0, -k), slope * std::pow(slope_gain, k), std::ldexp(floor0, -k),
                        river ? std::ldexp(bed_width0, -k) : 0.0, river ? std::ldexp(bed_depth0, -k) : 0.0};
        }
    }
    double cell(int k) const { return level[k].cell; }
    double slope_at(int k) const { return level[k].slope; }
    double floor_at(int k) const { return level[k].floor; }
    double bed_width_at(int k) const { return level[k].bed_width; }
    double bed_depth_at(int k) const { return level[k].bed_depth; }
};

// u^gamma, by multiplication for the whole exponents presets use.
double power(double u, double gamma) {
    switch (static_cast<int>(gamma)) {
        case 1: if (gamma == 1.0) return u; break;
        case 2: if (gamma == 2.0) return u * u; break;
        case 3: if (gamma == 3.0) return u * u * u; break;
        case 4: if (gamma == 4.0) { const double u2 = u * u; return u2 * u2; } break;
        default: break;
    }
    return std::pow(u, gamma);
}

// The Node::in slots read here (x and z are slots 0 and 1, read through the grid).
constexpr std::size_t kInControl = 2, kInRelief = 3;

// How much a channel's valley is lifted at point `at`: 0 well inside the window of cells
// around its source; over the window's outer cell it rises smoothly, past kLift x `rise` (the
// level's slope times its cell) halfway, without bound at the edge; infinity outside. So the lowest valley a point sees does
// not jump where a channel leaves its window: by then the channel lies above the valleys of
// the channels nearer the point (whose sources' windows hold it well inside).
double window_lift(std::int64_t ci, std::int64_t cj, double cell, double rise, const glm::dvec2& at, glm::dvec2* gradient = nullptr) {
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
};

struct Tile {
    std::vector<Channel> channels;  // those whose sources lie in the tile's cells
};

struct TileKey {
    std::uint32_t seed;
    int level;
    std::int64_t tx, tz;
    bool operator==(const TileKey&) const = default;
};
struct TileKeyHash {
    std::size_t operator()(const TileKey& k) const {
        return static_cast<std::size_t>(cell_hash(k.seed, k.tx, k.tz, static_cast<std::uint32_t>(k.level)));
    }
};

class DrainageCache final : public NodeCache {
public:
    std::shared_ptr<const Tile> find(const TileKey& key) {
        std::lock_guard<std::mutex> lock(mu_);
        const auto it = tiles_.find(key);
        return it == tiles_.end() ? nullptr : it->second;
    }
    // Two threads may build the same tile; both are the same, the first one stays.
    std::shared_ptr<const Tile> keep(const TileKey& key, std::shared_ptr<const Tile> tile) {
        std::lock_guard<std::mutex> lock(mu_);
        if (tiles_.size() >= kMostTiles) tiles_.clear();  // a bound, not a policy: values never depend on it
        return tiles_.emplace(key, std::move(tile)).first->second;
    }

private:
    std::mutex mu_;
    std::unordered_map<TileKey, std::shared_ptr<const Tile>, TileKeyHash> tiles_;
};

std::int64_t cell_of(double v, double cell) {
    return static_cast<std::int64_t>(std::floor(std::clamp(v / cell, -1e15, 1e15)));
}
std::int64_t tile_of(std::int64_t c) { return c >= 0 ? c / kTile : -((-c + kTile - 1) / kTile); }

// What one channel makes at a point: the closest point's water level, the distance, and the
// valley's ground there (with its gradient, when asked).
struct Valley {
    double ground = 0.0, water = 0.0, distance = 0.0;
    glm::dvec2 gradient{0.0};
};

class Network {
public:
    Network(const Node& node, const Program& program, const NoiseSet& noise) : node_(node), p_(node), program_(program), noise_(noise) {
        cache_ = static_cast<DrainageCache*>(node.cache.get());
    }
    const Params& params() const { return p_; }

    glm::dvec2 point(int level, std::int64_t i, std::int64_t j) const {
        const std::uint64_t h = cell_hash(noise_.seed, i, j, 0x64726e00u + static_cast<std::uint32_t>(level));
        const double c = p_.cell(level);
        return {(static_cast<double>(i) + 0.5 + p_.jitter * (cell_random(h, 0) - 0.5)) * c,
                (static_cast<double>(j) + 0.5 + p_.jitter * (cell_random(h, 1) - 0.5)) * c};
    }

    std::shared_ptr<const Tile> tile(int level, std::int64_t tx, std::int64_t tz) {
        const TileKey key{noise_.seed, level, tx, tz};
        if (auto found = cache_->find(key)) return found;
        auto built = std::make_shared<Tile>(level == 0 ? trunks(tx, tz) : tributaries(level, tx, tz));
        return cache_->keep(key, std::move(built));
    }

    // The valley of channel `c` at point `at`, with its gradient when `slope` is set (the
    // derivative of each term: the water level along the channel, the sides, the bed).
    Valley valley(const Channel& c, const glm::dvec2& at, bool slope = false, bool smooth_ends = false) const {
        const glm::dvec2 qr = c.r - c.q;
        const double along = glm::dot(at - c.q, qr) * c.inv_len2;
        const double t = std::clamp(along, 0.0, 1.0);
        const glm::dvec2 closest = c.q + t * qr;
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
        const double beyond = d <= f ? 0.0 : d < 2.0 * f ? (d - f) * (d - f) / (2.0 * f) : d - 1.5 * f;
        double ground = water + lv.slope * beyond;
        const double taper = c.taper ? std::min(1.0, 4.0 * t) : 1.0;
        // The bed's cross-section, (1 - (d / w)^2)^2: level with the banks at its edge.
        const double b = d < lv.bed_width ? 1.0 - (d / lv.bed_width) * (d / lv.bed_width) : 0.0;
        const double across = b * b;
        ground -= lv.bed_depth * taper * across;
        Valley v{ground, water, d};
        if (slope) {
            const glm::dvec2 dt = along > 0.0 && along < 1.0 ? qr * c.inv_len2 : glm::dvec2(0.0);
            const glm::dvec2 dd = d > 0.0 ? off / d : glm::dvec2(0.0);
            const double dwater = level >= p_.sea_level ? -(c.zq - c.zr) * c.gamma * power(u, c.gamma - 1.0) : 0.0;
            const double drise = d <= f ? 0.0 : d < 2.0 * f ? (d - f) / f : 1.0;
            const double dacross = d < lv.bed_width ? -4.0 * b * d / (lv.bed_width * lv.bed_width) : 0.0;
            const double dtaper = c.taper && 4.0 * t < 1.0 ? 4.0 : 0.0;
            v.gradient = dwater * dt + lv.slope * drise * dd - lv.bed_depth * (taper * dacross * dd + dtaper * across * dt);
            if (smooth_ends) {
                // For the slope a later node follows: the fall along the channel eased in and
                // out over the first and last 5 % beyond its ends, where the exact slope turns
                // at once to the cone around the end point's.
                const double ease = smoothstep(-0.05, 0.05, along) * (1.0 - smoothstep(0.95, 1.05, along));
                const glm::dvec2 axis = qr * std::sqrt(c.inv_len2);
                const double fall = dwater * std::sqrt(c.inv_len2);
                v.gradient = v.gradient - dwater * dt + ease * fall * axis;
            }
        }
        return v;
    }

    // The lowest valley at `at` of the channels of levels below `below` that it sees, or
    // `ceiling` when none is lower; `best` gets the channel (null: none).
    double lowest_valley(const glm::dvec2& at, int below, double ceiling, const Channel** best) {
        double lowest = ceiling;
        if (best) *best = nullptr;
        for (int k = 0; k < below; ++k) {
            const double c = p_.cell(k);
            const std::int64_t ci = cell_of(at.x, c), cj = cell_of(at.y, c);
            for_each_seen(k, ci, cj, ci, cj, [&](const Channel& ch) {
                const double g = valley(ch, at).ground + window_lift(ch.ci, ch.cj, c, p_.slope_at(k) * c, at);
                if (g < lowest) {
                    lowest = g;
                    if (best) *best = &ch;
                }
            });
        }
        return lowest;
    }

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
    void read(std::size_t slot, const std::vector<glm::dvec2>& at, std::vector<double>& out) const {
        std::vector<double> xs(at.size()), zs(at.size());
        for (std::size_t i = 0; i < at.size(); ++i) xs[i] = at[i].x, zs[i] = at[i].y;
        out.resize(at.size());
        run_columns(program_, noise_, xs.data(), zs.data(), at.size(), node_.in[slot], out.data());
    }

private:
    Tile trunks(std::int64_t tx, std::int64_t tz) const;
    Tile tributaries(int level, std::int64_t tx, std::int64_t tz);

    const Node& node_;
    Params p_;
    const Program& program_;
    const NoiseSet& noise_;
    DrainageCache* cache_;
    std::vector<std::shared_ptr<const Tile>> held_;
};

// Level 0: each land point links to the lowest of its eight neighbours under the control,
// when that one is lower. A point no neighbour drains into is a river's head.
Tile Network::trunks(std::int64_t tx, std::int64_t tz) const {
    constexpr int kRing = 2, kSide = kTile + 2 * kRing;
    const std::int64_t i0 = tx * kTile - kRing, j0 = tz * kTile - kRing;
    std::vector<glm::dvec2> pts(kSide * kSide);
    for (int b = 0; b < kSide; ++b)
        for (int a = 0; a < kSide; ++a) pts[b * kSide + a] = point(0, i0 + a, j0 + b);
    std::vector<double> z;
    read(kInControl, pts, z);
    // The link of every point but the outer ring: -1 none, else the neighbour's index.
    std::vector<int> link(pts.size(), -1);
    for (int b = 1; b < kSide - 1; ++b)
        for (int a = 1; a < kSide - 1; ++a) {
            const int at = b * kSide + a;
            if (!(z[at] >= p_.sea_level)) continue;  // the sea (or NaN): an outlet
            double lowest = z[at];
            for (int db = -1; db <= 1; ++db)
                for (int da = -1; da <= 1; ++da) {
                    const int n = (b + db) * kSide + a + da;
                    if (n != at && z[n] < lowest) lowest = z[n], link[at] = n;
                }
        }
    Tile tile;
    for (int b = kRing; b < kRing + kTile; ++b)
        for (int a = kRing; a < kRing + kTile; ++a) {
            const int at = b * kSide + a;
            if (link[at] < 0) continue;
            bool upstream = false;
            for (int db = -1; db <= 1; ++db)
                for (int da = -1; da <= 1; ++da) upstream |= link[(b + db) * kSide + a + da] == at;
            Channel c;
            c.q = pts[at], c.r = pts[link[at]];
            c.zq = z[at], c.zr = z[link[at]];
            c.inv_len2 = 1.0 / glm::dot(c.r - c.q, c.r - c.q);
            c.ci = i0 + a, c.cj = j0 + b;
            c.level = 0;
            c.taper = !upstream;
            tile.channels.push_back(c);
        }
    return tile;
}

// A finer level: each land point joins the nearest channel of the coarser levels it sees,
// from the ground those levels make at the point down to the junction.
Tile Network::tributaries(int level, std::int64_t tx, std::int64_t tz) {
    std::vector<glm::dvec2> pts;
    std::vector<std::pair<std::int64_t, std::int64_t>> cells;
    for (std::int64_t j = tz * kTile; j < (tz + 1) * kTile; ++j)
        for (std::int64_t i = tx * kTile; i < (tx + 1) * kTile; ++i) {
            pts.push_back(point(level, i, j));
            cells.emplace_back(i, j);
        }
    std::vector<double> control, relief;
    read(kInControl, pts, control);
    read(kInRelief, pts, relief);
    Tile tile;
    for (std::size_t n = 0; n < pts.size(); ++n) {
        if (!(control[n] >= p_.sea_level)) continue;
        const glm::dvec2 q = pts[n];
        // The nearest coarser channel (ties: the first met, in a fixed order).
        const Channel* nearest = nullptr;
        double best = INFINITY, best_t = 0.0;
        for (int k = 0; k < level; ++k) {
            const double c = p_.cell(k);
            const std::int64_t ci = cell_of(q.x, c), cj = cell_of(q.y, c);
            for_each_seen(k, ci, cj, ci, cj, [&](const Channel& ch) {
                if (window_lift(ch.ci, ch.cj, c, 1.0, q) > 0.0) return;  // only channels it sees whole
                const glm::dvec2 qr = ch.r - ch.q;
                const double t = std::clamp(glm::dot(q - ch.q, qr) * ch.inv_len2, 0.0, 1.0);
                const double d = glm::length(q - (ch.q + t * qr));
                if (d < best) best = d, nearest = &ch, best_t = t;
            });
        }
        // A channel stays within its window (kReach cells of its source, the window reaching
        // kWindow), so the points near its whole length see it.
        const double reach = kReach * p_.cell(level) / std::sqrt(1.0 + p_.junction * p_.junction);
        if (!nearest || !(best > 1e-6 * p_.cell(level)) || best > reach) continue;
        // The junction, moved downstream so the tributary meets at an angle.
        const double t = std::min(1.0, best_t + p_.junction * best * std::sqrt(nearest->inv_len2));
        const glm::dvec2 r = nearest->q + t * (nearest->r - nearest->q);
        const double zr = valley(*nearest, r).water;
        const double ground = lowest_valley(q, level, control[n] + relief[n], nullptr);
        Channel ch;
        ch.q = q, ch.r = r;
        ch.zq = std::max(ground, zr), ch.zr = zr;
        ch.gamma = p_.concavity;
        const double len2 = glm::dot(r - q, r - q);
        if (!(len2 > 0.0)) continue;
        ch.inv_len2 = 1.0 / len2;
        ch.ci = cells[n].first, ch.cj = cells[n].second;
        ch.level = level;
        ch.taper = true;
        tile.channels.push_back(ch);
    }
    return tile;
}

// The distance from a segment to a rectangle (0 where they meet), and the farthest a point
// of the rectangle lies from the segment (at a corner: the distance to a segment is convex).
double point_segment(const glm::dvec2& p, const glm::dvec2& a, const glm::dvec2& b) {
    const glm::dvec2 ab = b - a;
    const double len2 = glm::dot(ab, ab);
    const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    return glm::length(p - (a + t * ab));
}
double point_box(const glm::dvec2& p, const glm::dvec2& lo, const glm::dvec2& hi) {
    return glm::length(glm::max(glm::max(lo - p, p - hi), glm::dvec2(0.0)));
}
bool segments_cross(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c, const glm::dvec2& d) {
    const auto cross = [](const glm::dvec2& u, const glm::dvec2& v) { return u.x * v.y - u.y * v.x; };
    const double d1 = cross(b - a, c - a), d2 = cross(b - a, d - a), d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}
double segment_box_nearest(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& lo, const glm::dvec2& hi) {
    const auto inside = [&](const glm::dvec2& p) { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; };
    if (inside(a) || inside(b)) return 0.0;
    const glm::dvec2 corner[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
    for (int e = 0; e < 4; ++e)
        if (segments_cross(a, b, corner[e], corner[(e + 1) % 4])) return 0.0;
    double d = std::min(point_box(a, lo, hi), point_box(b, lo, hi));
    for (const glm::dvec2& c : corner) d = std::min(d, point_segment(c, a, b));
    return d;
}
double segment_box_farthest(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& lo, const glm::dvec2& hi) {
    const glm::dvec2 corner[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
    double d = 0.0;
    for (const glm::dvec2& c : corner) d = std::max(d, point_segment(c, a, b));
    return d;
}

// A channel that may matter for some lane of a batch, with bounds of its valley there.
struct Candidate {
    const Channel* channel;
    double lowest;  // no lane's valley of it is lower
    double near;    // no lane is nearer to it
    bool unlifted;  // every lane lies where its window does not lift it
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

}  // namespace

std::shared_ptr<NodeCache> make_drainage_cache() { return std::make_shared<DrainageCache>(); }

std::vector<GraphChannel> drainage_channels(const Program& program, const NoiseSet& noise, const Node& node, const glm::dvec2& lo,
                                            const glm::dvec2& hi) {
    Network net(node, program, noise);
    const Params& p = net.params();
    std::vector<GraphChannel> out;
    for (int k = 0; k < p.levels; ++k) {
        const double c = p.cell(k);
        // Tiles over the rectangle's cells (the window reaches no further than kWindow).
        const std::int64_t i0 = cell_of(lo.x, c), i1 = cell_of(hi.x, c), j0 = cell_of(lo.y, c), j1 = cell_of(hi.y, c);
        for (std::int64_t tz = tile_of(j0); tz <= tile_of(j1); ++tz)
            for (std::int64_t tx = tile_of(i0); tx <= tile_of(i1); ++tx)
                for (const Channel& ch : net.tile(k, tx, tz)->channels)
                    if (ch.q.x >= lo.x && ch.q.x <= hi.x && ch.q.y >= lo.y && ch.q.y <= hi.y)
                        out.push_back({ch.q, ch.r, std::max(ch.zq, p.sea_level), std::max(ch.zr, p.sea_level), k, p.levels - k});
    }
    return out;
}

namespace {

// What a group of nearby lanes may need: the candidates among the channels the batch sees,
// bounded over the group's rectangle, pruned to those that can matter and sorted (valleys by
// their lowest, channels by their nearest).
struct Group {
    std::vector<Candidate> valleys, nearest;
};

void prepare(const Network& net, const std::vector<const Channel*>& seen, const glm::dvec2& lo, const glm::dvec2& hi,
             double ceiling, double band, bool nearest, Group& out) {
    const Params& p = net.params();
    out.valleys.clear();
    out.nearest.clear();
    double nearest_bound = INFINITY;
    for (const Channel* ch : seen) {
        const int k = ch->level;
        const double c = p.cell(k), slope = p.slope_at(k), f = p.floor_at(k);
        const auto rise = [&](double d) { return d <= f ? 0.0 : d < 2.0 * f ? (d - f) * (d - f) / (2.0 * f) : d - 1.5 * f; };
        const double near = segment_box_nearest(ch->q, ch->r, lo, hi);
        // Unlifted for every lane: the rectangle lies inside the window less its fade (such a
        // channel bounds the lowest valley from above).
        const bool unlifted = window_lift(ch->ci, ch->cj, c, 1.0, lo) == 0.0 && window_lift(ch->ci, ch->cj, c, 1.0, hi) == 0.0;
        if (unlifted) {
            const double far = segment_box_farthest(ch->q, ch->r, lo, hi);
            ceiling = std::min(ceiling, ch->zq + slope * rise(far));
            nearest_bound = std::min(nearest_bound, far);
        }
        out.valleys.push_back({ch, ch->zr - p.bed_depth_at(k) + slope * rise(near), near, unlifted});
        if (nearest) out.nearest.push_back({ch, 0.0, near, unlifted});
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

}  // namespace

void run_drainage(const Node& node, const Lanes& l) {
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
        net.for_each_seen(k, cell_of(lo.x, c), cell_of(lo.y, c), cell_of(hi.x, c), cell_of(hi.y, c), [&](const Channel& ch) { seen.push_back(&ch); });
    }
    // Bounded over the whole batch first: most channels cannot matter to any lane, and each
    // group need not bound them again.
    if (n > kGroupLanes) {
        double ceiling = -INFINITY;
        for (std::size_t i = 0; i < n; ++i) {
            const double e = control[i] + relief[i];
            ceiling = std::max(ceiling, std::isnan(e) ? INFINITY : e);
        }
        Group all;
        prepare(net, seen, lo, hi, ceiling, p.smooth > 0.0 && (l.ports_read & 6u) ? kSoftBand * p.smooth : 0.0, false, all);
        // What the valleys cannot reach is out; the distance keeps every channel a lane may be
        // nearest to (all of them: the batch's nearest bound is loose), so only valleys prune.
        if ((l.ports_read & 8u) == 0) {
            seen.clear();
            for (const Candidate& c : all.valleys) seen.push_back(c.channel);
        }
    }
    // The lanes in groups of nearby ones: a grid over the lanes' rectangle.
    const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n) / kGroupLanes))));
    const glm::dvec2 span = glm::max(hi - lo, glm::dvec2(1e-300));
    std::vector<std::vector<std::size_t>> groups(static_cast<std::size_t>(side) * side);
    for (std::size_t i = 0; i < n; ++i) {
        const glm::ivec2 g = glm::clamp(glm::ivec2((at[i] - lo) / span * static_cast<double>(side)), 0, side - 1);
        groups[static_cast<std::size_t>(g.y) * side + g.x].push_back(i);
    }

    const auto lift = [&](const Candidate& c, const glm::dvec2& point, glm::dvec2* gradient) {
        if (c.unlifted) return *gradient = glm::dvec2(0.0), 0.0;
        const double cell = p.cell(c.channel->level);
        return window_lift(c.channel->ci, c.channel->cj, cell, p.slope_at(c.channel->level) * cell, point, gradient);
    };
    // What is read of it: the slope (ports 1, 2) and the distance (port 3) cost the most.
    const bool want_slope = (l.ports_read & 6u) != 0, want_distance = (l.ports_read & 8u) != 0;
    const double k = want_slope ? p.smooth : 0.0;
    const double band = k > 0.0 ? kSoftBand * k : 0.0;
    Group group;
    std::vector<std::pair<const Channel*, Valley>> near_valleys;
    for (const std::vector<std::size_t>& lanes : groups) {
        if (lanes.empty()) continue;
        glm::dvec2 glo(INFINITY), ghi(-INFINITY);
        double ceiling = -INFINITY;  // no lane's ground is above this
        for (const std::size_t i : lanes) {
            glo = glm::min(glo, at[i]), ghi = glm::max(ghi, at[i]);
            const double e = control[i] + relief[i];
            ceiling = std::max(ceiling, std::isnan(e) ? INFINITY : e);
        }
        prepare(net, seen, glo, ghi, ceiling, band, want_distance, group);
        for (const std::size_t i : lanes) {
            const double envelope = control[i] + relief[i];
            double ground = envelope;
            const Channel* best = nullptr;
            Valley best_valley;
            // The lowest valley and, with a soft minimum's width k, the slope rounded where
            // valleys meet: the weights of -k ln sum exp(-g / k) over the valleys near the
            // lowest and the envelope (whose slope counts as 0), so that the slope turns
            // smoothly over a crease (what the erosion filter follows) while the ground keeps
            // its sharp crease and drains. One pass over the candidates (sorted by their lower
            // bounds) keeps each valley within reach of the lowest so far; the weights come
            // once the lowest is known.
            near_valleys.clear();
            for (const Candidate& c : group.valleys) {
                if (c.lowest > ground + band) break;  // sorted: no later one can be lower or weigh
                glm::dvec2 lift_gradient;
                const double lifted = lift(c, at[i], &lift_gradient);
                if (lifted == INFINITY) continue;
                Valley v = net.valley(*c.channel, at[i], want_slope, k > 0.0);
                v.ground += lifted;
                if (v.ground > ground + band) continue;
                v.gradient += lift_gradient;
                near_valleys.push_back({c.channel, v});
                // Ties go to the lower level, then the lower source cell: the same in any group.
                if (v.ground < ground || (v.ground == ground && best && earlier(*c.channel, *best)))
                    ground = v.ground, best = c.channel, best_valley = v;
            }
            glm::dvec2 gradient = best ? best_valley.gradient : glm::dvec2(0.0);
            if (k > 0.0 && std::isfinite(ground)) {
                const auto weight = [&](double g) {
                    const double x = (g - ground) / k;
                    return x >= kSoftBand ? 0.0 : std::exp(-x) * (1.0 - smoothstep(kSoftFade, kSoftBand, x));
                };
                double weights = weight(envelope);
                glm::dvec2 weighted(0.0);
                for (const auto& [channel, v] : near_valleys) {
                    const double w = weight(v.ground);
                    weights += w;
                    weighted += w * v.gradient;
                }
                gradient = weighted / weights;
            }
            double distance = kFar;
            for (const Candidate& c : group.nearest) {
                if (c.near > distance) break;
                // Lifted over the window's fade by up to kLift cells, as the valleys are.
                const double cell = p.cell(c.channel->level);
                const double lifted = c.unlifted ? 0.0 : window_lift(c.channel->ci, c.channel->cj, cell, cell, at[i]);
                if (lifted == INFINITY) continue;
                distance = std::min(distance, point_segment(at[i], c.channel->q, c.channel->r) + lifted);
            }
            l.out[0][i] = ground;
            l.out[1][i] = gradient.x;
            l.out[2][i] = gradient.y;
            l.out[3][i] = distance;
            const bool river = best && best->level < p.water_levels && best_valley.distance < p.bed_width_at(best->level);
            l.out[4][i] = river ? best_valley.water : kDry;
            l.out[5][i] = best ? static_cast<double>(p.levels - best->level) : 0.0;
        }
    }
}

NodeRanges drainage_ranges(const Node& node, const RangeContext& c) {
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
    out[0] = widen(lowest, envelope_hi);
    // The steepest a valley gets: its sides' slope, plus a bed's walls, plus the water level's
    // fall along a channel (at most the whole range of water levels over the shortest channel
    // a cell can hold... unbounded in principle: a channel may be very short), so no bound.
    out[1] = out[2] = {-INFINITY, INFINITY};
    out[3] = {0.0, kFar};
    // Water: dry, or a water level (a control value, or above it), which may lie below dry's
    // -10,000 where the control does.
    out[4] = widen(std::min(kDry, control.lo), std::max(kDry, highest_water));
    out[5] = {0.0, static_cast<double>(p.levels)};
    return out;
}

}  // namespace isoterra::graph
