// A PNG the program wrote, read back as 8-bit RGB rows from the top (libspng).
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <spng.h>

namespace isoterra::test {

struct RgbImage {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgb;  // 3 bytes a pixel
};

/// The picture at `path`; empty (0 x 0) when it is not a PNG.
inline RgbImage read_rgb_png(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    RgbImage img;
    spng_ctx* ctx = spng_ctx_new(0);
    spng_set_png_buffer(ctx, bytes.data(), bytes.size());
    spng_ihdr ihdr{};
    if (spng_get_ihdr(ctx, &ihdr) == 0) {
        std::size_t size = 0;
        spng_decoded_image_size(ctx, SPNG_FMT_RGB8, &size);
        img.rgb.resize(size);
        spng_decode_image(ctx, img.rgb.data(), size, SPNG_FMT_RGB8, 0);
        img.width = static_cast<int>(ihdr.width);
        img.height = static_cast<int>(ihdr.height);
    }
    spng_ctx_free(ctx);
    return img;
}

}  // namespace isoterra::test
