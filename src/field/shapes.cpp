// Analytic solids as exact signed distances: the test shapes with known answers, and the
// brush shapes of the editor. Their bounds over a box are exact or follow from |grad| = 1.
#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "isoterra/field.hpp"

namespace isoterra {
namespace {

class PlaneField final : public Field {
public:
    PlaneField(const glm::dvec3& n, double offset) : n_(glm::normalize(n)), offset_(offset) {}
    void sample_points(const glm::dvec3* pts, std::size_t count, double* out) const override {
        for (std::size_t i = 0; i < count; ++i) out[i] = glm::dot(n_, pts[i]) - offset_;
    }
    ValueRange bounds(const Box& b) const override {
        // A linear function is extreme at the corners: pick each axis' end by the sign.
        double lo = -offset_, hi = -offset_;
        for (int a = 0; a < 3; ++a) {
            lo += n_[a] * (n_[a] >= 0 ? b.lo[a] : b.hi[a]);
            hi += n_[a] * (n_[a] >= 0 ? b.hi[a] : b.lo[a]);
        }
        return {lo, hi};
    }

private:
    glm::dvec3 n_;
    double offset_;
};

class SphereField final : public Field {
public:
    SphereField(const glm::dvec3& c, double r) : c_(c), r_(r) {}
    void sample_points(const glm::dvec3* pts, std::size_t count, double* out) const override {
        for (std::size_t i = 0; i < count; ++i) out[i] = sphere_distance(pts[i], c_, r_);
    }
    ValueRange bounds(const Box& b) const override {
        const glm::dvec3 nearest = glm::clamp(c_, b.lo, b.hi);
        const glm::dvec3 far_corner = glm::max(glm::abs(b.lo - c_), glm::abs(b.hi - c_));
        return {glm::length(nearest - c_) - r_, glm::length(far_corner) - r_};
    }

private:
    glm::dvec3 c_;
    double r_;
};

class BoxField final : public Field {
public:
    BoxField(const glm::dvec3& c, const glm::dvec3& h) : c_(c), h_(h) {}
    void sample_points(const glm::dvec3* pts, std::size_t count, double* out) const override {
        for (std::size_t i = 0; i < count; ++i) out[i] = box_distance(pts[i], c_, h_);
    }
    ValueRange bounds(const Box& b) const override {
        // A distance field changes by at most the distance moved.
        const glm::dvec3 mid = (b.lo + b.hi) * 0.5;
        const double reach = 0.5 * glm::length(b.hi - b.lo);
        const double v = value(mid);
        return {v - reach, v + reach};
    }

private:
    glm::dvec3 c_, h_;
};

}  // namespace

double sphere_distance(const glm::dvec3& p, const glm::dvec3& centre, double radius) { return glm::length(p - centre) - radius; }

double box_distance(const glm::dvec3& p, const glm::dvec3& centre, const glm::dvec3& half_extent) {
    const glm::dvec3 q = glm::abs(p - centre) - half_extent;
    return glm::length(glm::max(q, 0.0)) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0);
}

std::unique_ptr<Field> make_plane(const glm::dvec3& normal, double offset) { return std::make_unique<PlaneField>(normal, offset); }
std::unique_ptr<Field> make_sphere(const glm::dvec3& centre, double radius) { return std::make_unique<SphereField>(centre, radius); }
std::unique_ptr<Field> make_box(const glm::dvec3& centre, const glm::dvec3& half_extent) {
    return std::make_unique<BoxField>(centre, half_extent);
}

}  // namespace isoterra
