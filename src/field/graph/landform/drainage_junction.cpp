// drainage's junctions on a bent channel (meander_vary, issue 53). The network puts a
// tributary's junction `junction` of its distance downstream of the nearest point, an angle
// of atan(1 / junction) to the channel's straight line; on a channel bending up to 56
// degrees either way that angle to the water it meets spans 7-120 degrees, and a tributary
// arriving against the flow reads wrong from above. So the junction slides along the bent
// line, to the nearest place (in sixteenths of a wave, two waves either way at most) where
// the tributary arrives within kJunctionSlack of the network's angle to the channel's own
// direction there; where none is, it stays.
#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

double natural_junction(const Channel& c, const glm::dvec2& q, double t0, double angle) {
    if (c.bend == 0.0) return t0;
    const glm::dvec2 qr = c.r - c.q;
    const glm::dvec2 across = std::sqrt(c.inv_len2) * glm::dvec2(-qr.y, qr.x);
    // How far the tributary from q arriving at share t of c turns from c's direction there.
    const auto off_angle = [&](double t) {
        double slope = 0.0;
        meander_offset(c, t, &slope);
        const glm::dvec2 arrive = channel_point(c, t) - q, flow = qr + slope * across;
        const double cosine = glm::dot(arrive, flow) / (glm::length(arrive) * glm::length(flow));
        return std::abs(std::acos(std::clamp(cosine, -1.0, 1.0)) - angle);
    };
    if (off_angle(t0) <= kJunctionSlack) return t0;
    const double step = 1.0 / (8.0 * c.waves);  // a sixteenth of a wave
    for (int k = 1; k <= 32; ++k)
        for (const double t : {t0 + k * step, t0 - k * step})
            if (t >= 0.0 && t <= 1.0 && off_angle(t) <= kJunctionSlack) return t;
    return t0;
}

}  // namespace isoterra::graph::drainage
