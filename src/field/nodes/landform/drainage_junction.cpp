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

double natural_junction(const Channel& c, const glm::dvec2& q, double t0, double junction) {
    if (c.bend == 0.0) return t0;
    const glm::dvec2 qr = c.r - c.q;
    const glm::dvec2 across = std::sqrt(c.inv_len2) * glm::dvec2(-qr.y, qr.x);
    // Within kJunctionSlack of the angle a = atan(1 / junction): the cosine of the angle
    // between the tributary's arrival and c's flow within [cos(a + slack), cos(a - slack)],
    // from sqrt and products alone (no acos nor atan2, whose last bits differ between the
    // program's libm and the page's).
    const double norm = std::sqrt(1.0 + junction * junction), ca = junction / norm, sa = 1.0 / norm;
    constexpr double kCosSlack = 0.9659256678396477, kSinSlack = 0.2588196364430847;  // of kJunctionSlack
    const double lo = sa * kCosSlack + ca * kSinSlack < 0.0 ? -1.0 : ca * kCosSlack - sa * kSinSlack;
    const double hi = sa * kCosSlack - ca * kSinSlack < 0.0 ? 1.0 : ca * kCosSlack + sa * kSinSlack;
    // Whether the tributary from q arriving at share t of c does so within the slack.
    const auto meets = [&](double t) {
        double slope = 0.0;
        meander_offset(c, t, &slope);
        const glm::dvec2 arrive = channel_point(c, t) - q, flow = qr + slope * across;
        const double cosine = glm::dot(arrive, flow) / (glm::length(arrive) * glm::length(flow));
        return cosine >= lo && cosine <= hi;
    };
    if (meets(t0)) return t0;
    const double step = 1.0 / (8.0 * c.waves);  // a sixteenth of a wave
    for (int k = 1; k <= 32; ++k)
        for (const double t : {t0 + k * step, t0 - k * step})
            if (t >= 0.0 && t <= 1.0 && meets(t)) return t;
    return t0;
}

}  // namespace isoterra::graph::drainage
