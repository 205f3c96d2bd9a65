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
// This file builds the network; drainage.cpp runs the node with it.
#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

constexpr int kRing = 2;  // a trunk tile reads this many cells beyond its own, for its edge's links

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
    // The tile, built here unless it is (then this waits for it): threads asking for the
    // same tiles, as neighbouring jobs do, build each once. A tile needs only coarser
    // levels' tiles, so no two builders wait for each other.
    template <class Build>
    std::shared_ptr<const Tile> get(const TileKey& key, Build&& build) {
        {
            std::unique_lock<std::mutex> lock(mu_);
            for (;;) {
                const auto it = tiles_.find(key);
                if (it == tiles_.end()) break;
                if (it->second) return it->second;
                built_.wait(lock);  // being built (or dropped meanwhile: then built here)
            }
            // A bound, not a policy: values never depend on it (tiles being built stay).
            if (tiles_.size() >= kMostTiles) std::erase_if(tiles_, [](const auto& t) { return t.second != nullptr; });
            tiles_.emplace(key, nullptr);
        }
        std::shared_ptr<const Tile> tile;
        try {
            tile = build();
        } catch (...) {
            std::lock_guard<std::mutex> lock(mu_);
            tiles_.erase(key);
            built_.notify_all();
            throw;
        }
        std::lock_guard<std::mutex> lock(mu_);
        tiles_[key] = tile;
        built_.notify_all();
        return tile;
    }

private:
    std::mutex mu_;
    std::condition_variable built_;
    std::unordered_map<TileKey, std::shared_ptr<const Tile>, TileKeyHash> tiles_;  // null: being built
};

Network::Network(const Node& node, const Program& program, const NoiseSet& noise)
    : node_(node), p_(node), program_(program), noise_(noise) {
    cache_ = static_cast<DrainageCache*>(node.cache.get());
}

glm::dvec2 Network::point(int level, std::int64_t i, std::int64_t j) const {
    const std::uint64_t h = cell_hash(noise_.seed, i, j, 0x64726e00u + static_cast<std::uint32_t>(level));
    const double c = p_.cell(level);
    return {(static_cast<double>(i) + 0.5 + p_.jitter * (cell_random(h, 0) - 0.5)) * c,
            (static_cast<double>(j) + 0.5 + p_.jitter * (cell_random(h, 1) - 0.5)) * c};
}

std::uint64_t Network::bend_hash(int level, std::int64_t i, std::int64_t j) const {
    return cell_hash(noise_.seed, i, j, 0x6d6e6400u + static_cast<std::uint32_t>(level));
}

std::shared_ptr<const Tile> Network::tile(int level, std::int64_t tx, std::int64_t tz) {
    return cache_->get(TileKey{noise_.seed, level, tx, tz}, [&] {
        // With the node's own beds, also for a far level's widened copy (drainage_far.cpp): a
        // tile is the same whoever builds it.
        struct Restore {
            Params& p;
            const Params kept;
            ~Restore() { p = kept; }
        } restore{p_, p_};
        p_ = p_.own_beds();
        return std::make_shared<const Tile>(level == 0 ? trunks(tx, tz) : tributaries(level, tx, tz));
    });
}

double Network::lowest_valley(const glm::dvec2& at, int below, double ceiling, const Channel** best) {
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

void Network::read(std::size_t slot, const std::vector<glm::dvec2>& at, std::vector<double>& out) const {
    std::vector<double> xs(at.size()), zs(at.size());
    for (std::size_t i = 0; i < at.size(); ++i) xs[i] = at[i].x, zs[i] = at[i].y;
    out.resize(at.size());
    run_columns(program_, noise_, xs.data(), zs.data(), at.size(), node_.in[slot], out.data());
}

// Level 0: each land point links to the lowest of its eight neighbours under the control,
// when that one is lower. A point no neighbour drains into is a river's head.
Tile Network::trunks(std::int64_t tx, std::int64_t tz) const {
    constexpr int kSide = kTile + 2 * kRing;
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
            bend_channel(p_, bend_hash(0, c.ci, c.cj), c);
            tile.channels.push_back(c);
        }
    if (p_.trunk_carve > 0.0 && p_.water_levels > 0) bow_trunks(*this, tile.channels);
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
                double t = 0.0;
                const double d = channel_distance(ch, q, &t);
                if (d < best) best = d, nearest = &ch, best_t = t;
            });
        }
        // A channel stays within its window (kReach cells of its source, the window reaching
        // kWindow), so the points near its whole length see it.
        const double reach = kReach * p_.cell(level) / std::sqrt(1.0 + p_.junction * p_.junction);
        if (!nearest || !(best > 1e-6 * p_.cell(level)) || best > reach) continue;
        // The junction, moved downstream so the tributary meets at an angle.
        double t = std::min(1.0, best_t + p_.junction * best * std::sqrt(nearest->inv_len2));
        if (p_.vary > 0.0) t = natural_junction(*nearest, q, t, p_.junction);  // at that angle to the bent line
        const glm::dvec2 r = channel_point(*nearest, t);
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
        bend_channel(p_, bend_hash(level, ch.ci, ch.cj), ch);
        tile.channels.push_back(ch);
    }
    if (p_.carve > 0.0 && level < p_.water_levels) carve_channels(*this, level, tile.channels);
    return tile;
}

}  // namespace isoterra::graph::drainage

namespace isoterra::graph {

std::shared_ptr<NodeCache> make_drainage_cache() { return std::make_shared<drainage::DrainageCache>(); }

double drainage_reads_per_sample(const Node& node) {
    using namespace drainage;
    // A sample sees kWindow cells around its own at each level, and a finer tile's points
    // see as far at every coarser level: all within 3 x 3 tiles of each level. A trunk tile
    // reads the control at its cells and its ring's, a finer tile control and relief at its
    // cells.
    const double trunk = (kTile + 2 * kRing) * (kTile + 2 * kRing), finer = 2.0 * kTile * kTile;
    return 9.0 * (trunk + (Params(node).levels - 1) * finer);
}

std::vector<GraphChannel> drainage_channels(const Program& program, const NoiseSet& noise, const Node& node, const glm::dvec2& lo,
                                            const glm::dvec2& hi) {
    using namespace drainage;
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
                        out.push_back({ch.q, ch.r, std::max(ch.zq, p.sea_level), std::max(ch.zr, p.sea_level), k, p.levels - k, ch.bend,
                                       ch.waves, ch.wander.vary, ch.wander.head, ch.wander.coin, ch.gamma});
    }
    return out;
}

}  // namespace isoterra::graph
