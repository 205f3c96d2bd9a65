// The C API's river networks (include/isoterra/isoterra.h): landform/'s field_rivers() as
// flat arrays a caller reads in place, immutable once made.
#include <cmath>

#include "c_border.hpp"
#include "isoterra/base.hpp"
#include "isoterra/measure.hpp"

using isoterra::c_api::clear_error;
using isoterra::c_api::guarded;
using isoterra::c_api::require;

struct isoterra_rivers {
    std::vector<double> points;  // x, z, level
    std::vector<size_t> offsets{0};
    std::vector<std::int32_t> orders;
    std::vector<double> widths, areas;
};

extern "C" {

isoterra_rivers* isoterra_field_rivers(const isoterra_field* field, const double lo[2], const double hi[2], double step,
                                       double min_area_km2, int threads) {
    return guarded<isoterra_rivers*>(nullptr, [&] {
        require(field && lo && hi, "isoterra_field_rivers: a NULL argument");
        require(std::isfinite(min_area_km2) && min_area_km2 <= 1e6, "isoterra_field_rivers: min_area_km2 must be finite, at most 1e6");
        isoterra::RiverOptions options;
        if (min_area_km2 > 0.0) options.min_area_m2 = min_area_km2 * 1e6;
        const auto reaches = isoterra::field_rivers(*field->field, {lo[0], lo[1]}, {hi[0], hi[1]}, step, options,
                                                    threads > 0 ? threads : isoterra::default_threads());
        auto out = std::make_unique<isoterra_rivers>();
        for (const isoterra::RiverReach& r : reaches) {
            for (const glm::dvec3& p : r.points) out->points.insert(out->points.end(), {p.x, p.y, p.z});
            out->offsets.push_back(out->points.size() / 3);
            out->orders.push_back(r.order);
            out->widths.push_back(r.width_m);
            out->areas.push_back(r.area_m2 / 1e6);
        }
        return out.release();
    });
}

// The rest of the handle's functions cannot fail; each empties the thread's last error.
void isoterra_rivers_free(isoterra_rivers* rivers) {
    clear_error();
    delete rivers;
}
size_t isoterra_rivers_count(const isoterra_rivers* rivers) {
    clear_error();
    return rivers ? rivers->orders.size() : 0;
}
size_t isoterra_rivers_point_count(const isoterra_rivers* rivers) {
    clear_error();
    return rivers ? rivers->points.size() / 3 : 0;
}
const double* isoterra_rivers_points(const isoterra_rivers* rivers) {
    clear_error();
    return rivers ? rivers->points.data() : nullptr;
}
const size_t* isoterra_rivers_offsets(const isoterra_rivers* rivers) {
    clear_error();
    return rivers ? rivers->offsets.data() : nullptr;
}
const int32_t* isoterra_rivers_orders(const isoterra_rivers* rivers) {
    clear_error();
    return rivers ? rivers->orders.data() : nullptr;
}
const double* isoterra_rivers_widths(const isoterra_rivers* rivers) {
    clear_error();
    return rivers ? rivers->widths.data() : nullptr;
}
const double* isoterra_rivers_areas(const isoterra_rivers* rivers) {
    clear_error();
    return rivers ? rivers->areas.data() : nullptr;
}

}  // extern "C"
