// The material channel: grass, soil, rock, snow, sand or scree from slope, height, depth below
// the column's ground and the column's looks (water level, snow line, scree), with a blend
// weight so colours change as smoothly as the shape does. Four points at a time in GCC/Clang
// vector types (an AVX2 clone where the CPU has it): each lane does the operations of the
// rules in the same order, the branches as masks, so one point or many give the same bits.
#include <algorithm>
#include <cmath>

#include "simd/target_clones.hpp"
#include "isoterra/field.hpp"

// The lane helpers are always inlined: one left out of line would be called across target
// clones with different vector ABIs (what -Wpsabi warns about).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace isoterra {

const char* material_name(Material m) {
    switch (m) {
        case Material::grass: return "grass";
        case Material::soil: return "soil";
        case Material::rock: return "rock";
        case Material::snow: return "snow";
        case Material::sand: return "sand";
        case Material::scree: return "scree";
    }
    return "?";
}

namespace {

constexpr double kDegrees = 180.0 / 3.14159265358979323846;
constexpr int kLanes = 4;
using D4 = double __attribute__((vector_size(32)));
using L4 = long long __attribute__((vector_size(32)));

#define LANE_INLINE __attribute__((always_inline)) inline

LANE_INLINE D4 splat(double v) { return D4{} + v; }
LANE_INLINE D4 select(L4 mask, D4 yes, D4 no) { return (D4)(((L4)yes & mask) | ((L4)no & ~mask)); }
LANE_INLINE L4 select(L4 mask, L4 yes, L4 no) { return (yes & mask) | (no & ~mask); }
// std::clamp(v, 0, 1) (a NaN stays), and t * t * (3 - 2t) of it.
LANE_INLINE D4 smooth_clamped(D4 v) {
    const D4 t = select(v < splat(0.0), splat(0.0), select(splat(1.0) < v, splat(1.0), v));
    return t * t * (3.0 - 2.0 * t);
}
template <typename Step>
LANE_INLINE D4 step(const Step& s, D4 v) {
    return smooth_clamped((v - s.from) * s.inv_width);
}

// The dominant weight of each lane and the runner-up, as the scalar loops pick them: the
// first of the largest (a NaN never wins), then the largest of the others, starting from
// material 1 where the first is 0, else from 0.
LANE_INLINE void pick_two(const D4 w[kMaterialCount], L4& first, L4& second, D4& blend) {
    first = L4{};
    D4 top = w[0];
    for (int m = 1; m < kMaterialCount; ++m) {
        const L4 more = w[m] > top;
        top = select(more, w[m], top);
        first = select(more, L4{} + m, first);
    }
    const L4 first_is_0 = first == L4{};
    second = first_is_0 & (L4{} + 1);
    D4 next = select(first_is_0, w[1], w[0]);
    for (int m = 0; m < kMaterialCount; ++m) {
        const L4 more = (first != L4{} + m) & (w[m] > next);
        next = select(more, w[m], next);
        second = select(more, L4{} + m, second);
    }
    const D4 total = top + next;
    blend = select(total > splat(0.0), next / total, splat(0.0));
}

}  // namespace

MaterialClassifier::Step::Step(double from_, double to_) : from(from_), inv_width(1.0 / (to_ - from_)) {}

MaterialClassifier::MaterialClassifier(const MaterialRules& r)
    : steep_(r.rock_slope_deg - r.slope_blend_deg, r.rock_slope_deg + r.slope_blend_deg),
      snow_line_(r.snow_line_m - r.snow_blend_m, r.snow_line_m + r.snow_blend_m),
      snow_slope_(r.snow_max_slope_deg - r.slope_blend_deg, r.snow_max_slope_deg + r.slope_blend_deg), below_(1.0, 3.0),
      facing_down_(-0.2, -0.6), deep_(r.soil_depth_m - 2.0, r.soil_depth_m + 2.0), surface_reach_m_(r.surface_reach_m),
      snow_blend_m_(r.snow_blend_m), sand_height_m_(r.sand_height_m) {
    // The slope enters through two steps only; outside both bands they are 0 or 1. A
    // thousandth of a degree of margin covers acos's rounding.
    const double lo = std::min(r.rock_slope_deg, r.snow_max_slope_deg) - r.slope_blend_deg - 1e-3;
    const double hi = std::max(r.rock_slope_deg, r.snow_max_slope_deg) + r.slope_blend_deg + 1e-3;
    flat_ny_ = lo > 0.0 ? std::cos(lo / kDegrees) : 2.0;
    steep_ny_ = hi < 180.0 ? std::cos(hi / kDegrees) : -2.0;
}

MaterialSample MaterialClassifier::operator()(double y, const glm::dvec3& normal, double depth_m) const {
    return (*this)(y, normal, depth_m, PointLooks{});
}

MaterialSample MaterialClassifier::operator()(double y, const glm::dvec3& normal, double depth_m, const PointLooks& looks) const {
    MaterialSample s;
    classify(MaterialPoints{&y, &normal.y, &depth_m, &looks}, 1, &s);
    return s;
}

ISOTERRA_CLONES void MaterialClassifier::classify(const MaterialPoints& points, std::size_t count, MaterialSample* out) const {
    const PointLooks none;
    for (std::size_t at = 0; at < count; at += kLanes) {
        const int lanes = static_cast<int>(std::min<std::size_t>(kLanes, count - at));
        D4 y, ny, depth, slope, water, snow_line, scree_share;
        for (int q = 0; q < kLanes; ++q) {
            if (q >= lanes) {  // past the end: the last point again
                y[q] = y[q - 1], ny[q] = ny[q - 1], depth[q] = depth[q - 1], slope[q] = slope[q - 1];
                water[q] = water[q - 1], snow_line[q] = snow_line[q - 1], scree_share[q] = scree_share[q - 1];
                continue;
            }
            const std::size_t v = at + q;
            const PointLooks& looks = points.looks ? points.looks[v] : none;
            y[q] = points.y[v], ny[q] = points.normal_y[v], depth[q] = points.depth_m[v];
            water[q] = looks.water_m, snow_line[q] = looks.snow_line_m, scree_share[q] = looks.scree;
            slope[q] = ny[q] > flat_ny_ ? 0.0 : ny[q] < steep_ny_ ? 180.0 : std::acos(std::clamp(ny[q], -1.0, 1.0)) * kDegrees;
        }
        const D4 steep = step(steep_, slope);
        // The column's own snow line (a number) moves the band; its width stays the rules'.
        const D4 line =
            select(snow_line == snow_line, smooth_clamped((y - (snow_line - snow_blend_m_)) * snow_line_.inv_width), step(snow_line_, y));
        const D4 snowy = line * (1.0 - step(snow_slope_, slope));
        // Under an overhang (facing down) or in a cave (below the overhangs' reach): soil near
        // the ground, rock deeper down. std::max(a, b): b where a < b.
        const D4 below = depth - surface_reach_m_;
        const D4 under_cave = step(below_, below), under_overhang = step(facing_down_, ny);
        const D4 under = select(under_cave < under_overhang, under_overhang, under_cave);
        const D4 deep = step(deep_, below);
        // Gentle open ground by the water is sand (below it too), fading out between 0.75 and
        // 1.25 times the sand height above it; of the rest, the scree channel's share is scree.
        D4 shore = splat(0.0);
        if (sand_height_m_ > 0.0) {
            const D4 fade = smooth_clamped((y - water - 0.75 * sand_height_m_) / (0.5 * sand_height_m_));
            shore = select(water > splat(-1e299), 1.0 - fade, splat(0.0));
        }
        const D4 scree = select(scree_share > splat(0.0), select(splat(1.0) < scree_share, splat(1.0), scree_share), splat(0.0));

        D4 w[kMaterialCount];
        const D4 open = 1.0 - under, open_bare = open * (1.0 - snowy);
        const D4 gentle = open_bare * (1.0 - steep);
        w[static_cast<int>(Material::snow)] = open * snowy;
        w[static_cast<int>(Material::rock)] = open_bare * steep + under * deep;
        w[static_cast<int>(Material::soil)] = under * (1.0 - deep);
        // Without shore or scree, grass is all of the gentle ground (the bits before the looks).
        const L4 looked = (shore > splat(0.0)) | (scree > splat(0.0));
        const D4 dry = gentle * (1.0 - shore);
        w[static_cast<int>(Material::sand)] = select(looked, gentle * shore, splat(0.0));
        w[static_cast<int>(Material::scree)] = select(looked, dry * scree, splat(0.0));
        w[static_cast<int>(Material::grass)] = select(looked, dry * (1.0 - scree), gentle);

        L4 primary, secondary;
        D4 blend;
        pick_two(w, primary, secondary, blend);
        for (int q = 0; q < lanes; ++q) {
            MaterialSample& s = out[at + q];
            s.primary = static_cast<Material>(primary[q]);
            s.secondary = static_cast<Material>(secondary[q]);
            s.blend = static_cast<float>(blend[q]);
        }
    }
}

MaterialSample MaterialRules::classify(double y, const glm::dvec3& normal, double depth_m) const {
    return MaterialClassifier(*this)(y, normal, depth_m);
}

MaterialSample MaterialRules::classify(double y, const glm::dvec3& normal, double depth_m, const PointLooks& looks) const {
    return MaterialClassifier(*this)(y, normal, depth_m, looks);
}

}  // namespace isoterra
