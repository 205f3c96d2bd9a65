// Gated noises: a 3D noise that reaches the sdf only through one side of a min, max or CSG
// node is skipped on the lattice where the other side decides that node alone. The result
// must be the same bits as with the noise computed everywhere, for every kind of guard and
// either side, and the skipping must happen.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isoterra/graph.hpp"

using namespace isoterra;

namespace {

// Ground from 2D noise; blobs of 3D noise in [-6, 14] m; `guard` of the two, the blobs on
// side `side`. `ungated` adds a second path from the noise to the output that changes no
// value (a max with something a trillion metres lower), so nothing can be skipped.
std::string graph_text(const std::string& guard, int side, bool ungated, const std::string& extra = "") {
    const std::string a = side == 1 ? "land" : "blobs", b = side == 1 ? "blobs" : "land";
    std::string text = "format = 1\nseed = 31\n[node]\n"
                       "hills = { type = \"fbm2\", scale_m = 120.0, octaves = 3 }\n"
                       "height = { type = \"mul\", a = \"hills\", b = 20.0 }\n"
                       "land = { type = \"plane\", height = \"height\" }\n"
                       "n = { type = \"simplex3\", scale_m = 20.0 }\n"
                       "scaled = { type = \"mul\", a = \"n\", b = 10.0 }\n"
                       "blobs = { type = \"add\", a = \"scaled\", b = 4.0 }\n" +
                       fmt::format("out = {{ type = \"{}\", a = \"{}\", b = \"{}\"{} }}\n", guard, a, b, extra);
    if (ungated) text += "low = { type = \"sub\", a = \"n\", b = 1e12 }\nsafe = { type = \"max\", a = \"out\", b = \"low\" }\n";
    return text + "[output]\nsdf = \"" + (ungated ? "safe" : "out") + "\"\n";
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST(GraphGates, skipped_noises_change_no_bit_for_any_guard_on_either_side) {
    const std::pair<const char*, const char*> guards[] = {{"min", ""},          {"max", ""},          {"union", ""},
                                                          {"intersect", ""},    {"subtract", ""},     {"smooth_union", ", k = 3.0"},
                                                          {"smooth_subtract", ", k = 3.0"}};
    for (const auto& [guard, extra] : guards)
        for (int side = 0; side < 2; ++side) {
            const auto gated = parse_graph(graph_text(guard, side, false, extra), "gated.toml");
            const auto ungated = parse_graph(graph_text(guard, side, true, extra), "ungated.toml");
            std::size_t skipped = 0, total = 0;
            for (const double spacing : {1.0, 4.0})
                for (int cy = -2; cy <= 1; ++cy) {
                    const Lattice lattice{{-16, cy * 32, 40}, {33, 33, 33}, spacing};
                    std::vector<float> with(lattice.count()), without(lattice.count());
                    gated->sample_lattice(lattice, with.data());
                    ungated->sample_lattice(lattice, without.data());
                    ASSERT_TRUE(same_bits(with, without)) << guard << " side " << side << " spacing " << spacing << " chunk y " << cy;
                    const GraphSkipCount c = gated->count_skipped(lattice);
                    skipped += c.skipped, total += c.noise_samples;
                    EXPECT_EQ(ungated->count_skipped(lattice).skipped, 0u);
                }
            // The ground spans +-19 m and the blobs [-6, 14]: most of each chunk is decided by
            // the ground alone, for every guard (max and intersect: far below; min: far above).
            EXPECT_GT(skipped, total / 4) << guard << " side " << side << ": " << skipped << " of " << total;
            std::printf("%-16s side %d: %zu of %zu noise samples skipped\n", guard, side, skipped, total);
        }
}

TEST(GraphGates, a_noise_with_another_path_to_the_output_is_never_skipped) {
    // The noise also moves the ground: it matters everywhere.
    const auto g = parse_graph("format = 1\n[node]\nn = { type = \"simplex3\", scale_m = 20.0 }\n"
                               "land = { type = \"plane\", height = \"n\" }\nblobs = { type = \"mul\", a = \"n\", b = 3.0 }\n"
                               "out = { type = \"min\", a = \"land\", b = \"blobs\" }\n[output]\nsdf = \"out\"\n",
                               "g.toml");
    const Lattice lattice{{0, 20, 0}, {33, 33, 33}, 1.0};
    const GraphSkipCount c = g->count_skipped(lattice);
    EXPECT_EQ(c.noise_samples, lattice.count());
    EXPECT_EQ(c.skipped, 0u);
}

// What the ranges save on the presets written as graphs, over a 7 x 7 x 7 block of 33^3
// chunks at 1 m around the origin (y -64 to 160 m): whole chunks whose sdf range cannot
// cross zero (the World does not sample them), and inside the others the share of 3D-noise
// samples skipped (the caves' noises above the ground). Printed for docs/field-graphs.md.
TEST(GraphGates, the_presets_as_graphs_skip_chunks_and_noise_samples) {
    for (const char* name : {"tutorial", "alpine", "islands"}) {
        const auto g = parse_graph(preset_to_graph(builtin_preset(name)), name);
        GraphSkipCount total;
        int chunks = 0, skipped_chunks = 0;
        for (int cx = -3; cx <= 3; ++cx)
            for (int cy = -2; cy <= 4; ++cy)
                for (int cz = -3; cz <= 3; ++cz) {
                    const Lattice l{{cx * 32, cy * 32, cz * 32}, {33, 33, 33}, 1.0};
                    ++chunks;
                    if (!g->bounds(l.bounds()).may_cross_zero()) {
                        ++skipped_chunks;
                        continue;
                    }
                    const GraphSkipCount c = g->count_skipped(l);
                    total.noise_samples += c.noise_samples, total.skipped += c.skipped;
                }
        const double share = static_cast<double>(total.skipped) / static_cast<double>(total.noise_samples);
        std::printf("%-9s %d of %d chunks skipped whole; in the others %zu of %zu 3D-noise samples skipped (%.1f %%)\n", name,
                    skipped_chunks, chunks, total.skipped, total.noise_samples, 100.0 * share);
        EXPECT_GT(share, 0.2) << name;  // measured: tutorial 26.9 %, alpine 23.7 %, islands 30.8 %
    }
}
