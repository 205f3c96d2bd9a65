// The seed's terrain function (internal to field/): its steps of evaluation (nodes/terrain/function.cpp)
// and of proven ranges (nodes/terrain/bounds.cpp) over a parameter set and a seed's noises, both
// owned by the caller. The `terrain` and `terrain_ground` nodes of field graphs run it
// (nodes/terrain/node.cpp); its knobs are the knob terrains' (compile/knob_terrain.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "isoterra/field.hpp"

namespace isoterra {

/// What the terrain keeps per column of a lattice besides its heights: how far the surface
/// may depart from the ground there (the overhangs' strength).
struct TerrainColumns : FieldColumns {
    std::vector<double> bend;
};

class TerrainFunction {
public:
    /// A view: `params` and `noise` must outlive it.
    TerrainFunction(const TerrainParams& params, const NoiseSet& noise) : p_(params), noise_(noise) {}

    void sample_points(const glm::dvec3* points, std::size_t count, double* out) const;
    /// The fused lattice loop: the columns once, the three 3D noises on the lattice kernel
    /// (gated where they cannot matter), combined per sample. Writes the ground heights too
    /// when `ground` is given.
    void sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use,
                                   const LatticeColumns* columns) const;
    std::shared_ptr<const LatticeColumns> columns_of(const Lattice& lattice) const;
    void ground_heights(const Lattice& lattice, float* out) const;
    /// The ground heights of `count` columns (the same bits as surface_height one by one).
    void heights(const double* xs, const double* zs, std::size_t count, double* out) const;
    double surface_height(double x, double z) const;
    /// A proven range of the ground height over the square, before (`bent` false) or after
    /// the overhangs push it out.
    ValueRange ground_range(double x0, double z0, double x1, double z1, bool bent = true) const;
    ValueRange bounds(const Box& box) const;
    ValueRange bounds_with_ground(const Box& box, const ValueRange& ground) const;
    double most_bend() const;

private:
    struct Column {
        double height;
        double mountain;
    };
    Column column(double x, double z) const;
    Column finish_column(double mountain_noise, double hill_noise, double ridge_noise) const;
    void columns(const double* xs, const double* zs, std::size_t count, Column* out) const;
    double combine(const Column& c, double y, double bend_noise, double cave_a, double cave_b) const;
    double height_variation(double reach, double mountain_max) const;
    void surface_gate(const Lattice& lattice, const double* heights, const double* bends, float* gate) const;
    double height_extreme(double x0, double z0, double x1, double z1, double mountain_max, bool highest) const;

    const TerrainParams& p_;
    const NoiseSet& noise_;
};

/// One knob of the terrain function, as classic presets and the terrain nodes name it.
struct TerrainKnob {
    const char* name;
    enum Kind { number, integer, boolean } kind;
    double lo, hi;  // accepted values
    bool lo_open, hi_open;
    double fallback;  // TerrainParams' default
};
/// The terrain function's knobs in the presets' order (not the materials or the sea level).
const std::vector<TerrainKnob>& terrain_knobs();
/// Sets knob `index` of terrain_knobs() in `params`, or returns its value.
void set_terrain_knob(TerrainParams& params, std::size_t index, double value);
double terrain_knob(const TerrainParams& params, std::size_t index);

}  // namespace isoterra
