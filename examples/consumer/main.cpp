// The smallest use of the library: load a preset, ask the field about a few points.
#include <cstdio>

#include <isoterra/field.hpp>

int main() {
    const isoterra::Preset preset = isoterra::builtin_preset("tutorial");
    const auto terrain = isoterra::make_terrain(preset, preset.seed);
    const double ground = terrain->surface_height(0.0, 0.0);
    std::printf("ground at (0, 0): %.3f m\n", ground);
    std::printf("value 10 m above it: %.3f (air is > 0)\n", terrain->value({0.0, ground + 10.0, 0.0}));
    return terrain->value({0.0, ground + 40.0, 0.0}) > 0.0 ? 0 : 1;
}
