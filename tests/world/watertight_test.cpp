// What the world shows is crack-free: welded, its meshes have no open edge but on the rim of
// the view, at every level and between levels, for marching cubes and surface nets (both
// also manifold, neither with a triangle without area), on
// analytic shapes, the tutorial and field graphs (every built-in graph preset, the classic
// canyons graph they replaced, users' graphs, and one whose levels leave out fine octaves);
// rays from the camera find the shown ground wherever the field has ground; and an edit far
// away shows in the coarse meshes there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "classic_presets.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/world.hpp"
#include "test_pace.hpp"
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
    std::size_t degenerate = 0;            // triangles left out: two corners on one point
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
        // Triangles whose corners weld together have no area: counted and left out, they
        // close nothing.
        for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
            const std::uint32_t a = id[m.indices[t]], b = id[m.indices[t + 1]], d = id[m.indices[t + 2]];
            if (a == b || b == d || a == d) {
                ++w.degenerate;
                continue;
            }
            w.triangles.insert(w.triangles.end(), {a, b, d});
            w.level.push_back(c.lod);
        }
    }
    return w;
}

// What is wrong with the edges, those on the rim of the view left out (both ends within a
// cell of its level from where nothing is shown: surface nets' last vertices lie inside the
// last cells).
struct EdgeFaults {
    int open = 0;     // used by one triangle more in one direction than in the other
    int pinched = 0;  // used by more than one triangle each way, as often each way
};
EdgeFaults edge_faults(const Welded& w, const LodColumnSet& columns, int levels) {
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
    EdgeFaults faults;
    for (const auto& [edge, n] : count) {
        const auto back = count.find({edge.second, edge.first});
        const bool open = back == count.end() || back->second != n;
        if ((open || n != 1) && !(on_rim(w.points[edge.first]) && on_rim(w.points[edge.second]))) {
            if (faults.open + faults.pinched < 3)
                std::printf("  open edge (%.3f %.3f %.3f) - (%.3f %.3f %.3f) used %d / %d\n", w.points[edge.first].x,
                            w.points[edge.first].y, w.points[edge.first].z, w.points[edge.second].x, w.points[edge.second].y,
                            w.points[edge.second].z, n, back == count.end() ? 0 : back->second);
            ++(open ? faults.open : faults.pinched);
        }
    }
    return faults;
}

const std::string kCorpus = std::string(ISOTERRA_SOURCE_DIR) + "/tests/fuzz/corpus/graph/";

struct Case {
    const char* name;
    std::shared_ptr<const Field> field;
    std::size_t foci = 4;  // the first of kFoci
    // The foci's heights are above the field's ground there rather than above 0 (the built-in
    // graphs' ground lies hundreds of metres up or down; the levels need a focus near it).
    bool above_ground = false;
};

std::vector<Case> fields() {
    return {
        // A ball of 100 m crossing three levels around a focus near its top (and the world's
        // floor, a plane, under it).
        {"sphere", std::shared_ptr<const Field>(make_sphere({20.0, 40.0, -10.0}, 100.0))},
        {"tilted plane", std::shared_ptr<const Field>(make_plane(glm::normalize(glm::dvec3(0.3, 1.0, -0.2)), 12.0))},
        {"tutorial", tutorial()},
        // Field graphs: the built-in presets (landform nodes: drainage, erosion, cellular,
        // splines; canyons' benches are terraces), the classic canyons graph (terraces,
        // cliffs, caves in the walls) and the users' graphs of the fuzz corpus.
        {"alpine graph", builtin_terrain("alpine").make_field(), 2, true},
        {"islands graph", builtin_terrain("islands").make_field(), 2, true},
        {"rivers graph", builtin_terrain("rivers").make_field(), 2, true},
        {"canyons graph", builtin_terrain("canyons").make_field(), 2, true},
        {"classic canyons graph", test::classic_terrain("canyons").make_field(), 2},
        {"terraced plateau graph", load_terrain_file(kCorpus + "terraced_plateau.toml").make_field(), 2},
        {"sphere caves graph", load_terrain_file(kCorpus + "sphere_caves.toml").make_field(), 2},
        {"warped ridge graph", load_terrain_file(kCorpus + "warped_ridge.toml").make_field(), 2},
        // Noises with `lod`: each level leaves out the octaves under two of its samples inside
        // its columns (the overhangs' whole noise at 8 m), so neighbouring levels' surfaces differ.
        {"lod hills graph", load_terrain_file(kCorpus + "lod_hills.toml").make_field(), 2, true},
    };
}

// Foci on chunk corners where the rings turn, in the middle of chunks, far out.
const glm::dvec3 kFoci[] = {{0.01, 30.0, 0.01}, {63.99, 30.0, -64.01}, {-127.5, 40.0, 256.25}, {1000.0, 60.0, -300.0}};

}  // namespace

class Watertight : public ::testing::TestWithParam<Mesher> {};

TEST_P(Watertight, the_shown_levels_close_up_around_every_focus) {
    const std::vector<Case> cases = fields();
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const Case& c = cases[k];
        // A slow (sanitizer) build: every fourth field, another quarter with the other mesher,
        // at the first focus; the Release tree takes them all.
        if (test::slow_build() && (k + 2 * static_cast<std::size_t>(GetParam())) % 4) continue;
        for (std::size_t f = 0; f < c.foci; f += test::sweep_step(1, 4)) {
            glm::dvec3 focus = kFoci[f];
            if (c.above_ground) focus.y += c.field->ground_height(focus.x, focus.z);
            WorldSettings s = settings(2, 512.0);
            s.mesher = GetParam();
            World w(c.field, s);
            ASSERT_EQ(w.settings().levels, 4);
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
            // Both meshers' meshes are also manifold: no edge shared by two triangles each
            // way, terraces (samples of exact zeros) included; for surface nets since each
            // piece of a cell's surface has its own vertex (before, the tutorial's 2 km view
            // had 32,901 such edges in 5.7 M triangles: docs/design/benchmarks.md). Neither mesher
            // draws a triangle without area.
            const EdgeFaults faults = edge_faults(welded, columns, w.levels());
            EXPECT_EQ(welded.degenerate, 0u) << c.name << " at " << focus.x << "," << focus.z << " with " << mesher_name(GetParam());
            EXPECT_EQ(faults.open, 0) << c.name << " at " << focus.x << "," << focus.z << " with " << mesher_name(GetParam());
            EXPECT_EQ(faults.pinched, 0) << c.name << " at " << focus.x << "," << focus.z << " with " << mesher_name(GetParam());
            std::printf("%s at (%.0f, %.0f, %.0f): %zu triangles on levels", c.name, focus.x, focus.y, focus.z,
                        welded.triangles.size() / 3);
            for (int l : levels_with_triangles) std::printf(" %d", l);
            std::printf(", %d open and %d pinched edges inside the rim\n", faults.open, faults.pinched);
        }
    }
}

// Chunks over a triangle budget have their insides simplified (marching cubes: surface nets'
// chunks are left as they are): the levels still close up, manifold, with fewer triangles
// on the coarser levels.
TEST(WatertightSimplified, marching_cubes_chunks_over_the_budget_close_up_as_well) {
    const std::vector<Case> all = fields();
    for (const Case& c : all) {
        const std::string name = c.name;
        if (name != "sphere" && name != "tutorial" && name != "alpine graph" && name != "rivers graph") continue;
        // A slow (sanitizer) build takes the analytic shape: the same simplification code as
        // the graphs', which the Release tree sweeps.
        if (test::slow_build() && name != "sphere") continue;
        glm::dvec3 focus = kFoci[1];
        if (c.above_ground) focus.y += c.field->ground_height(focus.x, focus.z);
        std::size_t coarse_triangles[2] = {0, 0};
        for (const std::size_t budget : {std::size_t{0}, std::size_t{300}}) {
            WorldSettings s = settings(2, 512.0);
            s.chunk_triangles = budget;
            World w(c.field, s);
            Owner owner;
            settle(w, owner, focus);
            const LodColumnSet columns = owner.shown.visible_columns();
            const Welded welded = weld_shown(owner.shown);
            for (const int level : welded.level) coarse_triangles[budget > 0] += level > 0;
            const EdgeFaults faults = edge_faults(welded, columns, w.levels());
            EXPECT_EQ(welded.degenerate, 0u) << c.name;
            EXPECT_EQ(faults.open + faults.pinched, 0) << c.name << " with a budget of " << budget << " triangles a chunk";
        }
        std::printf("%s: %zu triangles on levels 1-3, %zu simplified\n", c.name, coarse_triangles[0], coarse_triangles[1]);
        EXPECT_LT(coarse_triangles[1], coarse_triangles[0]) << c.name;
    }
}

INSTANTIATE_TEST_SUITE_P(Meshers, Watertight, ::testing::Values(Mesher::marching_cubes, Mesher::surface_nets), [](const auto& info) {
    return std::string(info.param == Mesher::marching_cubes ? "marching_cubes" : "surface_nets");
});

namespace {

// Front faces of the shown meshes in a grid of 16 m columns, for rays.
class RayTarget {
public:
    explicit RayTarget(const Welded& w) : w_(w) {
        for (std::size_t t = 0; t < w.triangles.size() / 3; ++t) {
            glm::dvec3 lo(1e30), hi(-1e30);
            for (int e = 0; e < 3; ++e)
                lo = glm::min(lo, w.points[w.triangles[3 * t + e]]), hi = glm::max(hi, w.points[w.triangles[3 * t + e]]);
            for (std::int64_t z = cell(lo.z); z <= cell(hi.z); ++z)
                for (std::int64_t x = cell(lo.x); x <= cell(hi.x); ++x) bins_[key(x, z)].push_back(static_cast<std::uint32_t>(t));
        }
    }
    // The nearest front face the ray from `o` along unit `d` meets before `t_max` (or +inf).
    double first_hit(const glm::dvec3& o, const glm::dvec3& d, double t_max) {
        ++stamp_;
        double best = INFINITY;
        for (double t = 0.0; t <= t_max + 16.0; t += 8.0) {
            const glm::dvec3 p = o + d * t;
            for (std::int64_t dz = -1; dz <= 1; ++dz)
                for (std::int64_t dx = -1; dx <= 1; ++dx) {
                    auto it = bins_.find(key(cell(p.x) + dx, cell(p.z) + dz));
                    if (it == bins_.end()) continue;
                    for (const std::uint32_t tri : it->second) {
                        if (seen_.size() <= tri) seen_.resize(w_.triangles.size() / 3, 0);
                        if (seen_[tri] == stamp_) continue;
                        seen_[tri] = stamp_;
                        best = std::min(best, hit(tri, o, d));
                    }
                }
        }
        return best;
    }

private:
    static std::int64_t cell(double v) { return static_cast<std::int64_t>(std::floor(v / 16.0)); }
    static std::int64_t key(std::int64_t x, std::int64_t z) { return x * 1000003 + z; }
    // Möller and Trumbore, front faces only, a hair of slack on the edges (shared edges of
    // a closed mesh are met by one side or the other).
    double hit(std::uint32_t tri, const glm::dvec3& o, const glm::dvec3& d) const {
        const glm::dvec3 a = w_.points[w_.triangles[3 * tri]], b = w_.points[w_.triangles[3 * tri + 1]],
                         c = w_.points[w_.triangles[3 * tri + 2]];
        const glm::dvec3 e1 = b - a, e2 = c - a;
        if (glm::dot(glm::cross(e1, e2), d) >= 0.0) return INFINITY;  // seen from behind
        const glm::dvec3 p = glm::cross(d, e2);
        const double det = glm::dot(e1, p);
        if (std::fabs(det) < 1e-18) return INFINITY;
        const glm::dvec3 s = o - a;
        const double u = glm::dot(s, p) / det;
        const glm::dvec3 q = glm::cross(s, e1);
        const double v = glm::dot(d, q) / det;
        if (u < -1e-7 || v < -1e-7 || u + v > 1.0 + 1e-7) return INFINITY;
        const double t = glm::dot(e2, q) / det;
        return t > 0.0 ? t : INFINITY;
    }
    const Welded& w_;
    std::unordered_map<std::int64_t, std::vector<std::uint32_t>> bins_;
    std::vector<std::uint32_t> seen_;
    std::uint32_t stamp_ = 0;
};

}  // namespace

// Rays from the camera, at random and aimed at the borders between levels: wherever the
// edited field has ground within the view, the shown meshes have ground there too (within a
// few cells of that level, measured across the surface), so no sky shows through.
TEST_P(Watertight, rays_from_the_camera_find_ground_wherever_the_field_has_it) {
    const auto t = tutorial();
    EditHistory history(t);
    const double gx = 60.0, gz = -40.0, gh = t->surface_height(gx, gz);
    history.apply({BrushKind::sphere, BrushMode::carve, {gx, gh, gz}, 9.0});
    history.apply({BrushKind::sphere, BrushMode::add, {gx + 20, gh + 4, gz}, 6.0});
    const auto deltas = std::make_shared<const ChunkDeltas>(history.deltas());
    WorldSettings s = settings(4, 1500.0);
    s.mesher = GetParam();
    World w(t, s, deltas);
    Owner owner;
    const glm::dvec3 eye(0.0, t->surface_height(0.0, 0.0) + 30.0, 0.0);
    settle(w, owner, eye);
    const LodColumnSet columns = owner.shown.visible_columns();
    const Welded welded = weld_shown(owner.shown);
    RayTarget target(welded);

    // Directions: 800 at random below the horizon, and 800 aimed at points on the borders
    // between columns of different levels, on the ground.
    std::vector<glm::dvec3> directions;
    Mulberry32 random(11);
    // A slow (sanitizer) build casts every fourth of these rays; the Release tree all of them.
    const int every = test::sweep_step(1, 4);
    for (int i = 0; i < 800; ++i) {
        const double azimuth = random.next() * 2.0 * M_PI, elevation = -(0.03 + random.next() * 0.9);
        directions.push_back({std::cos(azimuth) * std::cos(elevation), std::sin(elevation), std::sin(azimuth) * std::cos(elevation)});
    }
    std::vector<glm::dvec2> borders;
    for (const LodColumn& c : columns) {
        const Neighbourhood n = neighbourhood_in(columns, c, w.levels());
        const double e = c.size_m();
        if (n.side[side_pos_x] != 0) borders.push_back({(c.x + 1) * e, (c.z + random.next()) * e});
        if (n.side[side_pos_z] != 0) borders.push_back({(c.x + random.next()) * e, (c.z + 1) * e});
        if (n.diagonal[corner_pos_x_pos_z] != 0) borders.push_back({(c.x + 1) * e, (c.z + 1) * e});
    }
    for (std::size_t i = 0; i < borders.size() && i < 800; ++i) {
        const glm::dvec2& b = borders[i * borders.size() / std::min<std::size_t>(borders.size(), 800)];
        directions.push_back(glm::normalize(glm::dvec3(b.x, t->surface_height(b.x, b.y), b.y) - eye));
    }
    int cast = 0, leaks = 0;
    for (std::size_t i = 0; i < directions.size(); i += static_cast<std::size_t>(every)) {
        const glm::dvec3& d = directions[i];
        glm::dvec3 ground;
        if (!ray_cast(*t, history.deltas(), eye, d, s.view_distance_m, ground, 0.5)) continue;
        const LodColumn holder =
            covering(columns, {0, static_cast<int>(std::floor(ground.x / 32)), static_cast<int>(std::floor(ground.z / 32))}, w.levels());
        if (holder.level < 0 || ground.y < -60.0) continue;
        // A ray that only grazes a ridge (out in the air again within three cells of that
        // level) meets the coarser approximation or not, by the approximation's error: those
        // are silhouettes, not ground to see through.
        const double cell = std::ldexp(1.0, holder.level);
        glm::dvec3 beyond[3];
        double inside[3];
        for (int k = 0; k < 3; ++k) beyond[k] = ground + d * ((k + 1) * cell);
        sample_edited(*t, history.deltas(), beyond, 3, inside);
        if (inside[0] >= 0.0 || inside[1] >= 0.0 || inside[2] >= 0.0) continue;
        ++cast;
        const double t_field = glm::length(ground - eye);
        glm::dvec3 n = glm::normalize(t->gradient(ground));
        const double across = std::max(0.1, std::fabs(glm::dot(n, d)));
        const double slack = std::min(300.0, 3.0 * std::ldexp(1.0, holder.level) / across + 1.0);
        double t_mesh = target.first_hit(eye, d, t_field + slack);
        // Beyond the slack, a level's surface that lies lower than the field's (by its
        // sampling) is still met where the ray has stayed in the ground all the way: a ray
        // through a hole would come out into the air (or a cave) before it met the next
        // front face. Sampled every half cell; "in the air" is above by more than a cell.
        if (!(t_mesh <= t_field + slack) && std::isfinite(t_mesh = target.first_hit(eye, d, s.view_distance_m))) {
            std::vector<glm::dvec3> along;
            for (double u = t_field; u < t_mesh; u += 0.5 * cell) along.push_back(eye + d * u);
            std::vector<double> value(along.size());
            sample_edited(*t, history.deltas(), along.data(), along.size(), value.data());
            if (std::all_of(value.begin(), value.end(), [&](double v) { return v <= cell; })) t_mesh = t_field;
        }
        if (!(t_mesh <= t_field + slack)) {
            if (leaks < 5)
                std::printf(
                    "  leak: ground at (%.3f, %.3f, %.3f), level %d, mesh %s (t field %.2f, mesh %.2f, slack %.2f), dir %.6f %.6f %.6f\n",
                    ground.x, ground.y, ground.z, holder.level, std::isinf(t_mesh) ? "not met" : "met too far", t_field, t_mesh, slack, d.x,
                    d.y, d.z);
            ++leaks;
        }
    }
    EXPECT_GT(cast, 800 / every);
    EXPECT_EQ(leaks, 0);
    std::printf("%s: %d rays met the field's ground in view, %d found no shown ground there\n", mesher_name(GetParam()), cast, leaks);
}

// A carve 2 km away: the world rebuilds the coarse chunks over it (nothing finer is there),
// their meshes change, and every vertex near the carve lies within one sample spacing of
// the edited field's surface.
TEST(WorldEdits, a_carve_2_km_away_shows_in_the_coarse_meshes_there) {
    const auto t = tutorial();
    World w(t, settings(4, 3000.0));
    Owner owner;
    const glm::dvec3 eye(0.0, t->surface_height(0, 0) + 30.0, 0.0);
    settle(w, owner, eye);
    const auto before = owner.meshes;
    owner.deliveries.clear();
    EditHistory history(t);
    const glm::dvec3 centre(2000.0, t->surface_height(2000.0, 0.0), 0.0);
    const EditOp carve{BrushKind::sphere, BrushMode::carve, centre, 48.0};
    history.apply(carve);
    w.set_edits(std::make_shared<const ChunkDeltas>(history.deltas()), edit_box(carve));
    settle(w, owner, eye);
    ASSERT_FALSE(owner.deliveries.empty());
    int changed = 0, checked = 0, far_off = 0;
    for (const auto& [k, n] : owner.deliveries) {
        const int lod = std::get<0>(k);
        EXPECT_GE(lod, 3) << "a chunk of level " << lod << " at 2 km";
        const MeshBuffers& m = owner.meshes.at(k);
        changed += !before.count(k) || before.at(k).positions != m.positions;
        const double sp = std::ldexp(1.0, lod);
        for (std::size_t v = 0; v < m.vertex_count(); ++v) {
            const glm::dvec3 p = m.world_position(v);
            if (glm::length(p - centre) > carve.radius_m + 2 * sp) continue;
            // The surface passes within a sample spacing: the field takes both signs in the
            // ball of that radius around the vertex (its centre, and 26 directions at four
            // distances up to the radius).
            std::vector<glm::dvec3> probes{p};
            for (int dz = -1; dz <= 1; ++dz)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        for (int r = 1; r <= 4 && (dx || dy || dz); ++r)
                            probes.push_back(p + glm::normalize(glm::dvec3(dx, dy, dz)) * (sp * r / 4.0));
            std::vector<double> f(probes.size());
            sample_edited(*t, history.deltas(), probes.data(), probes.size(), f.data());
            ++checked;
            far_off += *std::min_element(f.begin(), f.end()) >= 0.0 || *std::max_element(f.begin(), f.end()) < 0.0;
        }
    }
    EXPECT_GT(changed, 0);
    EXPECT_GT(checked, 20);
    EXPECT_EQ(far_off, 0);
    std::printf("a carve at 2 km: %zu chunks rebuilt, %d changed; %d vertices near it, %d further than a sample from the surface\n",
                owner.deliveries.size(), changed, checked, far_off);
}
