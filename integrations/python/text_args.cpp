// The module's text policy for arguments (text_args.hpp): how a str, bytes or os.PathLike
// becomes the bytes the C API reads, and what is refused.
#include "text_args.hpp"

namespace py = pybind11;

namespace isoterra_py {

PyObject* error_type = nullptr;

void raise_error(const std::string& message) { raise_error_as(error_type, message); }

void raise_error_as(PyObject* type, const std::string& message) {
    // The C API's messages are UTF-8 already (printable()); anything else is shown escaped
    // rather than lost (PyErr_SetString would raise with no message at all).
    const py::object text = py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "backslashreplace"));
    if (!text) throw py::error_already_set();
    PyErr_SetObject(type, text.ptr());
    throw py::error_already_set();
}

const char* Text::c_str(const char* argument) const {
    if (!problem.empty()) raise_error(std::string(argument) + ": " + problem);
    if (const auto nul = bytes.find('\0'); nul != std::string::npos)
        raise_error(std::string(argument) + ": a NUL character at byte " + std::to_string(nul) +
                    " (C reads text only up to a NUL: refused rather than cut)");
    return bytes.c_str();
}

bool load_name(py::handle src, Name& out) {
    if (!PyUnicode_Check(src.ptr())) return false;
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(src.ptr(), &size);
    if (!utf8) {
        PyErr_Clear();
        out.problem = "not valid Unicode (a lone surrogate has no UTF-8)";
        return true;
    }
    out.bytes.assign(utf8, static_cast<std::size_t>(size));
    return true;
}

bool load_path(py::handle src, Path& out) {
    // os.fspath(): a str, bytes, or what an os.PathLike returns; else not a path (TypeError).
    const auto path = py::reinterpret_steal<py::object>(PyOS_FSPath(src.ptr()));
    if (!path) {
        PyErr_Clear();
        return false;
    }
    py::object encoded = path;
    if (PyUnicode_Check(path.ptr())) {
        // As open() does: the file system's encoding, undecodable bytes back by surrogateescape.
        encoded = py::reinterpret_steal<py::object>(PyUnicode_EncodeFSDefault(path.ptr()));
        if (!encoded) {
            PyErr_Clear();
            out.problem = "not a file name the file system's encoding can hold (a lone surrogate)";
            return true;
        }
    }
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(encoded.ptr(), &data, &size) != 0) {
        PyErr_Clear();
        return false;
    }
    out.bytes.assign(data, static_cast<std::size_t>(size));
    return true;
}

}  // namespace isoterra_py
