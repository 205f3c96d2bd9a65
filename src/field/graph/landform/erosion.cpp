// erosion: the gully filter (to be written).
#include "../landform_nodes.hpp"
#include <stdexcept>
namespace isoterra::graph {
void run_erosion(const Node&, const NoiseSet&, const Lanes&) { throw std::logic_error("erosion: not yet"); }
NodeRanges erosion_ranges(const Node&, const RangeContext&) { return {}; }
}  // namespace isoterra::graph
