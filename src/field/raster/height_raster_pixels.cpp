// A raster's pixels for callers outside field/ (`isoterra landform`): read as a
// `heightmap` node reads it, then, for GDAL rasters, the band's mask puts back the no-data
// pixels the node fills with the lowest height (a measure must leave them out).
#include <cctype>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "height_raster.hpp"

#include "gdal_library.hpp"

namespace isoterra {
namespace {

// As the node's reader decides: by the name's ending, in any case.
bool is_png(const std::string& path) {
    if (path.size() < 4) return false;
    std::string tail = path.substr(path.size() - 4);
    for (char& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return tail == ".png";
}

#ifdef ISOTERRA_HAS_GDAL
// Sets NaN where band 1's mask says no data (nodata values, alpha, per-dataset masks).
void apply_gdal_mask(const std::string& path, HeightRasterPixels& out) {
    const graph::QuietGdal quiet;
    GDALDatasetH dataset = graph::gdal().GDALOpen(path.c_str(), GA_ReadOnly);
    if (!dataset) throw RasterError(fmt::format("{}: GDAL cannot read it as a raster", graph::shown(path)));
    struct Close {
        GDALDatasetH d;
        ~Close() { graph::gdal().GDALClose(d); }
    } close{dataset};
    GDALRasterBandH band = graph::gdal().GDALGetRasterBand(dataset, 1);
    if (!band || (graph::gdal().GDALGetMaskFlags(band) & GMF_ALL_VALID)) return;
    GDALRasterBandH mask = graph::gdal().GDALGetMaskBand(band);
    std::vector<unsigned char> valid(out.heights.size());
    if (!mask || graph::gdal().GDALRasterIO(mask, GF_Read, 0, 0, out.width, out.height, valid.data(), out.width, out.height, GDT_Byte, 0,
                                            0) != CE_None)
        throw RasterError(fmt::format("{}: cannot read the no-data mask of band 1", graph::shown(path)));
    for (std::size_t i = 0; i < valid.size(); ++i)
        if (!valid[i]) out.heights[i] = NAN;
}
#endif

}  // namespace

HeightRasterPixels read_height_raster(const std::string& path, double planned_bytes_per_pixel) {
    graph::RasterPlacement placement;
    // Beside the caller's: this copy of the heights and the no-data mask.
    placement.later_bytes_per_pixel = planned_bytes_per_pixel + sizeof(float) + 1.0;
    const auto raster = graph::load_height_raster(path, placement);
    HeightRasterPixels out;
    out.width = raster->width, out.height = raster->height;
    out.heights = raster->heights;
    out.from = raster->from, out.to = raster->to;
#ifdef ISOTERRA_HAS_GDAL
    if (!is_png(path)) apply_gdal_mask(path, out);
#else
    (void)is_png;
#endif
    return out;
}

}  // namespace isoterra
