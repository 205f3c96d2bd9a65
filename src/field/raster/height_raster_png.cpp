// Height rasters from PNG: grey, 16 or 8 bits, placed by the JSON sidecar that
// `isoterra heightmap` writes beside it (same name, .json) or by the node's own `from`,
// `to` and `heights`. Built without libspng (the browser build), such nodes say so.
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#ifdef ISOTERRA_HAS_SPNG
#include <spng.h>
#endif

#include "field/compile/toml_files.hpp"
#include "height_raster.hpp"
#include "isoterra/base.hpp"

namespace isoterra::graph {

#ifdef ISOTERRA_HAS_SPNG

namespace {

struct Sidecar {
    int width = 0, height = 0;
    glm::dvec2 from{0.0}, to{0.0}, heights{0.0};
};

// Reads the sidecar's placement; throws RasterError naming the sidecar and the key.
Sidecar read_sidecar(const std::string& path) {
    std::string text;
    try {
        text = detail::read_small_file(path, "heightmap sidecar", std::size_t{1} << 20);
    } catch (const TerrainError& e) {
        throw RasterError(e.what());
    }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw RasterError(fmt::format("{}: not a JSON object", shown(path)));
    const auto number = [&](const char* key) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_number() || !std::isfinite(it->get<double>()))
            throw RasterError(fmt::format("{}: key '{}': missing or not a finite number", shown(path), key));
        return it->get<double>();
    };
    const auto pair = [&](const char* key) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_array() || it->size() != 2 || !(*it)[0].is_number() || !(*it)[1].is_number())
            throw RasterError(fmt::format("{}: key '{}': missing or not a pair of numbers", shown(path), key));
        return glm::dvec2((*it)[0].get<double>(), (*it)[1].get<double>());
    };
    Sidecar s;
    const double w = number("width"), h = number("height");
    if (w != std::floor(w) || h != std::floor(h) || w < 1 || h < 1 || w > 1e6 || h > 1e6)
        throw RasterError(fmt::format("{}: keys 'width' and 'height' must be whole numbers of pixels", shown(path)));
    s.width = static_cast<int>(w), s.height = static_cast<int>(h);
    s.from = pair("from_xz_m"), s.to = pair("to_xz_m");
    s.heights = {number("min_height_m"), number("max_height_m")};
    return s;
}

}  // namespace

void read_png_raster(const std::string& path, const std::string& bytes, const RasterPlacement& placement, HeightRaster& raster) {
    spng_ctx* ctx = spng_ctx_new(0);
    if (!ctx) throw RasterError(fmt::format("{}: cannot start the PNG decoder", shown(path)));
    struct Free {
        spng_ctx* c;
        ~Free() { spng_ctx_free(c); }
    } owner{ctx};
    spng_set_image_limits(ctx, 1u << 20, 1u << 20);
    spng_set_png_buffer(ctx, bytes.data(), bytes.size());
    spng_ihdr ihdr{};
    if (const int err = spng_get_ihdr(ctx, &ihdr))
        throw RasterError(fmt::format("{}: not a readable PNG ({})", shown(path), spng_strerror(err)));
    if (ihdr.color_type != SPNG_COLOR_TYPE_GRAYSCALE || (ihdr.bit_depth != 16 && ihdr.bit_depth != 8))
        throw RasterError(fmt::format("{}: expected a greyscale PNG of 8 or 16 bits (got colour type {}, {} bits)", shown(path),
                                      ihdr.color_type, ihdr.bit_depth));
    if (static_cast<std::size_t>(ihdr.width) * ihdr.height > kMaxRasterPixels)
        throw RasterError(
            fmt::format("{}: {}x{} pixels, more than the {} a raster may have", shown(path), ihdr.width, ihdr.height, kMaxRasterPixels));
    const std::size_t pixels = static_cast<std::size_t>(ihdr.width) * ihdr.height;
    const std::size_t sample_bytes = ihdr.bit_depth / 8u;
    // Held at once: the file, its decoded samples, the heights as floats.
    check_memory_budget(
        static_cast<double>(bytes.size()) + static_cast<double>(pixels) * (sample_bytes + sizeof(float) + placement.later_bytes_per_pixel),
        fmt::format("{}: decoding {}x{} pixels", shown(path), ihdr.width, ihdr.height));
    std::vector<unsigned char> raw(pixels * sample_bytes);
    if (const int err = spng_decode_image(ctx, raw.data(), raw.size(), SPNG_FMT_PNG, 0))
        throw RasterError(fmt::format("{}: cannot decode the PNG ({})", shown(path), spng_strerror(err)));
    raster.width = static_cast<int>(ihdr.width), raster.height = static_cast<int>(ihdr.height);

    // The placement: the node's own, else the sidecar's.
    glm::dvec2 heights{0.0};
    if (placement.from && placement.to && placement.heights) {
        heights = *placement.heights;
    } else {
        const std::string sidecar_path = path.substr(0, path.size() - 4) + ".json";
        const Sidecar s = read_sidecar(sidecar_path);
        if (s.width != raster.width || s.height != raster.height)
            throw RasterError(fmt::format("{}: says {}x{} pixels, the PNG has {}x{}", shown(sidecar_path), s.width, s.height, raster.width,
                                          raster.height));
        raster.from = s.from, raster.to = s.to;
        heights = placement.heights ? *placement.heights : s.heights;
    }
    // libspng hands 16-bit samples over in the host's byte order; the largest value means
    // the top height.
    const double top = ihdr.bit_depth == 16 ? 65535.0 : 255.0;
    raster.heights.resize(pixels);
    for (std::size_t i = 0; i < pixels; ++i) {
        std::uint16_t wide = 0;
        if (sample_bytes == 2) std::memcpy(&wide, &raw[2 * i], 2);
        const unsigned v = sample_bytes == 2 ? wide : raw[i];
        raster.heights[i] = static_cast<float>(heights.x + v / top * (heights.y - heights.x));
    }
}

#else

void read_png_raster(const std::string& path, const std::string&, const RasterPlacement&, HeightRaster&) {
    throw RasterError(
        fmt::format("{}: this isoterra was built without libspng and reads no PNG heightmaps (the web page reads no files a graph names)",
                    shown(path)));
}

#endif

}  // namespace isoterra::graph
