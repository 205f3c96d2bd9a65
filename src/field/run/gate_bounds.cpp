// Gates bounded per sample: a gated noise's side of its guard bounded at each sample, with the
// noise anywhere in its range and every other value on the way at the sample (the tutorial's
// second cave noise is then skipped where the first alone keeps the tunnel away, as the
// built-in does). Each rule is the node's own rounded operation at the ends of the range, and
// those operations are monotone, so the bound holds for the value the node computes.
#include <algorithm>
#include <cmath>
#include <vector>

#include "eval_parts.hpp"
#include "gates.hpp"
#include "lod.hpp"
#include "field/nodes/table.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {
namespace {

// How a guard is decided by its other side against the bound of the gated side: the other
// below the side's least (min, union), above its most (max, intersect), or subtract's
// max(a, -b) with b or a gated. Other guards have no bound per sample.
enum class GuardRule { none, below_lo, above_hi, subtract_b, subtract_a };

GuardRule guard_rule(const Program& program, const Gate& gate) {
    // clang-format off
    switch (program.nodes[static_cast<std::size_t>(gate.guard)].kind->guard) {
        case Guard::min: return GuardRule::below_lo;
        case Guard::max: return GuardRule::above_hi;
        case Guard::subtract: return gate.side == 1 ? GuardRule::subtract_b : GuardRule::subtract_a;
        default: return GuardRule::none;
    }
    // clang-format on
}

// hypot's step: the lattice path's sqrt(a a + b b), least where the noise's side is nearest 0,
// most where it is farthest. Where that side's range holds 0 at every lane (`least_only`: the
// same range at every lane, and only the least needed) it is sqrt(v v) rounded twice: never
// below |v| (1 - 2^-51) (or 0, where v v is below the least normal double).
__attribute__((always_inline)) inline void bound_hypot(bool first, bool least_only, const double* v, double* lo, double* hi,
                                                       std::size_t count) {
    if (least_only && lo[0] <= 0.0 && hi[0] >= 0.0) {
        for (std::size_t i = 0; i < count; ++i) {
            const double m = std::fabs(v[i]);
            lo[i] = m > 1e-150 ? m * (1.0 - 0x1p-51) : m == m ? 0.0 : NAN;
        }
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        const bool nan = !(lo[i] <= hi[i]);
        const double near = lo[i] > 0.0 ? lo[i] : hi[i] < 0.0 ? -hi[i] : 0.0;
        const double far = std::max(std::fabs(lo[i]), std::fabs(hi[i]));
        lo[i] = nan ? NAN : std::sqrt(first ? near * near + v[i] * v[i] : v[i] * v[i] + near * near);
        hi[i] = nan ? NAN : std::sqrt(first ? far * far + v[i] * v[i] : v[i] * v[i] + far * far);
    }
}

// One step of the bound (see bound_through) with the other input `v` read at each lane;
// `uniform`: lo and hi the same at every lane so far.
ISOTERRA_CLONES_WIDE
void bound_by_lanes(const Node& node, const GateStep& step, const Operand* other, const double* v, bool uniform, double* lo, double* hi,
                    std::size_t count) {
    const bool first = step.on == 0;
    // clang-format off
    switch (node.kind->bound) {
        case BoundStep::add:  // a + b and b + a are the same number
            if (step.lo) for (std::size_t i = 0; i < count; ++i) lo[i] = lo[i] + v[i];
            if (step.hi) for (std::size_t i = 0; i < count; ++i) hi[i] = hi[i] + v[i];
            break;
        case BoundStep::sub:
            if (first) {
                if (step.lo) for (std::size_t i = 0; i < count; ++i) lo[i] = lo[i] - v[i];
                if (step.hi) for (std::size_t i = 0; i < count; ++i) hi[i] = hi[i] - v[i];
            } else {
                for (std::size_t i = 0; i < count; ++i) {
                    const double l = v[i] - hi[i], h = v[i] - lo[i];
                    lo[i] = l, hi[i] = h;
                }
            }
            break;
        case BoundStep::neg:
            for (std::size_t i = 0; i < count; ++i) {
                const double l = -hi[i];
                hi[i] = -lo[i], lo[i] = l;
            }
            break;
        case BoundStep::mul:
            if (other->is_constant()) {  // one end from one end, by the number's sign
                const double c = other->constant;
                if (c >= 0.0) {
                    if (step.lo) for (std::size_t i = 0; i < count; ++i) lo[i] = lo[i] * c;
                    if (step.hi) for (std::size_t i = 0; i < count; ++i) hi[i] = hi[i] * c;
                } else {
                    for (std::size_t i = 0; i < count; ++i) {
                        const double l = hi[i] * c;
                        hi[i] = lo[i] * c, lo[i] = l;
                    }
                }
                break;
            }
            for (std::size_t i = 0; i < count; ++i) {
                const double p = lo[i] * v[i], q = hi[i] * v[i];
                const bool nan = p != p || q != q;  // kept, not lost by a comparison
                lo[i] = nan ? NAN : std::min(p, q), hi[i] = nan ? NAN : std::max(p, q);
            }
            break;
        case BoundStep::abs:
            for (std::size_t i = 0; i < count; ++i) {
                const bool nan = !(lo[i] <= hi[i]);
                const double l = lo[i] >= 0.0 ? lo[i] : hi[i] <= 0.0 ? -hi[i] : 0.0;
                hi[i] = nan ? NAN : std::max(std::fabs(lo[i]), std::fabs(hi[i])), lo[i] = nan ? NAN : l;
            }
            break;
        case BoundStep::min:
            if (step.lo) for (std::size_t i = 0; i < count; ++i) lo[i] = std::min(lo[i], v[i]);
            if (step.hi) for (std::size_t i = 0; i < count; ++i) hi[i] = std::min(hi[i], v[i]);
            break;
        case BoundStep::max:
            if (step.lo) for (std::size_t i = 0; i < count; ++i) lo[i] = std::max(lo[i], v[i]);
            if (step.hi) for (std::size_t i = 0; i < count; ++i) hi[i] = std::max(hi[i], v[i]);
            break;
        case BoundStep::hypot: bound_hypot(first, !step.hi && uniform, v, lo, hi, count); break;
        default: break;  // gate_path takes no other node
    }
    // clang-format on
}

// The ends of the side's range per lane that the guard needs ([lo, hi]), from the noise's
// range through `path`: each step works out the ends of its value that the next one needs
// (GateStep::lo, hi) from those of its input that these need. NaN decides nothing.
void bound_through(const Program& program, const std::vector<GateStep>& path, eval::Workspace& work, double* lo, double* hi,
                   std::size_t count) {
    bool uniform = true;  // lo and hi the same at every lane (the noise's range, before any lane value)
    for (const GateStep& step : path) {
        const Node& node = program.nodes[static_cast<std::size_t>(step.node)];
        const Operand* other = node.in.size() > 1 ? &node.in[static_cast<std::size_t>(1 - step.on)] : nullptr;
        const double* v = other ? work.operand(step.node, static_cast<std::size_t>(1 - step.on)) : nullptr;
        bound_by_lanes(node, step, other, v, uniform, lo, hi, count);
        uniform = uniform && (!other || other->is_constant());
        // A node its level leaves out is blended toward its far value (run/lod.hpp).
        if (const LodLanes& lod = work.lod(); lod.weight && detail_dropped(node, lod.spacing_m)) {
            widen_to_far(lod.weight_of(step.node), node.far, lo, hi, count);
            uniform = false;
        }
    }
}

// As gate_values with the side's bound at each lane (only the end the guard needs was worked
// out; NaN decides nothing), lowering `out`: skipped where the lattice's threshold or the
// lane's bound says so.
ISOTERRA_CLONES_WIDE
void lower_gate(GuardRule rule, const double* lo, const double* hi, const double* other, float* out, std::size_t count) {
    // clang-format off
    switch (rule) {
        case GuardRule::below_lo: for (std::size_t i = 0; i < count; ++i) out[i] = std::min(out[i], static_cast<float>(other[i] - lo[i])); return;
        case GuardRule::above_hi: for (std::size_t i = 0; i < count; ++i) out[i] = std::min(out[i], static_cast<float>(hi[i] - other[i])); return;
        case GuardRule::subtract_b: for (std::size_t i = 0; i < count; ++i) out[i] = std::min(out[i], static_cast<float>(-lo[i] - other[i])); return;
        case GuardRule::subtract_a: for (std::size_t i = 0; i < count; ++i) out[i] = std::min(out[i], static_cast<float>(other[i] + hi[i])); return;
        case GuardRule::none: return;
    }
    // clang-format on
}

}  // namespace

std::vector<GateStep> gate_path(const Program& program, const Gate& gate, const std::vector<int>& order) {
    const GuardRule rule = guard_rule(program, gate);
    if (rule == GuardRule::none) return {};
    const std::vector<bool> needed = needed_mask(program, program.sdf);
    std::vector<int> position(program.nodes.size(), -1);
    for (std::size_t p = 0; p < order.size(); ++p) position[static_cast<std::size_t>(order[p])] = static_cast<int>(p);
    const Operand& side = program.nodes[static_cast<std::size_t>(gate.guard)].in[static_cast<std::size_t>(gate.side)];
    // A value read on the way must be there before the noise runs, and be the value the node
    // reads wherever the gate may keep the noise: read no gated noise, or be one gated by the
    // same side of the same guard (where that one was skipped, the guard's threshold skips
    // this one too).
    std::vector<Gate> gates_before;
    for (const Gate& g : program.gates)
        if (g.noise != gate.noise) gates_before.push_back(g);
    const std::vector<bool> reads = reads_gated(program, gates_before);
    const auto known = [&](const Operand& in) {
        if (in.is_constant()) return true;
        const std::size_t m = static_cast<std::size_t>(in.node);
        if (position[m] < 0 || position[m] >= position[static_cast<std::size_t>(gate.noise)]) return false;
        if (!reads[m]) return true;
        return std::any_of(program.gates.begin(), program.gates.end(),
                           [&](const Gate& g) { return g.noise == in.node && g.guard == gate.guard && g.side == gate.side; });
    };
    std::vector<GateStep> path;
    for (int at = gate.noise; at != side.node;) {
        // The one node that reads `at`, by one input.
        int next = -1, on = -1, reads_of_at = 0;
        for (std::size_t n = 0; n < program.nodes.size(); ++n) {
            if (!needed[n]) continue;
            const std::vector<Operand>& in = program.nodes[n].in;
            for (std::size_t i = 0; i < in.size(); ++i)
                if (!in[i].is_constant() && in[i].node == at) ++reads_of_at, next = static_cast<int>(n), on = static_cast<int>(i);
        }
        if (reads_of_at != 1) return {};
        const Node& node = program.nodes[static_cast<std::size_t>(next)];
        if (node.kind->bound == BoundStep::none || node.ports != 1 || node.grid_m > 0.0 || position[static_cast<std::size_t>(next)] < 0)
            return {};
        for (std::size_t i = 0; i < node.in.size(); ++i)
            if (static_cast<int>(i) != on && !known(node.in[i])) return {};
        path.push_back({next, on});
        at = next;
    }
    // Which ends each step works out: the guard's end of the side, then back along the way
    // the ends of each input that those need (both, where a rule reads both).
    bool lo = rule == GuardRule::below_lo || rule == GuardRule::subtract_b;
    bool hi = !lo;
    for (std::size_t s = path.size(); s-- > 0;) {
        GateStep& step = path[s];
        const Node& node = program.nodes[static_cast<std::size_t>(step.node)];
        const Operand v = node.in.size() > 1 ? node.in[static_cast<std::size_t>(1 - step.on)] : Operand{};
        const BoundStep rule_of = node.kind->bound;
        const bool swaps = rule_of == BoundStep::neg || (rule_of == BoundStep::sub && step.on == 1);
        const bool by_number = rule_of == BoundStep::mul && v.is_constant();
        step.lo = lo || swaps || (by_number && v.constant < 0.0), step.hi = hi || swaps || (by_number && v.constant < 0.0);
        if (swaps || (by_number && !(v.constant >= 0.0))) lo = hi = true;
        else if (rule_of == BoundStep::abs || rule_of == BoundStep::hypot || (rule_of == BoundStep::mul && !by_number)) lo = hi = true;
        // (add, sub's first input, min, max and a product with a number >= 0: the same ends)
    }
    return path;
}

void bounded_gate_values(const Program& program, const Gate& gate, double threshold, const ValueRange& noise_range,
                         const std::vector<GateStep>& path, eval::Workspace& work, const double* other, float* out, std::size_t count) {
    gate_values(program, gate, threshold, other, out, count);
    if (path.empty()) return;  // (gate_path gives none for a guard without a rule)
    thread_local eval::LaneBuffer lo, hi;
    lo.assign(count, noise_range.lo);
    hi.assign(count, noise_range.hi);
    bound_through(program, path, work, lo.data(), hi.data(), count);
    lower_gate(guard_rule(program, gate), lo.data(), hi.data(), other, out, count);
}

}  // namespace isoterra::graph
