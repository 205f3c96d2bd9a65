// A point's value is the same bits alone and in any batch, in any order, for every built-in
// terrain: `isoterra sample` printed another last digit for an alpine point when a point
// 15 km away joined the input (the drainage node summed its soft minimum's slope in the order
// its group's bounds sorted the channels, and a group depends on the lane's neighbours).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <glm/vec3.hpp>

#include "isoterra/graph.hpp"

namespace {

// Points near each other (within metres, on and off the 4 m grids of the landform nodes),
// kilometres apart, and thousands of kilometres apart (a scattered batch runs cell by cell).
std::vector<glm::dvec3> mixed_points() {
    std::mt19937_64 rng(56);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<glm::dvec3> pts;
    for (const double spread : {3.0, 40.0, 2500.0, 20000.0, 3e6}) {
        const glm::dvec3 centre(unit(rng) * 5000.0, 0.0, unit(rng) * 5000.0);
        for (int i = 0; i < 24; ++i) {
            glm::dvec3 p = centre + glm::dvec3(unit(rng) * spread, 600.0 + unit(rng) * 700.0, unit(rng) * spread);
            if (i % 4 == 0) p.x = 4.0 * std::round(p.x / 4.0), p.z = 4.0 * std::round(p.z / 4.0);  // on a grid node
            pts.push_back(p);
        }
    }
    return pts;
}

bool batch_same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST(BatchIndependence, every_built_in_terrain_gives_a_point_the_same_bits_alone_and_in_any_batch) {
    const std::vector<glm::dvec3> pts = mixed_points();
    const std::size_t n = pts.size();
    for (const std::string& name : isoterra::builtin_terrain_names()) {
        SCOPED_TRACE(name);
        const auto field = isoterra::builtin_terrain(name).make_field();
        std::vector<double> alone(n);
        for (std::size_t i = 0; i < n; ++i) field->sample_points(&pts[i], 1, &alone[i]);
        // Batches of several sizes (one past a drainage group's 96 lanes among them), each in
        // a shuffled order, so every point meets other neighbours each time.
        std::mt19937 rng(7);
        for (const std::size_t size : {std::size_t{2}, std::size_t{5}, std::size_t{17}, std::size_t{97}, n}) {
            std::vector<std::size_t> order(n);
            for (std::size_t i = 0; i < n; ++i) order[i] = i;
            std::shuffle(order.begin(), order.end(), rng);
            for (std::size_t start = 0; start < n; start += size) {
                const std::size_t m = std::min(size, n - start);
                std::vector<glm::dvec3> batch(m);
                std::vector<double> got(m);
                for (std::size_t j = 0; j < m; ++j) batch[j] = pts[order[start + j]];
                field->sample_points(batch.data(), m, got.data());
                for (std::size_t j = 0; j < m; ++j) {
                    const std::size_t i = order[start + j];
                    EXPECT_TRUE(batch_same_bits(got[j], alone[i])) << "point " << i << " in a batch of " << m << ": " << got[j] << " alone "
                                                                   << alone[i] << " (diff " << got[j] - alone[i] << ")";
                }
            }
        }
    }
}

// The case found: the gradient ports the erosion node reads at its 4 m grid's nodes differed in
// the last bit, and so the ground.
TEST(BatchIndependence, an_alpine_point_keeps_its_bits_when_a_point_15_km_away_joins_the_batch) {
    const auto alpine = isoterra::builtin_terrain("alpine").make_field();
    const glm::dvec3 p(-4450.42419952717, 1080.8410223867786, 7241.9809158768),
        q(-6444.196515184311, 841.8933526873193, -8213.075854692193);
    double alone = 0.0;
    alpine->sample_points(&p, 1, &alone);
    const glm::dvec3 both[2] = {p, q};
    double got[2];
    alpine->sample_points(both, 2, got);
    EXPECT_TRUE(batch_same_bits(got[0], alone)) << got[0] << " alone " << alone;
    // Alpine without meander_vary, its gullies faded in from 60 to 300 m beyond its banks (issue 53);
    // -70.608105797944063 with meander_vary and those gullies;
    // -77.396198596444719 with them faded in over 0-120 m after its bends wandered (meander_vary);
    // -70.788047644680773 when its meanders
    // faded across the valley sides and it was no longer carved; -104.54758601387721 with meanders felt everywhere, -80.215070451471092 once carved,
    // -74.73992454400468 from 2ade7c0, -68.2138729411911 before.
    EXPECT_NEAR(alone, -63.990830441707431, 1e-9);
}
