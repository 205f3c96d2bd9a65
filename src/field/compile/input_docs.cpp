// The inputs that mean the same in every node type that takes them, in one line each, for
// `graph types --json` and the node reference (docs/reference/nodes.md); a type that reads an
// input its own way says so in its row (InputSpec::doc). A test checks every input of every
// type has one.
#include <map>
#include <string>

#include "field/nodes/table.hpp"

namespace isoterra::graph {
namespace {

// The inputs that mean the same in every type that takes them.
const std::map<std::string, std::string>& common_docs() {
    static const std::map<std::string, std::string> docs = {
        {"value", "the constant"},
        {"a", "the first operand"},
        {"b", "the second operand"},
        {"in", "the value the node works on"},
        {"lo", "the lower bound"},
        {"hi", "the upper bound"},
        {"t", "the blend: 0 gives a, 1 gives b"},
        {"exponent", "the power the value is raised to"},
        {"points", "the curve's points [[x, y], ...], x increasing"},
        {"height", "the plane's height"},
        {"center", "the centre [x, y, z]; absent: the origin"},
        {"radius", "the sphere's radius"},
        {"half_extent", "half the box's size along x, y and z"},
        {"k", "how far the blend reaches, metres: the rounding's width"},
        {"x", "the x the node is read at (a warped position, say)"},
        {"y", "the y the node is read at (a warped position, say)"},
        {"z", "the z the node is read at (a warped position, say)"},
        {"scale_m", "the feature size: the noise's coordinates are the position over it"},
        {"vertical_scale_m", "the feature size along y; absent: scale_m"},
        {"offset", "added to the scaled coordinates: another part of the same noise"},
        {"noise", "the noise's flavour: \"seed\" (the seed's bits) or \"fast\""},
        {"octaves", "how many octaves are summed"},
        {"lacunarity", "each octave's frequency over the one before"},
        {"gain", "each octave's amplitude over the one before"},
        {"amplitude", "the first octave's amplitude"},
        {"sharpness", "how narrow the ridge is: the value is multiplied by it first"},
        {"crest", "rounds the ridge's top: hypot(in x sharpness, crest)"},
        {"distance_m", "how far the noise moves a point at most"},
        {"file", "the raster: a 16-bit PNG with its JSON sidecar, or a GeoTIFF (any raster GDAL reads)"},
        {"heights", "[lowest, highest] of a PNG's heights"},
        {"cell_m", "the cells' size: one point per square of this side"},
        {"jitter", "how far a cell's point moves from the cell's centre, 0 to 1 of a cell"},
        {"dx", "the height's gradient along x, metres per metre"},
        {"dz", "the height's gradient along z, metres per metre"},
    };
    return docs;
}

}  // namespace

std::string input_doc(const NodeType&, const InputSpec& input) {
    if (input.doc) return input.doc;
    const auto common = common_docs().find(input.name);
    return common == common_docs().end() ? "" : common->second;
}

}  // namespace isoterra::graph
