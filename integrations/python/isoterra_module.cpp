// The Python module `isoterra` (pybind11) over the C API: numpy arrays in and out, the
// library's buffers shown without a copy, the GIL released while the library works, and the
// C API's one-line errors raised as isoterra.Error.
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "isoterra/isoterra.h"

namespace py = pybind11;

namespace {

// Raised for every error the C API reports (bad input or a failure), with its message.
PyObject* error_type = nullptr;

[[noreturn]] void raise_last_error() {
    PyErr_SetString(error_type, isoterra_last_error());
    throw py::error_already_set();
}

void check(int rc) {
    if (rc < 0) raise_last_error();
}

template <class T>
T* check(T* handle) {
    if (!handle) raise_last_error();
    return handle;
}

std::int64_t seed_or_own(const std::optional<std::int64_t>& seed) {
    if (seed && *seed == -1) throw py::value_error("seed: -1 means the file's own; give None for that");
    return seed ? *seed : -1;
}

struct FieldDeleter {
    void operator()(isoterra_field* f) const { isoterra_field_free(f); }
};
struct MeshDeleter {
    void operator()(isoterra_mesh* m) const { isoterra_mesh_free(m); }
};

using Rows = py::array_t<double, py::array::c_style | py::array::forcecast>;

class Field {
public:
    explicit Field(isoterra_field* f) : f_(f, FieldDeleter{}) {}
    const isoterra_field* get() const { return f_.get(); }

    static Field preset(const std::string& name, std::optional<std::int64_t> seed) {
        return Field(check(isoterra_field_new(name.c_str(), seed_or_own(seed))));
    }
    static Field from_file(const std::string& path, std::optional<std::int64_t> seed) {
        // A path, never a preset's name: "alpine" in the working directory is the file.
        const std::string as_path = path.find('/') == std::string::npos ? "./" + path : path;
        return Field(check(isoterra_field_new(as_path.c_str(), seed_or_own(seed))));
    }
    static Field from_text(const std::string& text, std::optional<std::int64_t> seed, const std::string& directory) {
        return Field(check(isoterra_field_from_text(text.c_str(), directory.empty() ? nullptr : directory.c_str(), seed_or_own(seed))));
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

// A mesh the library owns; its arrays are views of the library's buffers kept alive by it.
class Mesh {
public:
    explicit Mesh(isoterra_mesh* m) : m_(m, MeshDeleter{}) {}

    std::size_t vertex_count() const { return isoterra_mesh_vertex_count(m_.get()); }
    std::size_t triangle_count() const { return isoterra_mesh_triangle_count(m_.get()); }

    template <class T>
    static py::array_t<T> view(const T* data, std::vector<py::ssize_t> shape, py::handle owner) {
        static const T kNone{};
        py::array_t<T> a(shape, data ? data : &kNone, owner);
        py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
        return a;
    }

    py::bytes glb(bool compress) const {
        isoterra_bytes bytes{};
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_mesh_glb(m_.get(), compress ? 1 : 0, &bytes);
        }
        check(rc);
        py::bytes out(reinterpret_cast<const char*>(bytes.data), bytes.size);
        isoterra_bytes_free(&bytes);
        return out;
    }

    const isoterra_mesh* get() const { return m_.get(); }

private:
    std::shared_ptr<isoterra_mesh> m_;
};

// A getter for Mesh that views one of the library's buffers (no copy, read-only, keeping the
// mesh alive): a row per vertex, or per triangle, `columns` wide (0: one value a row).
template <class T>
auto buffer_view(const T* (*data)(const isoterra_mesh*), bool per_triangle, py::ssize_t columns) {
    return [=](py::object self) {
        const Mesh& me = self.cast<const Mesh&>();
        std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(per_triangle ? me.triangle_count() : me.vertex_count())};
        if (columns > 0) shape.push_back(columns);
        return Mesh::view(data(me.get()), shape, self);
    };
}

Mesh mesh_region(const Field& field, const std::vector<double>& lo, const std::vector<double>& hi, const std::string& mesher, int lod,
                 int threads) {
    if (lo.size() != 3 || hi.size() != 3) throw py::value_error("mesh: lo and hi must be (x, y, z)");
    if (threads < 0) throw py::value_error("mesh: threads must not be negative (0: every core)");
    isoterra_mesh* m;
    {
        py::gil_scoped_release free;
        m = isoterra_mesh_region(field.get(), lo.data(), hi.data(), mesher.c_str(), lod, threads);
    }
    return Mesh(check(m));
}

// One chunk's news from World.deliver().
struct ChunkUpdate {
    std::tuple<int, int, int, int> chunk;  // x, y, z, lod
    bool dropped = false, visible = false;
    py::object vertices = py::none(), normals = py::none(), faces = py::none();
};

class World {
public:
    World(const Field& field, double view_distance, int radius, int threads, const std::string& mesher, long long triangle_budget)
        : field_(field) {
        if (triangle_budget < 0) throw py::value_error("World: triangle_budget must be 0 (no limit) or more");
        isoterra_world_settings s{view_distance, radius, threads, mesher.c_str(), triangle_budget == 0 ? -1 : triangle_budget};
        w_.reset(check(isoterra_world_new(field.get(), &s)));
    }
    ~World() {
        py::gil_scoped_release free;  // workers finish their jobs first
        w_.reset();
    }
    void set_focus(const std::vector<double>& p) {
        if (p.size() != 3) throw py::value_error("set_focus: the focus must be (x, y, z)");
        check(isoterra_world_set_focus(w_.get(), p[0], p[1], p[2]));
    }
    bool settled() const { return isoterra_world_settled(w_.get()) == 1; }

    std::vector<ChunkUpdate> deliver(double budget_ms) {
        // Copied inside the callback (its buffers live only during it) without the GIL; turned
        // into Python objects after.
        struct Copy {
            isoterra_chunk_update head;
            std::vector<float> vertices, normals;
            std::vector<std::uint32_t> faces;
        };
        std::vector<Copy> copies;
        const auto callback = [](const isoterra_chunk_update* u, void* user) {
            Copy c{*u, {}, {}, {}};
            if (u->has_mesh) {
                c.vertices.resize(3 * u->vertex_count);
                for (std::size_t i = 0; i < c.vertices.size(); ++i) c.vertices[i] = static_cast<float>(u->origin[i % 3] + u->positions[i]);
                c.normals.assign(u->normals, u->normals + 3 * u->vertex_count);
                c.faces.assign(u->indices, u->indices + u->index_count);
            }
            static_cast<std::vector<Copy>*>(user)->push_back(std::move(c));
        };
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_world_deliver(w_.get(), budget_ms, callback, &copies);
        }
        check(rc);
        std::vector<ChunkUpdate> out;
        for (const Copy& c : copies) {
            ChunkUpdate u;
            u.chunk = {c.head.x, c.head.y, c.head.z, c.head.lod};
            u.dropped = c.head.dropped != 0;
            u.visible = c.head.visible != 0;
            if (c.head.has_mesh) {
                const auto nv = static_cast<py::ssize_t>(c.vertices.size() / 3), nf = static_cast<py::ssize_t>(c.faces.size() / 3);
                u.vertices = py::array_t<float>({nv, py::ssize_t{3}}, c.vertices.data());
                u.normals = py::array_t<float>({nv, py::ssize_t{3}}, c.normals.data());
                u.faces = py::array_t<std::uint32_t>({nf, py::ssize_t{3}}, c.faces.data());
            }
            out.push_back(std::move(u));
        }
        return out;
    }

private:
    Field field_;  // kept alive as long as the World
    struct Deleter {
        void operator()(isoterra_world* w) const { isoterra_world_free(w); }
    };
    std::unique_ptr<isoterra_world, Deleter> w_;
};

class Editor {
public:
    Editor(std::optional<std::string> path, const std::string& terrain, std::optional<std::int64_t> seed) {
        e_.reset(check(isoterra_editor_open(path ? path->c_str() : nullptr, terrain.c_str(), seed_or_own(seed))));
    }
    Field field() const { return Field(check(isoterra_editor_field(e_.get()))); }
    void apply(const std::string& brush, const std::vector<double>& centre, double radius, const std::string& mode,
               std::optional<double> strength) {
        if (centre.size() != 3) throw py::value_error("apply: centre must be (x, y, z)");
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_editor_apply(e_.get(), brush.c_str(), mode.c_str(), centre[0], centre[1], centre[2], radius,
                                       strength ? *strength : 0.0);
        }
        check(rc);
    }
    bool undo() { return walk(isoterra_editor_undo); }
    bool redo() { return walk(isoterra_editor_redo); }
    std::size_t edit_count() const { return isoterra_editor_edit_count(e_.get()); }

private:
    // Undo or redo, the GIL released: true when there was an edit to take back or apply.
    template <class Step>
    bool walk(Step step) {
        int rc;
        {
            py::gil_scoped_release free;
            rc = step(e_.get());
        }
        check(rc);
        return rc == 1;
    }

    struct Deleter {
        void operator()(isoterra_editor* e) const { isoterra_editor_free(e); }
    };
    std::unique_ptr<isoterra_editor, Deleter> e_;
};

}  // namespace

PYBIND11_MODULE(isoterra, m) {
    m.doc() =
        "isoterra: procedural smooth voxel terrain. Fields from presets or graph files, sampled into numpy "
        "arrays; regions meshed; a streaming World; edits kept in world files; glb bytes.";
    m.attr("ABI_VERSION") = isoterra_abi_version();
    static py::exception<std::runtime_error> error(m, "Error", PyExc_ValueError);
    error.doc() = "Bad input or a failure, with the isoterra program's one-line message.";
    error_type = error.ptr();
    py::list meshers, labels;
    for (int i = 0; isoterra_mesher_name(i); ++i) meshers.append(isoterra_mesher_name(i)), labels.append(isoterra_mesher_label(i));
    m.attr("MESHERS") = py::tuple(meshers);
    m.attr("MESHER_LABELS") = py::tuple(labels);
    py::list materials;
    for (int i = 0; isoterra_material_name(i); ++i) materials.append(isoterra_material_name(i));
    m.attr("MATERIALS") = py::tuple(materials);

    py::class_<Field>(m, "Field", "A terrain: a scalar field, negative in rock, positive in air (metres, Y up).")
        .def_static("preset", &Field::preset, py::arg("name"), py::arg("seed") = py::none(),
                    "A built-in preset or graph by name ('tutorial', 'alpine', ...); seed None: its own.")
        .def_static("from_file", &Field::from_file, py::arg("path"), py::arg("seed") = py::none(),
                    "A preset or field graph file (TOML); its heightmap files are read relative to its folder.")
        .def_static("from_text", &Field::from_text, py::arg("text"), py::arg("seed") = py::none(), py::arg("directory") = "",
                    "A preset or field graph from TOML text; heightmap files relative to `directory`.")
        .def_property_readonly("name", &Field::name, "The preset's or graph's name.")
        .def_property_readonly("seed", &Field::seed, "The seed in use.")
        .def("sample", &Field::sample, py::arg("points"),
             "Values at an (N, 3) array of points as float64 (N,): what `isoterra sample` prints.")
        .def("lattice", &Field::lattice, py::arg("origin"), py::arg("shape"), py::arg("step"), py::arg("out") = py::none(),
             "Values on a lattice as float32 of shape (nz, ny, nx): sample [k, j, i] at origin + (i, j, k) * step; "
             "origin a whole multiple of step. `out`: a C-contiguous float32 array of that shape to write into "
             "(returned), else a new one.")
        .def("ground", &Field::ground, py::arg("xz"), "Ground heights at an (N, 2) array of (x, z) as float64 (N,).")
        .def("heightmap", &Field::heightmap, py::arg("lo"), py::arg("hi"), py::arg("step"),
             "Ground heights from lo = (x0, z0) to hi = (x1, z1) every `step` metres: float64 (rows along z, columns along x).")
        .def("raycast", &Field::raycast, py::arg("origin"), py::arg("direction"), py::arg("max_distance") = 1000.0,
             "The first point (x, y, z) where the ray enters rock within max_distance metres, or None.");

    py::class_<Mesh>(m, "Mesh", "Triangles of a region, owned by the library; the arrays are read-only views of its buffers.")
        .def_property_readonly("vertices", buffer_view(isoterra_mesh_positions, false, 3), "float32 (N, 3): positions in world metres.")
        .def_property_readonly("normals", buffer_view(isoterra_mesh_normals, false, 3), "float32 (N, 3): unit normals.")
        .def_property_readonly("faces", buffer_view(isoterra_mesh_indices, true, 3),
                               "uint32 (M, 3): vertex indices, counter-clockwise seen from the air.")
        .def_property_readonly("materials", buffer_view(isoterra_mesh_materials, false, 0),
                               "uint8 (N,): each vertex's dominant material, an index into isoterra.MATERIALS.")
        .def_property_readonly("colours", buffer_view(isoterra_mesh_colours, false, 3),
                               "float32 (N, 3): material colours, linear RGB in [0, 1].")
        .def("glb", &Mesh::glb, py::arg("compress") = false,
             "The mesh as glTF 2.0 binary bytes, as `isoterra mesh -o x.glb` writes it; compress: quantized and "
             "meshopt-compressed, as with --compress.")
        .def("__repr__", [](const Mesh& me) {
            return "<isoterra.Mesh " + std::to_string(me.vertex_count()) + " vertices, " + std::to_string(me.triangle_count()) +
                   " triangles>";
        });

    m.def("mesh", &mesh_region, py::arg("field"), py::arg("lo"), py::arg("hi"), py::arg("mesher") = "marching-cubes", py::arg("lod") = 0,
          py::arg("threads") = 0,
          "Meshes the chunks covering the box [lo, hi) (at most 4096) at level of detail `lod` (samples 2**lod m apart); "
          "at level 0 the triangles `isoterra mesh --from lo --to hi` writes. threads 0: every core.");

    py::class_<ChunkUpdate>(m, "ChunkUpdate", "One chunk's news from World.deliver().")
        .def_readonly("chunk", &ChunkUpdate::chunk, "(x, y, z, lod)")
        .def_readonly("dropped", &ChunkUpdate::dropped, "True: the chunk is gone, forget its triangles.")
        .def_readonly("visible", &ChunkUpdate::visible, "Whether the chunk is drawn.")
        .def_readonly("vertices", &ChunkUpdate::vertices,
                      "float32 (N, 3) world metres when visible (its triangles as drawn now), else None.")
        .def_readonly("normals", &ChunkUpdate::normals)
        .def_readonly("faces", &ChunkUpdate::faces, "uint32 (M, 3), with vertices.");

    py::class_<World>(m, "World", "The streaming world: chunks of every level of detail around a focus, built by worker threads.")
        .def(py::init<const Field&, double, int, int, const std::string&, long long>(), py::arg("field"), py::arg("view_distance") = 8000.0,
             py::arg("radius") = 8, py::arg("threads") = 0, py::arg("mesher") = "marching-cubes", py::arg("triangle_budget") = 6000000,
             "triangle_budget: what the view may show, the rings narrowing below radius (0: no limit).")
        .def("set_focus", &World::set_focus, py::arg("focus"), "Moves the focus (x, y, z); call once a frame.")
        .def("deliver", &World::deliver, py::arg("budget_ms") = 8.0, "The chunk updates finished so far, within budget_ms.")
        .def_property_readonly("settled", &World::settled, "True when all around the focus is built and delivered.");

    py::class_<Editor>(m, "Editor", "Edits over a terrain, saved to a world file (SQLite) when a path is given; undo and redo.")
        .def(py::init<std::optional<std::string>, const std::string&, std::optional<std::int64_t>>(), py::arg("path") = py::none(),
             py::arg("terrain") = "tutorial", py::arg("seed") = py::none(),
             "Opens the world file at `path`, creating it from `terrain` (a preset's name or a file) when missing; "
             "path None: edits in memory only.")
        .def_property_readonly("field", &Editor::field, "The terrain with the edits so far (a snapshot).")
        .def("apply", &Editor::apply, py::arg("brush"), py::arg("centre"), py::arg("radius"), py::arg("mode") = "carve",
             py::arg("strength") = py::none(), "Applies a brush ('sphere', 'smooth', 'flatten') and saves it.")
        .def("undo", &Editor::undo, "Takes back the last edit; False when there is none.")
        .def("redo", &Editor::redo, "Applies the next undone edit; False when there is none.")
        .def_property_readonly("edit_count", &Editor::edit_count, "The edits in effect.");
}
