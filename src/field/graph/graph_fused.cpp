// Runs of pointwise nodes fused: the run's nodes one after another over a block of lanes, block
// after block, so that the values passed between them stay in the first-level cache instead
// of a buffer of the whole batch per node. A value read outside the run is stored to its
// node's buffer as well. The same formulas over the same lanes, so the same bits as node by node.
#include <algorithm>
#include <array>
#include <vector>

#include "graph_eval_parts.hpp"

namespace isoterra::graph::eval {
namespace {

// Lanes a block: 16 slots of them are 32 KB, within the first-level cache of the CPUs here.
constexpr std::size_t kBlock = 256;

}  // namespace

FusedRun::FusedRun(const Program& program, const std::vector<int>& nodes, const std::vector<bool>& read_outside) : program_(&program) {
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
}

void FusedRun::run(Workspace& work, const double* x, const double* y, const double* z, std::size_t count, bool lattice) const {
    thread_local LaneBuffer scratch;
    scratch.resize(static_cast<std::size_t>(slots_) * kBlock);
    // Per step, its inputs' and output's lanes over the whole batch (scratch slots aside).
    struct Where {
        std::array<const double*, 3> in{};
        double* out = nullptr;
    };
    std::vector<Where> where(steps_.size());
    for (std::size_t s = 0; s < steps_.size(); ++s) {
        const Step& step = steps_[s];
        const Node& node = program_->nodes[static_cast<std::size_t>(step.node)];
        for (std::size_t i = 0; i < node.in.size() && i < 3; ++i) where[s].in[i] = work.operand(step.node, i);
        if (step.stored) where[s].out = work.buffer(step.node, 0);
        work.mark_done(step.node);
    }
    for (std::size_t b0 = 0; b0 < count; b0 += kBlock) {
        const std::size_t n = std::min(kBlock, count - b0);
        for (std::size_t s = 0; s < steps_.size(); ++s) {
            const Step& step = steps_[s];
            const auto lanes_of = [&](int at) -> double* {
                const Step& from = steps_[static_cast<std::size_t>(at)];
                return from.stored ? where[static_cast<std::size_t>(at)].out + b0
                                   : scratch.data() + static_cast<std::size_t>(from.slot) * kBlock;
            };
            PointwiseLanes l;
            const double** in[3] = {&l.a, &l.b, &l.c};
            for (std::size_t i = 0; i < 3; ++i)
                *in[i] = step.in_step[i] >= 0 ? lanes_of(step.in_step[i]) : where[s].in[i] ? where[s].in[i] + b0 : nullptr;
            l.x = x ? x + b0 : nullptr, l.y = y ? y + b0 : nullptr, l.z = z ? z + b0 : nullptr;
            l.out = lanes_of(static_cast<int>(s));
            l.count = n;
            l.lattice = lattice;
            run_pointwise(program_->nodes[static_cast<std::size_t>(step.node)], l);
        }
    }
}

}  // namespace isoterra::graph::eval
