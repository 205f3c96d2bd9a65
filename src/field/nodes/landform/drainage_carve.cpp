// drainage with carve_m: a river carved into the ground it runs over (issue 53). A tributary
// that carries water starts from the ground the coarser levels make at its source and runs
// straight to its junction; where that line crosses a hillside obliquely, or its source sits
// on a crest, the ground beside it falls away below its water and the river stands on a
// ledge. Here each such channel's profile, z_r + (z_q - z_r) u^gamma, is lowered (its source
// level z_q, never below z_r) until its water lies below the coarser ground sampled along
// its line and out to carve_m on both sides: the channel cuts its own valley into the slope.
#include <algorithm>
#include <cmath>
#include <vector>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

namespace {
constexpr int kAlong = 8;   // samples along a channel, from its source (t = 0) on
constexpr int kAcross = 3;  // on each side, at carve_m / kAcross steps (and on the line itself)
}  // namespace

void carve_channels(Network& net, int level, std::vector<Channel>& channels) {
    const Params& p = net.params();
    constexpr int kPerChannel = kAlong * (2 * kAcross + 1);
    std::vector<glm::dvec2> at;
    at.reserve(channels.size() * kPerChannel);
    for (const Channel& ch : channels) {
        const glm::dvec2 qr = ch.r - ch.q;
        const glm::dvec2 across = glm::dvec2(-qr.y, qr.x) * std::sqrt(ch.inv_len2);
        for (int i = 0; i < kAlong; ++i) {
            const glm::dvec2 on = ch.q + (static_cast<double>(i) / kAlong) * qr;
            for (int j = -kAcross; j <= kAcross; ++j) at.push_back(on + (p.carve * j / kAcross) * across);
        }
    }
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
                const std::size_t s = c * kPerChannel + static_cast<std::size_t>(i) * (2 * kAcross + 1) + j;
                const double ground = net.lowest_valley(at[s], level, control[s] + relief[s], nullptr);
                // The highest source level whose water here stays at or below that ground.
                if (std::isfinite(ground)) zq = std::min(zq, ch.zr + std::max(0.0, ground - ch.zr) / share);
            }
        }
        ch.zq = std::max(zq, ch.zr);
    }
}

}  // namespace isoterra::graph::drainage
