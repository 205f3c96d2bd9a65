// dfbm2: derivative-damped fBm (to be written).
#include "../landform_nodes.hpp"
#include <stdexcept>
namespace isoterra::graph {
void run_dfbm2(const Node&, const NoiseSet&, const Lanes&) { throw std::logic_error("dfbm2: not yet"); }
NodeRanges dfbm2_ranges(const Node&, const RangeContext&) { return {}; }
}  // namespace isoterra::graph
