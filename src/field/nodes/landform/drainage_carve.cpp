// drainage with carve_m: a river carved into the ground it runs over (issue 53). A tributary
// that carries water starts from the ground the coarser levels make at its source and runs
// straight to its junction; where that line crosses a hillside obliquely, or its source sits
// on a crest, the ground beside it falls away below its water and the river stands on a
// ledge. Here each such channel's profile, z_r + (z_q - z_r) u^gamma, is lowered (its source
// level z_q, never below z_r) until its water lies below the coarser ground sampled along
// its line and out to carve_m on both sides: the channel cuts its own valley into the slope.
// With trunk_carve_m the trunks (level 0, straight profiles from one control value to the
// next, kilometres apart) bow instead: their ends' levels are their neighbours' too, so gamma
// rises (1 to kMostBow) until the water lies below control + relief along and beside the line,
// e.g. where the coast comes sooner along it than its straight fall reaches the sea.
#include <algorithm>
#include <cmath>
#include <vector>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

namespace {
constexpr int kAlong = 8;   // samples along a channel, from its source (t = 0) on
constexpr int kAcross = 3;  // on each side, at `beside` / kAcross steps (and on the line itself)
constexpr int kPerChannel = kAlong * (2 * kAcross + 1);

// Where a channel's water is checked: kAlong shares of its line from its source, each on the
// line and kAcross steps out to `beside` either side; channel c's samples from c * kPerChannel,
// share i's from i * (2 kAcross + 1).
std::vector<glm::dvec2> carve_samples(const std::vector<Channel>& channels, double beside) {
    std::vector<glm::dvec2> at;
    at.reserve(channels.size() * kPerChannel);
    for (const Channel& ch : channels) {
        const glm::dvec2 qr = ch.r - ch.q;
        const glm::dvec2 across = glm::dvec2(-qr.y, qr.x) * std::sqrt(ch.inv_len2);
        for (int i = 0; i < kAlong; ++i) {
            const glm::dvec2 on = ch.q + (static_cast<double>(i) / kAlong) * qr;
            for (int j = -kAcross; j <= kAcross; ++j) at.push_back(on + (beside * j / kAcross) * across);
        }
    }
    return at;
}

std::size_t sample_index(std::size_t c, int i, int j) { return c * kPerChannel + static_cast<std::size_t>(i) * (2 * kAcross + 1) + j; }
}  // namespace

void carve_channels(Network& net, int level, std::vector<Channel>& channels) {
    const Params& p = net.params();
    const std::vector<glm::dvec2> at = carve_samples(channels, p.carve);
    std::vector<double> control, relief;
    net.read(kInControl, at, control);
    net.read(kInRelief, at, relief);
    for (std::size_t c = 0; c < channels.size(); ++c) {
        Channel& ch = channels[c];
        double zq = ch.zq;
        for (int i = 0; i < kAlong; ++i) {
            const double u = 1.0 - static_cast<double>(i) / kAlong;
            const double share = power(u, ch.gamma);
            for (int j = 0; j < 2 * kAcross + 1; ++j) {
                const std::size_t s = sample_index(c, i, j);
                const double ground = net.lowest_valley(at[s], level, control[s] + relief[s], nullptr);
                // The highest source level whose water here stays at or below that ground.
                if (std::isfinite(ground)) zq = std::min(zq, ch.zr + std::max(0.0, ground - ch.zr) / share);
            }
        }
        ch.zq = std::max(zq, ch.zr);
    }
}

void bow_trunks(const Network& net, std::vector<Channel>& channels) {
    const Params& p = net.params();
    const std::vector<glm::dvec2> at = carve_samples(channels, p.trunk_carve);
    std::vector<double> control, relief;
    net.read(kInControl, at, control);
    net.read(kInRelief, at, relief);
    for (std::size_t c = 0; c < channels.size(); ++c) {
        Channel& ch = channels[c];
        // The least whole gamma whose water stays at or below the ground (the sea's level where
        // that is lower: there the water is the sea) at every sample past the source.
        const auto fits = [&](double gamma) {
            for (int i = 1; i < kAlong; ++i) {
                const double level = ch.zr + (ch.zq - ch.zr) * power(1.0 - static_cast<double>(i) / kAlong, gamma);
                for (int j = 0; j < 2 * kAcross + 1; ++j) {
                    const std::size_t s = sample_index(c, i, j);
                    const double ground = control[s] + relief[s];
                    if (std::isfinite(ground) && level > std::max(ground, p.sea_level)) return false;
                }
            }
            return true;
        };
        double gamma = 1.0;
        while (gamma < kMostBow && !fits(gamma)) gamma += 1.0;
        ch.gamma = gamma;
    }
}

}  // namespace isoterra::graph::drainage
