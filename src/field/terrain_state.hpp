// The terrain function's state and workings behind TerrainField (internal to field/): its
// parameters, its noises, and the steps of its evaluation (terrain.cpp) and of its proven
// ranges (terrain_bounds.cpp). TerrainField forwards to them.
#pragma once

#include "isoterra/field.hpp"

namespace isoterra {

struct TerrainField::State {
    State(const TerrainParams& params, std::uint32_t seed);

    void sample_points(const glm::dvec3* points, std::size_t count, double* out) const;
    bool sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use, const LatticeColumns* columns,
                                   ColumnLooks* looks) const;
    std::shared_ptr<const LatticeColumns> columns_of(const Lattice& lattice) const;
    bool ground_heights(const Lattice& lattice, float* out) const;
    MaterialSample material(const glm::dvec3& p, const glm::dvec3& normal) const;
    double surface_height(double x, double z) const;
    double highest_ground(double x, double z, double size) const;
    ValueRange ground_range(double x0, double z0, double x1, double z1) const;
    ValueRange bounds(const Box& box) const;
    ValueRange bounds_with_ground(const Box& box, const ValueRange& ground) const;
    double most_bend() const;

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

    TerrainParams p_;
    std::uint32_t seed_;
    NoiseSet noise_;
};

}  // namespace isoterra
