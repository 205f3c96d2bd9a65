// The Python module's NavMesh: the C API's navigation mesh over a region of a field, the
// agent given as a dict, paths as float64 (N, 3) arrays; "no path" raised as its own
// subclass of isoterra.Error. The GIL is released while tiles build and while a query waits
// for the mesh's lock.
#include "field.hpp"

namespace isoterra_py {
namespace {

PyObject* no_path_type = nullptr;

struct NavDeleter {
    void operator()(isoterra_navmesh* n) const { isoterra_navmesh_free(n); }
};

// The agent's settings as the dict names them, with the field of isoterra_agent each sets.
const struct {
    const char* key;
    double isoterra_agent::*member;
} kAgentKeys[] = {{"height", &isoterra_agent::height_m},       {"radius", &isoterra_agent::radius_m},
                  {"max_climb", &isoterra_agent::max_climb_m}, {"max_slope", &isoterra_agent::max_slope_deg},
                  {"cell_size", &isoterra_agent::cell_size_m}, {"cell_height", &isoterra_agent::cell_height_m}};

isoterra_agent agent_from(const py::object& given) {
    isoterra_agent agent;
    isoterra_agent_defaults(&agent);
    if (given.is_none()) return agent;
    if (!py::isinstance<py::dict>(given)) throw py::type_error("agent: a dict of settings (height, radius, max_climb, ...) or None");
    const auto settings = py::reinterpret_borrow<py::dict>(given);
    std::size_t known = 0;
    for (const auto& k : kAgentKeys) {
        if (!settings.contains(k.key)) continue;
        ++known;
        const py::handle v = settings[k.key];
        if (!(PyFloat_Check(v.ptr()) || PyLong_Check(v.ptr()))) throw py::type_error(std::string("agent: ") + k.key + " must be a number");
        const double value = PyFloat_AsDouble(v.ptr());
        if (value == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();  // an int too large for a double
            throw py::value_error(std::string("agent: ") + k.key + " is out of range");
        }
        agent.*k.member = value;
    }
    if (known != settings.size())
        throw py::value_error("agent: unknown setting (the settings are height, radius, max_climb, max_slope, cell_size, cell_height)");
    return agent;
}

class NavMesh {
public:
    NavMesh(const Field& field, const std::vector<double>& lo, const std::vector<double>& hi, const py::object& agent, int threads) {
        if (lo.size() != 2 || hi.size() != 2) throw py::value_error("NavMesh: lo and hi must be (x, z)");
        if (threads < 0) throw py::value_error("NavMesh: threads must not be negative (0: every core)");
        const isoterra_agent settings = agent_from(agent);
        isoterra_navmesh* made;
        {
            py::gil_scoped_release free;
            made = isoterra_navmesh_new(field.get(), lo.data(), hi.data(), &settings, threads);
        }
        n_.reset(check(made), NavDeleter{});
    }

    py::array_t<double> path(const std::vector<double>& a, const std::vector<double>& b) const {
        if (a.size() != 3 || b.size() != 3) throw py::value_error("path: a and b must be (x, y, z)");
        isoterra_path found{};
        int rc;
        {
            py::gil_scoped_release free;
            rc = isoterra_navmesh_path(n_.get(), a.data(), b.data(), &found);
        }
        if (rc == ISOTERRA_NO_PATH) raise_error_as(no_path_type, isoterra_last_error());
        check(rc);
        py::array_t<double> out({static_cast<py::ssize_t>(found.point_count), py::ssize_t{3}});
        std::copy(found.points, found.points + 3 * found.point_count, out.mutable_data());
        isoterra_path_free(&found);
        return out;
    }

private:
    std::shared_ptr<isoterra_navmesh> n_;
};

}  // namespace

void bind_nav(py::module_& m) {
    static py::exception<std::runtime_error> no_path(m, "NoPathError", error_type);
    no_path.doc() = "Both points lie on walkable ground but no path joins them (the program's exit 3).";
    no_path_type = no_path.ptr();
    py::class_<NavMesh>(m, "NavMesh",
                        "A navigation mesh (Recast and Detour) over the 32 m chunk columns covering a region of a field, "
                        "its edits included: the tiles `isoterra navmesh` builds.")
        .def(py::init<const Field&, const std::vector<double>&, const std::vector<double>&, const py::object&, int>(), py::arg("field"),
             py::arg("lo"), py::arg("hi"), py::arg("agent") = py::none(), py::arg("threads") = 0,
             "Builds the tiles from lo = (x0, z0) to hi = (x1, z1) (at most 1024) for `agent`, a dict of any of height, "
             "radius, max_climb (metres), max_slope (degrees), cell_size, cell_height (metres); None or a missing key: "
             "the program's defaults. Settings out of range raise isoterra.Error naming the setting. threads 0: every core.")
        .def("path", &NavMesh::path, py::arg("a"), py::arg("b"),
             "The shortest path from a to b (each (x, y, z) on walkable ground), what `isoterra path` prints: float64 "
             "(N, 3) waypoints on the ground one to two metres apart. A point inside rock, in the air or outside the "
             "region raises isoterra.Error; no path joining them raises isoterra.NoPathError.");
}

}  // namespace isoterra_py
