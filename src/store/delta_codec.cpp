// The stored form of a delta chunk. Deltas are mostly zero and their high bytes repeat, so
// the four bytes of each float are split into four planes before zstd: a chunk edited by one
// brush shrinks from 128 KiB to a few KiB. Decoding trusts nothing in the bytes.
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <zstd.h>

#include "isoterra/store.hpp"

namespace isoterra {
namespace {

constexpr char kMagic[4] = {'I', 'T', 'D', '1'};
constexpr std::size_t kHeader = 8;  // magic, sample count (u32 little-endian)
constexpr std::size_t kRawBytes = sizeof(float) * DeltaChunk::kSamples;
constexpr int kLevel = 3;

}  // namespace

std::uint64_t blob_checksum(const std::uint8_t* data, std::size_t size) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

std::vector<std::uint8_t> encode_delta_chunk(const DeltaChunk& chunk) {
    std::vector<std::uint8_t> planes(kRawBytes);
    for (int i = 0; i < DeltaChunk::kSamples; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &chunk.values[i], 4);
        for (int b = 0; b < 4; ++b) planes[b * DeltaChunk::kSamples + i] = static_cast<std::uint8_t>(bits >> (8 * b));
    }
    std::vector<std::uint8_t> out(kHeader + ZSTD_compressBound(kRawBytes));
    std::memcpy(out.data(), kMagic, 4);
    const std::uint32_t count = DeltaChunk::kSamples;
    for (int b = 0; b < 4; ++b) out[4 + b] = static_cast<std::uint8_t>(count >> (8 * b));
    // zstd's own frame checksum too: a flipped bit is caught by the blob's decoder alone.
    std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), &ZSTD_freeCCtx);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kLevel);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
    const std::size_t n = ZSTD_compress2(cctx.get(), out.data() + kHeader, out.size() - kHeader, planes.data(), planes.size());
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
    out.resize(kHeader + n);
    return out;
}

DeltaChunk decode_delta_chunk(const std::uint8_t* data, std::size_t size) {
    if (size < kHeader || std::memcmp(data, kMagic, 4) != 0) throw std::runtime_error("not a delta chunk (bad header)");
    const std::uint32_t count = data[4] | data[5] << 8 | data[6] << 16 | static_cast<std::uint32_t>(data[7]) << 24;
    if (count != DeltaChunk::kSamples) throw std::runtime_error("delta chunk of " + std::to_string(count) + " samples, expected 32768");
    const unsigned long long content = ZSTD_getFrameContentSize(data + kHeader, size - kHeader);
    if (content != kRawBytes) throw std::runtime_error("delta chunk: bad or truncated zstd frame");
    std::vector<std::uint8_t> planes(kRawBytes);
    const std::size_t n = ZSTD_decompress(planes.data(), planes.size(), data + kHeader, size - kHeader);
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("delta chunk: zstd: ") + ZSTD_getErrorName(n));
    if (n != kRawBytes) throw std::runtime_error("delta chunk: short zstd frame");
    DeltaChunk chunk;
    for (int i = 0; i < DeltaChunk::kSamples; ++i) {
        std::uint32_t bits = 0;
        for (int b = 0; b < 4; ++b) bits |= static_cast<std::uint32_t>(planes[b * DeltaChunk::kSamples + i]) << (8 * b);
        std::memcpy(&chunk.values[i], &bits, 4);
        if (!std::isfinite(chunk.values[i])) throw std::runtime_error("delta chunk: a delta is not finite");
    }
    if (!chunk.update_range()) throw std::runtime_error("delta chunk: every delta is zero (such chunks are never stored)");
    return chunk;
}

}  // namespace isoterra
