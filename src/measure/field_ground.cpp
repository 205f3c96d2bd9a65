// A field's ground and water surface on a grid, for its river network: read through the
// field's lattice (one row of columns a job), which is where a graph gives its water output
// (ColumnLooks), so the grid's columns are whole multiples of the step.
#include <cmath>
#include <stdexcept>
#include <string>

#include "isoterra/base.hpp"
#include "isoterra/field.hpp"
#include "isoterra/measure.hpp"

namespace isoterra {
namespace {

// The lattice indices of the multiples of `step` within [lo, hi].
void multiples(double lo, double hi, double step, std::int64_t& first, int& count) {
    const double a = std::ceil(lo / step), b = std::floor(hi / step);
    if (!(b - a + 1.0 >= 3.0)) throw std::invalid_argument("rivers: the region holds fewer than 3 samples a side at this step");
    if (b - a + 1.0 > 65536.0) throw std::invalid_argument("rivers: the region holds more than 65536 samples a side at this step");
    first = static_cast<std::int64_t>(a);
    count = static_cast<int>(b - a + 1.0);
}

}  // namespace

FieldGround sample_field_ground(const Field& field, const glm::dvec2& lo, const glm::dvec2& hi, double step_m, int threads) {
    if (!field.has_ground()) throw std::invalid_argument("rivers: the field has no ground height (a graph without a ground output)");
    if (!(step_m > 0.0) || !std::isfinite(step_m)) throw std::invalid_argument("rivers: the step must be positive and finite");
    if (!(std::isfinite(lo.x) && std::isfinite(lo.y) && std::isfinite(hi.x) && std::isfinite(hi.y)))
        throw std::invalid_argument("rivers: the region's corners must be finite");
    FieldGround out;
    std::int64_t x0 = 0, z0 = 0;
    multiples(lo.x, hi.x, step_m, x0, out.grid.width);
    multiples(lo.y, hi.y, step_m, z0, out.grid.height);
    check_memory_budget(kRiverBytesPerCell * out.grid.width * static_cast<double>(out.grid.height),
                        "a river network of " + std::to_string(out.grid.width) + "x" + std::to_string(out.grid.height) + " cells");
    out.grid.dx_m = out.grid.dz_m = step_m;
    out.grid.origin = glm::dvec2(static_cast<double>(x0), static_cast<double>(z0)) * step_m;
    out.grid.heights.assign(out.grid.count(), NAN);
    out.water.assign(out.grid.count(), NAN);
    const int width = out.grid.width;
    parallel_for(static_cast<std::size_t>(out.grid.height), threads, [&](std::size_t r) {
        Lattice row;
        row.spacing_m = step_m;
        row.origin = {x0, 0, z0 + static_cast<std::int64_t>(r)};
        row.size = {width, 1, 1};
        std::vector<float> values(row.count()), ground(row.count());
        ColumnLooks looks;
        if (!field.sample_lattice_and_ground(row, values.data(), ground.data(), LatticeUse::values, nullptr, &looks)) return;
        for (int c = 0; c < width; ++c) {
            const std::size_t i = r * width + c;
            out.grid.heights[i] = ground[c];
            if (!looks.water.empty()) out.water[i] = looks.water[c];
        }
    });
    return out;
}

std::vector<RiverReach> field_rivers(const Field& field, const glm::dvec2& lo, const glm::dvec2& hi, double step_m, RiverOptions options,
                                     int threads) {
    const FieldGround ground = sample_field_ground(field, lo, hi, step_m, threads);
    if (!(options.sea_level_m > -INFINITY)) options.sea_level_m = field.sea_level_m();
    return river_network(ground.grid, options, &ground.water);
}

}  // namespace isoterra
