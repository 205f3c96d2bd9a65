// The Python module `isoterra` (pybind11) over the C API: numpy arrays in and out, the
// library's buffers shown without a copy, the GIL released while the library works, and the
// C API's one-line errors raised as isoterra.Error.
#include "field.hpp"

using isoterra_py::check;
using isoterra_py::Field;
using isoterra_py::Name;
namespace py = pybind11;

namespace {

struct MeshDeleter {
    void operator()(isoterra_mesh* m) const { isoterra_mesh_free(m); }
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

Mesh mesh_region(const Field& field, const std::vector<double>& lo, const std::vector<double>& hi, const Name& mesher, int lod,
                 int threads) {
    if (lo.size() != 3 || hi.size() != 3) throw py::value_error("mesh: lo and hi must be (x, y, z)");
    if (threads < 0) throw py::value_error("mesh: threads must not be negative (0: every core)");
    const char* mesher_name = mesher.c_str("mesher");
    isoterra_mesh* m;
    {
        py::gil_scoped_release free;
        m = isoterra_mesh_region(field.get(), lo.data(), hi.data(), mesher_name, lod, threads);
    }
    return Mesh(check(m));
}

}  // namespace

PYBIND11_MODULE(isoterra, m) {
    m.doc() =
        "isoterra: procedural smooth voxel terrain. Fields from presets or graph files, sampled into numpy "
        "arrays; regions meshed; a streaming World; edits kept in world files; glb bytes; navigation meshes and paths.";
    // numpy's C API is looked up once, here, while importing holds the GIL and no other
    // thread can ask: looked up by the first call that makes an array, it imports numpy
    // inside a C++ static's initialisation, and a second thread's first call then waits on
    // that static holding the GIL the import waits for (a hang).
    py::module_::import("numpy");
    py::detail::npy_api::get();
    m.attr("ABI_VERSION") = isoterra_abi_version();
    static py::exception<std::runtime_error> error(m, "Error", PyExc_ValueError);
    error.doc() = "Bad input or a failure, with the isoterra program's one-line message.";
    isoterra_py::error_type = error.ptr();
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
        .def("rivers", &Field::rivers, py::arg("lo"), py::arg("hi"), py::arg("step") = 10.0, py::arg("min_area_km2") = 1.0,
             py::arg("threads") = 0,
             "The river network from lo = (x0, z0) to hi = (x1, z1), the ground read every `step` metres on its whole "
             "multiples: what `isoterra landform --rivers` writes. A list of dicts, one a reach between junctions, "
             "upstream first: 'points' float64 (N, 3) of x, z and the water level, 'order' (Strahler, 1 for the "
             "smallest), 'width_m', 'area_km2'. A channel wherever the drainage area reaches min_area_km2.")
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

    isoterra_py::bind_world_and_editor(m);
    isoterra_py::bind_nav(m);
}
