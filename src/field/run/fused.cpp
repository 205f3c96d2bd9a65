// Runs of pointwise nodes fused: the run's nodes one after another over a block of lanes, block
// after block, so that the values passed between them stay in the first-level cache instead
// of a buffer of the whole batch per node. A value read outside the run is stored to its
// node's buffer as well. The same formulas over the same lanes, so the same bits as node by node.
#include <algorithm>
#include <array>
#include <vector>

#include "eval_parts.hpp"
#include "lod.hpp"
#include "field/nodes/table.hpp"

namespace isoterra::graph::eval {
namespace {

constexpr std::size_t kBlock = kFusedBlock;

// The guards whose result is one input as it is where the other's noise was skipped: min and
// max (and their CSG names) either way, subtract (max(a, -b)) where b's was.
bool copies_other_side(const Node& guard, int side) {
    switch (guard.kind->guard) {
        case Guard::min:
        case Guard::max: return true;
        case Guard::subtract: return side == 1;
        default: return false;
    }
}

}  // namespace

FusedRun::FusedRun(const Program& program, const std::vector<int>& nodes, const std::vector<bool>& read_outside,
                   const std::vector<int>& active_gates)
    : program_(&program) {
    // Where each node's value lives while a block runs: a scratch slot, reused once the last
    // node of the run that reads it has run, or (read outside) its own buffer.
    std::vector<int> last_use(nodes.size(), -1);
    std::vector<int> place(program.nodes.size(), -1);  // node -> its step in this run
    for (std::size_t s = 0; s < nodes.size(); ++s) place[static_cast<std::size_t>(nodes[s])] = static_cast<int>(s);
    for (std::size_t s = 0; s < nodes.size(); ++s)
        for (const Operand& in : program.nodes[static_cast<std::size_t>(nodes[s])].in)
            if (!in.is_constant() && place[static_cast<std::size_t>(in.node)] >= 0)
                last_use[static_cast<std::size_t>(place[static_cast<std::size_t>(in.node)])] = static_cast<int>(s);
    std::vector<int> free_slots;
    for (std::size_t s = 0; s < nodes.size(); ++s) {
        Step step;
        step.node = nodes[s];
        const Node& node = program.nodes[static_cast<std::size_t>(step.node)];
        for (std::size_t i = 0; i < node.in.size() && i < step.in_step.size(); ++i)
            if (!node.in[i].is_constant()) step.in_step[i] = place[static_cast<std::size_t>(node.in[i].node)];
        step.stored = read_outside[static_cast<std::size_t>(step.node)];
        if (!step.stored) {
            if (free_slots.empty()) step.slot = slots_++;
            else step.slot = free_slots.back(), free_slots.pop_back();
        }
        // Then the inputs whose last reader this is give back their slots (not before: a loop
        // whose output may overlap an input is not vectorised).
        for (const int from : step.in_step) {
            const int slot = from >= 0 ? steps_[static_cast<std::size_t>(from)].slot : -1;
            if (slot >= 0 && last_use[static_cast<std::size_t>(from)] == static_cast<int>(s) &&
                std::find(free_slots.begin(), free_slots.end(), slot) == free_slots.end())
                free_slots.push_back(slot);
        }
        steps_.push_back(step);
    }
    find_prunes(read_outside, active_gates);
}

void FusedRun::find_prunes(const std::vector<bool>& read_outside, const std::vector<int>& active_gates) {
    std::vector<Operand> kept;  // what the run must give whatever its gates skip
    for (std::size_t n = 0; n < read_outside.size(); ++n)
        if (read_outside[n]) kept.push_back(Operand{static_cast<int>(n), 0, 0.0});
    for (std::size_t s = 0; s < steps_.size(); ++s) {
        const int guard = steps_[s].node;
        for (int side = 0; side < 2; ++side) {
            Prune prune;
            for (const int g : active_gates) {
                const Gate& gate = program_->gates[static_cast<std::size_t>(g)];
                if (gate.guard == guard && gate.side == side) prune.gates.push_back(g);
            }
            if (prune.gates.empty() || !copies_other_side(program_->nodes[static_cast<std::size_t>(guard)], side)) continue;
            // Needed with the guard's gated input cut: the rest may be passed over.
            const std::vector<bool> needed = needed_mask(*program_, kept, guard, side);
            prune.guard_step = static_cast<int>(s);
            prune.other = 1 - side;
            prune.unneeded.assign(steps_.size(), false);
            bool any = false;
            for (std::size_t t = 0; t < steps_.size(); ++t)
                if (t != s && !needed[static_cast<std::size_t>(steps_[t].node)]) prune.unneeded[t] = any = true;
            if (any) prunes_.push_back(std::move(prune));
        }
    }
}

void FusedRun::run(Workspace& work, const double* x, const double* y, const double* z, std::size_t count,
                   const SkippedBlocks* skipped) const {
    thread_local LaneBuffer scratch;
    scratch.resize(static_cast<std::size_t>(slots_) * kBlock);
    // Per step, where its inputs and output lie: a lane buffer of the whole batch (which a
    // block reads from its first lane on) or a scratch slot (the same for every block).
    struct Where {
        std::array<const double*, 3> in{};
        std::array<bool, 3> in_moves{};
        double* out = nullptr;
        bool out_moves = false;
        PointwiseLoop loop = nullptr;  // its row's loop on the workspace's path
    };
    thread_local std::vector<Where> where;
    where.assign(steps_.size(), Where{});
    for (std::size_t s = 0; s < steps_.size(); ++s) {
        const Step& step = steps_[s];
        const Node& node = program_->nodes[static_cast<std::size_t>(step.node)];
        Where& w = where[s];
        w.loop = pointwise_loop(node, work.path());
        w.out_moves = step.stored;
        w.out = step.stored ? work.buffer(step.node, 0) : scratch.data() + static_cast<std::size_t>(step.slot) * kBlock;
        for (std::size_t i = 0; i < node.in.size() && i < 3; ++i) {
            const int from = step.in_step[i];
            w.in_moves[i] = from < 0 || where[static_cast<std::size_t>(from)].out_moves;
            w.in[i] = from >= 0 ? where[static_cast<std::size_t>(from)].out : work.operand(step.node, i);
        }
        work.mark_done(step.node);
    }
    // Per block: the prunes whose gates skipped it whole, and so per step whether it runs
    // (0), is passed over (1) or copies its guard's other input (2).
    thread_local std::vector<char> action;
    const auto skips = [&](const Prune& prune, std::size_t block) {
        if (!skipped) return false;
        for (const int g : prune.gates) {
            const std::vector<char>& blocks = (*skipped)[static_cast<std::size_t>(g)];
            if (block < blocks.size() && blocks[block]) return true;
        }
        return false;
    };
    // Per step: a node its level leaves out here (`detail_m`).
    const LodLanes& lod = work.lod();
    thread_local std::vector<char> left_out;
    left_out.assign(steps_.size(), 0);
    for (std::size_t s = 0; s < steps_.size() && lod.weight; ++s)
        left_out[s] = detail_dropped(program_->nodes[static_cast<std::size_t>(steps_[s].node)], lod.spacing_m);
    PointwiseLanes l;
    for (std::size_t b0 = 0; b0 < count; b0 += kBlock) {
        l.count = std::min(kBlock, count - b0);
        l.x = x ? x + b0 : nullptr, l.y = y ? y + b0 : nullptr, l.z = z ? z + b0 : nullptr;
        action.assign(steps_.size(), 0);
        for (const Prune& prune : prunes_) {
            if (!skips(prune, b0 / kBlock)) continue;
            for (std::size_t s = 0; s < steps_.size(); ++s)
                if (prune.unneeded[s]) action[s] = 1;
            if (!action[static_cast<std::size_t>(prune.guard_step)]) action[static_cast<std::size_t>(prune.guard_step)] = 2 + prune.other;
        }
        for (std::size_t s = 0; s < steps_.size(); ++s) {
            if (action[s] == 1) continue;
            const Where& w = where[s];
            const auto at = [&](std::size_t i) { return w.in[i] ? w.in[i] + (w.in_moves[i] ? b0 : 0) : nullptr; };
            l.a = at(0), l.b = at(1), l.c = at(2);
            l.out = w.out + (w.out_moves ? b0 : 0);
            const Node& node = program_->nodes[static_cast<std::size_t>(steps_[s].node)];
            if (action[s] >= 2) {
                const double* other = action[s] == 2 ? l.a : l.b;
                std::copy(other, other + l.count, l.out);
            } else {
                w.loop(node, l);
            }
            // What the lanes' level cannot show of it gives way to its far value (run/lod.hpp).
            if (left_out[s]) blend_to_far(l.out, lod.weight_of(steps_[s].node) + b0, l.count, node.far);
        }
    }
}

}  // namespace isoterra::graph::eval
