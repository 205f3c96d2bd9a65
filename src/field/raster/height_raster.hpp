// Height rasters for `heightmap` nodes (internal to field/): a grid of heights in
// metres placed over the x-z plane, read once when the graph compiles and shared by every
// copy of the program. Bilinear between pixel centres, the edge pixels held beyond them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "isoterra/base.hpp"
#include "isoterra/graph.hpp"

namespace isoterra::graph {

struct HeightRaster {
    int width = 0, height = 0;
    std::vector<float> heights;     // metres, row by row; row r lies at z = from.y + r * (to.y - from.y) / (height - 1)
    glm::dvec2 from{0.0}, to{0.0};  // (x, z) of the centres of pixel (0, 0) and pixel (width - 1, height - 1)
    float lowest = 0.0f, highest = 0.0f;
    std::string path;    // as resolved
    std::string digest;  // SHA-256 of what it is made of: size, placement and heights (whichever files gave them)

    /// The height at (x, z): bilinear between the four nearest pixel centres.
    double at(double x, double z) const;
    /// A range holding every height at points of the rectangle [x0, x1] x [z0, z1].
    ValueRange range(double x0, double x1, double z0, double z1) const;
};

/// What a `heightmap` node says beside its file.
struct RasterPlacement {
    std::optional<glm::dvec2> from, to;  // pixel centres of the first and last pixel, metres
    std::optional<glm::dvec2> heights;   // what pixel values 0 and the largest mean (PNG only)
    double later_bytes_per_pixel = 0.0;  // what the caller holds per pixel after reading, planned before it
};

/// Reads `path` (a 16-bit or 8-bit grey PNG with the sidecar `isoterra heightmap` writes, or
/// any raster GDAL reads, georeferenced: world x = X, world z = -Y, so north is -z). Throws
/// RasterError "path: ..." (one line).
std::shared_ptr<const HeightRaster> load_height_raster(const std::string& path, const RasterPlacement& placement);

/// The readers behind it (height_raster_png.cpp, height_raster_gdal.cpp): each fills the
/// pixels and, when the file says it, the placement.
void read_png_raster(const std::string& path, const std::string& bytes, const RasterPlacement& placement, HeightRaster& raster);
void read_gdal_raster(const std::string& path, const RasterPlacement& placement, HeightRaster& raster);
/// Throws RasterError unless every file GDAL would read for `path` is a regular file: the
/// file, the sidecars beside it, a VRT's sources (nested too); and refuses a VRT's raw bands
/// (height_raster_gdal_files.cpp).
void check_gdal_raster_files(const std::string& path);
/// While it lives: GDAL registered (once) and its messages kept off stderr (they come back in
/// ours). Defined where GDAL is (ISOTERRA_HAS_GDAL).
struct QuietGdal {
    QuietGdal();
    ~QuietGdal();
    QuietGdal(const QuietGdal&) = delete;
    QuietGdal& operator=(const QuietGdal&) = delete;
};

/// A path as raster messages show it: escaped and, when long, its start and end (printable()),
/// so that a long `file` value cannot make a message of kilobytes.
inline std::string shown(const std::string& path) { return printable(path, 200); }

/// The most pixels a raster may have (a 16384 x 16384 one: 1 GiB of heights).
constexpr std::size_t kMaxRasterPixels = std::size_t{1} << 28;

}  // namespace isoterra::graph
