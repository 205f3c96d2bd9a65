// drainage, a group's lanes eight at a time: each candidate channel's lift and valley worked
// out for the eight lanes together (SIMD), the lowest kept per lane, then each lane's soft
// minimum of the slope. The same operations in the same order as one lane at a time
// (Network::valley, window_lift), so the same bits on every path; a lane that has passed
// its last candidate only stops counting.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../../../simd/target_clones.hpp"
#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {
namespace {

// Eight lanes fill an AVX-512 register; WebAssembly's SIMD128 holds two, and wider vectors
// there cost more than they save (lanes that are done still work out their valleys).
#if defined(__EMSCRIPTEN__)
constexpr int kWidth = 2;
#else
constexpr int kWidth = 8;
#endif
using Doubles = double __attribute__((vector_size(8 * kWidth)));
using Mask = std::int64_t __attribute__((vector_size(8 * kWidth)));

#define ISOTERRA_LANES inline __attribute__((always_inline))

ISOTERRA_LANES bool any(Mask m) {
    for (int i = 0; i < kWidth; ++i)
        if (m[i]) return true;
    return false;
}
ISOTERRA_LANES Doubles splat(double v) {
    Doubles out;
    for (int i = 0; i < kWidth; ++i) out[i] = v;  // -0.0 kept, as a scalar keeps it
    return out;
}
ISOTERRA_LANES Doubles root(Doubles v) {
    for (int i = 0; i < kWidth; ++i) v[i] = std::sqrt(v[i]);
    return v;
}
// std::clamp, std::max and std::min with their comparisons, so NaN passes as they pass it.
ISOTERRA_LANES Doubles clamped(Doubles v, double lo, double hi) { return v < lo ? splat(lo) : hi < v ? splat(hi) : v; }
ISOTERRA_LANES Doubles smooth(double from, double to, Doubles v) {
    Doubles t = (v - from) / (to - from);
    t = t < 0.0 ? splat(0.0) : t;
    t = 1.0 < t ? splat(1.0) : t;
    return t * t * (3.0 - 2.0 * t);
}
// power(u, gamma) lane by lane, by multiplication for the whole exponents as there.
ISOTERRA_LANES Doubles powers(Doubles u, double gamma) {
    // clang-format off
    switch (static_cast<int>(gamma)) {
        case 1: if (gamma == 1.0) return u; break;
        case 2: if (gamma == 2.0) return u * u; break;
        case 3: if (gamma == 3.0) return u * u * u; break;
        case 4: if (gamma == 4.0) { const Doubles u2 = u * u; return u2 * u2; } break;
        default: break;
    }
    // clang-format on
    for (int i = 0; i < kWidth; ++i) u[i] = std::pow(u[i], gamma);
    return u;
}

struct Points {
    Doubles x, z;
};

// window_lift at eight points: the lift (infinite outside the window) and its gradient.
ISOTERRA_LANES Doubles lifts(std::int64_t ci, std::int64_t cj, double cell, double rise, const Points& at, Points& gradient) {
    const double x0 = static_cast<double>(ci - kWindow) * cell, x1 = static_cast<double>(ci + kWindow + 1) * cell;
    const double z0 = static_cast<double>(cj - kWindow) * cell, z1 = static_cast<double>(cj + kWindow + 1) * cell;
    const double fade = kFade * cell;
    const auto axis = [&](Doubles v, double lo, double hi, Doubles& slope) {
        const Mask low = v - lo < hi - v;
        const Doubles e = (low ? v - lo : hi - v) / fade;
        const Mask one = e >= 1.0, zero = !(e > 0.0);
        slope = (one | zero) ? splat(0.0) : 6.0 * e * (1.0 - e) / fade * (low ? splat(1.0) : splat(-1.0));
        return one ? splat(1.0) : zero ? splat(0.0) : e * e * (3.0 - 2.0 * e);
    };
    Doubles sx, sz;
    const Doubles fx = axis(at.x, x0, x1, sx), fz = axis(at.z, z0, z1, sz);
    const Mask whole = (fx == 1.0) & (fz == 1.0), outside = (fx == 0.0) | (fz == 0.0), fading = !(whole | outside);
    const Doubles inside = fx * fz;
    const Doubles lift = kLift * rise * (1.0 - inside) * (1.0 - inside) / inside;
    const Doubles scale = kLift * rise * (1.0 - 1.0 / (inside * inside));
    gradient.x = fading ? scale * (sx * fz) : splat(0.0);
    gradient.z = fading ? scale * (fx * sz) : splat(0.0);
    return whole ? splat(0.0) : outside ? splat(INFINITY) : lift;
}

struct Valleys {
    Doubles ground, water, distance;
    Points gradient;
};

// Network::valley at eight points.
ISOTERRA_LANES Valleys valleys(const Params& p, const Channel& c, const Points& at, bool slope, bool smooth_ends) {
    const double qrx = c.r.x - c.q.x, qrz = c.r.y - c.q.y;
    const Doubles along = ((at.x - c.q.x) * qrx + (at.z - c.q.y) * qrz) * c.inv_len2;
    const Doubles t = clamped(along, 0.0, 1.0);
    const Doubles offx = at.x - (c.q.x + t * qrx), offz = at.z - (c.q.y + t * qrz);
    const Doubles d = root(offx * offx + offz * offz);
    const Doubles u = 1.0 - t;
    const Doubles level = c.zr + (c.zq - c.zr) * powers(u, c.gamma);
    const Doubles water = level < p.sea_level ? splat(p.sea_level) : level;
    const Params::Level& lv = p.level[c.level];
    const double f = lv.floor;
    const Mask flat = d <= f, easing = d < 2.0 * f;
    const Doubles beyond = flat ? splat(0.0) : easing ? (d - f) * (d - f) / (2.0 * f) : d - 1.5 * f;
    Doubles ground = water + lv.slope * beyond;
    const Mask short_taper = 4.0 * t < 1.0;
    const Doubles taper = c.taper ? (short_taper ? 4.0 * t : splat(1.0)) : splat(1.0);
    const Mask in_bed = d < lv.bed_width;
    const Doubles b = in_bed ? 1.0 - (d / lv.bed_width) * (d / lv.bed_width) : splat(0.0);
    const Doubles across = b * b;
    ground = ground - lv.bed_depth * taper * across;
    Valleys v{ground, water, d, {splat(0.0), splat(0.0)}};
    if (!slope) return v;
    const Mask inner = (along > 0.0) & (along < 1.0);
    const Doubles dtx = inner ? splat(qrx * c.inv_len2) : splat(0.0), dtz = inner ? splat(qrz * c.inv_len2) : splat(0.0);
    const Mask away = d > 0.0;
    const Doubles ddx = away ? offx / d : splat(0.0), ddz = away ? offz / d : splat(0.0);
    const Doubles dwater = level >= p.sea_level ? -(c.zq - c.zr) * c.gamma * powers(u, c.gamma - 1.0) : splat(0.0);
    const Doubles drise = flat ? splat(0.0) : easing ? (d - f) / f : splat(1.0);
    const Doubles dacross = in_bed ? -4.0 * b * d / (lv.bed_width * lv.bed_width) : splat(0.0);
    const Doubles dtaper = c.taper ? (short_taper ? splat(4.0) : splat(0.0)) : splat(0.0);
    const Doubles rise = lv.slope * drise, bed_along = dtaper * across, bed_across = taper * dacross;
    v.gradient.x = dwater * dtx + rise * ddx - lv.bed_depth * (bed_across * ddx + bed_along * dtx);
    v.gradient.z = dwater * dtz + rise * ddz - lv.bed_depth * (bed_across * ddz + bed_along * dtz);
    if (smooth_ends) {
        const Doubles ease = smooth(-0.05, 0.05, along) * (1.0 - smooth(0.95, 1.05, along));
        const double root_inv = std::sqrt(c.inv_len2);
        const Doubles fall = dwater * root_inv;
        v.gradient.x = v.gradient.x - dwater * dtx + ease * fall * (qrx * root_inv);
        v.gradient.z = v.gradient.z - dwater * dtz + ease * fall * (qrz * root_inv);
    }
    return v;
}

// A fixed order of channels (for ties): by level, then by source cell.
bool earlier(const Channel& a, const Channel& b) {
    if (a.level != b.level) return a.level < b.level;
    return a.cj != b.cj ? a.cj < b.cj : a.ci < b.ci;
}

// One valley that came within the band of a lane's lowest so far, for the soft minimum
// (plain arrays: a container need not align them as the vectors).
struct Near {
    double ground[kWidth], x[kWidth], z[kWidth];
    bool kept[kWidth];
};

}  // namespace

ISOTERRA_CLONES_WIDE
void lowest_grounds(const Params& p, const std::vector<Candidate>& candidates, const glm::dvec2* at, const double* envelope,
                    std::size_t count, bool want_slope, double k, double band, LaneGround* out) {
    std::vector<Near> near;
    for (std::size_t first = 0; first < count; first += kWidth) {
        const std::size_t lanes = std::min<std::size_t>(kWidth, count - first);
        Points here{};
        Doubles ground{};
        Mask open{};
        for (std::size_t i = 0; i < lanes; ++i) {
            here.x[i] = at[first + i].x, here.z[i] = at[first + i].y;
            ground[i] = envelope[first + i];
            open[i] = -1;
        }
        const Doubles envelopes = ground;
        const Channel* best[kWidth] = {};
        Valleys best_valley{};
        near.clear();
        for (const Candidate& c : candidates) {
            // Sorted by their lower bounds: a lane whose lowest is below this one's band is done.
            open &= !(splat(c.lowest) > ground + band);
            if (!any(open)) break;
            const Channel& ch = *c.channel;
            Points lift_gradient{splat(0.0), splat(0.0)};
            Doubles lifted = splat(0.0);
            if (!c.unlifted) {
                const double cell = p.cell(ch.level);
                lifted = lifts(ch.ci, ch.cj, cell, p.slope_at(ch.level) * cell, here, lift_gradient);
            }
            const Mask seen = open & (lifted != INFINITY);
            if (!any(seen)) continue;
            Valleys v = valleys(p, ch, here, want_slope, k > 0.0);
            v.ground = v.ground + lifted;
            const Mask kept = seen & !(v.ground > ground + band);
            if (!any(kept)) continue;
            v.gradient.x = v.gradient.x + lift_gradient.x;
            v.gradient.z = v.gradient.z + lift_gradient.z;
            Near& n = near.emplace_back();
            for (int i = 0; i < kWidth; ++i)
                n.ground[i] = v.ground[i], n.x[i] = v.gradient.x[i], n.z[i] = v.gradient.z[i], n.kept[i] = kept[i];
            // Ties go to the lower level, then the lower source cell: the same in any group.
            Mask lower = kept & (v.ground < ground);
            const Mask tie = kept & (v.ground == ground);
            if (any(tie))
                for (int i = 0; i < kWidth; ++i) lower[i] |= tie[i] && best[i] && earlier(ch, *best[i]) ? -1 : 0;
            if (!any(lower)) continue;
            ground = lower ? v.ground : ground;
            best_valley.water = lower ? v.water : best_valley.water;
            best_valley.distance = lower ? v.distance : best_valley.distance;
            best_valley.gradient.x = lower ? v.gradient.x : best_valley.gradient.x;
            best_valley.gradient.z = lower ? v.gradient.z : best_valley.gradient.z;
            for (int i = 0; i < kWidth; ++i)
                if (lower[i]) best[i] = &ch;
        }
        for (std::size_t i = 0; i < lanes; ++i) {
            LaneGround& o = out[first + i];
            o.ground = ground[i];
            o.best = best[i];
            o.best_valley = {
                ground[i], best_valley.water[i], best_valley.distance[i], {best_valley.gradient.x[i], best_valley.gradient.z[i]}};
            o.gradient = best[i] ? o.best_valley.gradient : glm::dvec2(0.0);
            if (!(k > 0.0 && std::isfinite(o.ground))) continue;
            // The soft minimum's weights, valley by valley in the order they were met.
            const auto weight = [&](double g) {
                const double x = (g - o.ground) / k;
                return x >= kSoftBand ? 0.0 : std::exp(-x) * (1.0 - smoothstep(kSoftFade, kSoftBand, x));
            };
            double weights = weight(envelopes[i]);
            glm::dvec2 weighted(0.0);
            for (const Near& n : near) {
                if (!n.kept[i]) continue;
                const double w = weight(n.ground[i]);
                weights += w;
                weighted += w * glm::dvec2(n.x[i], n.z[i]);
            }
            o.gradient = weighted / weights;
        }
    }
}

}  // namespace isoterra::graph::drainage
