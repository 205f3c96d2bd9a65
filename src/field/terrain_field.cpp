// TerrainField: the terrain function (terrain_function.hpp) with its own parameters and
// noises, as a Field.
#include "terrain_function.hpp"

namespace isoterra {

struct TerrainField::State {
    State(const TerrainParams& params, std::uint32_t seed) : p(params), seed(seed), noise(seed) {
        p.materials.surface_reach_m = f.most_bend();
    }
    TerrainParams p;
    std::uint32_t seed;
    NoiseSet noise;
    TerrainFunction f{p, noise};
};

TerrainField::TerrainField(const TerrainParams& params, std::uint32_t seed) : s_(std::make_unique<const State>(params, seed)) {}
TerrainField::~TerrainField() = default;
void TerrainField::sample_points(const glm::dvec3* points, std::size_t count, double* out) const {
    s_->f.sample_points(points, count, out);
}
void TerrainField::sample_lattice(const Lattice& lattice, float* out) const {
    s_->f.sample_lattice_and_ground(lattice, out, nullptr, LatticeUse::values, nullptr);
}
ValueRange TerrainField::bounds(const Box& box) const { return s_->f.bounds(box); }
MaterialSample TerrainField::material(const glm::dvec3& p, const glm::dvec3& normal) const {
    return s_->p.materials.classify(p.y, normal, s_->f.surface_height(p.x, p.z) - p.y);
}
const MaterialRules& TerrainField::material_rules() const { return s_->p.materials; }
double TerrainField::sea_level_m() const { return s_->p.sea_level_m; }
bool TerrainField::ground_heights(const Lattice& lattice, float* out) const {
    s_->f.ground_heights(lattice, out);
    return true;
}
bool TerrainField::sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use,
                                             const LatticeColumns* columns, ColumnLooks* looks) const {
    if (looks) looks->clear();  // its sea is a level (TerrainParams::sea_level_m), not a column output
    s_->f.sample_lattice_and_ground(lattice, values, ground, use, columns);
    return true;
}
std::shared_ptr<const LatticeColumns> TerrainField::columns_of(const Lattice& lattice) const { return s_->f.columns_of(lattice); }
double TerrainField::surface_height(double x, double z) const { return s_->f.surface_height(x, z); }
double TerrainField::highest_ground(double x, double z, double size) const { return s_->f.highest_ground(x, z, size); }
ValueRange TerrainField::ground_range(double x0, double z0, double x1, double z1) const { return s_->f.ground_range(x0, z0, x1, z1); }
ValueRange TerrainField::bounds_with_ground(const Box& box, const ValueRange& ground) const {
    return s_->f.bounds_with_ground(box, ground);
}
double TerrainField::most_bend() const { return s_->f.most_bend(); }
const TerrainParams& TerrainField::params() const { return s_->p; }
std::uint32_t TerrainField::seed() const { return s_->seed; }

std::unique_ptr<TerrainField> make_terrain(const Preset& preset, std::uint32_t seed) {
    return std::make_unique<TerrainField>(preset.terrain, seed);
}

}  // namespace isoterra
