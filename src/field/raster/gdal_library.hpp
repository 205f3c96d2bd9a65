// GDAL's C functions that the raster readers call, looked up in libgdal the first time a
// raster needs them (dlopen) rather than linked: GDAL brings about a hundred libraries, and
// loading them cost every run of the program about 100 ms, rasters or not.
#pragma once

#ifdef ISOTERRA_HAS_GDAL
#include <cpl_error.h>
#include <cpl_minixml.h>
#include <gdal.h>

namespace isoterra::graph {

// clang-format off
#define ISOTERRA_GDAL_FUNCTIONS(X) \
    X(GDALAllRegister) X(GDALOpen) X(GDALClose) X(GDALGetRasterXSize) \
    X(GDALGetRasterYSize) X(GDALGetRasterCount) X(GDALGetRasterBand) X(GDALRasterIO) \
    X(GDALGetRasterScale) X(GDALGetRasterOffset) X(GDALGetRasterNoDataValue) X(GDALGetGeoTransform) \
    X(GDALGetMaskFlags) X(GDALGetMaskBand) X(CPLPushErrorHandler) X(CPLPopErrorHandler) \
    X(CPLQuietErrorHandler) X(CPLGetLastErrorMsg) X(CPLErrorReset) X(CPLParseXMLString) \
    X(CPLDestroyXMLNode) X(CPLGetXMLValue)
// clang-format on

/// The functions, each under its own name: `gdal().GDALOpen(...)`.
struct GdalLibrary {
#define ISOTERRA_GDAL_MEMBER(name) decltype(&::name) name = nullptr;
    ISOTERRA_GDAL_FUNCTIONS(ISOTERRA_GDAL_MEMBER)
#undef ISOTERRA_GDAL_MEMBER
};

/// Returns GDAL's functions, loading the library (ISOTERRA_GDAL_LIBRARY, the one it was built
/// against) on the first call. Throws RasterError, naming the library and why, where it
/// cannot be loaded or lacks one of them.
const GdalLibrary& gdal();

}  // namespace isoterra::graph
#endif
