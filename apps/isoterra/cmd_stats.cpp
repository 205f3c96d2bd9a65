// `isoterra stats`: what the field holds in a box: value range, mean, histogram, solid
// fraction, and gradient magnitude percentiles (1 everywhere for a true distance field).
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <glm/common.hpp>
#include <nlohmann/json.hpp>

#include "edit_session.hpp"
#include "region.hpp"

namespace isoterra::app {
namespace {

struct StatsOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string from, to;
    double step = 1.0;
    int bins = 16;
    bool json = false, force = false, quiet = false;
};

// The box's lattice, checked: in units of the step, one more sample each side for the gradient.
Lattice box_lattice(const StatsOptions& opt) {
    const glm::dvec3 from = parse_vec3(opt.from, "--from"), to = parse_vec3(opt.to, "--to");
    require_ordered(from, to, 3);
    glm::dvec3 n = glm::floor((to - from) / opt.step) + 1.0;
    if (n.x * n.y * n.z > 16.0e6 && !opt.force)
        throw UsageError(fmt::format("--from/--to/--step: {:.0f} samples; add --force or a larger --step", n.x * n.y * n.z));
    // A lattice side is an int, and the values and gradients of 2e8 samples take 1.6 GB.
    if (n.x * n.y * n.z > 2.0e8)
        throw UsageError(fmt::format("--from/--to/--step: {:.0f} samples is too many even with --force (at most 2e8)", n.x * n.y * n.z));
    Lattice lat;
    lat.spacing_m = opt.step;
    lat.size = glm::ivec3(n) + 2;
    // Start one step before `from`.
    lat.origin = glm::i64vec3(glm::floor(from / opt.step)) - std::int64_t{1};
    return lat;
}

// The field with its edits at every sample of the lattice.
std::vector<float> sample_box(const Lattice& lat, const Field& field, const ChunkDeltas& deltas, bool quiet) {
    std::vector<float> v(lat.count());
    // One layer of z at a time, on every core: the same values as one call.
    parallel_for(static_cast<std::size_t>(lat.size.z), default_threads(), "stats layers", quiet, [&](std::size_t k) {
        Lattice layer = lat;
        layer.origin.z += static_cast<std::int64_t>(k);
        layer.size.z = 1;
        float* out = v.data() + k * static_cast<std::size_t>(lat.size.x) * lat.size.y;
        field.sample_lattice(layer, out);
        // Edits: their deltas, trilinear between the 1 m samples (exact on them).
        if (!deltas.empty())
            for (int j = 0; j < layer.size.y; ++j)
                for (int i = 0; i < layer.size.x; ++i) out[layer.index(i, j, 0)] += static_cast<float>(deltas.at(layer.position(i, j, 0)));
    });
    return v;
}

// What the box's inner samples hold (the lattice's outer layer only lends the gradients
// their neighbours).
struct BoxStats {
    double lo = INFINITY, hi = -INFINITY, sum = 0.0;
    std::size_t solid = 0, count = 0;
    std::vector<float> gradients;  // magnitudes, sorted
    std::vector<std::size_t> histogram;
    double width = 1.0;  // of a histogram bin, from lo

    double percentile(double p) const { return static_cast<double>(gradients[static_cast<std::size_t>(p * (gradients.size() - 1))]); }
};

BoxStats box_stats(const Lattice& lat, const std::vector<float>& v, double step, int bins) {
    BoxStats s;
    for (int k = 1; k + 1 < lat.size.z; ++k)
        for (int j = 1; j + 1 < lat.size.y; ++j)
            for (int i = 1; i + 1 < lat.size.x; ++i) {
                const double f = v[lat.index(i, j, k)];
                s.lo = std::min(s.lo, f), s.hi = std::max(s.hi, f), s.sum += f, ++s.count;
                s.solid += f < 0.0;
                const double gx = v[lat.index(i + 1, j, k)] - v[lat.index(i - 1, j, k)];
                const double gy = v[lat.index(i, j + 1, k)] - v[lat.index(i, j - 1, k)];
                const double gz = v[lat.index(i, j, k + 1)] - v[lat.index(i, j, k - 1)];
                s.gradients.push_back(static_cast<float>(std::sqrt(gx * gx + gy * gy + gz * gz) / (2 * step)));
            }
    s.histogram.assign(static_cast<std::size_t>(bins), 0);
    s.width = s.hi > s.lo ? (s.hi - s.lo) / bins : 1.0;
    for (int k = 1; k + 1 < lat.size.z; ++k)
        for (int j = 1; j + 1 < lat.size.y; ++j)
            for (int i = 1; i + 1 < lat.size.x; ++i) {
                const auto b = static_cast<std::size_t>((v[lat.index(i, j, k)] - s.lo) / s.width);
                ++s.histogram[std::min(b, s.histogram.size() - 1)];
            }
    std::sort(s.gradients.begin(), s.gradients.end());
    return s;
}

// One JSON object with --json, else lines and the histogram drawn in '#'.
void report_stats(const StatsOptions& opt, const BoxStats& s) {
    nlohmann::ordered_json out;
    out["samples"] = s.count;
    out["step_m"] = opt.step;
    out["min"] = s.lo;
    out["max"] = s.hi;
    out["mean"] = s.sum / s.count;
    out["solid_fraction"] = static_cast<double>(s.solid) / s.count;
    out["histogram"] = {{"from", s.lo}, {"bin_width", s.width}, {"counts", s.histogram}};
    out["gradient_magnitude"] = {
        {"p5", s.percentile(0.05)}, {"p50", s.percentile(0.5)}, {"p95", s.percentile(0.95)}, {"max", s.gradients.back()}};
    if (opt.json) {
        fmt::print("{}\n", out.dump(2));
        return;
    }
    fmt::print("samples          {} ({} m apart)\n", s.count, opt.step);
    fmt::print("value            min {:.3f}  max {:.3f}  mean {:.3f}\n", s.lo, s.hi, s.sum / s.count);
    fmt::print("solid fraction   {:.4f}\n", static_cast<double>(s.solid) / s.count);
    fmt::print("|gradient|       p5 {:.3f}  p50 {:.3f}  p95 {:.3f}  max {:.3f}  (1 = distance field)\n", s.percentile(0.05),
               s.percentile(0.5), s.percentile(0.95), static_cast<double>(s.gradients.back()));
    fmt::print("histogram\n");
    const std::size_t most = *std::max_element(s.histogram.begin(), s.histogram.end());
    for (std::size_t b = 0; b < s.histogram.size(); ++b)
        fmt::print("  {:>9.2f} .. {:>9.2f} {:>9} {}\n", s.lo + b * s.width, s.lo + (b + 1) * s.width, s.histogram[b],
                   std::string(most ? s.histogram[b] * 40 / most : 0, '#'));
}

void stats(const StatsOptions& opt) {
    const Lattice lat = box_lattice(opt);
    const EditSession session(opt.field, opt.world.path);
    const std::vector<float> v = sample_box(lat, *session.field(), session.history().deltas(), opt.quiet);
    report_stats(opt, box_stats(lat, v, opt.step, opt.bins));
}

}  // namespace

void register_stats(CLI::App& app) {
    static StatsOptions opt;
    auto* cmd = app.add_subcommand("stats", "Value range, histogram, solid fraction and gradient statistics of a box");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd);
    cmd->add_option("--from", opt.from, "Box corner X,Y,Z (metres)")->required();
    cmd->add_option("--to", opt.to, "Opposite corner X,Y,Z")->required();
    cmd->add_option("--step", opt.step, "Metres between samples")->check(finite_range(0.001, 1e6));
    cmd->add_option("--bins", opt.bins, "Histogram bins")->transform(decimal_integer(1, 1000));
    cmd->add_flag("--json", opt.json, "Print one JSON object");
    cmd->add_flag("--force", opt.force, "Allow more than 16 million samples");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    cmd->callback([] { stats(opt); });
}

ISOTERRA_SUBCOMMAND(70, register_stats);

}  // namespace isoterra::app
