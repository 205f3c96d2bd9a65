// The Python module's Field.rivers: the C API's river network as a list of dicts, each
// reach's points copied into a numpy array of its own (the network is freed at once).
#include "field.hpp"

namespace isoterra_py {

py::list Field::rivers(const std::vector<double>& lo, const std::vector<double>& hi, double step, double min_area_km2, int threads) const {
    if (lo.size() != 2 || hi.size() != 2) throw py::value_error("rivers: lo and hi must be (x, z)");
    if (!(min_area_km2 > 0.0)) throw py::value_error("rivers: min_area_km2 must be a positive number of km2");
    isoterra_rivers* made;
    {
        py::gil_scoped_release free;
        made = isoterra_field_rivers(get(), lo.data(), hi.data(), step, min_area_km2, threads);
    }
    const std::unique_ptr<isoterra_rivers, void (*)(isoterra_rivers*)> rivers(check(made), isoterra_rivers_free);
    const std::size_t* offsets = isoterra_rivers_offsets(rivers.get());
    const double* points = isoterra_rivers_points(rivers.get());
    py::list out;
    for (std::size_t i = 0; i < isoterra_rivers_count(rivers.get()); ++i) {
        const auto n = static_cast<py::ssize_t>(offsets[i + 1] - offsets[i]);
        py::array_t<double> line({n, py::ssize_t{3}});
        std::copy(points + 3 * offsets[i], points + 3 * offsets[i + 1], line.mutable_data());
        py::dict reach;
        reach["points"] = line;
        reach["order"] = isoterra_rivers_orders(rivers.get())[i];
        reach["width_m"] = isoterra_rivers_widths(rivers.get())[i];
        reach["area_km2"] = isoterra_rivers_areas(rivers.get())[i];
        out.append(reach);
    }
    return out;
}

}  // namespace isoterra_py
