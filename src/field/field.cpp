// The Field base: the batched defaults every field gets, single-point helpers, and what
// columns() gives for any field (none: no ground, no looks).
#include <cmath>
#include <vector>

#include "isoterra/field.hpp"

namespace isoterra {

void Field::sample_lattice(const Lattice& lattice, float* out) const {
    // One row at a time keeps the batch small enough to stay in cache.
    std::vector<glm::dvec3> row(static_cast<std::size_t>(lattice.size.x));
    std::vector<double> values(row.size());
    for (int k = 0; k < lattice.size.z; ++k) {
        for (int j = 0; j < lattice.size.y; ++j) {
            for (int i = 0; i < lattice.size.x; ++i) row[i] = lattice.position(i, j, k);
            sample_points(row.data(), row.size(), values.data());
            float* dst = out + lattice.index(0, j, k);
            for (int i = 0; i < lattice.size.x; ++i) dst[i] = static_cast<float>(values[i]);
        }
    }
}

const MaterialRules& Field::material_rules() const {
    static const MaterialRules kDefaultRules;
    return kDefaultRules;
}

bool Field::ground_heights(const Lattice& lattice, float* out) const {
    const ColumnSource* c = columns();
    return c && c->ground_heights(lattice, out);
}

double Field::ground_height(double x, double z) const {
    const ColumnSource* c = columns();
    return c ? c->ground_height(x, z) : std::nan("");
}

bool Field::has_ground() const {
    const ColumnSource* c = columns();
    return c && c->has_ground();
}

double Field::ground_bend() const {
    const ColumnSource* c = columns();
    return c ? c->ground_bend() : 0.0;
}

ValueRange Field::bounds_with_ground(const Box& box, const ValueRange& ground) const {
    const ColumnSource* c = columns();
    return c ? c->bounds_with_ground(box, ground) : bounds(box);
}

std::shared_ptr<const LatticeColumns> Field::columns_of(const Lattice& lattice) const {
    const ColumnSource* c = columns();
    return c ? c->columns_of(lattice) : nullptr;
}

bool Field::sample_lattice_and_ground(const Lattice& lattice, float* values, float* ground, LatticeUse use, const LatticeColumns* given,
                                      ColumnLooks* looks) const {
    if (const ColumnSource* c = columns()) return c->sample_lattice_and_ground(lattice, values, ground, use, given, looks);
    if (looks) looks->clear();
    sample_lattice(lattice, values);
    return false;
}

MaterialSample Field::material(const glm::dvec3& p, const glm::dvec3& normal) const { return material_rules().classify(p.y, normal, 0.0); }

double Field::value(const glm::dvec3& p) const {
    double v = 0.0;
    sample_points(&p, 1, &v);
    return v;
}

glm::dvec3 Field::gradient(const glm::dvec3& p, double h) const {
    const glm::dvec3 pts[6] = {p + glm::dvec3(h, 0, 0), p - glm::dvec3(h, 0, 0), p + glm::dvec3(0, h, 0),
                               p - glm::dvec3(0, h, 0), p + glm::dvec3(0, 0, h), p - glm::dvec3(0, 0, h)};
    double v[6];
    sample_points(pts, 6, v);
    return glm::dvec3(v[0] - v[1], v[2] - v[3], v[4] - v[5]) / (2.0 * h);
}

}  // namespace isoterra
