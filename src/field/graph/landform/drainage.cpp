// drainage: a river network (to be written).
#include "../landform_nodes.hpp"
#include <stdexcept>
namespace isoterra::graph {
void run_drainage(const Node&, const Lanes&) { throw std::logic_error("drainage: not yet"); }
NodeRanges drainage_ranges(const Node&, const RangeContext&) { return {}; }
}  // namespace isoterra::graph
