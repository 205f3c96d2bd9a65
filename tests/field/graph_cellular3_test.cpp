// cellular3 (src/field/nodes/cellular3.cpp), 3D Worley distances: exact values where
// the points are the cells' centres, the nearest two points of a brute-force search over the
// documented points, and its proven ranges over random boxes holding at random samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "isoterra/graph.hpp"
#include "xyz_nodes.hpp"

using namespace isoterra;

namespace {

// A graph of seed 7 whose sdf is `output` of node c = `node`.
std::unique_ptr<GraphField> cell3_graph(const std::string& node, const std::string& output) {
    return parse_graph(
        "format = 1\nseed = 7\n[node]\n" + std::string(test::kXYZ) + "c = " + node + "\n[output]\nsdf = \"" + output + "\"\n",
        "cellular3.toml");
}

double cell3_at(const GraphField& g, const glm::dvec3& p) {
    double v = 0.0;
    g.sample_points(&p, 1, &v);
    return v;
}

}  // namespace

TEST(Cellular3, without_jitter_the_distances_are_to_the_cube_centres) {
    const std::string node = "{ type = \"cellular3\", cell_m = 10.0, jitter = 0.0 }";
    const auto f1 = cell3_graph(node, "c"), f2 = cell3_graph(node, "c.f2"), edge = cell3_graph(node, "c.edge");
    // Centres at (5 + 10 i, 5 + 10 j, 5 + 10 k).
    struct Case {
        glm::dvec3 p;
        double f1, f2;
    };
    const Case cases[] = {
        {{5, 5, 5}, 0.0, 10.0},                         // on a centre: the six neighbours are 10 away
        {{2, 5, 5}, 3.0, 7.0},                          // between two centres along x
        {{5, 5, 12}, 3.0, 7.0},                         // ... along z, across a cell wall
        {{0, 0, 0}, std::sqrt(75.0), std::sqrt(75.0)},  // a corner: eight centres alike
        {{-5, 25, 5}, 0.0, 10.0},                       // negative cells
        {{1, 2, 3}, std::sqrt(16.0 + 9.0 + 4.0), 7.0},  // (5, 5, 5), then (-5, 5, 5)
    };
    for (const Case& c : cases) {
        EXPECT_NEAR(cell3_at(*f1, c.p), c.f1, 1e-9) << c.p.x << " " << c.p.y << " " << c.p.z;
        EXPECT_NEAR(cell3_at(*f2, c.p), c.f2, 1e-9) << c.p.x << " " << c.p.y << " " << c.p.z;
        EXPECT_NEAR(cell3_at(*edge, c.p), c.f2 - c.f1, 1e-9);
    }
}

TEST(Cellular3, finds_the_nearest_two_jittered_points_of_a_brute_force_search) {
    // The point of cell (i, j, k): (i, j, k) + 0.5 + jitter (r - 0.5) cells, r = fractions 0
    // and 1 of g = cell_hash(seed, h, k, "cel3" + 1) and fraction 0 of h = cell_hash(seed, i, j, "cel3").
    for (const double jitter : {1.0, 0.6}) {
        const double cell = 23.5, ox = 0.25, oy = -1.5, oz = 3.0;
        const std::string node =
            fmt::format("{{ type = \"cellular3\", cell_m = {}, jitter = {}, offset = [{}, {}, {}] }}", cell, jitter, ox, oy, oz);
        const auto f1 = cell3_graph(node, "c"), f2 = cell3_graph(node, "c.f2");
        Mulberry32 r(5);
        for (int n = 0; n < 400; ++n) {
            const glm::dvec3 p((r.next() * 2 - 1) * 3e3, (r.next() * 2 - 1) * 3e3, (r.next() * 2 - 1) * 3e3);
            const glm::dvec3 q(p.x / cell + ox, p.y / cell + oy, p.z / cell + oz);
            double best[2] = {INFINITY, INFINITY};
            const glm::i64vec3 c(std::floor(q.x), std::floor(q.y), std::floor(q.z));
            for (std::int64_t k = c.z - 4; k <= c.z + 4; ++k)
                for (std::int64_t j = c.y - 4; j <= c.y + 4; ++j)
                    for (std::int64_t i = c.x - 4; i <= c.x + 4; ++i) {
                        const std::uint64_t h = cell_hash(7, i, j, 0x63656c33);
                        const std::uint64_t g = cell_hash(7, static_cast<std::int64_t>(h), k, 0x63656c34);
                        const glm::dvec3 point(static_cast<double>(i) + 0.5 + jitter * (cell_random(g, 0) - 0.5),
                                               static_cast<double>(j) + 0.5 + jitter * (cell_random(g, 1) - 0.5),
                                               static_cast<double>(k) + 0.5 + jitter * (cell_random(h, 0) - 0.5));
                        const double d = glm::length(point - q);
                        if (d < best[0]) best[1] = best[0], best[0] = d;
                        else if (d < best[1]) best[1] = d;
                    }
            ASSERT_NEAR(cell3_at(*f1, p), best[0] * cell, 1e-8) << p.x << ", " << p.y << ", " << p.z;
            ASSERT_NEAR(cell3_at(*f2, p), best[1] * cell, 1e-8) << p.x << ", " << p.y << ", " << p.z;
        }
    }
}

TEST(Cellular3, ranges_hold_over_random_boxes_for_every_output) {
    Mulberry32 r(11);
    for (int trial = 0; trial < 60; ++trial) {
        const double cell = 0.5 + r.next() * 60.0, jitter = r.next();
        // Half the trials read a warped position (an input of its own), half the sample's.
        const std::string node =
            trial % 2 == 0 ? fmt::format("{{ type = \"cellular3\", cell_m = {}, jitter = {} }}", cell, jitter)
                           : fmt::format("{{ type = \"cellular3\", cell_m = {}, jitter = {}, x = \"pz\", z = \"px\" }}", cell, jitter);
        const glm::dvec3 lo((r.next() * 2 - 1) * 1e4, (r.next() * 2 - 1) * 1e3, (r.next() * 2 - 1) * 1e4);
        const double size = std::pow(10.0, r.next() * 4.0 - 1.0);  // 0.1 m to 1 km
        const Box box{lo, lo + glm::dvec3(size, size * r.next(), size * r.next())};
        for (const char* port : {"c", "c.f2", "c.edge"}) {
            const auto g = cell3_graph(node, port);
            const ValueRange range = g->bounds(box);
            ASSERT_LE(range.lo, range.hi);
            for (int n = 0; n < 200; ++n) {
                const glm::dvec3 p = box.lo + (box.hi - box.lo) * glm::dvec3(r.next(), r.next(), r.next());
                const double v = cell3_at(*g, p);
                ASSERT_GE(v, range.lo) << port << " trial " << trial;
                ASSERT_LE(v, range.hi) << port << " trial " << trial;
            }
        }
    }
    // A small box is bounded closely (the centre's value +- the half diagonal), not by the whole range.
    const auto g = cell3_graph("{ type = \"cellular3\", cell_m = 50.0 }", "c");
    const ValueRange small = g->bounds(Box{{100, 100, 100}, {101, 101, 101}});
    EXPECT_LT(small.hi - small.lo, 2.0 * std::sqrt(3.0) * 0.5 + 1e-6);
}
