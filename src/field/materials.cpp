// The material channel: grass, soil, rock, snow, sand or scree from slope, height, depth below
// the column's ground and the column's looks (water level, snow line, scree), with a blend
// weight so colours change as smoothly as the shape does.
#include <algorithm>
#include <array>
#include <cmath>

#include "isoterra/field.hpp"

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

}  // namespace

MaterialClassifier::Step::Step(double from_, double to_) : from(from_), inv_width(1.0 / (to_ - from_)) {}

double MaterialClassifier::Step::operator()(double v) const {
    const double t = std::clamp((v - from) * inv_width, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

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
    const double slope_deg = normal.y > flat_ny_    ? 0.0
                             : normal.y < steep_ny_ ? 180.0
                                                    : std::acos(std::clamp(normal.y, -1.0, 1.0)) * kDegrees;
    const double steep = steep_(slope_deg);
    // The column's own snow line moves the band; its width stays the rules'.
    double line = snow_line_(y);
    if (!std::isnan(looks.snow_line_m)) {
        const double t = std::clamp((y - (looks.snow_line_m - snow_blend_m_)) * snow_line_.inv_width, 0.0, 1.0);
        line = t * t * (3.0 - 2.0 * t);
    }
    const double snowy = line * (1.0 - snow_slope_(slope_deg));
    // Under an overhang (facing down) or in a cave (below the overhangs' reach): soil near
    // the ground, rock deeper down.
    const double below = depth_m - surface_reach_m_;
    const double under = std::max(below_(below), facing_down_(normal.y));
    const double deep = deep_(below);
    // Gentle open ground by the water is sand (below it too), fading out between 0.75 and
    // 1.25 times the sand height above it; of the rest, the scree channel's share is scree.
    double shore = 0.0;
    if (sand_height_m_ > 0.0 && looks.water_m > -1e299) {
        const double t = std::clamp((y - looks.water_m - 0.75 * sand_height_m_) / (0.5 * sand_height_m_), 0.0, 1.0);
        shore = 1.0 - t * t * (3.0 - 2.0 * t);
    }
    const double scree = looks.scree > 0.0 ? std::min(looks.scree, 1.0) : 0.0;  // NaN: none

    std::array<double, kMaterialCount> w{};
    const double open = 1.0 - under;
    const double gentle = open * (1.0 - snowy) * (1.0 - steep);
    w[static_cast<int>(Material::snow)] = open * snowy;
    w[static_cast<int>(Material::rock)] = open * (1.0 - snowy) * steep + under * deep;
    w[static_cast<int>(Material::soil)] = under * (1.0 - deep);
    if (shore > 0.0 || scree > 0.0) {
        w[static_cast<int>(Material::sand)] = gentle * shore;
        w[static_cast<int>(Material::scree)] = gentle * (1.0 - shore) * scree;
        w[static_cast<int>(Material::grass)] = gentle * (1.0 - shore) * (1.0 - scree);
    } else {
        w[static_cast<int>(Material::grass)] = gentle;  // the same bits as before the looks
    }

    int first = 0;
    for (int m = 1; m < kMaterialCount; ++m)
        if (w[m] > w[first]) first = m;
    int second = first == 0 ? 1 : 0;
    for (int m = 0; m < kMaterialCount; ++m)
        if (m != first && w[m] > w[second]) second = m;
    const double total = w[first] + w[second];
    MaterialSample s;
    s.primary = static_cast<Material>(first);
    s.secondary = static_cast<Material>(second);
    s.blend = total > 0.0 ? static_cast<float>(w[second] / total) : 0.0f;
    return s;
}

MaterialSample MaterialRules::classify(double y, const glm::dvec3& normal, double depth_m) const {
    return MaterialClassifier(*this)(y, normal, depth_m);
}

MaterialSample MaterialRules::classify(double y, const glm::dvec3& normal, double depth_m, const PointLooks& looks) const {
    return MaterialClassifier(*this)(y, normal, depth_m, looks);
}

}  // namespace isoterra
