// Gates: which lattice noises one side of a min, max or CSG node holds alone (found once,
// when the graph compiles), and per lattice the threshold and per sample the gate value.
// Each rule asks for the deciding side to win by a margin that rounding cannot undo, so a
// skipped noise never changes a bit of the result.
#include "gates.hpp"

#include <cmath>

#include "eval.hpp"
#include "field/nodes/table.hpp"
#include "simd/target_clones.hpp"

namespace isoterra::graph {

std::vector<bool> reads_gated(const Program& program, const std::vector<Gate>& gates) {
    std::vector<bool> reads(program.nodes.size(), false);
    for (const Gate& g : gates) reads[static_cast<std::size_t>(g.noise)] = true;
    for (std::size_t n = 0; n < program.nodes.size(); ++n)
        for (const Operand& in : program.nodes[n].in)
            if (!in.is_constant() && reads[static_cast<std::size_t>(in.node)]) reads[n] = true;
    return reads;
}

namespace {

// The gates of `program`'s lattice noises, each by the nearest guard (nodes come in dependency
// order), min, max and CSG guards before masks (mul), which decide only where the mask is
// exactly 0; no gate that `refused` holds. Spends `budget` node visits.
std::vector<Gate> search_gates(const Program& program, const std::vector<Gate>& refused, double& budget) {
    const double nodes = static_cast<double>(program.nodes.size()) + 1.0;
    const std::vector<bool> needed = needed_mask(program, program.sdf);
    std::vector<Gate> gates;
    std::vector<bool> gated(program.nodes.size(), false);
    const auto was_refused = [&](int noise, int guard, int side) {
        for (const Gate& r : refused)
            if (r.noise == noise && r.guard == guard && r.side == side) return true;
        return false;
    };
    for (const bool masks : {false, true})
        for (std::size_t m = 0; m < program.nodes.size(); ++m) {
            const Node& guard = program.nodes[m];
            if (!needed[m] || guard.kind->guard == Guard::none || (guard.kind->guard == Guard::mask) != masks ||
                guard.in[0].is_constant() || guard.in[1].is_constant())
                continue;
            if ((budget -= 2.0 * nodes) < 0.0) return gates;
            for (int side = 0; side < 2; ++side) {
                const std::vector<bool> still = needed_mask(program, program.sdf, static_cast<int>(m), side);
                for (std::size_t n = 0; n < program.nodes.size(); ++n)
                    // The fast flavour has no gated kernel: it runs whole, at about the
                    // cost of the gate's own bookkeeping.
                    if (needed[n] && !still[n] && !gated[n] && is_lattice_noise(program.nodes[n]) && !program.nodes[n].fast_noise &&
                        !was_refused(static_cast<int>(n), static_cast<int>(m), side)) {
                        gates.push_back({static_cast<int>(n), static_cast<int>(m), side});
                        gated[n] = true;
                    }
            }
        }
    return gates;
}

// Drops the gates whose deciding side reads a gated noise (it is computed before the noise it
// gates), one at a time; returns those dropped. Clears `gates` past `budget`.
std::vector<Gate> drop_conflicts(const Program& program, std::vector<Gate>& gates, double& budget) {
    const double nodes = static_cast<double>(program.nodes.size()) + 1.0;
    std::vector<Gate> dropped;
    for (bool changed = true; changed && !gates.empty();) {
        changed = false;
        if ((budget -= nodes) < 0.0) {
            gates.clear();
            break;
        }
        const std::vector<bool> reads = reads_gated(program, gates);
        for (std::size_t g = 0; g < gates.size(); ++g) {
            const Operand& other = program.nodes[static_cast<std::size_t>(gates[g].guard)].in[static_cast<std::size_t>(1 - gates[g].side)];
            if (reads[static_cast<std::size_t>(other.node)]) {
                // A mask's gate that this side reads goes first (min, max and CSG gates save
                // more: whole ranges of samples, not only where a mask is 0).
                std::size_t drop = g;
                for (std::size_t h = 0; h < gates.size() && budget >= 0.0; ++h)
                    if (program.nodes[static_cast<std::size_t>(gates[h].guard)].kind->guard == Guard::mask) {
                        budget -= nodes;
                        if (reads_gated(program, {gates[h]})[static_cast<std::size_t>(other.node)]) drop = h;
                    }
                if (budget < 0.0) {
                    gates.clear();
                    break;
                }
                dropped.push_back(gates[drop]);
                gates.erase(gates.begin() + static_cast<std::ptrdiff_t>(drop));
                changed = true;
                break;
            }
        }
    }
    return dropped;
}

}  // namespace

void find_gates(Program& program) {
    // Each guard's search walks the whole graph, and so does each pass that drops a gate:
    // a graph of thousands of guards took seconds to compile. Gates only save time, so the
    // search stops at a budget of node visits (tens of milliseconds) with the gates it has,
    // and drops them all if checking them would pass it. A noise whose gate was dropped may
    // have another guard further on (alpine's overhang noise: a mask after the min that
    // reads the caves), so the search runs again without the dropped gates, a few times.
    constexpr int kSearches = 3;
    double budget = kGateSearchVisits;
    std::vector<Gate> refused, kept;  // kept: the last search's gates that came within the budget
    for (int search = 0; search < kSearches; ++search) {
        std::vector<Gate> gates = search_gates(program, refused, budget);
        const std::vector<Gate> dropped = drop_conflicts(program, gates, budget);
        if (budget < 0.0) break;
        kept = std::move(gates);
        if (dropped.empty()) break;
        refused.insert(refused.end(), dropped.begin(), dropped.end());
    }
    program.gates = std::move(kept);
}

double gate_threshold(const Program& program, const Gate& gate, const std::vector<NodeRanges>& ranges) {
    const Node& guard = program.nodes[static_cast<std::size_t>(gate.guard)];
    const Operand& side = guard.in[static_cast<std::size_t>(gate.side)];
    const ValueRange r = ranges[static_cast<std::size_t>(side.node)][static_cast<std::size_t>(side.port)];
    double t = NAN;
    // clang-format off
    switch (guard.kind->guard) {
        case Guard::min: t = r.lo; break;        // the other wins where it is below the side
        case Guard::max: t = r.hi; break;     // ... above it
        case Guard::subtract: t = gate.side == 1 ? -r.lo : -r.hi; break;  // max(a, -b)
        case Guard::smooth_union: t = r.lo - guard.number[0]; break;     // ... below it by k
        case Guard::smooth_subtract: t = gate.side == 1 ? r.lo - guard.number[0] : -r.hi - guard.number[0]; break;
        case Guard::mask: {
            // The other side decides where it is 0: only worth a gate where it can be.
            const Operand& other = guard.in[static_cast<std::size_t>(1 - gate.side)];
            const ValueRange o = ranges[static_cast<std::size_t>(other.node)][static_cast<std::size_t>(other.port)];
            t = o.lo <= 0.0 && o.hi >= 0.0 ? 0.0 : NAN;
            break;
        }
        default: break;
    }
    // clang-format on
    return std::isfinite(t) ? t : NAN;
}

ISOTERRA_CLONES_WIDE
void gate_values(const Program& program, const Gate& gate, double t, const double* other, float* out, std::size_t count) {
    const Node& guard = program.nodes[static_cast<std::size_t>(gate.guard)];
    // Below 0 only where the other side decides the guard: a difference of two doubles has
    // the sign of the true difference, and a float of it is below 0 only if it is.
    switch (guard.kind->guard) {
        case Guard::min:
            for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(other[i] - t);
            return;
        case Guard::max:
            for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(t - other[i]);
            return;
        case Guard::subtract:
            // b gated: a > -lo(b); a gated: b < -hi(a).
            if (gate.side == 1)
                for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(t - other[i]);
            else
                for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(other[i] - t);
            return;
        case Guard::smooth_union:
        case Guard::smooth_subtract: {
            // smooth_min(a, b, k) is a itself where b - a >= k (and b where a - b >= k): asked
            // with a margin of 1e-9 of the numbers involved, rounding cannot make it a blend.
            const double k = guard.number[0];
            const double sign = guard.kind->guard == Guard::smooth_subtract && gate.side == 1 ? -1.0 : 1.0;  // -a is the smooth_min's input
            for (std::size_t i = 0; i < count; ++i) {
                const double v = sign * other[i];
                out[i] = static_cast<float>(v - t + 1e-9 * (std::fabs(v) + std::fabs(t) + k));
            }
            return;
        }
        case Guard::mask:
            // 0 times the noise is 0 whatever it reads (up to the sign of a zero, which no
            // comparison with 0 tells apart).
            for (std::size_t i = 0; i < count; ++i) out[i] = other[i] == 0.0 ? -1.0f : 1.0f;
            return;
        default:
            for (std::size_t i = 0; i < count; ++i) out[i] = 1.0f;
            return;
    }
}

}  // namespace isoterra::graph
