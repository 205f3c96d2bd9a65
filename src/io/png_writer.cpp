// PNG out through libspng: 8- or 16-bit, grey or RGB, written atomically.
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <spng.h>

#include "isoterra/io.hpp"

namespace isoterra {

std::string encode_png(const std::string& path, int width, int height, int channels, int bit_depth, const void* samples) {
    spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (!ctx) throw IoError(fmt::format("{}: cannot start the PNG encoder", path));
    spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    spng_ihdr ihdr{};
    ihdr.width = static_cast<std::uint32_t>(width);
    ihdr.height = static_cast<std::uint32_t>(height);
    ihdr.bit_depth = static_cast<std::uint8_t>(bit_depth);
    ihdr.color_type = channels == 3 ? SPNG_COLOR_TYPE_TRUECOLOR : SPNG_COLOR_TYPE_GRAYSCALE;
    spng_set_ihdr(ctx, &ihdr);
    const std::size_t bytes = static_cast<std::size_t>(width) * height * channels * (bit_depth / 8);
    // SPNG_FMT_PNG takes 16-bit samples in the host's byte order (only SPNG_FMT_RAW is
    // big-endian) and writes them big-endian, as PNG stores them.
    int err = spng_encode_image(ctx, samples, bytes, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    if (err) {
        spng_ctx_free(ctx);
        throw IoError(fmt::format("{}: PNG encoding failed ({})", path, spng_strerror(err)));
    }
    std::size_t size = 0;
    void* png = spng_get_png_buffer(ctx, &size, &err);
    spng_ctx_free(ctx);
    if (!png) throw IoError(fmt::format("{}: PNG encoding failed ({})", path, spng_strerror(err)));
    std::string data(static_cast<const char*>(png), size);
    std::free(png);
    return data;
}

void write_png(const std::string& path, int width, int height, int channels, int bit_depth, const void* samples) {
    write_file_atomically(path, encode_png(path, width, height, channels, bit_depth, samples));
}

}  // namespace isoterra
