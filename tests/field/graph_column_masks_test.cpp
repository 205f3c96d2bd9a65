// Column masks: a column node that only a mul reads (ridges times a mountain mask) is worked
// out on the lattice path only in the columns where the mul's other side is not 0. The
// result must be the same bits as with the side computed everywhere, the sign of every zero
// included, and the skipping must happen in exactly the columns where the mask is 0.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "classic_presets.hpp"
#include "isoterra/graph.hpp"
#include "same_bits.hpp"

using namespace isoterra;

namespace {

// 33 x 4 columns from x = -40 m to 24 m (2 m apart), three samples up each.
const Lattice kLattice{{-20, 0, 5}, {33, 3, 4}, 2.0};

// The columns of kLattice with x <= 0, where smoothstep(0, 50, x) is +0.
std::size_t columns_at_or_below_0() {
    std::size_t n = 0;
    for (int i = 0; i < kLattice.size.x; ++i) n += kLattice.position(i, 0, 0).x <= 0.0;
    return n * static_cast<std::size_t>(kLattice.size.z);
}

// sdf = mask * side, a column value, so that its zeros reach the output with their sign.
// `mask` and `side` name nodes of the text; `ungated` adds a second path from the side to
// the output that changes no value, so nothing may be skipped.
std::string graph_text(const std::string& mask, const std::string& side, bool ungated) {
    std::string text =
        "format = 1\nseed = 5\n[node]\n"
        "step = { type = \"smoothstep\", in = \"x\", from = 0.0, to = 50.0 }\n"
        "x = { type = \"x\" }\n"
        "step_neg = { type = \"neg\", in = \"step\" }\n"
        "ridge = { type = \"ridged2\", scale_m = 90.0, octaves = 3 }\n"
        "below = { type = \"sub\", a = \"ridge\", b = 2.0 }\n"
        "hills = { type = \"fbm2\", scale_m = 70.0, octaves = 2 }\n"
        "far = { type = \"add\", a = \"x\", b = 100.0 }\n" +
        fmt::format("out = {{ type = \"mul\", a = \"{}\", b = \"{}\" }}\n", mask, side);
    if (ungated)
        text +=
            fmt::format("low = {{ type = \"sub\", a = \"{}\", b = 1e12 }}\nsafe = {{ type = \"max\", a = \"out\", b = \"low\" }}\n", side);
    return text + "[output]\nsdf = \"" + (ungated ? "safe" : "out") + "\"\n";
}

}  // namespace

TEST(GraphColumnMasks, a_side_times_a_mask_runs_only_where_the_mask_is_not_0_and_changes_no_bit) {
    // Each mask (+0 or -0 where it is 0) times each side whose sign is known (ridges in
    // [0, 1], and below 0); `nodes`: the nodes only the side reads, itself included.
    struct Case {
        const char* mask;
        const char* side;
        std::size_t nodes;
    };
    for (const Case c : {Case{"step", "ridge", 1}, Case{"step", "below", 2}, Case{"step_neg", "ridge", 1}, Case{"step_neg", "below", 2}}) {
        const std::string what = fmt::format("{} * {}", c.mask, c.side);
        const auto masked = parse_graph(graph_text(c.mask, c.side, false), "masked.toml");
        const auto whole = parse_graph(graph_text(c.mask, c.side, true), "whole.toml");
        std::vector<float> with(kLattice.count()), without(kLattice.count());
        masked->sample_lattice(kLattice, with.data());
        whole->sample_lattice(kLattice, without.data());
        EXPECT_TRUE(test::same_bits(with, without)) << what;
        const GraphSkipCount skipped = masked->count_skipped(kLattice);
        const std::size_t columns = static_cast<std::size_t>(kLattice.size.x) * static_cast<std::size_t>(kLattice.size.z);
        EXPECT_EQ(skipped.masked_column_runs, c.nodes * columns) << what;
        EXPECT_EQ(skipped.masked_columns_skipped, c.nodes * columns_at_or_below_0()) << what;
        EXPECT_EQ(whole->count_skipped(kLattice).masked_column_runs, 0u) << what;
    }
}

TEST(GraphColumnMasks, a_side_of_unknown_sign_or_a_mask_that_cannot_be_0_skips_nothing) {
    // fbm2 can be -0 or +0 where it is 0 (which a skipped column could not tell), and
    // far = x + 100 is never 0 on the lattice: neither is masked, and the bits are the same.
    for (const auto& [mask, side] : {std::pair{"step", "hills"}, std::pair{"far", "ridge"}}) {
        const auto g = parse_graph(graph_text(mask, side, false), "unmasked.toml");
        const auto whole = parse_graph(graph_text(mask, side, true), "whole.toml");
        std::vector<float> with(kLattice.count()), without(kLattice.count());
        g->sample_lattice(kLattice, with.data());
        whole->sample_lattice(kLattice, without.data());
        EXPECT_TRUE(test::same_bits(with, without)) << mask << " * " << side;
        EXPECT_EQ(g->count_skipped(kLattice).masked_columns_skipped, 0u) << mask << " * " << side;
    }
}

TEST(GraphColumnMasks, the_tutorial_as_a_graph_skips_its_ridges_where_no_mountain_rises) {
    // Columns 32 m apart over 8 km: lowland and mountains both. The bits against the
    // built-in are checked by the exported presets' tests at every spacing.
    const auto g = parse_graph(knob_terrain_to_graph(test::classic_preset("tutorial")), "tutorial");
    const Lattice wide{{-128, 0, -128}, {257, 2, 257}, 32.0};
    const GraphSkipCount c = g->count_skipped(wide);
    const double share = static_cast<double>(c.masked_columns_skipped) / static_cast<double>(c.masked_column_runs);
    std::printf("tutorial: the ridges' nodes skipped in %.1f %% of the columns of 8 km\n", 100.0 * share);
    EXPECT_GT(share, 0.2);
    EXPECT_LT(share, 0.9);
}
