// The Python module's one policy for text going into the C API, whose strings end at the
// first NUL: every string argument is a Name (str, UTF-8) or a Path (str, bytes or
// os.PathLike, as open() takes it: the file system's encoding, undecodable bytes kept by
// surrogateescape), and reaches C only through c_str(), which refuses a NUL (the C API
// would read the text cut there: another file, another preset) and text that cannot be
// encoded, raising isoterra.Error naming the argument.
#pragma once

#include <optional>
#include <string>

#include <pybind11/pybind11.h>

namespace isoterra_py {

/// Raised for every error the C API reports and for text refused here (isoterra.Error).
extern PyObject* error_type;

/// Raises isoterra.Error with `message` (UTF-8; bytes that are not are shown escaped).
[[noreturn]] void raise_error(const std::string& message);
/// As raise_error, with the exception type `type` (isoterra.Error or one of its subclasses).
[[noreturn]] void raise_error_as(PyObject* type, const std::string& message);

/// A string argument's bytes as C will read them, or why it cannot be given to C.
struct Text {
    std::string bytes;
    std::string problem;  // empty when it can
    /// The NUL-terminated bytes; raises isoterra.Error naming `argument` when the text holds
    /// a NUL or could not be encoded.
    const char* c_str(const char* argument) const;
};
/// A name or TOML text: a str, encoded as UTF-8 (a lone surrogate is refused).
struct Name : Text {};
/// A file's path (or a preset's name where either is taken): str, bytes or os.PathLike.
struct Path : Text {};

/// c_str of an optional argument: NULL for None.
template <class T>
const char* c_str_or_null(const std::optional<T>& text, const char* argument) {
    return text ? text->c_str(argument) : nullptr;
}

bool load_name(pybind11::handle src, Name& out);
bool load_path(pybind11::handle src, Path& out);

}  // namespace isoterra_py

namespace pybind11::detail {

template <>
struct type_caster<isoterra_py::Name> {
    PYBIND11_TYPE_CASTER(isoterra_py::Name, const_name("str"));
    bool load(handle src, bool) { return isoterra_py::load_name(src, value); }
    static handle cast(const isoterra_py::Name& v, return_value_policy, handle) { return pybind11::str(v.bytes).release(); }
};

template <>
struct type_caster<isoterra_py::Path> {
    PYBIND11_TYPE_CASTER(isoterra_py::Path, const_name("os.PathLike"));
    bool load(handle src, bool) { return isoterra_py::load_path(src, value); }
    static handle cast(const isoterra_py::Path& v, return_value_policy, handle) { return pybind11::bytes(v.bytes).release(); }
};

}  // namespace pybind11::detail
