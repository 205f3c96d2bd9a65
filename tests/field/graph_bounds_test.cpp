// The proven ranges of graph nodes, fuzzed: random graphs of every node type over random
// boxes (10 cm to 10 km wide, up to 1,000 km out), every node's values at random points in
// the box and on a lattice filling it lie within the range node_ranges() gives for it (every
// output of the nodes that have several). Nodes of x and z run on a grid now and then
// (grid_m: their values between the grid's nodes are interpolated from nodes outside the box).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "isoterra/graph.hpp"
#include "isoterra/io.hpp"
#include "temp_files.hpp"
#include "test_pace.hpp"

using namespace isoterra;

namespace {

// A raster for heightmap nodes: 40 x 30 rough pixels, its sidecar placing it over
// [-300, 300] x [-200, 250] m, heights -80..420 m; the folder the graphs read it from.
std::string raster_folder() {
    static const std::string dir = [] {
        const std::string d = isoterra::test::fresh_folder("bounds_raster");
        Mulberry32 r(99);
        std::vector<std::uint16_t> pixels(40 * 30);
        for (std::uint16_t& p : pixels) p = static_cast<std::uint16_t>(r.next_u32() & 0xffff);
        write_png(d + "/rough.png", 40, 30, 1, 16, pixels.data());
        std::ofstream(d + "/rough.json") << R"({"width": 40, "height": 30, "from_xz_m": [-300, -200], "to_xz_m": [300, 250],
                                                 "min_height_m": -80, "max_height_m": 420})";
        return d;
    }();
    return dir;
}

class RandomGraph {
public:
    explicit RandomGraph(std::uint32_t seed) : r_(seed) {}

    // A graph of `count` nodes; each input is an earlier node or a number. `box_m`: the width
    // of the box it will be checked over (a drainage's cells are sized to it).
    std::string make(int count, double box_m) {
        box_m_ = box_m;
        std::string nodes = "p0 = { type = \"x\" }\np1 = { type = \"y\" }\np2 = { type = \"z\" }\n";
        ids_ = {"p0", "p1", "p2"};
        on_y_ = {"p1"};
        for (int n = 0; n < count; ++n) {
            const std::string id = fmt::format("n{}", n);
            reads_y_ = false;
            std::string text = node();
            // One node of x and z in six runs on a grid of 0.3 to 300 m.
            if (!reads_y_ && r_.next() < 1.0 / 6.0)
                text.insert(text.size() - 2, fmt::format(", grid_m = {}", std::pow(10.0, uniform(-0.5, 2.5))));
            nodes += id + " = " + text + "\n";
            if (reads_y_) on_y_.insert(id);
            ids_.push_back(id);
        }
        return "format = 1\nseed = " + std::to_string(r_.next_u32() % 1000) + "\n[node]\n" + nodes;
    }
    // Every output of every node: a warp's two, a landform node's named ports, the others' one.
    // A warp must be named with its port; the landform nodes' plain id is their first output.
    bool is_warp(const std::string& id) const { return ports_.count(id) > 0 && !plain_ok_.count(id); }
    std::vector<std::string> outputs() const {
        std::vector<std::string> out;
        for (const std::string& id : ids_) {
            if (!ports_.count(id)) out.push_back(id);
            else
                for (const std::string& port : ports_.at(id)) out.push_back(id + "." + port);
        }
        return out;
    }

private:
    double uniform(double lo, double hi) { return lo + (hi - lo) * r_.next(); }
    std::string num(double lo, double hi) { return fmt::format("{}", uniform(lo, hi)); }
    // An earlier node (one of its ports when it has several; a landform node's plain id now
    // and then) or, one time in five, a number. `column`: only nodes that do not depend on y.
    std::string source(bool column = false) {
        if (r_.next() < 0.2) return num(-50, 50);
        std::vector<std::string> pool;
        for (const std::string& id : ids_)
            if (!column || !on_y_.count(id)) pool.push_back(id);
        const std::string& id = pool[static_cast<std::size_t>(r_.next() * pool.size())];
        if (on_y_.count(id)) reads_y_ = true;
        if (!ports_.count(id) || (plain_ok_.count(id) && r_.next() < 0.25)) return "\"" + id + "\"";
        const std::vector<std::string>& names = ports_.at(id);
        return "\"" + id + "." + names[static_cast<std::size_t>(r_.next() * names.size())] + "\"";
    }
    // The node being made has these outputs (its plain id names the first when `plain`).
    void ports(std::vector<std::string> names, bool plain) {
        const std::string id = fmt::format("n{}", ids_.size() - 3);
        ports_[id] = std::move(names);
        if (plain) plain_ok_.insert(id);
    }
    // A spline's knots: x increasing, y numbers or (one time in three) nodes, which nests them.
    std::string knots() {
        std::string s;
        double x = uniform(-60, 20);
        const int count = 2 + static_cast<int>(r_.next_u32() % 5);
        for (int k = 0; k < count; ++k, x += uniform(0.01, 30))
            s += fmt::format("{}[{}, {}]", k ? ", " : "", x, r_.next() < 0.33 ? source() : num(-80, 80));
        return s;
    }
    std::string noise_coords(bool three) {
        std::string s;
        if (r_.next() < 0.3) s += ", x = " + source();
        if (three && r_.next() < 0.3) s += ", y = " + source();
        if (r_.next() < 0.3) s += ", z = " + source();
        return s;
    }
    std::string fbm() {
        return fmt::format(", octaves = {}, gain = {}, lacunarity = {}, amplitude = {}", 1 + r_.next_u32() % 6, uniform(0.1, 0.9),
                           uniform(1.1, 3.0), uniform(0.1, 2.0));
    }
    std::string node() {
        static const char* const binary[] = {"add", "sub", "mul", "min", "max", "hypot", "union", "intersect", "subtract"};
        // clang-format off
        switch (r_.next_u32() % 31) {
            case 0: case 1: return fmt::format("{{ type = \"{}\", a = {}, b = {} }}", binary[r_.next_u32() % 9], source(), source());
            case 2: return fmt::format("{{ type = \"{}\", in = {} }}", r_.next() < 0.5 ? "neg" : "abs", source());
            case 3: return fmt::format("{{ type = \"clamp\", in = {}, lo = {}, hi = {} }}", source(), source(), source());
            case 4: return fmt::format("{{ type = \"lerp\", a = {}, b = {}, t = {} }}", source(), source(), source());
            case 5: {
                const double a = uniform(-20, 20);
                return fmt::format("{{ type = \"smoothstep\", in = {}, from = {}, to = {} }}", source(), a, a + (r_.next() < 0.5 ? 1 : -1) * uniform(0.1, 30));
            }
            case 6: return fmt::format("{{ type = \"pow\", in = {}, exponent = {} }}", source(), uniform(0.2, 4));
            case 7: return fmt::format("{{ type = \"remap\", in = {}, from = [{}, {}], to = [{}, {}] }}", source(), uniform(-5, 0),
                                       uniform(0.5, 5), uniform(-100, 100), uniform(-100, 100));
            case 8: return fmt::format("{{ type = \"curve\", in = {}, points = [[-10.0, {}], [0.0, {}], [3.5, {}], [20.0, {}]] }}", source(),
                                       uniform(-9, 9), uniform(-9, 9), uniform(-9, 9), uniform(-9, 9));
            case 9: return fmt::format("{{ type = \"terrace\", in = {}, step = {}, smoothness = {} }}", source(), uniform(0.5, 20),
                                       r_.next() < 0.3 ? 0.0 : r_.next());
            case 10: reads_y_ = true; return fmt::format("{{ type = \"plane\", height = {} }}", source());
            case 11: reads_y_ = true; return fmt::format("{{ type = \"sphere\", center = [{}, {}, {}], radius = {} }}", uniform(-99, 99), uniform(-99, 99),
                                        uniform(-99, 99), source());
            case 12: reads_y_ = true; return fmt::format("{{ type = \"box\", center = [{}, {}, {}], half_extent = [{}, {}, {}] }}", uniform(-99, 99),
                                        uniform(-99, 99), uniform(-99, 99), uniform(0, 40), uniform(0, 40), uniform(0, 40));
            case 13: return fmt::format("{{ type = \"{}\", a = {}, b = {}, k = {} }}", r_.next() < 0.5 ? "smooth_union" : "smooth_subtract",
                                        source(), source(), uniform(0.1, 20));
            case 14: return fmt::format("{{ type = \"simplex2\", scale_m = {}, offset = [{}, {}]{} }}", uniform(0.5, 3000), uniform(-50, 50),
                                        uniform(-50, 50), noise_coords(false));
            case 15: return fmt::format("{{ type = \"fbm2\", scale_m = {}{}{} }}", uniform(0.5, 3000), fbm(), noise_coords(false));
            case 16: return fmt::format("{{ type = \"ridged2\", scale_m = {}, sharpness = {}, crest = {}, exponent = {}{}{} }}", uniform(0.5, 3000),
                                        uniform(0.1, 3), uniform(0, 0.5), uniform(1, 4), fbm(), noise_coords(false));
            case 17: reads_y_ = true; return fmt::format("{{ type = \"simplex3\", scale_m = {}, vertical_scale_m = {}, offset = [{}, {}, {}]{} }}", uniform(0.5, 300),
                                        uniform(0.5, 300), uniform(-50, 50), uniform(-50, 50), uniform(-50, 50), noise_coords(true));
            case 18: reads_y_ = true; return fmt::format("{{ type = \"fbm3\", scale_m = {}{}{} }}", uniform(0.5, 300), fbm(), noise_coords(true));
            case 19: return fmt::format("{{ type = \"ridge_profile\", in = {}, sharpness = {}, crest = {}, exponent = {} }}", source(),
                                        uniform(0.1, 3), uniform(0, 0.5), uniform(1, 4));
            case 20: {
                ports({"x", "z"}, false);
                return fmt::format("{{ type = \"warp2\", scale_m = {}, distance_m = {}{} }}", uniform(1, 900), uniform(0, 80), noise_coords(false));
            }
            case 21: return fmt::format("{{ type = \"heightmap\", file = \"rough.png\"{} }}", noise_coords(false));
            // The landform nodes.
            case 22: {
                ports({"value", "dx", "dz"}, true);
                return fmt::format("{{ type = \"dfbm2\", scale_m = {}, offset = [{}, {}], damping = {}{}{} }}", uniform(0.5, 3000), uniform(-50, 50),
                                   uniform(-50, 50), r_.next() < 0.2 ? 0.0 : uniform(0, 6), fbm(), noise_coords(false));
            }
            case 23: return fmt::format("{{ type = \"spline\", in = {}, points = [{}] }}", source(), knots());
            case 24: return fmt::format("{{ type = \"fold\", in = {} }}", source());
            case 25: return fmt::format("{{ type = \"slope\", dx = {}, dz = {} }}", source(), source());
            case 26: return fmt::format("{{ type = \"curvature\", in = {}, step_m = {} }}", source(true), uniform(0.05, 60));
            case 27: {
                ports({"distance", "x", "z"}, true);
                return fmt::format("{{ type = \"cellular\", cell_m = {}, jitter = {}, offset = [{}, {}]{} }}", uniform(0.2, 800), r_.next(),
                                   uniform(-50, 50), uniform(-50, 50), noise_coords(false));
            }
            case 28: {
                // Any height and gradient (steep, flat, huge), a target half the time.
                const std::string in = source(), dx = source(), dz = source();
                const double valley = uniform(-500, 500);
                const std::string heights = r_.next() < 0.5 ? fmt::format(", heights = [{}, {}]", valley, valley + uniform(1, 1000)) : "";
                ports({"height", "dx", "dz", "ridge"}, true);
                return fmt::format("{{ type = \"erosion\", in = {}, dx = {}, dz = {}, scale_m = {}, octaves = {}, lacunarity = {}, gain = {}, "
                                   "strength_m = {}, onset = {}{}{} }}",
                                   in, dx, dz, uniform(0.5, 3000), 1 + r_.next_u32() % 8, uniform(1.1, 3.0), uniform(0.1, 0.9),
                                   r_.next() < 0.1 ? 0.0 : uniform(0.01, 300), uniform(0.01, 3), heights, noise_coords(false));
            }
            case 29: {
                // A river network of 2 or 3 levels over any control and relief (of x and z: it
                // reads them around the point). Its work grows with the cells its batch's
                // rectangle spans, so its cells are 0.05 to 2 box widths (at least 10 m) and it
                // reads the sample's own x and z; a sea half the time.
                const std::string control = source(true), relief = r_.next() < 0.3 ? num(0, 200) : source(true);
                const double cell = std::max(10.0, box_m_ * std::pow(10.0, uniform(std::log10(0.05), std::log10(2.0))));
                const std::string sea = r_.next() < 0.5 ? fmt::format(", sea_level = {}", uniform(-50, 50)) : "";
                const std::string smooth = r_.next() < 0.5 ? fmt::format(", smooth_m = {}", uniform(0.1, 30)) : "";
                // Banks every other cell size, from the numbers drawn already (the graphs drawn after
                // stay those of the fuzz without them).
                const std::string banks =
                    std::fmod(std::floor(cell), 2.0) == 0.0 ? fmt::format(", floodplain = 0.05, water_reach_m = {}", 0.1 * cell) : "";
                // Carved rivers and blended valleys every third (issue 53), the same way.
                const std::string profile =
                    std::fmod(std::floor(cell), 3.0) == 0.0 ? fmt::format(", carve_m = {}, blend_m = {}", 0.2 * cell, 0.02 * cell) : "";
                ports({"height", "dx", "dz", "distance", "water", "order", "river"}, true);
                return fmt::format("{{ type = \"drainage\", control = {}, relief = {}, cell_m = {}, levels = {}, jitter = {}, slope = {}, "
                                   "slope_gain = {}, floor_m = {}, bed_width_m = {}, bed_depth_m = {}, water_levels = {}, concavity = {}, "
                                   "junction = {}{}{}{}{} }}",
                                   control, relief, cell, 2 + r_.next_u32() % 2, r_.next(), uniform(0.01, 3), uniform(0.3, 2),
                                   r_.next() < 0.3 ? 0.0 : uniform(0, 0.3 * cell), uniform(0, 30), uniform(0, 5), r_.next_u32() % 4,
                                   uniform(1, 5), r_.next(), sea, smooth, banks, profile);
            }
            default: return fmt::format("{{ type = \"const\", value = {} }}", uniform(-1e3, 1e3));
        }
        // clang-format on
    }

    Mulberry32 r_;
    double box_m_ = 1.0;
    std::vector<std::string> ids_;
    std::map<std::string, std::vector<std::string>> ports_;  // nodes of several outputs
    std::set<std::string> plain_ok_;                         // ... whose plain id names the first
    std::set<std::string> on_y_;                             // nodes that (may) depend on y
    bool reads_y_ = false;                                   // the node being made does
};

}  // namespace

TEST(GraphBounds, every_nodes_values_lie_within_its_proven_range) {
    // A quarter of them under the sanitizers (several times slower; the main tree runs all).
    const int graphs = 600 / test::sweep_step(1, 8);
    int checked = 0, refused_for_cost = 0;
    for (int g = 0; g < graphs; ++g) {
        RandomGraph random(1000 + g);
        Mulberry32 r(77 + g);
        // A lattice of 9^3 samples; its box is the box the ranges are proven over.
        const double spacing = std::pow(10.0, -1.0 + 5.0 * r.next()) / 10.0;  // boxes 10 cm to 10 km wide
        const std::string body = random.make(10, spacing * 10.0);
        const double far = std::pow(10.0, 6.0 * r.next());
        const glm::i64vec3 origin(static_cast<std::int64_t>(((r.next() * 2 - 1) * far) / spacing),
                                  static_cast<std::int64_t>(((r.next() * 2 - 1) * std::min(far, 5e3)) / spacing),
                                  static_cast<std::int64_t>(((r.next() * 2 - 1) * far) / spacing));
        const Lattice lattice{origin, {9, 9, 9}, spacing * 1.25};
        const Box box = lattice.bounds();
        std::vector<glm::dvec3> points;
        for (int i = 0; i < 120; ++i)
            points.emplace_back(box.lo.x + (box.hi.x - box.lo.x) * r.next(), box.lo.y + (box.hi.y - box.lo.y) * r.next(),
                                box.lo.z + (box.hi.z - box.lo.z) * r.next());
        // Each node in turn as the output: its values against the graph's proven range.
        for (const std::string& output : random.outputs()) {
            // A node over nested drainage nodes can pass the cost a graph may have: refused whole,
            // which is right (GraphCost.*); nothing to check then.
            std::unique_ptr<GraphField> alone;
            try {
                alone = parse_graph(body + "[output]\nsdf = \"" + output + "\"\n", "random.toml", raster_folder());
            } catch (const GraphError& e) {
                ASSERT_NE(std::string(e.what()).find("a graph may cost"), std::string::npos) << e.what();
                ++refused_for_cost;
                continue;
            }
            const ValueRange range = alone->bounds(box);
            std::vector<double> at_points(points.size());
            alone->sample_points(points.data(), points.size(), at_points.data());
            std::vector<float> on_lattice(lattice.count());
            alone->sample_lattice(lattice, on_lattice.data());
            for (std::size_t i = 0; i < points.size(); ++i)
                ASSERT_TRUE(std::isnan(at_points[i]) || (at_points[i] >= range.lo && at_points[i] <= range.hi))
                    << "graph " << g << " node " << output << " value " << at_points[i] << " outside [" << range.lo << ", " << range.hi
                    << "]\n"
                    << body;
            // Gated noises (skipped where a min, max or CSG node is decided by its other side)
            // change no bit: a second path from every node to the output, changing no value,
            // keeps anything from being skipped.
            {
                std::string keep = body;
                std::string chain = output;
                for (std::size_t n = 0; n < 10; ++n) {
                    const std::string id = fmt::format("n{}", n);
                    if (random.is_warp(id)) continue;
                    keep += fmt::format("low{} = {{ type = \"sub\", a = \"{}\", b = 1e300 }}\n", n, id);
                    keep += fmt::format("keep{} = {{ type = \"max\", a = \"{}\", b = \"low{}\" }}\n", n, chain, n);
                    chain = fmt::format("keep{}", n);
                }
                // With every node on the output's path the cost can pass the bound too.
                std::unique_ptr<GraphField> ungated;
                try {
                    ungated = parse_graph(keep + "[output]\nsdf = \"" + chain + "\"\n", "ungated.toml", raster_folder());
                } catch (const GraphError& e) {
                    ASSERT_NE(std::string(e.what()).find("a graph may cost"), std::string::npos) << e.what();
                    ++refused_for_cost;
                }
                std::vector<float> reference(lattice.count());
                if (ungated) ungated->sample_lattice(lattice, reference.data());
                for (std::size_t i = 0; ungated && i < on_lattice.size(); ++i)
                    ASSERT_TRUE(std::memcmp(&on_lattice[i], &reference[i], sizeof(float)) == 0 ||
                                (std::isnan(on_lattice[i]) && std::isnan(reference[i])))
                        << "graph " << g << " node " << output << " gated " << on_lattice[i] << " ungated " << reference[i] << "\n"
                        << body;
            }
            for (std::size_t i = 0; i < on_lattice.size(); ++i) {
                const double v = on_lattice[i];
                const double slack = std::fabs(v) * 6e-8;  // the float the lattice stores
                ASSERT_TRUE(std::isnan(v) || (v >= range.lo - slack && v <= range.hi + slack))
                    << "graph " << g << " node " << output << " lattice value " << v << " outside [" << range.lo << ", " << range.hi
                    << "]\n"
                    << body;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, graphs * 8);
    EXPECT_LT(refused_for_cost, checked / 20);  // the gating check still runs on nearly every node
}
