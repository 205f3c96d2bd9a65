// Box bounds are conservative (every sampled value inside) and tight enough to skip air.
#include <gtest/gtest.h>

#include <cmath>

#include "classic_presets.hpp"
#include "isoterra/field.hpp"

using namespace isoterra;

class PresetBounds : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetBounds, every_value_sampled_in_a_random_box_lies_within_its_bound) {
    const auto t = make_terrain(test::classic_preset(GetParam()), 20261114);
    Mulberry32 r(77);
    std::vector<glm::dvec3> pts(512);
    std::vector<double> vals(pts.size());
    for (int b = 0; b < 300; ++b) {
        // Boxes from 1 m to 64 m, anywhere within 20 km, near the ground where it matters.
        const double size = 1.0 + r.next() * 63.0;
        const double x = r.next() * 40000 - 20000, z = r.next() * 40000 - 20000;
        const double y = t->surface_height(x, z) + r.next() * 80 - 40;
        Box box{{x, y, z}, {x + size, y + size * (0.5 + r.next()), z + size}};
        const ValueRange range = t->bounds(box);
        for (auto& p : pts) p = box.lo + (box.hi - box.lo) * glm::dvec3(r.next(), r.next(), r.next());
        // Include the corners, where linear parts are extreme.
        for (int c = 0; c < 8; ++c) pts[c] = {c & 1 ? box.hi.x : box.lo.x, c & 2 ? box.hi.y : box.lo.y, c & 4 ? box.hi.z : box.lo.z};
        t->sample_points(pts.data(), pts.size(), vals.data());
        for (std::size_t i = 0; i < pts.size(); ++i) {
            ASSERT_GE(vals[i], range.lo) << GetParam() << " box " << b;
            ASSERT_LE(vals[i], range.hi) << GetParam() << " box " << b;
        }
    }
}

TEST_P(PresetBounds, a_chunk_well_above_the_ground_is_proven_all_air) {
    // How far above the real ground a chunk must start for the bound to prove it air: the
    // warped alpine ridges have the loosest slope bounds.
    const double allowance = GetParam() == "alpine" ? 250.0 : 60.0;
    const KnobTerrain preset = test::classic_preset(GetParam());
    const auto t = make_terrain(preset, 20261114);
    const double iso = preset.terrain.iso_level;
    int proven = 0;
    double mean_slack = 0.0;
    for (int c = 0; c < 50; ++c) {
        const double x = c * 320.0 - 8000, z = c * -170.0 + 3000;
        double top = -1e9;
        for (int i = 0; i <= 32; ++i)
            for (int k = 0; k <= 32; ++k) top = std::max(top, t->surface_height(x + i, z + k));
        top += t->ground_bend();
        const Box box{{x, top + allowance, z}, {x + 32, top + allowance + 32, z + 32}};
        const ValueRange range = t->bounds(box);
        proven += range.lo > 0.0;
        // The bound's lowest value is the box's bottom less the proven top of the ground.
        mean_slack += (box.lo.y - range.lo - iso - top) / 50.0;
    }
    EXPECT_EQ(proven, 50);
    std::printf("%s: the ground bound lies %.1f m above the highest ground on average\n", GetParam().c_str(), mean_slack);
}

// The terrain function's presets: the tutorial and the classic alpine and islands (the
// built-in alpine and islands are field graphs now: BuiltinGraphBounds below).
INSTANTIATE_TEST_SUITE_P(AllPresets, PresetBounds, ::testing::Values("tutorial", "alpine", "islands"));

TEST(ShapeBounds, sphere_and_plane_bounds_are_exact_at_the_extremes) {
    const auto sphere = make_sphere({0, 0, 0}, 10);
    const ValueRange r = sphere->bounds({{20, -1, -1}, {30, 1, 1}});
    EXPECT_DOUBLE_EQ(r.lo, 10.0);
    EXPECT_DOUBLE_EQ(r.hi, std::sqrt(900.0 + 1 + 1) - 10.0);
    const auto plane = make_plane({0, 1, 0}, 5);
    const ValueRange p = plane->bounds({{-3, 0, -3}, {3, 8, 3}});
    EXPECT_DOUBLE_EQ(p.lo, -5.0);
    EXPECT_DOUBLE_EQ(p.hi, 3.0);
}
