// What the world shows is crack-free: welded, its meshes have no open edge but on the rim of
// the view, at every level and between levels, for marching cubes and surface nets; rays
// from the camera find the shown ground wherever the field has ground; and an edit far away
// shows in the coarse meshes there.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include <glm/geometric.hpp>

#include "isoterra/world.hpp"
#include "world_checks.hpp"

using namespace isoterra;
using namespace isoterra::test;

namespace {

// Every visible chunk as drawn, in world coordinates (doubles: exact), indices welded by
// position.
struct Welded {
    std::vector<glm::dvec3> points;
    std::vector<std::uint32_t> triangles;  // three per triangle, into points
    std::vector<int> level;                // per triangle
};

Welded weld_shown(const ShownChunks& shown) {
    Welded w;
    std::map<std::tuple<double, double, double>, std::uint32_t> ids;
    for (const auto& [c, m] : shown.drawn()) {
        std::vector<std::uint32_t> id(m.vertex_count());
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            const glm::dvec3 p = m.world_position(v);
            auto [it, fresh] = ids.emplace(std::make_tuple(p.x, p.y, p.z), static_cast<std::uint32_t>(w.points.size()));
            if (fresh) w.points.push_back(p);
            id[v] = it->second;
        }
        // Triangles whose corners weld together have no area (a crossing that two edges of
        // different levels place on the same point): left out, they close nothing.
        for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
            const std::uint32_t a = id[m.indices[t]], b = id[m.indices[t + 1]], d = id[m.indices[t + 2]];
            if (a == b || b == d || a == d) continue;
            w.triangles.insert(w.triangles.end(), {a, b, d});
            w.level.push_back(c.lod);
        }
    }
    return w;
}

// Edges used by one triangle more in one direction than in the other (open), or, when
// `manifold`, by more than one triangle each way; those on the rim of the view left out: with
// both ends within a cell of its level from where nothing is shown (surface nets' last
// vertices lie inside the last cells).
int open_edges(const Welded& w, const LodColumnSet& columns, int levels, bool manifold) {
    const auto holder = [&](double x, double z) {
        return covering(columns, {0, static_cast<int>(std::floor(x / 32)), static_cast<int>(std::floor(z / 32))}, levels);
    };
    const auto on_rim = [&](const glm::dvec3& p) {
        const LodColumn at = holder(p.x, p.z);
        const double reach = (at.level >= 0 ? std::ldexp(1.0, at.level) : 1.0) + 0.01;
        for (const double dx : {-reach, 0.0, reach})
            for (const double dz : {-reach, 0.0, reach})
                if (holder(p.x + dx, p.z + dz).level < 0) return true;
        return false;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
    for (std::size_t t = 0; t + 2 < w.triangles.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = w.triangles[t + e], b = w.triangles[t + (e + 1) % 3];
            if (a != b) ++count[{a, b}];
        }
    int open = 0;
    for (const auto& [edge, n] : count) {
        const auto back = count.find({edge.second, edge.first});
        const bool bad = back == count.end() || back->second != n || (manifold && n != 1);
        if (bad && !(on_rim(w.points[edge.first]) && on_rim(w.points[edge.second]))) {
            if (open < 3)
                std::printf("  open edge (%.3f %.3f %.3f) - (%.3f %.3f %.3f) used %d / %d\n", w.points[edge.first].x,
                            w.points[edge.first].y, w.points[edge.first].z, w.points[edge.second].x, w.points[edge.second].y,
                            w.points[edge.second].z, n, back == count.end() ? 0 : back->second);
            ++open;
        }
    }
    return open;
}

struct Case {
    const char* name;
    std::shared_ptr<const Field> field;
};

std::vector<Case> fields() {
    return {
        // A ball of 100 m crossing three levels around a focus near its top (and the world's
        // floor, a plane, under it).
        {"sphere", std::shared_ptr<const Field>(make_sphere({20.0, 40.0, -10.0}, 100.0))},
        {"tilted plane", std::shared_ptr<const Field>(make_plane(glm::normalize(glm::dvec3(0.3, 1.0, -0.2)), 12.0))},
        {"tutorial", tutorial()},
    };
}

// Foci on chunk corners where the rings turn, in the middle of chunks, far out.
const glm::dvec3 kFoci[] = {{0.01, 30.0, 0.01}, {63.99, 30.0, -64.01}, {-127.5, 40.0, 256.25}, {1000.0, 60.0, -300.0}};

}  // namespace

class Watertight : public ::testing::TestWithParam<Mesher> {};

TEST_P(Watertight, the_shown_levels_close_up_around_every_focus) {
    for (const Case& c : fields())
        for (const glm::dvec3& focus : kFoci) {
            WorldSettings s = settings(2, 512.0);
            s.mesher = GetParam();
            World w(c.field, s);
            ASSERT_EQ(w.levels(), 4);
            Owner owner;
            settle(w, owner, focus);
            const LodColumnSet columns = owner.shown.visible_columns();
            std::set<int> levels;
            for (const LodColumn& col : columns) levels.insert(col.level);
            EXPECT_EQ(levels.size(), 4u) << c.name;
            const Welded welded = weld_shown(owner.shown);
            std::set<int> levels_with_triangles(welded.level.begin(), welded.level.end());
            EXPECT_GE(levels_with_triangles.size(), 3u) << c.name;
            ASSERT_GT(welded.triangles.size(), 3000u) << c.name;
            const int open = open_edges(welded, columns, w.levels(), GetParam() == Mesher::marching_cubes);
            EXPECT_EQ(open, 0) << c.name << " at " << focus.x << "," << focus.z << " with " << mesher_name(GetParam());
            std::printf("%s at (%.0f, %.0f): %zu triangles on levels", c.name, focus.x, focus.z, welded.triangles.size() / 3);
            for (int l : levels_with_triangles) std::printf(" %d", l);
            std::printf(", %d open edges inside the rim\n", open);
        }
}

INSTANTIATE_TEST_SUITE_P(Meshers, Watertight, ::testing::Values(Mesher::marching_cubes, Mesher::surface_nets),
                         [](const auto& info) { return std::string(info.param == Mesher::marching_cubes ? "marching_cubes" : "surface_nets"); });
