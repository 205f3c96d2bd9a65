// Height rasters: reading a file (PNG here or through GDAL), its digest, and the bilinear
// height and its range over a rectangle. The range of a bilinear patch lies within its four
// corner pixels, so the pixels under a rectangle (one more on each side) bound it.
#include "height_raster.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include <sys/stat.h>

#include <fmt/format.h>

#include "field/compile/toml_files.hpp"
#include "isoterra/base.hpp"

namespace isoterra::graph {
namespace {

// The digest a world file keeps: of what the raster is, not of one file, so that a changed
// sidecar, a VRT's changed source or a changed placement all change it.
std::string content_digest(const HeightRaster& r) {
    Sha256 h;
    h.update(fmt::format("{}x{} from {:a},{:a} to {:a},{:a}\n", r.width, r.height, r.from.x, r.from.y, r.to.x, r.to.y));
    h.update(std::string_view(reinterpret_cast<const char*>(r.heights.data()), r.heights.size() * sizeof(float)));
    return h.hex();
}

bool ends_with(const std::string& s, const char* tail) {
    const std::string t(tail);
    if (s.size() < t.size()) return false;
    return std::equal(t.rbegin(), t.rend(), s.rbegin(), [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

// Where `v` falls among `n` pixel centres spread from `a` to `b`: a pixel index, fractional.
double pixel_of(double v, double a, double b, int n) {
    if (n < 2 || a == b) return 0.0;
    return std::clamp((v - a) / (b - a) * (n - 1), 0.0, static_cast<double>(n - 1));
}

// The file as it stands: device, inode, size and change time ("" when it cannot be stat'ed).
std::string identity(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return "";
    return fmt::format("{}:{}:{}:{}.{}", st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

std::shared_ptr<const HeightRaster> read_height_raster(const std::string& path, const RasterPlacement& placement) {
    auto raster = std::make_shared<HeightRaster>();
    raster->path = path;
    try {
        if (ends_with(path, ".png")) {
            read_png_raster(path, detail::read_small_file(path, "raster", std::size_t{1} << 30), placement, *raster);
        } else {
            detail::check_small_file(path, "raster", std::size_t{1} << 40);  // a regular file, as for a PNG
            read_gdal_raster(path, placement, *raster);
        }
    } catch (const RasterError&) {
        throw;
    } catch (const TerrainError& e) {
        throw RasterError(e.what());
    }
    if (placement.from) raster->from = *placement.from;
    if (placement.to) raster->to = *placement.to;
    if (raster->width < 1 || raster->height < 1 || raster->heights.size() != static_cast<std::size_t>(raster->width) * raster->height)
        throw RasterError(fmt::format("{}: the raster has no pixels", shown(path)));
    if (!(std::isfinite(raster->from.x) && std::isfinite(raster->from.y) && std::isfinite(raster->to.x) && std::isfinite(raster->to.y)) ||
        std::fabs(raster->from.x) > 1e9 || std::fabs(raster->from.y) > 1e9 || std::fabs(raster->to.x) > 1e9 ||
        std::fabs(raster->to.y) > 1e9)
        throw RasterError(fmt::format("{}: its extent is not within +-1e9 m", shown(path)));
    if ((raster->width > 1 && raster->from.x == raster->to.x) || (raster->height > 1 && raster->from.y == raster->to.y))
        throw RasterError(fmt::format("{}: its extent has no width or no depth", shown(path)));
    raster->digest = content_digest(*raster);
    const auto [lo, hi] = std::minmax_element(raster->heights.begin(), raster->heights.end());
    raster->lowest = *lo, raster->highest = *hi;
    if (!std::isfinite(raster->lowest) || !std::isfinite(raster->highest) || std::fabs(raster->lowest) > kRasterHeightLimit_m ||
        std::fabs(raster->highest) > kRasterHeightLimit_m)
        throw RasterError(fmt::format("{}: heights must be finite and within +-1e7 m", shown(path)));
    return raster;
}

}  // namespace

double HeightRaster::at(double x, double z) const {
    const double u = pixel_of(x, from.x, to.x, width), v = pixel_of(z, from.y, to.y, height);
    if (std::isnan(u) || std::isnan(v)) return std::nan("");
    const int i = std::min(static_cast<int>(u), std::max(width - 2, 0)), j = std::min(static_cast<int>(v), std::max(height - 2, 0));
    const int i1 = std::min(i + 1, width - 1), j1 = std::min(j + 1, height - 1);
    const double s = u - i, t = v - j;
    const auto h = [&](int c, int r) { return static_cast<double>(heights[static_cast<std::size_t>(r) * width + c]); };
    const double top = h(i, j) + (h(i1, j) - h(i, j)) * s;
    const double bottom = h(i, j1) + (h(i1, j1) - h(i, j1)) * s;
    return top + (bottom - top) * t;
}

ValueRange HeightRaster::range(double x0, double x1, double z0, double z1) const {
    const ValueRange all{static_cast<double>(lowest), static_cast<double>(highest)};
    if (!(std::isfinite(x0) && std::isfinite(x1) && std::isfinite(z0) && std::isfinite(z1))) return all;
    const double ua = pixel_of(x0, from.x, to.x, width), ub = pixel_of(x1, from.x, to.x, width);
    const double va = pixel_of(z0, from.y, to.y, height), vb = pixel_of(z1, from.y, to.y, height);
    const int c0 = static_cast<int>(std::floor(std::min(ua, ub))), c1 = static_cast<int>(std::ceil(std::max(ua, ub)));
    const int r0 = static_cast<int>(std::floor(std::min(va, vb))), r1 = static_cast<int>(std::ceil(std::max(va, vb)));
    // A window too large to scan cheaply takes the whole raster's range.
    if (static_cast<double>(c1 - c0 + 1) * (r1 - r0 + 1) > 65536.0) return all;
    float lo = highest, hi = lowest;
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c) {
            const float h = heights[static_cast<std::size_t>(r) * width + c];
            lo = std::min(lo, h), hi = std::max(hi, h);
        }
    return {static_cast<double>(lo), static_cast<double>(hi)};
}

std::shared_ptr<const HeightRaster> load_height_raster(const std::string& path, const RasterPlacement& placement) {
    // A graph is compiled more than once (checked, stored, built): a raster that is still
    // held, unchanged on disk, with the same placement, is shared instead of read again.
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<const HeightRaster>> held;
    const auto pair = [](const std::optional<glm::dvec2>& v) { return v ? fmt::format("{},{}", v->x, v->y) : std::string("-"); };
    const std::string sidecar = ends_with(path, ".png") ? identity(path.substr(0, path.size() - 4) + ".json") : "";
    const std::string key =
        fmt::format("{}|{}|{}|{}|{}|{}", path, identity(path), sidecar, pair(placement.from), pair(placement.to), pair(placement.heights));
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = held.find(key); it != held.end())
            if (auto raster = it->second.lock()) return raster;
    }
    auto raster = read_height_raster(path, placement);
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = held.begin(); it != held.end();) it = it->second.expired() ? held.erase(it) : std::next(it);
    held[key] = raster;
    return raster;
}

}  // namespace isoterra::graph
