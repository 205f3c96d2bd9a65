// spline: a monotone cubic through knots (to be written).
#include "../landform_nodes.hpp"
#include <stdexcept>
namespace isoterra::graph {
void run_spline(const Node&, const Lanes&) { throw std::logic_error("spline: not yet"); }
ValueRange spline_range(const Node&, const RangeContext&) { return {}; }
}  // namespace isoterra::graph
