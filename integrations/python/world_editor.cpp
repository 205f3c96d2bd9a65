// The Python module's streaming World and Editor over the C API. The C API serialises the
// calls on one handle; each call here releases the GIL first, so a thread waiting for its
// turn never holds up the others (nor the one whose turn it is).
#include "field.hpp"

namespace isoterra_py {
namespace {

// One chunk's news from World.deliver().
struct ChunkUpdate {
    std::tuple<int, int, int, int> chunk;  // x, y, z, lod
    bool dropped = false, visible = false;
    py::object vertices = py::none(), normals = py::none(), faces = py::none();
};

class World {
public:
    World(const Field& field, double view_distance, int radius, int threads, const Name& mesher, long long triangle_budget)
        : field_(field) {
        if (triangle_budget < 0) throw py::value_error("World: triangle_budget must be 0 (no limit) or more");
        isoterra_world_settings s{view_distance, radius, threads, mesher.c_str("mesher"), triangle_budget == 0 ? -1 : triangle_budget};
        w_.reset(check(isoterra_world_new(field.get(), &s)));
    }
    ~World() {
        py::gil_scoped_release free;  // workers finish their jobs first
        w_.reset();
    }
    void set_focus(const std::vector<double>& p) {
        if (p.size() != 3) throw py::value_error("set_focus: the focus must be (x, y, z)");
        int rc;
        {
            py::gil_scoped_release free;  // it waits while another thread delivers
            rc = isoterra_world_set_focus(w_.get(), p[0], p[1], p[2]);
        }
        check(rc);
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
    Editor(const std::optional<Path>& path, const Path& terrain, std::optional<std::int64_t> seed) {
        const char* file = isoterra_py::c_str_or_null(path, "path");
        const char* source = terrain.c_str("terrain");
        isoterra_editor* e;
        {
            py::gil_scoped_release free;
            e = isoterra_editor_open(file, source, seed_or_own(seed));
        }
        e_.reset(check(e));
    }
    // Every call on the editor releases the GIL: it waits while another thread edits.
    Field field() const {
        isoterra_field* f;
        {
            py::gil_scoped_release free;
            f = isoterra_editor_field(e_.get());
        }
        return Field(check(f));
    }
    void apply(const Name& brush, const std::vector<double>& centre, double radius, const Name& mode, std::optional<double> strength) {
        if (centre.size() != 3) throw py::value_error("apply: centre must be (x, y, z)");
        const char *kind = brush.c_str("brush"), *how = mode.c_str("mode");
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_editor_apply(e_.get(), kind, how, centre[0], centre[1], centre[2], radius, strength ? *strength : 0.0);
        }
        check(rc);
    }
    bool undo() { return walk(isoterra_editor_undo); }
    bool redo() { return walk(isoterra_editor_redo); }
    std::size_t edit_count() const {
        py::gil_scoped_release free;
        return isoterra_editor_edit_count(e_.get());
    }

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

void bind_world_and_editor(py::module_& m) {
    py::class_<ChunkUpdate>(m, "ChunkUpdate", "One chunk's news from World.deliver().")
        .def_readonly("chunk", &ChunkUpdate::chunk, "(x, y, z, lod)")
        .def_readonly("dropped", &ChunkUpdate::dropped, "True: the chunk is gone, forget its triangles.")
        .def_readonly("visible", &ChunkUpdate::visible, "Whether the chunk is drawn.")
        .def_readonly("vertices", &ChunkUpdate::vertices,
                      "float32 (N, 3) world metres when visible (its triangles as drawn now), else None.")
        .def_readonly("normals", &ChunkUpdate::normals)
        .def_readonly("faces", &ChunkUpdate::faces, "uint32 (M, 3), with vertices.");

    py::class_<World>(m, "World", "The streaming world: chunks of every level of detail around a focus, built by worker threads.")
        .def(py::init<const Field&, double, int, int, const Name&, long long>(), py::arg("field"), py::arg("view_distance") = 8000.0,
             py::arg("radius") = 8, py::arg("threads") = 0, py::arg("mesher") = "marching-cubes", py::arg("triangle_budget") = 6000000,
             "triangle_budget: what the view may show, the rings narrowing below radius (0: no limit).")
        .def("set_focus", &World::set_focus, py::arg("focus"), "Moves the focus (x, y, z); call once a frame.")
        .def("deliver", &World::deliver, py::arg("budget_ms") = 8.0, "The chunk updates finished so far, within budget_ms.")
        .def_property_readonly("settled", &World::settled, "True when all around the focus is built and delivered.");

    py::class_<Editor>(m, "Editor", "Edits over a terrain, saved to a world file (SQLite) when a path is given; undo and redo.")
        .def(py::init<const std::optional<Path>&, const Path&, std::optional<std::int64_t>>(), py::arg("path") = py::none(),
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

}  // namespace isoterra_py
