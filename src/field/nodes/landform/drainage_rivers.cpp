// drainage with water_reach_m: the water by the rivers near a point and its distance beyond
// the nearest bank, both continuous functions of the position (issue 53). Without the
// reach the water port is a river's level in its bed and -10,000 beside it, whose bilinear
// blend on a grid falls within one grid cell: the wet edge and the sand by it ran along the
// grid's lines. With spring_slope a steep head is a dry gully: its water springs, sinking
// under its bed upstream of where its profile's fall eases to spring_slope.
#include <algorithm>
#include <cmath>
#include <vector>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

namespace {
// Beyond a bed's edge its river's water sinks by kSink metres over the reach (dry past twice
// the reach), so no edge of the water shows; where another valley cuts more than kUndercut
// metres below the bed, the river's water sinks under that ground instead of standing over it.
constexpr double kSink = 20.0, kUndercut = 2.0;
// A spring's water rises from kSink under its bed to its level over this many bed widths.
constexpr double kSpringRise = 4.0;
}  // namespace

double wet_start(const Params& p, const Channel& c) {
    if (!(p.spring_slope > 0.0) || !c.taper) return 0.0;
    // The profile zr + (zq - zr) u^gamma falls (zq - zr) gamma u^(gamma - 1) a length, most
    // steeply at its source (u = 1) for gamma > 1.
    const double steepest = (c.zq - c.zr) * c.gamma * std::sqrt(c.inv_len2);
    if (!(steepest > p.spring_slope)) return 0.0;
    if (c.gamma <= 1.0) return 1.0;
    return 1.0 - std::pow(p.spring_slope / steepest, 1.0 / (c.gamma - 1.0));
}

// Each river's level at its closest point, sunk as above, the highest of them; distances are
// lifted over a window's fade as the distance port's are, so a river leaves smoothly.
RiverWater river_water(const Network& net, const std::vector<const Channel*>& rivers, const glm::dvec2& at, double ground) {
    const Params& p = net.params();
    RiverWater out;
    out.beyond = 2.0 * p.reach;
    for (const Channel* ch : rivers) {
        const double cell = p.cell(ch->level);
        const double lifted = window_lift(ch->ci, ch->cj, cell, cell, at);
        if (lifted == INFINITY) continue;
        const Valley v = net.valley(*ch, at);
        const double e = std::max(0.0, v.distance + lifted - v.width);
        if (!(e < 2.0 * p.reach)) continue;
        out.beyond = std::min(out.beyond, e);
        const double bed = p.bed_depth_at(ch->level), under = v.water - bed - ground;
        double sink = std::max(kSink * smoothstep(0.0, p.reach, e), smoothstep(0.0, kUndercut, under) * (under + bed + kSink));
        if (p.spring_slope > 0.0) {
            // Dry above its spring (its distance beyond the bank still counts: the ground is the same).
            const double start = wet_start(p, *ch);
            const double rise = kSpringRise * std::ldexp(p.bed_width0, -ch->level) * std::sqrt(ch->inv_len2);
            if (start > 0.0) sink = std::max(sink, (1.0 - smoothstep(start, start + rise, v.share)) * (bed + kSink));
        }
        out.water = std::max(out.water, v.water - sink);
    }
    return out;
}

double river_water_lowest(const Params& p, double lowest) {
    return lowest - (p.reach > 0.0 ? kSink + (p.spring_slope > 0.0 ? p.bed_depth0 : 0.0) : 0.0);
}

}  // namespace isoterra::graph::drainage
