// The landform measures on shapes with known answers: planes and cones (their slopes),
// bowls and pits (their filled area), flats (they drain), tiny grids routed by hand, a
// channel built as S = k A^-theta, Hack's law, anisotropic cells, sea and no-data cells.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "isoterra/measure.hpp"
#include "test_pace.hpp"

using namespace isoterra;

namespace {

HeightGrid make_grid(int width, int height, double dx, double dz, const std::function<double(double, double)>& h) {
    HeightGrid g;
    g.width = width, g.height = height, g.dx_m = dx, g.dz_m = dz;
    g.heights.resize(g.count());
    for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c) g.heights[g.index(c, r)] = h(c * dx, r * dz);
    return g;
}

HeightGrid from_rows(int width, const std::vector<double>& rows, double dx = 1.0, double dz = 1.0) {
    HeightGrid g;
    g.width = width, g.height = static_cast<int>(rows.size()) / width, g.dx_m = dx, g.dz_m = dz;
    g.heights = rows;
    return g;
}

// Follows receivers from `i` until an outlet; returns the outlet, or -1 on a cycle.
std::int64_t outlet_of(const std::vector<std::int32_t>& receivers, std::size_t i) {
    std::size_t steps = 0;
    while (receivers[i] != kNoReceiver) {
        i = static_cast<std::size_t>(receivers[i]);
        if (++steps > receivers.size()) return -1;
    }
    return static_cast<std::int64_t>(i);
}

}  // namespace

TEST(Landform, a_tilted_plane_has_no_pits_one_slope_and_drains_every_cell_to_the_edge) {
    // Gradient (0.2, 0.1): atan(hypot) = 12.604 degrees everywhere, edges included.
    const HeightGrid g = make_grid(60, 40, 10.0, 10.0, [](double x, double z) { return 0.2 * x + 0.1 * z; });
    const LandformReport r = measure_landform(g);
    EXPECT_EQ(r.land_cells, 2400u);
    EXPECT_EQ(r.pit_share, 0.0);
    EXPECT_NEAR(r.slopes.mean_deg, 12.6044, 1e-3);
    EXPECT_NEAR(r.slopes.median_deg, 12.6044, 1e-3);
    EXPECT_DOUBLE_EQ(r.slopes.bin_share[2], 1.0);  // 10-15 degrees
    EXPECT_EQ(r.slopes.share_over_30, 0.0);
    EXPECT_NEAR(r.heights.relief_m, 0.2 * 590 + 0.1 * 390, 1e-9);
    EXPECT_NEAR(r.heights.integral, 0.5, 1e-9);  // a plane's heights are uniform

    const auto kinds = classify_cells(g, -1e9);
    const auto filled = fill_depressions(g, kinds);
    for (std::size_t i = 0; i < g.count(); ++i) EXPECT_EQ(filled[i], g.heights[i]) << i;
    const auto receivers = d8_receivers(g, filled, kinds);
    for (int row = 1; row + 1 < g.height; ++row)
        for (int c = 1; c + 1 < g.width; ++c) {
            // Steepest descent on this plane: the diagonal towards -x, -z (drop 3 over 14.1 m).
            EXPECT_EQ(receivers[g.index(c, row)], static_cast<std::int32_t>(g.index(c - 1, row - 1)));
            EXPECT_GE(outlet_of(receivers, g.index(c, row)), 0);
        }
}

TEST(Landform, a_steep_anisotropic_plane_has_the_slope_of_its_true_spacing) {
    // 0.3 m per m along x (cells 10 m apart), 0.4 along z (25 m apart): |gradient| 0.5, 26.565 degrees.
    const HeightGrid g = make_grid(30, 20, 10.0, 25.0, [](double x, double z) { return 0.3 * x + 0.4 * z; });
    const SlopeStatistics s = slope_statistics(g, classify_cells(g, -1e9));
    EXPECT_NEAR(s.mean_deg, 26.5651, 1e-3);
    EXPECT_DOUBLE_EQ(s.bin_share[5], 1.0);
    // 0.8 and 0.9 m per m: 50.19 degrees, all over 45.
    const HeightGrid steep = make_grid(30, 20, 10.0, 25.0, [](double x, double z) { return 0.8 * x + 0.9 * z; });
    const SlopeStatistics t = slope_statistics(steep, classify_cells(steep, -1e9));
    EXPECT_NEAR(t.mean_deg, std::atan(std::hypot(0.8, 0.9)) * 180.0 / M_PI, 1e-9);
    EXPECT_DOUBLE_EQ(t.share_over_45, 1.0);
    EXPECT_DOUBLE_EQ(t.share_over_30, 1.0);
    EXPECT_DOUBLE_EQ(t.bin_share[10], 1.0);
}

TEST(Landform, a_cone_has_its_flank_slope_everywhere_but_the_apex_and_no_pits) {
    // A peak at the centre falling 0.5 m per m (26.57 degrees): central differences of a
    // cone are exact off the apex's neighbourhood; the apex itself reads flat.
    const int n = 101;
    const double d = 20.0, c = 50 * d;
    const HeightGrid g = make_grid(n, n, d, d, [&](double x, double z) { return 1000.0 - 0.5 * std::hypot(x - c, z - c); });
    const LandformReport r = measure_landform(g);
    EXPECT_EQ(r.pit_share, 0.0);
    // Off the axes a central difference spans the cone's tangential bend and reads a little
    // less than the flank's 26.565 degrees.
    EXPECT_NEAR(r.slopes.median_deg, 26.5651, 0.01);
    EXPECT_LT(r.slopes.median_deg, 26.5651);
    // Bin 25-30: every cell except the apex and a few next to it, where the difference spans the tip.
    EXPECT_GT(r.slopes.bin_share[5], 1.0 - 9.0 / (n * n));
    EXPECT_LE(r.slopes.bin_share[5], 1.0 - 1.0 / (n * n));
    EXPECT_EQ(r.slopes.share_over_30, 0.0);
    // A cone's hypsometric integral is 1/3 over a disc; over the square around it less.
    EXPECT_GT(r.heights.integral, 0.2);
    EXPECT_LT(r.heights.integral, 0.5);
}

TEST(Landform, a_bowl_is_a_pit_where_it_lies_more_than_a_metre_under_its_lowest_rim) {
    // A paraboloid h = (r / 10 m)^2 over a square 2L wide: it fills to the lowest rim point,
    // the edge's midpoints at (L / 10)^2, and the pits are the cells over 1 m below that.
    const int n = 81;
    const double d = 10.0, centre = 40 * d, L = 40 * d;
    const HeightGrid g = make_grid(n, n, d, d, [&](double x, double z) {
        const double r = std::hypot(x - centre, z - centre) / 10.0;
        return r * r;
    });
    const double level = (L / 10.0) * (L / 10.0);
    std::size_t deeper = 0;
    for (const double h : g.heights) deeper += level - h > 1.0;
    const LandformReport r = measure_landform(g);
    EXPECT_DOUBLE_EQ(r.pit_share, static_cast<double>(deeper) / (n * n));
    // And the shape's own share: a disc of radius sqrt(level - 1) * 10 m in the square.
    const double disc = M_PI * (level - 1.0) * 100.0 / ((n * d) * (n * d));
    EXPECT_NEAR(r.pit_share, disc, 0.01);

    // The filled surface is level (to the epsilon) and nowhere under the ground.
    const auto kinds = classify_cells(g, -1e9);
    const auto filled = fill_depressions(g, kinds);
    for (std::size_t i = 0; i < g.count(); ++i) {
        EXPECT_GE(filled[i], g.heights[i]);
        if (g.heights[i] < level) EXPECT_NEAR(filled[i], level, 1e-9) << i;
    }
}

TEST(Landform, a_plane_with_one_pit_of_known_area_has_that_pit_share) {
    // A plane falling 0.1 m per m towards -x, 1 m cells, with a 5 x 7 hole 3 m deep: filled
    // to its rim's lowest point, every hole cell is 2.3 to 3 m under it.
    HeightGrid g = make_grid(50, 40, 1.0, 1.0, [](double x, double) { return 0.1 * x; });
    for (int r = 10; r < 17; ++r)
        for (int c = 20; c < 25; ++c) g.heights[g.index(c, r)] -= 3.0;
    const LandformReport r = measure_landform(g);
    EXPECT_DOUBLE_EQ(r.pit_share, 35.0 / 2000.0);
    const auto kinds = classify_cells(g, -1e9);
    const auto filled = fill_depressions(g, kinds);
    EXPECT_NEAR(filled[g.index(22, 13)], 1.9, 1e-9);  // the rim's lowest cell: x = 19
    EXPECT_EQ(filled[g.index(30, 30)], g.heights[g.index(30, 30)]);
    // Deeper than 1 m only in the hole: a 3.5 m threshold finds none.
    EXPECT_EQ(pit_share(g, filled, kinds, 3.5), 0.0);
    EXPECT_DOUBLE_EQ(pit_share(g, filled, kinds, 2.0), 35.0 / 2000.0);
}

TEST(Landform, flats_drain_through_the_epsilon_fill_without_counting_as_pits) {
    // A flat floor walled by a 5 m rim with one gap to the edge (1 m lower, so the rim drains
    // outwards): every cell reaches an outlet, and all the area arrives there.
    const int n = 30;
    HeightGrid g = make_grid(
        n, n, 5.0, 5.0, [&](double x, double z) { return x == 0.0 || z == 0.0 || x == 5.0 * (n - 1) || z == 5.0 * (n - 1) ? -1.0 : 0.0; });
    for (int i = 1; i < n - 1; ++i)
        for (const std::size_t k : {g.index(i, 1), g.index(i, n - 2), g.index(1, i), g.index(n - 2, i)}) g.heights[k] = 5.0;
    g.heights[g.index(15, 1)] = 0.0;  // the gap
    const auto kinds = classify_cells(g, -1e9);
    const auto filled = fill_depressions(g, kinds);
    const auto receivers = d8_receivers(g, filled, kinds);
    const FlowAccumulation flow = accumulate_flow(g, filled, receivers, kinds);
    double at_outlets = 0.0;
    for (std::size_t i = 0; i < g.count(); ++i) {
        ASSERT_GE(outlet_of(receivers, i), 0) << i;
        if (receivers[i] == kNoReceiver) at_outlets += flow.area_m2[i];
        EXPECT_LT(filled[i] - g.heights[i], 1e-9);  // the floor is not raised: it drains out
    }
    EXPECT_DOUBLE_EQ(at_outlets, 25.0 * n * n);
    // The whole inner floor (26 x 26 cells) leaves through the gap, and on to row 0.
    EXPECT_DOUBLE_EQ(flow.area_m2[g.index(15, 1)], 25.0 * 26 * 26 + 25.0);
    EXPECT_EQ(receivers[g.index(15, 1)], static_cast<std::int32_t>(g.index(15, 0)));
    EXPECT_EQ(measure_landform(g).pit_share, 0.0);

    // An entirely flat grid drains too, to the nearest edge of the flood.
    const HeightGrid flat = make_grid(20, 20, 1.0, 1.0, [](double, double) { return 7.0; });
    const auto fk = classify_cells(flat, -1e9);
    const auto ff = fill_depressions(flat, fk);
    const auto fr = d8_receivers(flat, ff, fk);
    for (int r = 1; r < 19; ++r)
        for (int c = 1; c < 19; ++c) {
            EXPECT_NE(fr[flat.index(c, r)], kNoReceiver);
            EXPECT_GT(ff[flat.index(c, r)], 7.0);
            EXPECT_LT(ff[flat.index(c, r)], 7.0 + 1e-9);
        }
}

TEST(Landform, d8_and_accumulation_on_a_hand_checked_grid) {
    // Worked by hand (1 m cells): (1,1) 30 -> (2,2) by the diagonal (20 / 1.414 beats 10);
    // (2,1) -> (2,2); (3,1) -> (2,2) diagonal; (1,2) 28 -> (2,3) diagonal (19.8 beats 18);
    // (2,2) -> (2,3); (3,2) -> (2,3) diagonal. The edge drains nowhere.
    const HeightGrid g = from_rows(5, {50, 50, 50, 50, 50,  //
                                       50, 30, 20, 25, 50,  //
                                       50, 28, 10, 24, 50,  //
                                       50, 50, 0,  50, 50});
    const auto kinds = classify_cells(g, -1e9);
    const auto filled = fill_depressions(g, kinds);
    EXPECT_EQ(filled, g.heights);
    const auto rec = d8_receivers(g, filled, kinds);
    const auto at = [&](int c, int r) { return static_cast<std::int32_t>(g.index(c, r)); };
    EXPECT_EQ(rec[at(1, 1)], at(2, 2));
    EXPECT_EQ(rec[at(2, 1)], at(2, 2));
    EXPECT_EQ(rec[at(3, 1)], at(2, 2));
    EXPECT_EQ(rec[at(1, 2)], at(2, 3));
    EXPECT_EQ(rec[at(2, 2)], at(2, 3));
    EXPECT_EQ(rec[at(3, 2)], at(2, 3));
    for (int c = 0; c < 5; ++c) EXPECT_EQ(rec[at(c, 0)], kNoReceiver);
    EXPECT_EQ(rec[at(2, 3)], kNoReceiver);
    const FlowAccumulation f = accumulate_flow(g, filled, rec, kinds);
    EXPECT_DOUBLE_EQ(f.area_m2[at(1, 1)], 1.0);
    EXPECT_DOUBLE_EQ(f.area_m2[at(2, 2)], 4.0);
    EXPECT_DOUBLE_EQ(f.area_m2[at(2, 3)], 7.0);
    EXPECT_DOUBLE_EQ(f.length_m[at(1, 1)], 0.0);
    EXPECT_DOUBLE_EQ(f.length_m[at(2, 2)], std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(f.length_m[at(2, 3)], 1.0 + std::sqrt(2.0));
}

TEST(Landform, d8_weighs_drops_by_the_true_spacing_when_dx_and_dz_differ) {
    // The centre drops 4 m to its +x neighbour and 2 m to its +z one: +x when cells are
    // square, +z when columns are 4 m apart and rows 1 m (slopes 1 against 2).
    const std::vector<double> rows{20, 20, 20, 20, 10, 6, 20, 8, 20};
    for (const auto& [dx, want] : {std::pair{1.0, std::pair{2, 1}}, std::pair{4.0, std::pair{1, 2}}}) {
        const HeightGrid g = from_rows(3, rows, dx, 1.0);
        const auto kinds = classify_cells(g, -1e9);
        const auto filled = fill_depressions(g, kinds);
        const auto rec = d8_receivers(g, filled, kinds);
        EXPECT_EQ(rec[4], static_cast<std::int32_t>(g.index(want.first, want.second))) << "dx " << dx;
        const FlowAccumulation f = accumulate_flow(g, filled, rec, kinds);
        EXPECT_DOUBLE_EQ(f.area_m2[g.index(want.first, want.second)], 2.0 * dx);
        // One step: dx (1 m) to the +x neighbour, dz (1 m) to the +z one; never the 4 m column step.
        EXPECT_DOUBLE_EQ(f.length_m[g.index(want.first, want.second)], 1.0);
    }
}

TEST(Landform, theta_recovers_the_exponent_of_a_channel_built_as_s_equals_k_a_to_the_minus_theta) {
    // Parallel channels along +z, flowing to the last row: the cell in row r drains r cells
    // (row 0 is the edge), so its slope is set to k (r dx dz)^-theta. Anisotropic cells.
    for (const double theta : {0.45, 0.2, 0.7}) {
        const double dx = 50.0, dz = 200.0, k = 20.0;
        const int rows = 5200, width = 5;  // areas up to 52 km2
        std::vector<double> profile(rows, 0.0);
        for (int r = rows - 2; r >= 1; --r) profile[r] = profile[r + 1] + dz * k * std::pow(r * dx * dz, -theta);
        profile[0] = profile[1] + 100.0;
        HeightGrid g = make_grid(width, rows, dx, dz, [&](double, double z) { return profile[static_cast<int>(std::lround(z / dz))]; });
        const LandformReport r = measure_landform(g);
        EXPECT_NEAR(r.theta(), theta, 1e-9) << theta;
        EXPECT_NEAR(r.concavity.intercept, std::log10(k), 1e-7) << theta;
        EXPECT_NEAR(r.concavity.r2, 1.0, 1e-12);
        // Rows 6..4999 (0.06 km2 < A < 50 km2), three inner columns.
        EXPECT_EQ(r.concavity.count, 3u * (4999 - 6 + 1));
        EXPECT_EQ(r.pit_share, 0.0);
        // A strip of constant width: the longest path grows as the area does (h near 1).
        EXPECT_NEAR(r.hack.slope, 1.0, 0.02);
    }
}

TEST(Landform, hack_fit_recovers_a_power_law_of_length_on_area) {
    // L = 1.4 A^0.57 over channel areas; cells out of the range or off land are ignored.
    FlowAccumulation f;
    std::vector<CellKind> kinds;
    for (double a = 1e4; a < 1e8; a *= 1.1) {
        f.area_m2.push_back(a);
        f.length_m.push_back(1.4 * std::pow(a, 0.57));
        kinds.push_back(CellKind::land);
    }
    f.area_m2.push_back(1e6), f.length_m.push_back(1.0), kinds.push_back(CellKind::sea);  // would spoil the fit
    const LogLogFit h = hack_fit(kinds, f);
    EXPECT_NEAR(h.slope, 0.57, 1e-12);
    EXPECT_NEAR(h.intercept, std::log10(1.4), 1e-10);
    EXPECT_NEAR(h.r2, 1.0, 1e-12);
    std::size_t in_range = 0;
    for (const double a : f.area_m2) in_range += a > 5e4 && a < 5e7;
    EXPECT_EQ(h.count, in_range - 1);
}

TEST(Landform, the_fit_needs_three_points_that_vary) {
    EXPECT_TRUE(std::isnan(fit_log_log({1.0, 10.0}, {1.0, 2.0}).slope));
    EXPECT_TRUE(std::isnan(fit_log_log({5.0, 5.0, 5.0}, {1.0, 2.0, 3.0}).slope));
    const LogLogFit f = fit_log_log({1.0, 10.0, 100.0, -4.0}, {3.0, 30.0, 300.0, 1.0});
    EXPECT_EQ(f.count, 3u);
    EXPECT_NEAR(f.slope, 1.0, 1e-12);
    EXPECT_NEAR(f.intercept, std::log10(3.0), 1e-12);
}

TEST(Landform, sea_cells_are_left_out_and_drain_the_land_as_outlets) {
    // The bowl again, with the sea at 100 m: only its rim is land, and nothing is a pit.
    const int n = 81;
    const double d = 10.0, centre = 40 * d;
    const HeightGrid g = make_grid(n, n, d, d, [&](double x, double z) {
        const double r = std::hypot(x - centre, z - centre) / 10.0;
        return r * r;
    });
    LandformOptions options;
    options.sea_level_m = 100.0;
    const LandformReport r = measure_landform(g, options);
    std::size_t sea = 0;
    double lowest = INFINITY;
    for (const double h : g.heights) {
        sea += h < 100.0;
        if (h >= 100.0) lowest = std::min(lowest, h);
    }
    EXPECT_EQ(r.sea_cells, sea);
    EXPECT_EQ(r.land_cells, g.count() - sea);
    EXPECT_EQ(r.pit_share, 0.0);
    EXPECT_DOUBLE_EQ(r.heights.min_m, lowest);
    EXPECT_DOUBLE_EQ(r.heights.max_m, 1600.0 * 2);
}

TEST(Landform, no_data_cells_are_left_out_and_drain_like_the_edge) {
    // The bowl with its bottom missing: it drains into the hole.
    const int n = 41;
    const double centre = 20.0;
    HeightGrid g = make_grid(n, n, 1.0, 1.0, [&](double x, double z) { return std::hypot(x - centre, z - centre); });
    g.heights[g.index(20, 20)] = NAN;
    const LandformReport r = measure_landform(g);
    EXPECT_EQ(r.no_data_cells, 1u);
    EXPECT_EQ(r.land_cells, g.count() - 1);
    EXPECT_EQ(r.pit_share, 0.0);
    EXPECT_DOUBLE_EQ(r.heights.min_m, 1.0);
    std::vector<CellKind> kinds;
    FlowAccumulation flow;
    measure_landform(g, {}, &kinds, &flow);
    EXPECT_EQ(kinds[g.index(20, 20)], CellKind::no_data);
    EXPECT_EQ(flow.area_m2[g.index(20, 20)], 0.0);
    // Without the hole the same cone is one pit 20 m deep at most.
    g.heights[g.index(20, 20)] = 0.0;
    EXPECT_GT(measure_landform(g).pit_share, 0.5);
}

TEST(Landform, the_flow_map_scales_areas_on_a_log_scale_and_keeps_zero_for_the_sea) {
    FlowAccumulation f;
    f.area_m2 = {1.0, 10.0, 1000.0, 5.0};
    f.length_m.assign(4, 0.0);
    const std::vector<CellKind> kinds{CellKind::land, CellKind::land, CellKind::land, CellKind::sea};
    const FlowMap m = flow_map(f, kinds);
    EXPECT_EQ(m.log10_min_m2, 0.0);
    EXPECT_EQ(m.log10_max_m2, 3.0);
    EXPECT_EQ(m.pixels, (std::vector<std::uint16_t>{1, static_cast<std::uint16_t>(1 + std::lround(65534.0 / 3.0)), 65535, 0}));
}

TEST(Landform, grids_too_small_or_badly_spaced_are_refused) {
    EXPECT_THROW(measure_landform(make_grid(2, 5, 1, 1, [](double, double) { return 0.0; })), std::invalid_argument);
    EXPECT_THROW(measure_landform(make_grid(5, 5, 0.0, 1, [](double, double) { return 0.0; })), std::invalid_argument);
    HeightGrid g = make_grid(5, 5, 1, 1, [](double, double) { return 0.0; });
    g.heights.pop_back();
    EXPECT_THROW(measure_landform(g), std::invalid_argument);
}

TEST(Landform, a_401_square_grid_of_rough_ground_is_measured_well_under_a_second) {
    // Rough, pitted ground (sums of sines): the work of the 30 km square at 75 m.
    const HeightGrid g = make_grid(401, 401, 75.0, 75.0, [](double x, double z) {
        return 100.0 * std::sin(x / 900.0) * std::cos(z / 1300.0) + 30.0 * std::sin((x + 2 * z) / 310.0) +
               8.0 * std::sin((3 * x - z) / 97.0);
    });
    const auto start = std::chrono::steady_clock::now();
    const LandformReport r = measure_landform(g);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, isoterra::test::slow_build() ? 5.0 : 1.0);
    EXPECT_GT(r.pit_share, 0.05);  // the sines make basins
    EXPECT_GT(r.concavity.count, 1000u);
    // Deterministic: the same figures again.
    const LandformReport again = measure_landform(g);
    EXPECT_EQ(again.pit_share, r.pit_share);
    EXPECT_EQ(again.concavity.slope, r.concavity.slope);
    EXPECT_EQ(again.hack.slope, r.hack.slope);
}
