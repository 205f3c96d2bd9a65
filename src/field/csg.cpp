// Constructive solid geometry over whole fields: both operands are sampled as batches,
// then combined; bounds combine the same way (smooth operations dip k/4 further).
#include <algorithm>
#include <vector>

#include "isoterra/field.hpp"

namespace isoterra {
namespace {

class CsgField final : public Field {
public:
    CsgField(CsgOp op, std::shared_ptr<const Field> a, std::shared_ptr<const Field> b, double k)
        : op_(op), a_(std::move(a)), b_(std::move(b)), k_(k) {}

    void sample_points(const glm::dvec3* pts, std::size_t count, double* out) const override {
        std::vector<double> other(count);
        a_->sample_points(pts, count, out);
        b_->sample_points(pts, count, other.data());
        for (std::size_t i = 0; i < count; ++i) out[i] = combine(out[i], other[i]);
    }

    ValueRange bounds(const Box& box) const override {
        const ValueRange a = a_->bounds(box);
        const ValueRange b = b_->bounds(box);
        switch (op_) {
            case CsgOp::union_: return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
            case CsgOp::intersect: return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
            case CsgOp::subtract: return {std::max(a.lo, -b.hi), std::max(a.hi, -b.lo)};
            case CsgOp::smooth_union: return {std::min(a.lo, b.lo) - k_ * 0.25, std::min(a.hi, b.hi)};
            case CsgOp::smooth_subtract: return {std::max(a.lo, -b.hi), std::max(a.hi, -b.lo) + k_ * 0.25};
        }
        return {a.lo, a.hi};
    }

private:
    double combine(double a, double b) const {
        switch (op_) {
            case CsgOp::union_: return op_union(a, b);
            case CsgOp::subtract: return op_subtract(a, b);
            case CsgOp::intersect: return op_intersect(a, b);
            case CsgOp::smooth_union: return op_smooth_union(a, b, k_);
            case CsgOp::smooth_subtract: return op_smooth_subtract(a, b, k_);
        }
        return a;
    }

    CsgOp op_;
    std::shared_ptr<const Field> a_, b_;
    double k_;
};

}  // namespace

std::unique_ptr<Field> make_csg(CsgOp op, std::shared_ptr<const Field> a, std::shared_ptr<const Field> b, double blend_m) {
    if ((op == CsgOp::smooth_union || op == CsgOp::smooth_subtract) && !(blend_m > 0.0))
        throw std::invalid_argument("make_csg: a smooth operation needs a blend width > 0");
    return std::make_unique<CsgField>(op, std::move(a), std::move(b), blend_m);
}

}  // namespace isoterra
