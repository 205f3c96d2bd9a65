// A program that needs the terrain function alone links isoterra::field (with noise and base,
// which it uses): no meshing, streaming or world file comes with it.
#include <cstdio>

#include <isoterra/field.hpp>

int main() {
    const isoterra::KnobTerrain preset = isoterra::builtin_knob_terrain("tutorial");
    const auto terrain = isoterra::make_terrain(preset, preset.seed);
    const double ground = terrain->ground_height(0.0, 0.0);
    const double below = terrain->value({0.0, ground - 5.0, 0.0});
    const double above = terrain->value({0.0, ground + 40.0, 0.0});
    std::printf("field only: ground at (0, 0) %.3f m, 5 m below %.3f, 40 m above %.3f\n", ground, below, above);
    return below < 0.0 && above > 0.0 ? 0 : 1;
}
