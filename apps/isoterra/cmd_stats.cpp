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

}  // namespace

void register_stats(CLI::App& app) {
    static StatsOptions opt;
    auto* cmd = app.add_subcommand("stats", "Value range, histogram, solid fraction and gradient statistics of a box");
    opt.field.add_to(*cmd);
    opt.world.add_to(*cmd);
    cmd->add_option("--from", opt.from, "Box corner X,Y,Z (metres)")->required();
    cmd->add_option("--to", opt.to, "Opposite corner X,Y,Z")->required();
    cmd->add_option("--step", opt.step, "Metres between samples")->check(finite_range(0.001, 1e6));
    cmd->add_option("--bins", opt.bins, "Histogram bins")->check(CLI::Range(1, 1000));
    cmd->add_flag("--json", opt.json, "Print one JSON object");
    cmd->add_flag("--force", opt.force, "Allow more than 16 million samples");
    cmd->add_flag("--quiet", opt.quiet, "No progress line");
    cmd->callback([] {
        const glm::dvec3 from = parse_vec3(opt.from, "--from"), to = parse_vec3(opt.to, "--to");
        require_ordered(from, to, 3);
        glm::dvec3 n = glm::floor((to - from) / opt.step) + 1.0;
        if (n.x * n.y * n.z > 16.0e6 && !opt.force)
            throw UsageError(fmt::format("--from/--to/--step: {:.0f} samples; add --force or a larger --step", n.x * n.y * n.z));
        // A lattice side is an int, and the values and gradients of 2e8 samples take 1.6 GB.
        if (n.x * n.y * n.z > 2.0e8)
            throw UsageError(fmt::format("--from/--to/--step: {:.0f} samples is too many even with --force (at most 2e8)", n.x * n.y * n.z));
        const EditSession session(opt.field, opt.world.path);
        const auto field = session.field();
        const ChunkDeltas& deltas = session.history().deltas();
        Lattice lat;
        lat.spacing_m = opt.step;
        lat.size = glm::ivec3(n) + 2;  // one more sample each side for the gradient
        // The lattice is in units of the step: start one step before `from`.
        lat.origin = glm::i64vec3(glm::floor(from / opt.step)) - std::int64_t{1};
        std::vector<float> v(lat.count());
        // One layer of z at a time, on every core: the same values as one call.
        parallel_for(static_cast<std::size_t>(lat.size.z), default_threads(), "stats layers", opt.quiet, [&](std::size_t k) {
            Lattice layer = lat;
            layer.origin.z += static_cast<std::int64_t>(k);
            layer.size.z = 1;
            float* out = v.data() + k * static_cast<std::size_t>(lat.size.x) * lat.size.y;
            field->sample_lattice(layer, out);
            // Edits: their deltas, trilinear between the 1 m samples (exact on them).
            if (!deltas.empty())
                for (int j = 0; j < layer.size.y; ++j)
                    for (int i = 0; i < layer.size.x; ++i) out[layer.index(i, j, 0)] += static_cast<float>(deltas.at(layer.position(i, j, 0)));
        });

        double lo = INFINITY, hi = -INFINITY, sum = 0.0;
        std::size_t solid = 0, count = 0;
        std::vector<float> gradients;
        for (int k = 1; k + 1 < lat.size.z; ++k)
            for (int j = 1; j + 1 < lat.size.y; ++j)
                for (int i = 1; i + 1 < lat.size.x; ++i) {
                    const double f = v[lat.index(i, j, k)];
                    lo = std::min(lo, f), hi = std::max(hi, f), sum += f, ++count;
                    solid += f < 0.0;
                    const double gx = v[lat.index(i + 1, j, k)] - v[lat.index(i - 1, j, k)];
                    const double gy = v[lat.index(i, j + 1, k)] - v[lat.index(i, j - 1, k)];
                    const double gz = v[lat.index(i, j, k + 1)] - v[lat.index(i, j, k - 1)];
                    gradients.push_back(static_cast<float>(std::sqrt(gx * gx + gy * gy + gz * gz) / (2 * opt.step)));
                }
        std::vector<std::size_t> histogram(static_cast<std::size_t>(opt.bins), 0);
        const double width = hi > lo ? (hi - lo) / opt.bins : 1.0;
        for (int k = 1; k + 1 < lat.size.z; ++k)
            for (int j = 1; j + 1 < lat.size.y; ++j)
                for (int i = 1; i + 1 < lat.size.x; ++i) {
                    const auto b = static_cast<std::size_t>((v[lat.index(i, j, k)] - lo) / width);
                    ++histogram[std::min(b, histogram.size() - 1)];
                }
        std::sort(gradients.begin(), gradients.end());
        const auto pct = [&](double p) { return static_cast<double>(gradients[static_cast<std::size_t>(p * (gradients.size() - 1))]); };

        nlohmann::ordered_json out;
        out["samples"] = count;
        out["step_m"] = opt.step;
        out["min"] = lo;
        out["max"] = hi;
        out["mean"] = sum / count;
        out["solid_fraction"] = static_cast<double>(solid) / count;
        out["histogram"] = {{"from", lo}, {"bin_width", width}, {"counts", histogram}};
        out["gradient_magnitude"] = {{"p5", pct(0.05)}, {"p50", pct(0.5)}, {"p95", pct(0.95)}, {"max", gradients.back()}};
        if (opt.json) {
            fmt::print("{}\n", out.dump(2));
            return;
        }
        fmt::print("samples          {} ({} m apart)\n", count, opt.step);
        fmt::print("value            min {:.3f}  max {:.3f}  mean {:.3f}\n", lo, hi, sum / count);
        fmt::print("solid fraction   {:.4f}\n", static_cast<double>(solid) / count);
        fmt::print("|gradient|       p5 {:.3f}  p50 {:.3f}  p95 {:.3f}  max {:.3f}  (1 = distance field)\n", pct(0.05), pct(0.5),
                   pct(0.95), static_cast<double>(gradients.back()));
        fmt::print("histogram\n");
        const std::size_t most = *std::max_element(histogram.begin(), histogram.end());
        for (std::size_t b = 0; b < histogram.size(); ++b)
            fmt::print("  {:>9.2f} .. {:>9.2f} {:>9} {}\n", lo + b * width, lo + (b + 1) * width, histogram[b],
                       std::string(most ? histogram[b] * 40 / most : 0, '#'));
    });
}

}  // namespace isoterra::app
