// dfbm2: derivative-damped fBm (Quilez's "morenoise", as in Elevated). With
// p_0 = (x / scale + offset_x, z / scale + offset_z) and p_{i+1} = L R p_i (R a rotation, so
// octaves do not align): D_i = sum of the noise gradients g_j (in p_j's units) for j <= i,
// v = sum of a_i n_i / (1 + k |D_i|^2). Steep coarse octaves damp the fine ones: smooth
// slopes, detail where the ground is level (peaks, saddles, floors). Its gradient per metre
// is exact, by the chain rule with the noise's Hessians (dD_i/dx = sum of H_j J_j,
// J_j = dp_j/dx = L^j R^j / scale).
#include <algorithm>
#include <array>
#include <cmath>

#include "landform.hpp"

namespace isoterra::graph {
namespace {

// The octave rotation, [[0.8, -0.6], [0.6, 0.8]]: by atan(3/4), about 36.9 degrees.
constexpr double kCos = 0.8, kSin = 0.6;
// The most 2 k |D| / (1 + k |D|^2)^2 reaches, over |D|, is (3 sqrt(3) / 8) sqrt(k).
const double kDampSlope = 3.0 * std::sqrt(3.0) / 8.0;

struct Mat2 {
    double a = 0.0, b = 0.0, c = 0.0, d = 0.0;  // [[a, b], [c, d]]
};

struct Settings {
    double scale, ox, oz, damping;
    FbmShape shape;
    // dp_i/dp_0 = L^i R^i, divided by the scale: dp_i per metre (before a held coordinate's 0).
    std::array<Mat2, 12> per_metre;
};

Settings settings_of(const Node& node) {
    Settings s{node.number[0], node.number[1], node.number[2], node.number[3], node.shape, {}};
    Mat2 m{1.0 / s.scale, 0.0, 0.0, 1.0 / s.scale};
    for (int i = 0; i < s.shape.octaves; ++i) {
        s.per_metre[static_cast<std::size_t>(i)] = m;
        const double l = s.shape.lacunarity;
        m = {l * (kCos * m.a - kSin * m.c), l * (kCos * m.b - kSin * m.d), l * (kSin * m.a + kCos * m.c), l * (kSin * m.b + kCos * m.d)};
    }
    return s;
}

// As run/eval.cpp's noise coordinates: finite, held to +-1e9 (NaN and infinities read 0).
double held(double c) { return std::isfinite(c) ? std::clamp(c, -1e9, 1e9) : 0.0; }

// The most |gradient| of octave i's term a_i n_i / q_i can reach per unit of p_0, for each
// octave: |a_i| (Lip L^i + (3 sqrt(3) / 8) sqrt(k) Hess sum_{j <= i} L^j), with |n| <= 1.
std::array<double, 12> octave_slopes(const Settings& s) {
    std::array<double, 12> slopes{};
    double a = std::fabs(s.shape.amplitude), f = 1.0, reach = 0.0;
    for (int i = 0; i < s.shape.octaves; ++i, a *= s.shape.gain, f *= s.shape.lacunarity) {
        reach += f;
        slopes[static_cast<std::size_t>(i)] =
            a * (Simplex2::kLipschitz * f + kDampSlope * std::sqrt(s.damping) * Simplex2::kHessianBound * reach);
    }
    return slopes;
}

ValueRange coordinate_range(const ValueRange& c, double scale, double offset) {
    if (!std::isfinite(c.lo) || !std::isfinite(c.hi)) return {-1e9, 1e9};
    const double lo = c.lo / scale + offset, hi = c.hi / scale + offset;
    const double slack = (std::max(std::fabs(lo), std::fabs(hi)) + std::fabs(offset)) * 0x1p-48;
    return {std::clamp(lo - slack, -1e9, 1e9), std::clamp(hi + slack, -1e9, 1e9)};
}

// The value's range over a rectangle of p_0, by two rules from the values at its centre.
// (1) Each octave's term changes by at most its slope bound times the reach, and never by
// more than twice its amplitude. (2) Intervals, octave by octave: the noise within its slope
// times the octave's reach, each gradient component within the Hessian bound times it, their
// running sum D, then a n / (1 + k |D|^2) over those ranges: tight where |D| is known to be
// large (the damped fine octaves), which (1) takes at its worst. Where the result is still
// wide, the rectangle is split in four, twice, and the parts' ranges joined (a chunk's sdf
// range 190 m wide on a 1,200 m relief, in 10 us; a third split: 130 m in 37 us).
ValueRange value_over(const Simplex2& noise, const Settings& s, const std::array<double, 12>& slopes, const ValueRange& u,
                      const ValueRange& v, int depth) {
    const double most = s.shape.max_abs();
    double cu = 0.5 * (u.lo + u.hi), cv = 0.5 * (v.lo + v.hi);
    const double reach = std::hypot(std::max(cu - u.lo, u.hi - cu), std::max(cv - v.lo, v.hi - cv));
    const auto square = [](const ValueRange& r) {
        const double a = r.lo * r.lo, b = r.hi * r.hi;
        return r.lo >= 0.0 || r.hi <= 0.0 ? ValueRange{std::min(a, b), std::max(a, b)} : ValueRange{0.0, std::max(a, b)};
    };
    double centre = 0.0, change = 0.0;  // (1)
    double cdu = 0.0, cdv = 0.0;        // D at the centre
    double lo = 0.0, hi = 0.0;          // (2)
    ValueRange du{0.0, 0.0}, dv{0.0, 0.0};
    double a = s.shape.amplitude, f = 1.0;
    for (int i = 0; i < s.shape.octaves; ++i, a *= s.shape.gain, f *= s.shape.lacunarity) {
        const Simplex2::Derivatives d = noise.derivatives(cu, cv);
        cdu += d.dx, cdv += d.dy;
        centre += a * d.value / (1.0 + s.damping * (cdu * cdu + cdv * cdv));
        change += std::min(2.0 * std::fabs(a), slopes[static_cast<std::size_t>(i)] * reach);
        const double dn = Simplex2::kLipschitz * f * reach, dg = Simplex2::kHessianBound * f * reach;
        const ValueRange n{std::max(-1.0, d.value - dn), std::min(1.0, d.value + dn)};
        du = {du.lo + (d.dx - dg), du.hi + (d.dx + dg)}, dv = {dv.lo + (d.dy - dg), dv.hi + (d.dy + dg)};
        const ValueRange size = {square(du).lo + square(dv).lo, square(du).hi + square(dv).hi};
        const double q_lo = 1.0 + s.damping * size.lo, q_hi = 1.0 + s.damping * size.hi;
        const double term_lo = n.lo >= 0.0 ? n.lo / q_hi : n.lo / q_lo, term_hi = n.hi >= 0.0 ? n.hi / q_lo : n.hi / q_hi;
        lo += a >= 0.0 ? a * term_lo : a * term_hi;
        hi += a >= 0.0 ? a * term_hi : a * term_lo;
        const double next_u = s.shape.lacunarity * (kCos * cu - kSin * cv), next_v = s.shape.lacunarity * (kSin * cu + kCos * cv);
        cu = next_u, cv = next_v;
    }
    // The lanes' sums round differently from these: a few ulps of the largest value per octave.
    const double slack = most * 0x1p-40;
    ValueRange r{std::max({centre - change - slack, lo - slack, -most * (1.0 + 0x1p-40)}),
                 std::min({centre + change + slack, hi + slack, most * (1.0 + 0x1p-40)})};
    if (depth < 2 && r.hi - r.lo > 0.05 * most) {
        const double mu = 0.5 * (u.lo + u.hi), mv = 0.5 * (v.lo + v.hi);
        ValueRange joined{INFINITY, -INFINITY};
        for (const ValueRange& pu : {ValueRange{u.lo, mu}, ValueRange{mu, u.hi}})
            for (const ValueRange& pv : {ValueRange{v.lo, mv}, ValueRange{mv, v.hi}}) {
                const ValueRange part = value_over(noise, s, slopes, pu, pv, depth + 1);
                joined = {std::min(joined.lo, part.lo), std::max(joined.hi, part.hi)};
            }
        r = {std::max(r.lo, joined.lo), std::min(r.hi, joined.hi)};
    }
    return r;
}

}  // namespace

void run_dfbm2(const Node& node, const NoiseSet& noise, const Lanes& l) {
    // Octave by octave over blocks of lanes: the noise runs four points at a time, and the
    // sums below are plain loops over arrays, which the compiler vectorises.
    constexpr std::size_t kBlock = 64;
    const Settings s = settings_of(node);
    const double* xs = coordinate(node, l, 0, l.x);
    const double* zs = coordinate(node, l, 1, l.z);
    const double k = s.damping, lacunarity = s.shape.lacunarity;
    double u[kBlock], v[kBlock], ju[kBlock], jv[kBlock], n[6][kBlock];
    double* const columns[6] = {n[0], n[1], n[2], n[3], n[4], n[5]};
    // Per lane: D, dD/d(x, z) (the sum of H_j J_j), the value and its gradient.
    double du[kBlock], dv[kBlock], sa[kBlock], sb[kBlock], sc[kBlock], sd[kBlock], value[kBlock], dx[kBlock], dz[kBlock];
    for (std::size_t start = 0; start < l.count; start += kBlock) {
        const std::size_t m = std::min(kBlock, l.count - start);
        for (std::size_t i = 0; i < m; ++i) {
            const double cu = xs[start + i] / s.scale + s.ox, cv = zs[start + i] / s.scale + s.oz;
            u[i] = held(cu), v[i] = held(cv);
            // A held coordinate does not move with the point: its derivative is 0.
            ju[i] = u[i] == cu ? 1.0 : 0.0, jv[i] = v[i] == cv ? 1.0 : 0.0;
            du[i] = dv[i] = sa[i] = sb[i] = sc[i] = sd[i] = value[i] = dx[i] = dz[i] = 0.0;
        }
        double a = s.shape.amplitude;
        for (int o = 0; o < s.shape.octaves; ++o, a *= s.shape.gain) {
            noise.noise2.derivatives_batch(u, v, m, columns);
            const Mat2 mo = s.per_metre[static_cast<std::size_t>(o)];
            for (std::size_t i = 0; i < m; ++i) {
                const double nv = n[0][i], gu = n[1][i], gv = n[2][i], huu = n[3][i], huv = n[4][i], hvv = n[5][i];
                const double ja = mo.a * ju[i], jb = mo.b * jv[i], jc = mo.c * ju[i], jd = mo.d * jv[i];  // J_o
                du[i] += gu, dv[i] += gv;
                sa[i] += huu * ja + huv * jc, sb[i] += huu * jb + huv * jd;
                sc[i] += huv * ja + hvv * jc, sd[i] += huv * jb + hvv * jd;
                const double w = 1.0 / (1.0 + k * (du[i] * du[i] + dv[i] * dv[i]));  // 1 / q
                value[i] += a * nv * w;
                // d(n / q) = dn / q - n k d|D|^2 / q^2, with dn = J^T g and d|D|^2 = 2 S^T D.
                const double gx = ja * gu + jc * gv, gz = jb * gu + jd * gv;
                const double ex = 2.0 * (sa[i] * du[i] + sc[i] * dv[i]), ez = 2.0 * (sb[i] * du[i] + sd[i] * dv[i]);
                const double damp = nv * k * w * w;
                dx[i] += a * (gx * w - damp * ex);
                dz[i] += a * (gz * w - damp * ez);
                // p_o+1 = L R p_o
                const double pu = lacunarity * (kCos * u[i] - kSin * v[i]), pv = lacunarity * (kSin * u[i] + kCos * v[i]);
                u[i] = pu, v[i] = pv;
            }
        }
        std::copy(value, value + m, l.out[0] + start);
        std::copy(dx, dx + m, l.out[1] + start);
        std::copy(dz, dz + m, l.out[2] + start);
    }
}

NodeRanges dfbm2_ranges(const Node& node, const RangeContext& c) {
    const Settings s = settings_of(node);
    const std::array<double, 12> slopes = octave_slopes(s);
    const double most = s.shape.max_abs();
    double steepest = 0.0;  // per unit of p_0
    for (int i = 0; i < s.shape.octaves; ++i) steepest += slopes[static_cast<std::size_t>(i)];
    const double per_metre = steepest / s.scale * (1.0 + 0x1p-30);
    NodeRanges out{};
    out[1] = out[2] = {-per_metre, per_metre};
    out[0] = {-most * (1.0 + 0x1p-40), most * (1.0 + 0x1p-40)};
    const ValueRange x = node.coordinate_default[0] ? ValueRange{c.box.lo.x, c.box.hi.x} : c.in[0];
    const ValueRange z = node.coordinate_default[1] ? ValueRange{c.box.lo.z, c.box.hi.z} : c.in[1];
    if (!(std::isfinite(x.lo) && std::isfinite(x.hi) && std::isfinite(z.lo) && std::isfinite(z.hi))) return out;
    const ValueRange u = coordinate_range(x, s.scale, s.ox), v = coordinate_range(z, s.scale, s.oz);
    // The noise's cell numbers wrap past 2^31 (its value drops to 0 there): the rules below
    // hold only while every octave's skewed point stays inside (|p_i| = L^i |p_0|, and the
    // skew adds at most 0.52 |p_i|).
    const double farthest = std::hypot(std::max(std::fabs(u.lo), std::fabs(u.hi)), std::max(std::fabs(v.lo), std::fabs(v.hi)));
    if (farthest * std::pow(s.shape.lacunarity, s.shape.octaves - 1) > 1.2e9) return out;
    out[0] = value_over(c.noise.noise2, s, slopes, u, v, 0);
    return out;
}

}  // namespace isoterra::graph
