// drainage's meanders (issue 53): each channel of every level bends across its line as
// bend sin(pi waves t), a whole number of half-waves of about meander_cells of its level's
// cells, so it leaves its source and meets the channel below on its line; an ease over the
// first and last quarter-wave levels the bends there, so consecutive channels join without a
// kink and a tributary meets its junction along its own line (its angle the network's). The
// sharpest turn, bend pi waves / length, is the node's `meander`: a sine of slope a has
// sinuosity about 1 + a^2 / 4 for small a. With `meander_vary` the sine's phase and amplitude
// wander along each channel and its wavelength and steepness differ between channels (all
// from the channel's coin), a head's bends grow from a straight source and the dry levels'
// gullies bend gently: bends that read as a river's, not one sine's, and no zigzag where
// the finest valleys start.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "drainage_parts.hpp"

namespace isoterra::graph::drainage {

namespace {
constexpr double kDryBend = 0.3;  // meander_vary: the dry levels' bends, as a share of the rivers'

// The k-th of a channel's random numbers in [0, 1) (cell_random gives two a hash; a channel's
// wander takes more): splitmix64 of the coin and k.
double coin_at(std::uint64_t coin, int k) {
    std::uint64_t z = coin + 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(k + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

// sin and cos of x with the same bits on every platform: with meander_vary the page's
// (emscripten's libm) and the program's (glibc's) differed in the last bit. x less the
// nearest multiple of pi/2 (pi/2 in three parts, Cody-Waite), then Taylor polynomials on
// [-pi/4, pi/4] (error under 1e-16), of plain IEEE operations (no contraction).
void sin_cos(double x, double* sine, double* cosine) {
    constexpr double kPio2[3] = {1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624879595063154e-21};
    const double k = std::round(x * 0.63661977236758134308);
    const double r = ((x - k * kPio2[0]) - k * kPio2[1]) - k * kPio2[2], r2 = r * r;
    double s = 0.0, c = 0.0;  // Horner from the highest term: r^15 / 15! and r^16 / 16!
    for (int n = 15; n >= 3; n -= 2) s = (s + 1.0) * -r2 / (n * (n - 1));
    for (int n = 16; n >= 2; n -= 2) c = (c + 1.0) * -r2 / (n * (n - 1));
    s = r + r * s, c = 1.0 + c;
    const auto quadrant = static_cast<int>(static_cast<std::int64_t>(std::fmod(k, 4.0) + 4.0) % 4);
    const double sq[4] = {s, c, -s, -c}, cq[4] = {c, -s, -c, s};
    *sine = sq[quadrant], *cosine = cq[quadrant];
}
double same_sin(double x) {
    double s = 0.0, c = 0.0;
    sin_cos(x, &s, &c);
    return s;
}

// e^x for |x| <= 1 with the same bits on every platform (as sin_cos): Taylor to x^17 / 17!.
double same_exp(double x) {
    double e = 1.0;
    for (int n = 17; n >= 1; --n) e = 1.0 + x * e / n;
    return e;
}

// The ease at share x of a quarter-wave from an end, and its derivative in x.
double ease(double x, double* slope) {
    if (x >= 1.0) return *slope = 0.0, 1.0;
    if (!(x > 0.0)) return *slope = 0.0, 0.0;
    *slope = 6.0 * x * (1.0 - x);
    return x * x * (3.0 - 2.0 * x);
}

// The wander's phase (in half-waves of pi) and amplitude factor at share t, with their
// derivatives in t (see Wander).
void wander_at(const Wander& w, double waves, double t, double* phase, double* dphase, double* amp, double* damp) {
    constexpr double kTau = 2.0 * std::numbers::pi;
    double drift = t, rate = 1.0, drate = 0.0;
    for (int m = 0; m < 2; ++m) {
        double sa = 0.0, ca = 0.0;
        sin_cos(kTau * w.warp_k[m] * t + w.warp_phase[m], &sa, &ca);
        drift += w.warp[m] * (sa - same_sin(w.warp_phase[m])) / (kTau * w.warp_k[m]);
        rate += w.warp[m] * ca;
        drate -= w.warp[m] * kTau * w.warp_k[m] * sa;
    }
    *phase = std::numbers::pi * waves * drift;
    *dphase = std::numbers::pi * waves * rate;
    double sb = 0.0, cb = 0.0;
    sin_cos(kTau * w.swell_k * t + w.swell_phase, &sb, &cb);
    const double swell = 1.0 + w.swell * sb, dswell = w.swell * kTau * w.swell_k * cb;
    // A head grows its bends from nothing at its source, as its bed does from a spring.
    double dgrow = 0.0;
    const double grow = w.head > 0.0 ? ease(t / w.head, &dgrow) : 1.0;
    dgrow = w.head > 0.0 ? dgrow / w.head : 0.0;
    *amp = grow * swell / rate;
    *damp = (dgrow * swell + grow * dswell) / rate - grow * swell * drate / (rate * rate);
}

}  // namespace

double meander_offset(const Channel& c, double t, double* slope) {
    if (c.bend == 0.0) return *slope = 0.0, 0.0;
    const double quarter = 0.25 / c.waves;  // an eighth of a wave: the share of the channel eased
    double ds0 = 0.0, ds1 = 0.0;
    const double e0 = ease(t / quarter, &ds0), e1 = ease((1.0 - t) / quarter, &ds1);
    const double e = e0 * e1, de = (ds0 * e1 - e0 * ds1) / quarter;
    if (c.wander.vary > 0.0) {
        double phase = 0.0, dphase = 0.0, amp = 0.0, damp = 0.0;
        wander_at(c.wander, c.waves, t, &phase, &dphase, &amp, &damp);
        double s = 0.0, cosine = 0.0;
        sin_cos(phase, &s, &cosine);
        *slope = c.bend * (damp * s * e + amp * dphase * cosine * e + amp * s * de);
        return c.bend * amp * s * e;
    }
    const double phase = std::numbers::pi * c.waves * t;
    const double s = std::sin(phase);
    *slope = c.bend * (std::numbers::pi * c.waves * std::cos(phase) * e + s * de);
    return c.bend * s * e;
}

double most_offset(const Channel& c) {
    // A plain sine: |bend sin e| <= |bend|. Wandering: amp = grow swell / rate is at most
    // (1 + swell) / (1 - |warp0| - |warp1|) = widest; 1e-12 over it for the rounding of amp.
    const double most = std::fabs(c.bend);
    return c.wander.vary > 0.0 ? most * c.wander.widest * (1.0 + 1e-12) : most;
}

double felt_offset(const Channel& c, double t, double s, double* dt, double* ds) {
    *dt = *ds = 0.0;
    if (c.bend == 0.0) return 0.0;
    const double reach = std::abs(s), bend = std::abs(c.bend) * c.wander.widest;
    const double wavelength = 2.0 * c.wander.longest / (c.waves * std::sqrt(c.inv_len2));
    const double r0 = 2.0 * bend, r1 = 4.0 * bend + 0.5 * wavelength;
    if (reach >= r1) return 0.0;
    double slope = 0.0;
    const double m = meander_offset(c, t, &slope);
    if (reach <= r0) return *dt = slope, m;
    // 1 - smoothstep(r0, r1, |s|): its slope less than 0.75 / the bend, so the distance
    // across the line still grows with |s| and the valley sides rise without a fold.
    const double x = (reach - r0) / (r1 - r0);
    const double fade = 1.0 - x * x * (3.0 - 2.0 * x);
    const double dfade = -6.0 * x * (1.0 - x) / (r1 - r0) * (s < 0.0 ? -1.0 : 1.0);
    *dt = slope * fade;
    *ds = m * dfade;
    return m * fade;
}

glm::dvec2 channel_point(const Channel& c, double t) {
    const glm::dvec2 qr = c.r - c.q;
    double slope = 0.0;
    const double offset = meander_offset(c, t, &slope);
    return c.q + t * qr + (offset == 0.0 ? glm::dvec2(0.0) : offset * std::sqrt(c.inv_len2) * glm::dvec2(-qr.y, qr.x));
}

double channel_distance(const Channel& c, const glm::dvec2& at, double* share) {
    const glm::dvec2 qr = c.r - c.q;
    const double t = std::clamp(glm::dot(at - c.q, qr) * c.inv_len2, 0.0, 1.0);
    if (share) *share = t;
    // Straight: the segment's point, not channel_point's (its call cost 5 % of a tile's build).
    if (c.bend == 0.0) return glm::length(at - (c.q + t * qr));
    const glm::dvec2 across = std::sqrt(c.inv_len2) * glm::dvec2(-qr.y, qr.x);
    const glm::dvec2 on_line = c.q + t * qr;
    double dt = 0.0, ds = 0.0;
    return glm::length(at - on_line - felt_offset(c, t, glm::dot(at - on_line, across), &dt, &ds) * across);
}

void bend_channel(const Params& p, std::uint64_t hash, Channel& c) {
    if (!(p.meander > 0.0) || !(c.inv_len2 > 0.0)) return;
    const double length = 1.0 / std::sqrt(c.inv_len2);
    double half_wave = 0.5 * p.meander_cells * p.cell(c.level), slope = p.meander, head = 0.0;
    if (p.vary > 0.0) {
        // Each channel its own wavelength (0.7-1.4x) and steepness (0.8-1.2x at vary 1); the
        // dry levels' gullies bend gently (real ones run down the slope) and every head's
        // bends grow from a straight source: no short zigzag where the finest valleys start.
        half_wave *= same_exp(p.vary * 0.35 * (2.0 * coin_at(hash, 3) - 1.0));
        slope *= 1.0 + p.vary * 0.2 * (2.0 * coin_at(hash, 4) - 1.0);
        const bool dry = c.level >= p.water_levels;
        if (dry) slope *= kDryBend;
        if (c.taper) head = dry ? 0.5 : std::min(0.5, 4.0 * half_wave / length);
    }
    c.waves = std::max(1.0, std::round(length / half_wave));
    // Which side it bends to first: the channel's own coin.
    const double side = cell_random(hash, 2) < 0.5 ? -1.0 : 1.0;
    c.bend = side * slope * length / (std::numbers::pi * c.waves);
    if (p.vary > 0.0) shape_bends(p.vary, hash, head, c);
}

void shape_bends(double vary, std::uint64_t coin, double head, Channel& c) {
    constexpr double kTau = 2.0 * std::numbers::pi;
    Wander& w = c.wander;
    w.vary = vary, w.head = head, w.coin = coin;
    const double n = c.waves;  // half-waves
    // The wavelength wanders slowly (a wave of it every 2-4 bends' wavelengths) and quickly
    // (every 1-1.5); the amplitude swells every 1.5-3. Whole waves of each over the channel,
    // so it still ends on its line.
    w.warp_k[0] = std::max(1.0, std::round(n / (4.0 + 4.0 * coin_at(coin, 5))));
    w.warp_k[1] = std::max(1.0, std::round(n / (2.0 + 1.0 * coin_at(coin, 6))));
    w.warp[0] = vary * 0.3 * (coin_at(coin, 7) < 0.5 ? -1.0 : 1.0);
    w.warp[1] = vary * 0.2 * (coin_at(coin, 8) < 0.5 ? -1.0 : 1.0);
    w.warp_phase[0] = kTau * coin_at(coin, 9), w.warp_phase[1] = kTau * coin_at(coin, 10);
    w.swell = vary * 0.35;
    w.swell_k = std::max(1.0, std::round(n / (3.0 + 3.0 * coin_at(coin, 11))));
    w.swell_phase = kTau * coin_at(coin, 12);
    const double slowest = 1.0 - std::abs(w.warp[0]) - std::abs(w.warp[1]);
    w.longest = 1.0 / slowest;
    w.widest = (1.0 + w.swell) / slowest;
}

}  // namespace isoterra::graph::drainage

namespace isoterra {

glm::dvec2 GraphChannel::point(double t) const {
    graph::drainage::Channel c;
    c.q = from, c.r = to;
    c.inv_len2 = 1.0 / glm::dot(to - from, to - from);
    c.bend = bend, c.waves = waves;
    if (vary > 0.0) graph::drainage::shape_bends(vary, coin, head, c);
    return graph::drainage::channel_point(c, t);
}

}  // namespace isoterra
