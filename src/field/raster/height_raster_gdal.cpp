// Height rasters through GDAL (GeoTIFF and every other raster it reads): band 1 with its
// scale and offset, placed by the geotransform (world x = X, world z = -Y: north is -z in
// the right-handed, y-up frame) unless the node gives `from` and `to`. No-data pixels take
// the lowest valid height. Built only where GDAL was found; elsewhere the error says so.
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "height_raster.hpp"
#include "isoterra/base.hpp"

#include "gdal_library.hpp"

namespace isoterra::graph {

#ifdef ISOTERRA_HAS_GDAL
QuietGdal::QuietGdal() {
    static std::once_flag registered;
    std::call_once(registered, [] { gdal().GDALAllRegister(); });
    gdal().CPLPushErrorHandler(gdal().CPLQuietErrorHandler);
}

QuietGdal::~QuietGdal() { gdal().CPLPopErrorHandler(); }

namespace {

std::string last_gdal_error() {
    const char* m = gdal().CPLGetLastErrorMsg();
    return m && *m ? std::string(m).substr(0, 200) : "GDAL gave no reason";
}

}  // namespace

void read_gdal_raster(const std::string& path, const RasterPlacement& placement, HeightRaster& raster) {
    const QuietGdal quiet;
    gdal().CPLErrorReset();
    check_gdal_raster_files(path);
    GDALDatasetH dataset = gdal().GDALOpen(path.c_str(), GA_ReadOnly);
    if (!dataset) throw RasterError(fmt::format("{}: GDAL cannot read it as a raster ({})", shown(path), last_gdal_error()));
    struct Close {
        GDALDatasetH d;
        ~Close() { gdal().GDALClose(d); }
    } close{dataset};
    const int width = gdal().GDALGetRasterXSize(dataset), height = gdal().GDALGetRasterYSize(dataset);
    if (gdal().GDALGetRasterCount(dataset) < 1 || width < 1 || height < 1)
        throw RasterError(fmt::format("{}: the raster has no band", shown(path)));
    if (static_cast<std::size_t>(width) * static_cast<std::size_t>(height) > kMaxRasterPixels)
        throw RasterError(
            fmt::format("{}: {}x{} pixels, more than the {} a raster may have", shown(path), width, height, kMaxRasterPixels));
    if (placement.heights) throw RasterError(fmt::format("{}: input 'heights' is for PNG files; GDAL's rasters hold metres", shown(path)));
    // Held at once: the band as doubles, the heights as floats (and what the caller holds after).
    check_memory_budget(static_cast<double>(width) * height * (sizeof(double) + sizeof(float) + placement.later_bytes_per_pixel),
                        fmt::format("{}: reading {}x{} pixels", shown(path), width, height));
    GDALRasterBandH band = gdal().GDALGetRasterBand(dataset, 1);
    std::vector<double> values(static_cast<std::size_t>(width) * height);
    if (gdal().GDALRasterIO(band, GF_Read, 0, 0, width, height, values.data(), width, height, GDT_Float64, 0, 0) != CE_None)
        throw RasterError(fmt::format("{}: cannot read band 1 ({})", shown(path), last_gdal_error()));
    int has = 0;
    const double scale = gdal().GDALGetRasterScale(band, &has);
    const double applied_scale = has ? scale : 1.0;
    const double offset = gdal().GDALGetRasterOffset(band, &has);
    const double applied_offset = has ? offset : 0.0;
    int has_nodata = 0;
    const double nodata = gdal().GDALGetRasterNoDataValue(band, &has_nodata);
    double lowest = INFINITY;
    for (double& v : values) {
        if ((has_nodata && (v == nodata || (std::isnan(nodata) && std::isnan(v)))) || !std::isfinite(v)) {
            v = NAN;
            continue;
        }
        v = applied_offset + v * applied_scale;
        lowest = std::min(lowest, v);
    }
    if (!std::isfinite(lowest)) throw RasterError(fmt::format("{}: every pixel is no-data", shown(path)));
    raster.width = width, raster.height = height;
    raster.heights.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) raster.heights[i] = static_cast<float>(std::isnan(values[i]) ? lowest : values[i]);
    if (placement.from && placement.to) return;
    double gt[6];
    if (gdal().GDALGetGeoTransform(dataset, gt) != CE_None)
        throw RasterError(fmt::format("{}: not georeferenced; give the node 'from' and 'to' (metres)", shown(path)));
    if (gt[2] != 0.0 || gt[4] != 0.0) throw RasterError(fmt::format("{}: a rotated geotransform is not supported", shown(path)));
    // Pixel centres: half a pixel in from the corner the geotransform names.
    raster.from = {gt[0] + 0.5 * gt[1], -(gt[3] + 0.5 * gt[5])};
    raster.to = {gt[0] + (width - 0.5) * gt[1], -(gt[3] + (height - 0.5) * gt[5])};
}

#else

void read_gdal_raster(const std::string& path, const RasterPlacement&, HeightRaster&) {
    throw RasterError(fmt::format("{}: this isoterra was built without GDAL and reads PNG heightmaps only", shown(path)));
}

#endif

}  // namespace isoterra::graph
