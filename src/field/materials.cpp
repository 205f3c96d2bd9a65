// The material channel: grass, soil, rock or snow from slope, height and depth below the
// column's ground, with a blend weight so colours change as smoothly as the shape does.
#include <algorithm>
#include <array>
#include <cmath>

#include "isoterra/field.hpp"

namespace isoterra {
namespace {

double smoothstep(double from, double to, double v) {
    const double t = std::clamp((v - from) / (to - from), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

}  // namespace

const char* material_name(Material m) {
    switch (m) {
        case Material::grass: return "grass";
        case Material::soil: return "soil";
        case Material::rock: return "rock";
        case Material::snow: return "snow";
    }
    return "?";
}

namespace {

constexpr double kDegrees = 180.0 / 3.14159265358979323846;

double slope_of(const glm::dvec3& normal) { return std::acos(std::clamp(normal.y, -1.0, 1.0)) * kDegrees; }

}  // namespace

MaterialClassifier::MaterialClassifier(const MaterialRules& rules) : rules_(rules) {
    // The slope enters through two smoothsteps only; outside both bands they are 0 or 1.
    // A thousandth of a degree of margin covers acos's rounding.
    const double lo = std::min(rules.rock_slope_deg, rules.snow_max_slope_deg) - rules.slope_blend_deg - 1e-3;
    const double hi = std::max(rules.rock_slope_deg, rules.snow_max_slope_deg) + rules.slope_blend_deg + 1e-3;
    flat_ny_ = lo > 0.0 ? std::cos(lo / kDegrees) : 2.0;
    steep_ny_ = hi < 180.0 ? std::cos(hi / kDegrees) : -2.0;
}

MaterialSample MaterialClassifier::operator()(double y, const glm::dvec3& normal, double depth_m) const {
    const double slope = normal.y > flat_ny_ ? 0.0 : normal.y < steep_ny_ ? 180.0 : slope_of(normal);
    return rules_.classify_at_slope(y, normal, depth_m, slope);
}

MaterialSample MaterialRules::classify(double y, const glm::dvec3& normal, double depth_m) const {
    return classify_at_slope(y, normal, depth_m, slope_of(normal));
}

MaterialSample MaterialRules::classify_at_slope(double y, const glm::dvec3& normal, double depth_m, double slope_deg) const {
    const double steep = smoothstep(rock_slope_deg - slope_blend_deg, rock_slope_deg + slope_blend_deg, slope_deg);
    const double snowy = smoothstep(snow_line_m - snow_blend_m, snow_line_m + snow_blend_m, y) *
                         (1.0 - smoothstep(snow_max_slope_deg - slope_blend_deg,
                                           snow_max_slope_deg + slope_blend_deg, slope_deg));
    // Under an overhang (facing down) or in a cave (below the overhangs' reach): soil near
    // the ground, rock deeper down.
    const double below = depth_m - surface_reach_m;
    const double under = std::max(smoothstep(1.0, 3.0, below), smoothstep(-0.2, -0.6, normal.y));
    const double deep = smoothstep(soil_depth_m - 2.0, soil_depth_m + 2.0, below);

    std::array<double, kMaterialCount> w{};
    const double open = 1.0 - under;
    w[static_cast<int>(Material::snow)] = open * snowy;
    w[static_cast<int>(Material::rock)] = open * (1.0 - snowy) * steep + under * deep;
    w[static_cast<int>(Material::grass)] = open * (1.0 - snowy) * (1.0 - steep);
    w[static_cast<int>(Material::soil)] = under * (1.0 - deep);

    int first = 0;
    for (int m = 1; m < kMaterialCount; ++m) if (w[m] > w[first]) first = m;
    int second = first == 0 ? 1 : 0;
    for (int m = 0; m < kMaterialCount; ++m) if (m != first && w[m] > w[second]) second = m;
    const double total = w[first] + w[second];
    MaterialSample s;
    s.primary = static_cast<Material>(first);
    s.secondary = static_cast<Material>(second);
    s.blend = total > 0.0 ? static_cast<float>(w[second] / total) : 0.0f;
    return s;
}

}  // namespace isoterra
