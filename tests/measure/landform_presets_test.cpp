// The landform goals of issue 24, held by the built-in presets as `isoterra landform`
// measures them (30 km squares at 75 m): alpine, islands and rivers drain (at most 8 % of
// their land under closed pits), their channels are concave (theta 0.3-0.6), at most 3 % of
// their slopes are over 45 degrees, and alpine stands at least 1,500 m high; at the origin,
// at another seed and far out. And the rivers preset's network drains: every channel of
// order 2 or more reaches the sea or leaves the region, its water never rising downstream.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "isoterra/graph.hpp"
#include "run_cli.hpp"
#include "test_pace.hpp"

using isoterra::test::run_cli;

namespace {

struct Place {
    const char* preset;
    const char* args;  // the seed or region, beside --preset
};

class PresetLandform : public ::testing::TestWithParam<Place> {};

}  // namespace

TEST_P(PresetLandform, drains_is_concave_and_not_too_steep) {
    const Place place = GetParam();
    // The Release tree measures every place; under the sanitizers (several times slower) one
    // is enough to run the program's whole measure there.
    if (isoterra::test::slow_build() && (std::string(place.preset) != "islands" || *place.args))
        GTEST_SKIP() << "the sanitizer tree measures the islands at the origin only";
    const auto r = run_cli(fmt::format("landform --preset {} {} --json --quiet", place.preset, place.args));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const std::string where = fmt::format("{} {}", place.preset, place.args);
    // Enough land to measure (the sea is left out and counts as an outlet).
    ASSERT_GT(j["land_cells"].get<double>(), 0.4 * j["cells"].get<double>()) << where;
    EXPECT_LE(j["pit_share"].get<double>(), 0.08) << where;
    ASSERT_FALSE(j["theta"].is_null()) << where;
    EXPECT_GE(j["theta"].get<double>(), 0.3) << where;
    EXPECT_LE(j["theta"].get<double>(), 0.6) << where;
    EXPECT_LE(j["slope_share_over_45"].get<double>(), 0.03) << where;
    if (std::string(place.preset) == "alpine") EXPECT_GE(j["relief_m"].get<double>(), 1500.0) << where;
    std::printf("%-40s relief %6.0f m, pits %.3f, theta %.3f, over 45 degrees %.4f\n", where.c_str(), j["relief_m"].get<double>(),
                j["pit_share"].get<double>(), j["theta"].get<double>(), j["slope_share_over_45"].get<double>());
}

INSTANTIATE_TEST_SUITE_P(Goals, PresetLandform,
                         ::testing::Values(Place{"alpine", ""}, Place{"alpine", "--seed 3"},
                                           Place{"alpine", "--from -315000,285000 --to -285000,315000"}, Place{"islands", ""},
                                           Place{"islands", "--seed 2"}, Place{"islands", "--from 185000,-95000 --to 215000,-65000"},
                                           Place{"rivers", ""}, Place{"rivers", "--seed 3"},
                                           Place{"rivers", "--from 185000,-95000 --to 215000,-65000"}),
                         [](const ::testing::TestParamInfo<Place>& info) {
                             std::string name = fmt::format("{}_{}", info.param.preset, info.index);
                             return name;
                         });

class RiversPreset : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(RiversPreset, every_river_of_order_two_or_more_reaches_the_sea_or_leaves_the_region_falling_all_the_way) {
    isoterra::TerrainSource rivers = isoterra::builtin_terrain("rivers");
    rivers.seed = GetParam();
    const auto g = rivers.make_field();
    const auto* graph = dynamic_cast<const isoterra::GraphField*>(g.get());
    ASSERT_NE(graph, nullptr);
    // The network lives in the drainage node's own (meandering) coordinates; the region is
    // the 30 km square there, and the channels around it.
    const glm::dvec2 lo(-15000.0, -15000.0), hi(15000.0, 15000.0);
    const auto channels = graph->channels("drain", lo - 8000.0, hi + 8000.0);
    ASSERT_GT(channels.size(), 1000u);
    const auto on = [](const glm::dvec2& p, const isoterra::GraphChannel& c) {
        const glm::dvec2 ab = c.to - c.from;
        const double t = std::clamp(glm::dot(p - c.from, ab) / glm::dot(ab, ab), 0.0, 1.0);
        return glm::length(p - c.point(t)) < 1e-6;  // on its bent line
    };
    const auto inside = [&](const glm::dvec2& p) { return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y; };
    int followed = 0, to_sea = 0, out = 0;
    for (const auto& start : channels) {
        if (start.order < 2 || !inside(start.from)) continue;
        std::set<const isoterra::GraphChannel*> seen;
        const isoterra::GraphChannel* at = &start;
        for (;;) {
            ASSERT_TRUE(seen.insert(at).second) << "a river runs in a circle";
            ASSERT_GE(at->water_from, at->water_to) << "water rises along a channel";
            if (!inside(at->to)) {
                ++out;
                break;
            }
            if (at->water_to <= 0.0) {
                ++to_sea;
                break;
            }
            // The next: a trunk whose source is this end, or a coarser channel through it.
            const isoterra::GraphChannel* next = nullptr;
            for (const auto& c : channels)
                if (&c != at && c.level <= at->level &&
                    ((c.level == 0 && at->level == 0 && c.from == at->to) || (c.level < at->level && on(at->to, c)))) {
                    next = &c;
                    break;
                }
            ASSERT_NE(next, nullptr) << fmt::format("a river of level {} ends at ({:.1f}, {:.1f}), {:.1f} m, on nothing", at->level,
                                                    at->to.x, at->to.y, at->water_to);
            // Its water continues from the junction's level, no higher.
            ASSERT_LE(next->water_to, at->water_to + 1e-6);
            at = next;
        }
        ++followed;
    }
    std::printf("%d rivers of order 2 or more followed: %d reach the sea, %d leave the region\n", followed, to_sea, out);
    EXPECT_GT(followed, 40);
    // At seed 1 a fifth of the square is sea: rivers end there.
    if (GetParam() == 1) EXPECT_GT(to_sea, 10);
}

INSTANTIATE_TEST_SUITE_P(Seeds, RiversPreset, ::testing::Values(20261114u, 1u));
