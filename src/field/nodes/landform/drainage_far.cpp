// drainage with far_bed_samples: river beds no narrower than that many samples where a far
// level of detail reads them (issue 53). A level whose samples lie 8-16 m apart misses most
// samples of a 12 m bed, so from afar a river showed only where a sample fell in it: dashes
// of water and sand. Inside a World column (run/lod.hpp) the lanes its level alone shows
// (lod weight 1) run with every river level's bed widened to far_bed_samples times the
// spacing, those at the column's faces (weight 0) exactly as without a level, the band
// between blended; so every level's faces, and level 0 everywhere, keep their bits.
#include <algorithm>
#include <vector>

#include "drainage_parts.hpp"

namespace isoterra::graph {

namespace {

constexpr std::size_t kFarBedSamples = 14;              // the input's place among the node's numbers
constexpr std::size_t kMinBed = drainage::kOwnNumbers;  // where a widened copy carries its beds' least half width (after the node's own)

// Runs `node` at the lanes `pick` of `l` (gathered into their own lanes), writing its ports to
// `out` (per port, pick.size() values).
void run_picked(const Node& node, const Lanes& l, const std::vector<std::size_t>& pick, std::vector<std::vector<double>>& out) {
    const std::size_t m = pick.size();
    std::vector<std::vector<double>> in(node.in.size() + 3);
    std::vector<const double*> in_lanes(node.in.size());
    const auto gather = [&](const double* from, std::size_t slot) -> const double* {
        if (!from) return nullptr;
        in[slot].resize(m);
        for (std::size_t j = 0; j < m; ++j) in[slot][j] = from[pick[j]];
        return in[slot].data();
    };
    for (std::size_t k = 0; k < node.in.size(); ++k) in_lanes[k] = gather(l.in[k], k);
    Lanes sub = l;
    sub.in = in_lanes.data();
    sub.x = gather(l.x, node.in.size()), sub.y = gather(l.y, node.in.size() + 1), sub.z = gather(l.z, node.in.size() + 2);
    sub.count = m;
    sub.lod = LodLanes{};
    out.assign(static_cast<std::size_t>(node.ports), std::vector<double>(m));
    for (int port = 0; port < node.ports; ++port) sub.out[port] = out[static_cast<std::size_t>(port)].data();  // every port is written
    run_drainage(node, sub);
}

}  // namespace

bool widens_far_beds(const Node& node) {
    return node.is("drainage") && node.number.size() > kFarBedSamples && node.number[kFarBedSamples] > 0.0;
}

void run_drainage_far(const Node& node, const Lanes& l) {
    const double* weight = l.lod.weight;
    if (!weight || !widens_far_beds(node)) return run_drainage(node, l);
    // Only where some river level's bed is narrower than the least width is there anything to do.
    const double least = node.number[kFarBedSamples] * l.lod.spacing_m;
    const drainage::Params p(node);
    bool narrower = false;
    for (int k = 0; k < p.water_levels && k < 8; ++k) narrower = narrower || p.bed_width_at(k) < least;
    if (!narrower) return run_drainage(node, l);
    std::vector<std::size_t> exact, far;
    for (std::size_t i = 0; i < l.count; ++i) {
        if (weight[i] < 1.0) exact.push_back(i);
        if (weight[i] > 0.0) far.push_back(i);
    }
    Node widened = node;  // shares the node's cache: the channels are the same, only the beds widen
    widened.number.resize(kMinBed + 1, 0.0);
    widened.number[kMinBed] = least;
    std::vector<std::vector<double>> a, b;
    if (!exact.empty()) run_picked(node, l, exact, a);
    if (!far.empty()) run_picked(widened, l, far, b);
    // Put back: exact lanes, far lanes, and the band in both blended by its weight (the
    // order port, a whole number, from the side the weight leans to).
    constexpr int kOrderPort = 5;
    for (int port = 0; port < node.ports; ++port) {
        if (!l.out[port]) continue;
        const auto s = static_cast<std::size_t>(port);
        for (std::size_t j = 0; j < exact.size(); ++j) l.out[port][exact[j]] = a[s][j];
        std::size_t j = 0;
        for (std::size_t f = 0; f < far.size(); ++f) {
            const std::size_t i = far[f];
            while (j < exact.size() && exact[j] < i) ++j;
            if (j < exact.size() && exact[j] == i && weight[i] < 1.0) {
                const double w = weight[i];
                l.out[port][i] = port == kOrderPort ? (w < 0.5 ? a[s][j] : b[s][f]) : a[s][j] + w * (b[s][f] - a[s][j]);
            } else {
                l.out[port][i] = b[s][f];
            }
        }
    }
}

}  // namespace isoterra::graph
