// The Python module's Field (a terrain: sampling, lattices, ground heights, rays into numpy
// arrays, the GIL released while the library works) and the border it shares with the other
// classes: the C API's failures raised as isoterra.Error.
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "isoterra/base.hpp"
#include "isoterra/isoterra.h"
#include "text_args.hpp"

namespace isoterra_py {

namespace py = pybind11;

// Raised for every error the C API reports (bad input or a failure), with its message.
[[noreturn]] inline void raise_last_error() { isoterra_py::raise_error(isoterra_last_error()); }

inline void check(int rc) {
    if (rc < 0) raise_last_error();
}

template <class T>
T* check(T* handle) {
    if (!handle) raise_last_error();
    return handle;
}

inline std::int64_t seed_or_own(const std::optional<std::int64_t>& seed) {
    if (seed && *seed == -1) throw py::value_error("seed: -1 means the file's own; give None for that");
    return seed ? *seed : -1;
}

struct FieldDeleter {
    void operator()(isoterra_field* f) const { isoterra_field_free(f); }
};

using Rows = py::array_t<double, py::array::c_style | py::array::forcecast>;

class Field {
public:
    explicit Field(isoterra_field* f) : f_(f, FieldDeleter{}) {}
    const isoterra_field* get() const { return f_.get(); }

    static Field preset(const Path& name, std::optional<std::int64_t> seed) {
        return Field(check(isoterra_field_new(name.c_str("name"), seed_or_own(seed))));
    }
    static Field from_file(const Path& path, std::optional<std::int64_t> seed) {
        // A path, never a preset's name: "alpine" in the working directory is the file.
        const std::string given = path.c_str("path");
        const std::string as_path = given.find('/') == std::string::npos ? "./" + given : given;
        return Field(check(isoterra_field_new(as_path.c_str(), seed_or_own(seed))));
    }
    static Field from_text(const Name& text, std::optional<std::int64_t> seed, const Path& directory) {
        const char* dir = directory.c_str("directory");
        return Field(check(isoterra_field_from_text(text.c_str("text"), *dir ? dir : nullptr, seed_or_own(seed))));
    }

    std::string name() const { return isoterra_field_name(get()); }
    std::uint32_t seed() const { return isoterra_field_seed(get()); }

    py::array_t<double> sample(const Rows& points) const {
        return per_row(points, 3, "sample: points must have shape (N, 3)", isoterra_field_sample);
    }

    py::array_t<float> lattice(const std::vector<double>& origin, const std::vector<int>& shape, double step, py::object out) const {
        if (origin.size() != 3) throw py::value_error("lattice: origin must be (x, y, z)");
        if (shape.size() != 3) throw py::value_error("lattice: shape must be (nz, ny, nx)");
        for (int s : shape)
            if (s < 1) throw py::value_error("lattice: every size of shape must be at least 1");
        const std::int32_t size[3] = {shape[2], shape[1], shape[0]};  // x, y, z
        if (static_cast<double>(size[0]) * size[1] * size[2] > 1e9) throw py::value_error("lattice: more than 1e9 samples");
        py::array_t<float> values;
        if (out.is_none()) {
            values = py::array_t<float>({shape[0], shape[1], shape[2]});
        } else {
            // The caller's array, written in place: it must be exactly what would be made.
            if (!py::isinstance<py::array_t<float>>(out))
                throw py::value_error("lattice: out must be a writeable C-contiguous float32 array");
            const auto given = py::reinterpret_borrow<py::array>(out);
            if (!given.writeable() || !(given.flags() & py::array::c_style))
                throw py::value_error("lattice: out must be a writeable C-contiguous float32 array");
            values = py::reinterpret_borrow<py::array_t<float>>(out);
            if (values.ndim() != 3 || values.shape(0) != shape[0] || values.shape(1) != shape[1] || values.shape(2) != shape[2])
                throw py::value_error("lattice: out must have the shape (nz, ny, nx)");
        }
        float* data = values.mutable_data();
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_field_lattice(get(), origin.data(), size, step, data);
        }
        check(rc);
        return values;
    }

    // The river network from lo = (x0, z0) to hi = (x1, z1) (rivers.cpp).
    py::list rivers(const std::vector<double>& lo, const std::vector<double>& hi, double step, double min_area_km2, int threads) const;
    py::array_t<double> ground(const Rows& xz) const {
        return per_row(xz, 2, "ground: points must have shape (N, 2): x, z", isoterra_field_ground);
    }

    // Ground heights on a grid from (x0, z0) to (x1, z1) inclusive, `step` apart: rows z, columns x.
    py::array_t<double> heightmap(const std::vector<double>& lo, const std::vector<double>& hi, double step) const {
        if (lo.size() != 2 || hi.size() != 2) throw py::value_error("heightmap: lo and hi must be (x, z)");
        if (!(std::isfinite(step) && step > 0.0)) throw py::value_error("heightmap: step must be a positive number of metres");
        if (!(lo[0] < hi[0] && lo[1] < hi[1])) throw py::value_error("heightmap: hi must lie beyond lo in x and z");
        const double w = std::floor((hi[0] - lo[0]) / step) + 1, h = std::floor((hi[1] - lo[1]) / step) + 1;
        if (w * h > 1e8) throw py::value_error("heightmap: more than 1e8 pixels");
        // The points (two doubles) and the heights (one) a pixel, checked against the memory
        // budget the library's other plans keep to before either is allocated.
        try {
            isoterra::check_memory_budget(w * h * 3 * sizeof(double), "heightmap: " + std::to_string(static_cast<long long>(w)) + " x " +
                                                                          std::to_string(static_cast<long long>(h)) + " heights");
        } catch (const isoterra::MemoryBudgetError& e) {
            raise_error(e.what());
        }
        const auto cols = static_cast<py::ssize_t>(w), rows = static_cast<py::ssize_t>(h);
        std::vector<double> xz(static_cast<std::size_t>(2 * cols * rows));
        for (py::ssize_t r = 0; r < rows; ++r)
            for (py::ssize_t c = 0; c < cols; ++c) {
                xz[2 * (r * cols + c)] = lo[0] + static_cast<double>(c) * step;
                xz[2 * (r * cols + c) + 1] = lo[1] + static_cast<double>(r) * step;
            }
        py::array_t<double> out({rows, cols});
        double* heights = out.mutable_data();
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_field_ground(get(), xz.data(), static_cast<std::size_t>(rows * cols), heights);
        }
        check(rc);
        return out;
    }

    py::object raycast(const std::vector<double>& origin, const std::vector<double>& direction, double max_distance) const {
        if (origin.size() != 3 || direction.size() != 3) throw py::value_error("raycast: origin and direction must be (x, y, z)");
        double hit[3];
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_field_raycast(get(), origin.data(), direction.data(), max_distance, hit);
        }
        check(rc);
        if (rc == 0) return py::none();
        return py::make_tuple(hit[0], hit[1], hit[2]);
    }

private:
    // Runs `call` (a C API function over n rows of `columns` doubles) into a new float64 (N,)
    // array, the GIL released.
    template <class Call>
    py::array_t<double> per_row(const Rows& rows, py::ssize_t columns, const char* bad_shape, Call call) const {
        if (rows.ndim() != 2 || rows.shape(1) != columns) throw py::value_error(bad_shape);
        const auto n = static_cast<std::size_t>(rows.shape(0));
        py::array_t<double> out(static_cast<py::ssize_t>(n));
        const double* in = rows.data();
        double* values = out.mutable_data();
        int rc;
        {
            py::gil_scoped_release free;
            rc = call(get(), in, n, values);
        }
        check(rc);
        return out;
    }

    std::shared_ptr<isoterra_field> f_;
};

/// Binds ChunkUpdate, World and Editor (world_editor.cpp).
void bind_world_and_editor(py::module_& m);
/// Binds NavMesh and NoPathError (nav.cpp).
void bind_nav(py::module_& m);

}  // namespace isoterra_py
