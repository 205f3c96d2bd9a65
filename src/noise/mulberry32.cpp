#include "isoterra/noise.hpp"

namespace isoterra {

std::uint32_t Mulberry32::next_u32() {
    // Unsigned arithmetic wraps mod 2^32 exactly as Math.imul and the |0 of the JavaScript do.
    state_ += 0x6d2b79f5u;
    std::uint32_t t = (state_ ^ (state_ >> 15)) * (state_ | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}

double Mulberry32::next() { return static_cast<double>(next_u32()) / 4294967296.0; }

}  // namespace isoterra
