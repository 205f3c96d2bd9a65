// Seeded hashes of integer cells: the jittered points of the landform nodes (cellular
// distance, erosion gullies, drainage networks). A 64-bit mix of the seed, the cell and a
// stream number (Stafford's variant 13 of the MurmurHash3 finaliser), so neighbouring cells
// and streams are uncorrelated, and the same on every platform.
#include "isoterra/noise.hpp"

namespace isoterra {
namespace {

std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

}  // namespace

std::uint64_t cell_hash(std::uint32_t seed, std::int64_t i, std::int64_t j, std::uint32_t stream) {
    std::uint64_t h = mix64(static_cast<std::uint64_t>(seed) * 0x9e3779b97f4a7c15ull + stream);
    h = mix64(h ^ static_cast<std::uint64_t>(i) * 0xd6e8feb86659fd93ull);
    return mix64(h ^ static_cast<std::uint64_t>(j) * 0xa0761d6478bd642full);
}

double cell_random(std::uint64_t hash, int which) {
    // Two independent 26-bit fractions from one hash (which = 0 or 1), exact in double.
    const std::uint64_t bits = which == 0 ? (hash >> 38) : ((hash >> 12) & ((1ull << 26) - 1));
    return static_cast<double>(bits & ((1ull << 26) - 1)) * 0x1p-26;
}

}  // namespace isoterra
