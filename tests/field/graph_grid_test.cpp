// grid_m: a node of x and z run at the nodes of a global grid of step grid_m (its inputs read
// there) and interpolated to the samples: bilinearly, or as the most of the four nodes for the
// ports its type marks so (a drainage's water and order). At a grid node the value must be
// the ungridded node's, bit for bit (so levels of detail at the grid's step and coarser, which
// run the node directly, agree with the finer ones), and a point must give the same bits
// whatever path, spacing or batch it is sampled in. The proven range covers the values
// between the nodes, and bad grid_m values are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isoterra/graph.hpp"
#include "same_bits.hpp"

using namespace isoterra;

namespace {

// Node bodies with `g` the node that may run on a grid: `{grid}` is where its grid_m goes.
// Each reaches the interpolation differently: arithmetic over inputs read at the grid's
// nodes, a noise of the position itself, a node that reads its input around each grid node,
// and a node over an input that is itself on another grid.
struct Case {
    const char* name;
    const char* body;
};
const Case kCases[] = {
    {"add over a noise and x",
     "hills = { type = \"fbm2\", scale_m = 37.0, octaves = 3, amplitude = 25.0 }\n"
     "px = { type = \"x\" }\n"
     "tilt = { type = \"mul\", a = \"px\", b = 0.013 }\n"
     "g = { type = \"add\", a = \"hills\", b = \"tilt\"{grid} }\n"},
    {"ridged2", "g = { type = \"ridged2\", scale_m = 23.0, octaves = 4, offset = [3.0, -7.0]{grid} }\n"},
    {"curvature",
     "h = { type = \"fbm2\", scale_m = 29.0, octaves = 3, amplitude = 10.0 }\n"
     "g = { type = \"curvature\", in = \"h\", step_m = 3.0{grid} }\n"},
    {"mul over a node on a 3 m grid",
     "fine = { type = \"fbm2\", scale_m = 19.0, octaves = 2, amplitude = 6.0, grid_m = 3.0 }\n"
     "g = { type = \"mul\", a = \"fine\", b = \"fine\"{grid} }\n"},
};

// A drainage network small enough to sample quickly: the sea where x < -1.2 km, land rising
// 50 m a kilometre, 150 m cells on 3 levels; `{grid}` as above.
const char* kDrainage =
    "px = { type = \"x\" }\n"
    "tilt = { type = \"mul\", a = \"px\", b = 0.05 }\n"
    "wobble = { type = \"fbm2\", scale_m = 400.0, octaves = 2, amplitude = 10.0 }\n"
    "rise = { type = \"add\", a = \"tilt\", b = \"wobble\" }\n"
    "control = { type = \"add\", a = \"rise\", b = 60.0 }\n"
    "g = { type = \"drainage\", control = \"control\", relief = 40.0, cell_m = 150.0, levels = 3, slope = 0.3, floor_m = 5.0, "
    "bed_width_m = 8.0, bed_depth_m = 1.5, sea_level = 0.0, smooth_m = 4.0{grid} }\n";
const char* const kDrainagePorts[] = {"height", "dx", "dz", "distance", "water", "order"};

// `body` with g on a grid of `grid` m (0: not on a grid), its sdf and ground `sdf` (g itself
// by default: a column output is sampled as is on every path).
std::unique_ptr<GraphField> grid_graph(const std::string& body, double grid, const std::string& sdf = "g",
                                       const std::string& ground = "g") {
    std::string text = body;
    const std::size_t at = text.find("{grid}");
    text.replace(at, 6, grid > 0.0 ? fmt::format(", grid_m = {}", grid) : "");
    return parse_graph("format = 1\nseed = 11\n[node]\n" + text + "[output]\nsdf = \"" + sdf + "\"\nground = \"" + ground + "\"\n",
                       "grid.toml");
}

std::vector<double> sample(const GraphField& g, const std::vector<glm::dvec3>& points) {
    std::vector<double> out(points.size());
    g.sample_points(points.data(), points.size(), out.data());
    return out;
}

using test::same_bits;

// The grid's nodes (i g, k g) around the origin and far out (1.2e6 cells away).
std::vector<glm::dvec3> grid_nodes(double g) {
    std::vector<glm::dvec3> nodes;
    for (int k = -5; k <= 5; ++k)
        for (int i = -5; i <= 5; ++i) nodes.emplace_back(i * g, 0.0, k * g);
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) nodes.emplace_back((1234567 + i) * g, 0.0, (-987654 + k) * g);
    return nodes;
}

// Points off the grid within `half` m of the origin, a tenth of them on a grid line in x or z
// (interpolated along the other axis only).
std::vector<glm::dvec3> off_grid(double g, int count, double half, std::uint32_t seed) {
    std::mt19937 r(seed);
    std::uniform_real_distribution<double> u(-half, half);
    std::vector<glm::dvec3> points;
    for (int n = 0; n < count; ++n) {
        glm::dvec3 p(u(r), 0.0, u(r));
        if (n % 20 == 0) p.x = std::round(p.x / g) * g;
        if (n % 20 == 10) p.z = std::round(p.z / g) * g;
        points.push_back(p);
    }
    return points;
}

// The four grid nodes around p (x, then z, fastest x) and p's shares of the way across. A
// point on a grid line reads no nodes across it (its share of them is 0): there the nodes
// across are the ones on the line, so a 'm' port is the most of two, and on a node, its own.
struct Corners {
    std::vector<glm::dvec3> at;
    double tx = 0.0, tz = 0.0;
};
Corners corners_of(const glm::dvec3& p, double g) {
    const double i = std::floor(p.x / g), k = std::floor(p.z / g);
    Corners c;
    c.tx = p.x / g - i, c.tz = p.z / g - k;
    for (int n = 0; n < 4; ++n)
        c.at.emplace_back((i + ((n & 1) && c.tx != 0.0 ? 1 : 0)) * g, 0.0, (k + ((n >> 1) && c.tz != 0.0 ? 1 : 0)) * g);
    return c;
}
double bilinear(const double* v, double tx, double tz) {
    const double a = v[0] + tx * (v[1] - v[0]), b = v[2] + tx * (v[3] - v[2]);
    return a + tz * (b - a);
}

}  // namespace

// At the grid's nodes a gridded node is the node itself: the same bits whether the batch is all
// grid nodes (the node then runs directly, as on a lattice at the grid's step) or mixed with
// other points (then it runs on the grid and the lanes on nodes take their node's value).
TEST(GraphGrid, at_grid_nodes_a_gridded_node_is_the_ungridded_node_bit_for_bit) {
    for (const Case& c : kCases)
        for (const double g : {4.0, 3.0, 0.5}) {
            const auto plain = grid_graph(c.body, 0.0), gridded = grid_graph(c.body, g);
            const std::vector<glm::dvec3> nodes = grid_nodes(g);
            const std::vector<double> want = sample(*plain, nodes);
            const std::vector<double> alone = sample(*gridded, nodes);
            std::vector<glm::dvec3> mixed;
            const std::vector<glm::dvec3> others = off_grid(g, static_cast<int>(nodes.size()), 200.0, 5);
            for (std::size_t i = 0; i < nodes.size(); ++i) mixed.push_back(nodes[i]), mixed.push_back(others[i]);
            const std::vector<double> in_mixed = sample(*gridded, mixed);
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                ASSERT_TRUE(same_bits(alone[i], want[i]))
                    << c.name << " grid " << g << " node " << nodes[i].x << "," << nodes[i].z << ": " << alone[i] << " against " << want[i];
                ASSERT_TRUE(same_bits(in_mixed[2 * i], want[i])) << c.name << " grid " << g << " node " << nodes[i].x << "," << nodes[i].z
                                                                 << " in a mixed batch: " << in_mixed[2 * i] << " against " << want[i];
            }
        }
}

// Between the nodes the value is the bilinear interpolation of the ungridded node's values at
// the four nodes around (worked out here), and not the node's own value there (the grid is in
// use: a node whose grid_m were ignored would fail the first check).
TEST(GraphGrid, between_grid_nodes_it_is_the_bilinear_interpolation_of_the_four_around) {
    for (const Case& c : kCases)
        for (const double g : {4.0, 3.0}) {
            const auto plain = grid_graph(c.body, 0.0), gridded = grid_graph(c.body, g);
            std::vector<glm::dvec3> points = off_grid(g, 400, 300.0, 9);
            for (int n = 0; n < 40; ++n) points.emplace_back(4.5e5 + 0.73 * n, 0.0, -2.5e5 - 1.37 * n);  // far out
            const std::vector<double> got = sample(*gridded, points), own = sample(*plain, points);
            int interpolated = 0;
            for (std::size_t i = 0; i < points.size(); ++i) {
                const Corners k = corners_of(points[i], g);
                const std::vector<double> v = sample(*plain, k.at);
                const double want = bilinear(v.data(), k.tx, k.tz);
                const double scale = 1.0 + std::max({std::fabs(v[0]), std::fabs(v[1]), std::fabs(v[2]), std::fabs(v[3])});
                ASSERT_NEAR(got[i], want, 1e-12 * scale) << c.name << " grid " << g << " at " << points[i].x << "," << points[i].z;
                interpolated += std::fabs(got[i] - own[i]) > 1e-9 * scale;
            }
            EXPECT_GT(interpolated, 300) << c.name << " grid " << g;
        }
}

// A drainage on a 4 m grid: the ports its type marks 'm' are the most of the four nodes'
// (orders would otherwise become fractions), the others bilinear. Each port is the sdf of its
// own graph, so the node computes only that one (and the height, the ground), as a graph
// reading one port does. Which ports are 'm': the commit that added grid_m (16a1667) says the
// water and the order, but the type's table (nodes/table.cpp, port_blend "lllllm") marks the
// order only, so a river's level is mixed bilinearly with the dry value (-10000) beside it.
// Checked here as the table has it; kMost is the one line to change when that is settled.
TEST(GraphGrid, a_drainages_order_is_the_most_of_the_four_nodes_and_the_other_ports_bilinear) {
    const double g = 4.0;
    std::vector<glm::dvec3> points = off_grid(g, 600, 900.0, 21);
    for (int port = 0; port < 6; ++port) {
        const std::string sdf = fmt::format("g.{}", kDrainagePorts[port]);
        const auto plain = grid_graph(kDrainage, 0.0, sdf), gridded = grid_graph(kDrainage, g, sdf);
        const std::vector<double> got = sample(*gridded, points);
        constexpr bool kMost[6] = {false, false, false, false, false, true};  // height, dx, dz, distance, water, order
        const bool most = kMost[port];
        int differ = 0;  // lanes whose four nodes do not agree
        for (std::size_t i = 0; i < points.size(); ++i) {
            const Corners k = corners_of(points[i], g);
            const std::vector<double> v = sample(*plain, k.at);
            differ += !(v[0] == v[1] && v[0] == v[2] && v[0] == v[3]);
            if (most) {
                const double want = std::max({v[0], v[1], v[2], v[3]});
                ASSERT_TRUE(same_bits(got[i], want)) << sdf << " at " << points[i].x << "," << points[i].z << ": " << got[i]
                                                     << " against the most of " << v[0] << ", " << v[1] << ", " << v[2] << ", " << v[3];
            } else {
                const double scale = 1.0 + std::max({std::fabs(v[0]), std::fabs(v[1]), std::fabs(v[2]), std::fabs(v[3])});
                ASSERT_NEAR(got[i], bilinear(v.data(), k.tx, k.tz), 1e-12 * scale) << sdf << " at " << points[i].x << "," << points[i].z;
            }
        }
        // Rivers and valleys of every order cross the region: the four nodes disagree often.
        EXPECT_GT(differ, port == 5 ? 5 : 20) << sdf;
        std::printf("%-11s %d of %zu points between nodes that disagree\n", sdf.c_str(), differ, points.size());
    }
}

// A point gives the same bits on the point path (any batch, in any order) and on lattices of
// spacing 1, 2, 4 and 8 m (the lattice stores floats: the point path's value as a float), in
// its column outputs (ground_heights, and sample_lattice_and_ground with a column's work kept
// as a World keeps it). At 4 and 8 m the lanes are grid nodes and the node runs directly; at
// 1 and 2 m it runs on the grid: the shared samples must agree, or levels would crack.
TEST(GraphGrid, a_point_gives_the_same_bits_on_every_path_spacing_and_batch) {
    std::vector<Case> cases(std::begin(kCases), std::end(kCases));
    cases.push_back({"drainage", kDrainage});
    for (const Case& c : cases) {
        const std::string body = std::string(c.body) + "out = { type = \"plane\", height = \"g\" }\n";
        const auto gridded = grid_graph(body, 4.0, "out");
        for (const double spacing : {1.0, 2.0, 4.0, 8.0})
            for (const glm::i64vec3 origin : {glm::i64vec3(-7, -1, 5), glm::i64vec3(40, 3, -13)}) {
                const Lattice lattice{origin, {9, 3, 9}, spacing};
                std::vector<glm::dvec3> points;
                for (int k = 0; k < 9; ++k)
                    for (int j = 0; j < 3; ++j)
                        for (int i = 0; i < 9; ++i) points.push_back(lattice.position(i, j, k));
                const std::vector<double> want = sample(*gridded, points);
                std::vector<float> values(lattice.count()), kept(lattice.count()), ground(81), kept_ground(81);
                gridded->sample_lattice(lattice, values.data());
                ASSERT_TRUE(gridded->ground_heights(lattice, ground.data()));
                const auto columns = gridded->columns_of(lattice);
                gridded->sample_lattice_and_ground(lattice, kept.data(), kept_ground.data(), LatticeUse::values, columns.get());
                for (std::size_t n = 0; n < points.size(); ++n) {
                    ASSERT_TRUE(same_bits(values[n], static_cast<float>(want[n])))
                        << c.name << " spacing " << spacing << " at " << points[n].x << "," << points[n].y << "," << points[n].z << ": "
                        << values[n] << " against " << want[n];
                    ASSERT_TRUE(same_bits(kept[n], values[n])) << c.name << " spacing " << spacing;
                }
                for (int k = 0; k < 9; ++k)
                    for (int i = 0; i < 9; ++i) {
                        const glm::dvec3 p = lattice.position(i, 0, k);
                        const float h = static_cast<float>(gridded->ground_height(p.x, p.z));
                        ASSERT_TRUE(same_bits(ground[static_cast<std::size_t>(k * 9 + i)], h)) << c.name << " spacing " << spacing;
                        ASSERT_TRUE(same_bits(kept_ground[static_cast<std::size_t>(k * 9 + i)], h)) << c.name << " spacing " << spacing;
                    }
            }
        // Batches: half grid nodes, half not; all at once, one at a time, and shuffled into
        // batches of random sizes.
        std::vector<glm::dvec3> points = grid_nodes(4.0);
        points.resize(100);
        for (const glm::dvec3& p : off_grid(4.0, 100, 500.0, 3)) points.push_back(p);
        const std::vector<double> all = sample(*gridded, points);
        std::mt19937 r(17);
        std::vector<std::size_t> order(points.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::shuffle(order.begin(), order.end(), r);
        for (std::size_t start = 0; start < order.size();) {
            const std::size_t n = std::min<std::size_t>(1 + r() % 40, order.size() - start);
            std::vector<glm::dvec3> batch;
            for (std::size_t i = start; i < start + n; ++i) batch.push_back(points[order[i]]);
            const std::vector<double> got = sample(*gridded, batch);
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_TRUE(same_bits(got[i], all[order[start + i]])) << c.name << " point " << order[start + i] << " in a batch of " << n;
            start += n;
        }
        for (std::size_t i = 0; i < points.size(); ++i)
            ASSERT_TRUE(same_bits(sample(*gridded, {points[i]})[0], all[i])) << c.name << " point " << i << " alone";
    }
}

// A gridded node takes values at grid nodes up to a step outside a box: its proven range over
// random boxes (10 cm to 2 km wide, up to 100 km out) holds its values at random points in the
// box and on a lattice filling it. The ungridded node's range over the same box, which knows
// nothing of the nodes outside, would not hold them all (counted, so the check has teeth).
TEST(GraphGrid, a_gridded_nodes_proven_range_holds_its_values_between_the_nodes) {
    std::vector<std::pair<std::string, std::string>> graphs;  // body, sdf
    for (const Case& c : kCases) graphs.emplace_back(c.body, "g");
    for (const char* port : {"height", "distance", "water", "order"}) graphs.emplace_back(kDrainage, fmt::format("g.{}", port));
    std::mt19937 r(29);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    int outside_plain = 0, checked = 0;
    for (const auto& [body, sdf] : graphs) {
        const double g = 4.0;
        const auto plain = grid_graph(body, 0.0, sdf), gridded = grid_graph(body, g, sdf);
        for (int b = 0; b < 40; ++b) {
            const double width = std::pow(10.0, -1.0 + 4.3 * u(r));
            const double far = body == kDrainage ? 3e3 : 1e5;
            const glm::dvec3 lo((2 * u(r) - 1) * far, 0.0, (2 * u(r) - 1) * far);
            const Box box{lo, lo + glm::dvec3(width, 1.0, width * (0.2 + u(r)))};
            const ValueRange range = gridded->bounds(box), own = plain->bounds(box);
            std::vector<glm::dvec3> points;
            for (int i = 0; i < 60; ++i)
                points.emplace_back(box.lo.x + (box.hi.x - box.lo.x) * u(r), 0.5, box.lo.z + (box.hi.z - box.lo.z) * u(r));
            const std::vector<double> v = sample(*gridded, points);
            for (std::size_t i = 0; i < points.size(); ++i) {
                ASSERT_TRUE(v[i] >= range.lo && v[i] <= range.hi) << sdf << " value " << v[i] << " outside [" << range.lo << ", "
                                                                  << range.hi << "] at " << points[i].x << "," << points[i].z << "\n"
                                                                  << body;
                outside_plain += !(v[i] >= own.lo && v[i] <= own.hi);
                ++checked;
            }
            // A lattice of the samples inside the box (its spacing an eighth of the box's width).
            const double spacing = (box.hi.x - box.lo.x) / 8.0;
            const std::int64_t i0 = static_cast<std::int64_t>(std::ceil(box.lo.x / spacing)),
                               k0 = static_cast<std::int64_t>(std::ceil(box.lo.z / spacing));
            const int nx = static_cast<int>(std::floor(box.hi.x / spacing) - static_cast<double>(i0)) + 1;
            const int nz = static_cast<int>(std::floor(box.hi.z / spacing) - static_cast<double>(k0)) + 1;
            if (nx < 1 || nz < 1) continue;
            const Lattice lattice{{i0, 0, k0}, {nx, 1, nz}, spacing};
            std::vector<float> on_lattice(lattice.count());
            gridded->sample_lattice(lattice, on_lattice.data());
            for (const float f : on_lattice) {
                const double slack = std::fabs(f) * 6e-8;  // the float the lattice stores
                ASSERT_TRUE(f >= range.lo - slack && f <= range.hi + slack)
                    << sdf << " lattice value " << f << " outside [" << range.lo << ", " << range.hi << "]\n"
                    << body;
            }
        }
    }
    EXPECT_GT(outside_plain, 20) << "of " << checked;
    std::printf("%d of %d values lay outside the ungridded node's range over their box\n", outside_plain, checked);
}

// grid_m must be a number in (0, 10000]; a node that depends on y cannot run on a grid (its
// inputs would be read at y = 0). Each is refused in one line naming the node.
TEST(GraphGrid, bad_grid_m_values_and_nodes_of_y_are_refused_in_one_line_naming_the_node) {
    const auto refused = [](const std::string& node, const std::string& expect) {
        const std::string text = "format = 1\n[node]\npx = { type = \"x\" }\npy = { type = \"y\" }\n" + node + "\n[output]\nsdf = \"g\"\n";
        try {
            parse_graph(text, "bad.toml");
            ADD_FAILURE() << node << " was accepted";
        } catch (const GraphError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("bad.toml:5: node 'g'"), std::string::npos) << what;
            EXPECT_NE(what.find(expect), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    };
    for (const char* bad : {"0.0", "-4.0", "1e5", "\"4\"", "nan", "inf", "[4.0]", "true"})
        refused(fmt::format("g = {{ type = \"add\", a = \"px\", b = 1.0, grid_m = {} }}", bad),
                "input 'grid_m': expected a number in (0, 10000]");
    refused("g = { type = \"add\", a = \"py\", b = 1.0, grid_m = 4.0 }", "depends on y");
    refused("g = { type = \"y\", grid_m = 4.0 }", "depends on y");
    refused("g = { type = \"simplex3\", scale_m = 9.0, grid_m = 4.0 }", "depends on y");
    // The largest and smallest accepted, and an integer.
    for (const char* good : {"10000.0", "1e-3", "4"})
        EXPECT_NO_THROW(parse_graph(
            fmt::format("format = 1\n[node]\npx = {{ type = \"x\" }}\ng = {{ type = \"add\", a = \"px\", b = 1.0, grid_m = {} }}\n"
                        "[output]\nsdf = \"g\"\n",
                        good),
            "good.toml"))
            << good;
}

// Nodes only a gridded node reads are run at its grid's nodes, not at the samples; a node that
// a gridded node and an ungridded one both read must still be run at the samples. The sdf
// over both, worked out here from the ungridded parts, is right on the point path and on
// lattices that run the gridded nodes on the grid (1 m) and directly (4 m).
TEST(GraphGrid, inputs_only_a_gridded_node_reads_are_left_out_at_the_samples_and_the_sdf_stays_right) {
    const std::string body =
        "hills = { type = \"fbm2\", scale_m = 31.0, octaves = 3, amplitude = 12.0 }\n"  // read by g only
        "dunes = { type = \"simplex2\", scale_m = 11.0, offset = [1.0, 2.0] }\n"        // read by g only
        "g = { type = \"add\", a = \"hills\", b = \"dunes\"{grid} }\n"
        "shared = { type = \"simplex2\", scale_m = 7.0 }\n"  // read by g2 and by top
        "g2 = { type = \"mul\", a = \"shared\", b = 3.0, grid_m = 4.0 }\n"
        "both = { type = \"add\", a = \"g\", b = \"g2\" }\n"
        "top = { type = \"add\", a = \"both\", b = \"shared\" }\n"
        "out = { type = \"plane\", height = \"top\" }\n";
    const auto gridded = grid_graph(body, 4.0, "out", "top");
    // The parts, ungridded, each as the sdf of its own graph.
    std::string plain_body = body;
    plain_body.replace(plain_body.find(", grid_m = 4.0"), 14, "");
    const auto part = [&](const std::string& id) { return grid_graph(plain_body, 0.0, id, id); };
    const auto g = part("g"), g2 = part("g2"), shared = part("shared");
    const auto expected = [&](const glm::dvec3& p) {
        const Corners k = corners_of(p, 4.0);
        const std::vector<double> a = sample(*g, k.at), b = sample(*g2, k.at);
        const double top = (bilinear(a.data(), k.tx, k.tz) + bilinear(b.data(), k.tx, k.tz)) + sample(*shared, {p})[0];
        return p.y - top;
    };
    std::vector<glm::dvec3> points = off_grid(4.0, 200, 400.0, 41);
    for (glm::dvec3& p : points) p.y = 3.0;
    const std::vector<double> got = sample(*gridded, points);
    for (std::size_t i = 0; i < points.size(); ++i)
        ASSERT_NEAR(got[i], expected(points[i]), 1e-12 * (1.0 + std::fabs(got[i]))) << points[i].x << "," << points[i].z;
    for (const double spacing : {1.0, 4.0}) {
        const Lattice lattice{{-3, 0, 2}, {9, 2, 9}, spacing};
        std::vector<float> values(lattice.count());
        gridded->sample_lattice(lattice, values.data());
        for (int k = 0; k < 9; ++k)
            for (int j = 0; j < 2; ++j)
                for (int i = 0; i < 9; ++i) {
                    const glm::dvec3 p = lattice.position(i, j, k);
                    const double want = expected(p);
                    EXPECT_NEAR(values[lattice.index(i, j, k)], want, 1e-6 * (1.0 + std::fabs(want)))
                        << spacing << ": " << p.x << "," << p.y << "," << p.z;
                }
    }
}

// hypot is sqrt(a a + b b) on lattices and V8's Math.hypot on the point path, which can differ in
// the last bit. A grid node's value on the point path must not depend on whether other lanes of
// its batch are off the grid (then the node runs on the grid, its inputs there too).
TEST(GraphGrid, a_grid_nodes_value_on_the_point_path_does_not_depend_on_its_batch_even_through_hypot) {
    const std::string body =
        "px = { type = \"x\" }\npz = { type = \"z\" }\n"
        "a = { type = \"mul\", a = \"px\", b = 0.3713 }\n"
        "b = { type = \"mul\", a = \"pz\", b = 0.7291 }\n"
        "h = { type = \"hypot\", a = \"a\", b = \"b\" }\n"
        "g = { type = \"add\", a = \"h\", b = 0.0{grid} }\n";
    const auto gridded = grid_graph(body, 4.0);
    std::vector<glm::dvec3> nodes;
    for (int k = -40; k < 40; ++k)
        for (int i = -40; i < 40; ++i) nodes.emplace_back(i * 4.0, 0.0, k * 4.0);
    const std::vector<double> alone = sample(*gridded, nodes);
    std::vector<glm::dvec3> mixed;  // each node beside a lane off the grid: every batch runs on the grid
    for (const glm::dvec3& p : nodes) mixed.push_back(p), mixed.emplace_back(p.x + 0.5, 0.0, p.z + 0.5);
    const std::vector<double> with_other = sample(*gridded, mixed);
    int differ = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) differ += !same_bits(alone[i], with_other[2 * i]);
    EXPECT_EQ(differ, 0) << "of " << nodes.size() << " grid nodes";
}
