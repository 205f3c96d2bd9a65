// Column masks: which sides of a mul only that mul reads (found once, when the graph
// compiles), and per lattice the columns where the other side is not 0, where alone the
// side's nodes run (on those columns packed together, then spread back).
#include "column_masks.hpp"

#include <algorithm>
#include <cmath>

#include "eval.hpp"
#include "gates.hpp"
#include "intervals.hpp"
#include "field/nodes/table.hpp"

namespace isoterra::graph {
namespace {

// The sign of a masked side's zero: +1 where its values never have the sign bit (a ridge
// profile is pow(max(r, +0), e); abs), or its range is above 0; -1 below 0; 0 unknown.
int sign_of(const Node& node, const ValueRange& range) {
    if (range.lo > 0.0 || node.kind->unsigned_zero) return 1;
    return range.hi < 0.0 ? -1 : 0;
}

// Every output of the program: what a node must feed to be needed.
std::vector<Operand> outputs_of(const Program& program) {
    std::vector<Operand> out;
    for (const Operand* o : {&program.sdf, &program.ground, &program.water, &program.snow_line, &program.scree})
        if (!o->is_constant()) out.push_back(*o);
    return out;
}

}  // namespace

void find_column_masks(Program& program) {
    const std::vector<Operand> outputs = outputs_of(program);
    const std::vector<bool> needed = needed_mask(program, outputs);
    const double visits = static_cast<double>(program.nodes.size()) + 1.0;
    double budget = kGateSearchVisits;
    std::vector<bool> taken(program.nodes.size(), false);
    // The last mul first: an outer mask takes the nodes an inner one would have.
    for (std::size_t m = program.nodes.size(); m-- > 0;) {
        const Node& mul = program.nodes[m];
        // A mul on a grid reads its inputs at the grid's nodes, not at the columns.
        if (!needed[m] || taken[m] || mul.kind->guard != Guard::mask || mul.folded || mul.grid_m > 0.0 || !eval::is_column(mul) ||
            mul.in[0].is_constant() || mul.in[1].is_constant())
            continue;
        if ((budget -= 2.0 * visits) < 0.0) break;
        for (int side = 0; side < 2; ++side) {
            const std::vector<bool> still = needed_mask(program, outputs, static_cast<int>(m), side);
            ColumnMask mask{static_cast<int>(m), side, {}};
            bool noise = false, usable = true;
            for (std::size_t n = 0; n < program.nodes.size() && usable; ++n) {
                if (!needed[n] || still[n] || program.nodes[n].folded) continue;
                // A node on a grid reads its inputs at the grid's nodes, not at the columns.
                // (Finite wherever its inputs are, so no NaN where every range is finite: not a
                // raster's no-data, nor the drainage's tiles.)
                usable = !taken[n] && program.nodes[n].grid_m <= 0.0 && program.nodes[n].kind->finite;
                noise = noise || is_noise(program.nodes[n]);
                mask.nodes.push_back(static_cast<int>(n));
            }
            if (!usable || !noise) continue;
            for (const int n : mask.nodes) taken[static_cast<std::size_t>(n)] = true;
            program.column_masks.push_back(std::move(mask));
            break;
        }
    }
}

std::vector<ActiveMask> active_column_masks(const Program& program, const NoiseSet& noise, const Box& box) {
    std::vector<ActiveMask> active;
    if (program.column_masks.empty()) return active;
    std::size_t upto = 0;
    for (const ColumnMask& mask : program.column_masks) upto = std::max(upto, static_cast<std::size_t>(mask.mul) + 1);
    const std::vector<NodeRanges> ranges = node_intervals(program, noise, box, nullptr, upto);
    const auto finite = [&](const Operand& o) {
        const ValueRange r = operand_range(ranges, o);
        return o.is_constant() || (std::isfinite(r.lo) && std::isfinite(r.hi));
    };
    for (const ColumnMask& mask : program.column_masks) {
        const Node& mul = program.nodes[static_cast<std::size_t>(mask.mul)];
        const Operand& side = mul.in[static_cast<std::size_t>(mask.side)];
        const ValueRange other = operand_range(ranges, mul.in[static_cast<std::size_t>(1 - mask.side)]);
        // Exact only where no node of the side can be infinite or NaN (each range finite, and
        // so each input's) and the sign of the side's zero is known.
        const int sign = sign_of(program.nodes[static_cast<std::size_t>(side.node)], operand_range(ranges, side));
        bool exact = sign != 0;
        for (std::size_t i = 0; i < mask.nodes.size() && exact; ++i) {
            const Node& node = program.nodes[static_cast<std::size_t>(mask.nodes[i])];
            for (int port = 0; port < node.ports && exact; ++port) exact = finite(Operand{mask.nodes[i], port});
            for (const Operand& in : node.in) exact = exact && finite(in);
        }
        if (exact && other.lo <= 0.0 && other.hi >= 0.0) active.push_back({&mask, sign > 0 ? 0.0 : -0.0});
    }
    return active;
}

void run_column_mask(const Program& program, const NoiseSet& noise, const ActiveMask& active, const double* x, const double* z,
                     std::size_t count, eval::Workspace& work, LatticeStats* stats) {
    const ColumnMask& mask = *active.mask;
    const Node& mul = program.nodes[static_cast<std::size_t>(mask.mul)];
    const Operand& side = mul.in[static_cast<std::size_t>(mask.side)];
    const Operand& other = mul.in[static_cast<std::size_t>(1 - mask.side)];
    const double* weight = work.buffer(other.node, other.port);
    std::vector<std::size_t> kept;
    kept.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        if (weight[i] != 0.0) kept.push_back(i);  // NaN too: the product is NaN whatever the side
    if (stats) {
        stats->masked_column_runs += mask.nodes.size() * count;
        stats->masked_columns_skipped += mask.nodes.size() * (count - kept.size());
    }
    if (kept.size() == count) {
        for (const int n : mask.nodes) work.run(n, noise, x, nullptr, z, count);
        return;
    }
    // Skipped columns read a zero of the side's sign: the other side's zero times it then
    // has the bits it would have had.
    double* result = work.buffer(side.node, side.port);
    std::fill(result, result + count, active.zero);
    if (kept.empty()) return;
    // The kept columns packed: their positions, and the values the side reads from outside.
    const std::size_t m = kept.size();
    std::vector<double> px(m), pz(m);
    for (std::size_t j = 0; j < m; ++j) px[j] = x[kept[j]], pz[j] = z[kept[j]];
    eval::Workspace packed(program, m);
    std::vector<double> packed_lod;  // the kept columns' lod weights (run/lod.hpp)
    if (const LodLanes& lod = work.lod(); lod.weight) {
        packed_lod.resize(m);
        for (std::size_t j = 0; j < m; ++j) packed_lod[j] = lod.weight[kept[j]];
        packed.set_lod({packed_lod.data(), lod.spacing_m});
    }
    std::vector<bool> inside(program.nodes.size(), false), gathered(program.nodes.size() * kMaxPorts, false);
    for (const int n : mask.nodes) inside[static_cast<std::size_t>(n)] = true;
    for (const int n : mask.nodes) {
        for (const Operand& in : program.nodes[static_cast<std::size_t>(n)].in) {
            const std::size_t slot = static_cast<std::size_t>(in.node) * kMaxPorts + static_cast<std::size_t>(in.port);
            if (in.is_constant() || inside[static_cast<std::size_t>(in.node)] || gathered[slot]) continue;
            gathered[slot] = true;
            const double* from = work.buffer(in.node, in.port);
            double* to = packed.buffer(in.node, in.port);
            for (std::size_t j = 0; j < m; ++j) to[j] = from[kept[j]];
        }
        packed.run(n, noise, px.data(), nullptr, pz.data(), m);
    }
    const double* values = packed.buffer(side.node, side.port);
    for (std::size_t j = 0; j < m; ++j) result[kept[j]] = values[j];
}

}  // namespace isoterra::graph
