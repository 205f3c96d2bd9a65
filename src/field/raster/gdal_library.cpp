// Loading GDAL on first use (gdal_library.hpp).
#include "gdal_library.hpp"

#ifdef ISOTERRA_HAS_GDAL
#include <dlfcn.h>

#include <fmt/format.h>

#include "height_raster.hpp"
#include "isoterra/base.hpp"

namespace isoterra::graph {
namespace {

GdalLibrary load_gdal() {
    // Kept loaded to the end: GDAL's drivers and caches live as long as the process.
    void* handle = ::dlopen(ISOTERRA_GDAL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw RasterError(fmt::format("GDAL ({}) cannot be loaded: {}", ISOTERRA_GDAL_LIBRARY, text_excerpt(::dlerror(), 200)));
    GdalLibrary lib;
#define ISOTERRA_GDAL_LOOKUP(name)                                          \
    lib.name = reinterpret_cast<decltype(&::name)>(::dlsym(handle, #name)); \
    if (!lib.name) throw RasterError(fmt::format("GDAL ({}) has no function {}", ISOTERRA_GDAL_LIBRARY, #name));
    ISOTERRA_GDAL_FUNCTIONS(ISOTERRA_GDAL_LOOKUP)
#undef ISOTERRA_GDAL_LOOKUP
    return lib;
}

}  // namespace

const GdalLibrary& gdal() {
    // A throw leaves it unset: the next raster tries again and says why again.
    static const GdalLibrary lib = load_gdal();
    return lib;
}

}  // namespace isoterra::graph
#endif
