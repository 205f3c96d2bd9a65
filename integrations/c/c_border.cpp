// The C API's last error, kept per thread in the program's text policy (printable()), and
// the functions about the interface itself.
#include "c_border.hpp"

#include "isoterra/base.hpp"

namespace isoterra::c_api {
namespace {
thread_local std::string last_error;
// The shared handles whose lock the calling thread holds (a World's during deliver).
thread_local std::vector<const void*> held;
}  // namespace

HeldHere::HeldHere(const void* handle, const char* function) {
    for (const void* h : held)
        if (h == handle)
            throw CallError(std::string(function) +
                            ": called from inside a callback of a call on the same handle (it would wait for itself)");
    held.push_back(handle);
}

HeldHere::~HeldHere() { held.pop_back(); }

void clear_error() noexcept { last_error.clear(); }

void keep_error(const char* what) noexcept {
    try {
        // As the program prints its error lines: a user's text inside (a path, a name) can
        // neither forge a second line nor make a message of 100 KB.
        last_error = isoterra::printable(what ? what : "");
        if (last_error.empty()) last_error = "failed (no message)";
    } catch (...) {
        last_error = "out of memory";  // assigning a short literal after clear() does not allocate
    }
}

isoterra::Mesher mesher_named(const char* name) {
    isoterra::Mesher m = isoterra::Mesher::marching_cubes;
    if (name && !isoterra::parse_mesher(name, m))
        throw CallError("unknown mesher '" + isoterra::text_excerpt(name) + "' (" + isoterra::mesher_names(", ") + ")");
    return m;
}

}  // namespace isoterra::c_api

extern "C" {

int isoterra_abi_version(void) {
    isoterra::c_api::clear_error();
    return ISOTERRA_ABI_VERSION;
}

const char* isoterra_last_error(void) { return isoterra::c_api::last_error.c_str(); }

}  // extern "C"
