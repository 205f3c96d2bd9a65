// Brushes, deltas and the operation log: analytic holes, exact undo/redo, replay, seams.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <random>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "isoterra/edit.hpp"
#include "isoterra/mesh.hpp"
#include "mesh_checks.hpp"
#include "same_bits.hpp"

using namespace isoterra;

namespace {

std::shared_ptr<const Field> tutorial() {
    static const std::shared_ptr<const Field> field = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    return field;
}

ChunkSamples sampled(const Field& base, const ChunkDeltas& deltas, const ChunkCoord& c, Mesher m = Mesher::marching_cubes) {
    ChunkSamples s;
    sample_chunk(base, c, mesher_padding(m), s);
    apply_deltas(deltas, s);
    return s;
}

using test::same_bits;

// A mix of every brush around the tutorial's ground near the origin, some capped.
std::vector<EditOp> mixed_ops(const Field& t, int n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> xz(-30.0, 60.0), r(2.0, 9.0), u(0.0, 1.0);
    std::vector<EditOp> ops;
    for (int i = 0; i < n; ++i) {
        EditOp op;
        op.kind = static_cast<BrushKind>(i % 3);
        op.mode = u(rng) < 0.5 ? BrushMode::carve : BrushMode::add;
        const double x = xz(rng), z = xz(rng);
        op.centre = {x, t.surface_height(x, z) + 4.0 * (u(rng) - 0.5), z};
        op.radius_m = r(rng);
        if (u(rng) < 0.4) op.strength_m = 0.5 + 3.0 * u(rng);
        ops.push_back(op);
    }
    return ops;
}

}  // namespace

// Carving a 10 m sphere out of the plane y = 0.5 with full strength leaves max(y - 0.5, r - |p - c|):
// the mesh of the eight chunks around the hole lies on that shape and has no hole at the
// chunk borders.
TEST(Edit, carving_a_sphere_out_of_a_plane_leaves_the_analytic_hole_closed_across_chunks) {
    const std::shared_ptr<const Field> plane = make_plane({0, 1, 0}, 0.5);
    const glm::dvec3 c(32.4, 0.5, 31.7);
    const double r = 10.0;  // the meshing tolerances are stated for a 10 m sphere
    ChunkDeltas deltas;
    EditOp op;
    op.centre = c;
    op.radius_m = r;
    EXPECT_EQ(apply_edit(*plane, op, deltas).size(), 8u);  // 2 x 2 x 2 delta chunks
    const auto exact = [&](const glm::dvec3& p) { return std::max(p.y - 0.5, r - glm::length(p - c)); };
    for (Mesher m : {Mesher::marching_cubes, Mesher::surface_nets}) {
        MeshBuffers all, one;
        MeshScratch scratch;
        for (int z = 0; z < 2; ++z)
            for (int y = -1; y < 1; ++y)
                for (int x = 0; x < 2; ++x) {
                    const ChunkSamples s = sampled(*plane, deltas, {x, y, z, 0}, m);
                    mesh_chunk(m, s, plane->material_rules(), scratch, one);
                    all.append(one);
                }
        double worst = 0.0, deepest = 1.0;
        for (const glm::vec3& v : all.positions) {
            const glm::dvec3 p(v);
            deepest = std::min(deepest, p.y);
            // The rim is a crease the meshers round off; elsewhere the surface is smooth.
            const double to_rim = std::hypot(glm::length(glm::dvec2(p.x - c.x, p.z - c.z)) - r, p.y - 0.5);
            if (to_rim > 1.5) worst = std::max(worst, std::fabs(exact(p)));
        }
        EXPECT_LT(worst, 0.05) << mesher_name(m);
        EXPECT_NEAR(deepest, c.y - r, 0.05) << mesher_name(m);
        // Open edges only on the outer border of the 64 x 64 m block.
        std::size_t inner_open = 0;
        const auto id = test::weld(all.positions);
        std::vector<glm::vec3> at(all.positions.size());
        for (std::size_t v = 0; v < id.size(); ++v) at[id[v]] = all.positions[v];
        for (const auto& [a, b] : test::open_edges(all, false)) {
            // Surface nets put border vertices inside the border cells.
            const auto outer = [](const glm::vec3& p) { return p.x <= 1.0f || p.x >= 63.0f || p.z <= 1.0f || p.z >= 63.0f; };
            inner_open += !(outer(at[a]) && outer(at[b]));
        }
        EXPECT_EQ(inner_open, 0u) << mesher_name(m);
        std::printf("%s: %zu triangles, |f| <= %.4f m off the rim, deepest %.3f m\n", mesher_name(m), all.triangle_count(), worst, deepest);
    }
}

TEST(Edit, brushes_move_values_the_way_their_mode_says_and_no_further_than_their_strength) {
    const auto base = tutorial();
    const auto& t = *base;
    for (const auto& [kind, mode] : {std::pair{BrushKind::sphere, BrushMode::carve}, std::pair{BrushKind::sphere, BrushMode::add},
                                     std::pair{BrushKind::smooth, BrushMode::carve}, std::pair{BrushKind::flatten, BrushMode::carve}}) {
        EditOp op;
        op.kind = kind;
        op.mode = mode;
        op.centre = {10.0, t.surface_height(10.0, 20.0), 20.0};
        op.radius_m = 7.0;
        op.strength_m = 1.5;
        ChunkDeltas deltas;
        ASSERT_FALSE(apply_edit(*base, op, deltas).empty()) << brush_name(kind);
        std::size_t moved = 0;
        for (const auto& [c, chunk] : deltas.chunks())
            for (int k = 0; k < kChunkSize; ++k)
                for (int j = 0; j < kChunkSize; ++j)
                    for (int i = 0; i < kChunkSize; ++i) {
                        const float d = chunk->values[DeltaChunk::index(i, j, k)];
                        if (d == 0.0f) continue;
                        ++moved;
                        const glm::dvec3 p = glm::dvec3(c.x, c.y, c.z) * double(kChunkSize) + glm::dvec3(i, j, k);
                        ASSERT_LT(glm::length(p - op.centre), op.radius_m) << brush_name(kind);
                        ASSERT_LE(std::fabs(d), op.strength_m * brush_falloff(glm::length(p - op.centre), op.radius_m) + 1e-4);
                        if (kind == BrushKind::sphere) ASSERT_EQ(d > 0.0f, mode == BrushMode::carve);
                    }
        EXPECT_GT(moved, 100u) << brush_name(kind);
    }
    // Flatten at full strength makes the level plane through the centre at the centre.
    EditOp flat{BrushKind::flatten, BrushMode::carve, {10.0, 7.25, 20.0}, 6.0};
    ChunkDeltas deltas;
    apply_edit(*base, flat, deltas);
    const ChunkSamples s = sampled(*base, deltas, {0, 0, 0, 0});
    EXPECT_NEAR(s.at(10, 7, 20), 7.0 - 7.25, 0.01);  // 0.25 m from the centre: falloff 0.995
    EXPECT_NEAR(s.at(10, 8, 20), 8.0 - 7.25, 0.02);
    EXPECT_GT(s.at(10, 9, 20), 1.5);
    EXPECT_LT(s.at(10, 5, 20), -1.5);
}

TEST(Edit, undo_gives_back_the_base_and_redo_the_edits_bit_for_bit) {
    const auto base = tutorial();
    const auto ops = mixed_ops(*base, 12, 7);
    const std::vector<ChunkCoord> chunks = {{0, 0, 0, 0}, {-1, 0, 1, 0}, {1, 0, 1, 0}, {0, 1, 0, 0}};
    std::vector<std::vector<float>> base_samples;
    for (const ChunkCoord& c : chunks) base_samples.push_back(sampled(*base, {}, c).values);

    EditHistory history(base);
    std::vector<ChunkDeltas> after;
    for (const EditOp& op : ops) {
        history.apply(op);
        after.push_back(history.deltas());
    }
    ASSERT_FALSE(history.deltas().empty());
    std::vector<ChunkCoord> changed;
    Box box;
    for (std::size_t n = ops.size(); n-- > 0;) {
        ASSERT_TRUE(history.undo(changed, box));
        if (n > 0) EXPECT_TRUE(history.deltas().same_as(after[n - 1])) << "undo to " << n;
    }
    EXPECT_FALSE(history.undo(changed, box));
    EXPECT_TRUE(history.deltas().empty());
    for (std::size_t i = 0; i < chunks.size(); ++i)
        EXPECT_TRUE(same_bits(sampled(*base, history.deltas(), chunks[i]).values, base_samples[i]));
    for (std::size_t n = 0; n < ops.size(); ++n) {
        ASSERT_TRUE(history.redo(changed, box));
        EXPECT_TRUE(history.deltas().same_as(after[n])) << "redo to " << n + 1;
    }
    EXPECT_FALSE(history.redo(changed, box));
    // A new edit after undo drops the undone ops.
    history.undo(changed, box);
    history.undo(changed, box);
    history.apply(ops[0]);
    EXPECT_EQ(history.ops().size(), ops.size() - 1);
    EXPECT_EQ(history.applied(), ops.size() - 1);
}

TEST(Edit, replaying_the_log_equals_the_deltas_and_undo_by_replay_equals_undo_by_swap) {
    const auto base = tutorial();
    const auto ops = mixed_ops(*base, 10, 11);
    EditHistory live(base);
    for (const EditOp& op : ops) live.apply(op);
    EXPECT_TRUE(replay_edits(*base, ops, ops.size()).same_as(live.deltas()));
    // A log read from a file has no saved chunks to swap back: it replays.
    EditHistory loaded(base, ops, ops.size(), replay_edits(*base, ops, ops.size()));
    std::vector<ChunkCoord> a, b;
    Box box_a, box_b;
    for (int i = 0; i < 4; ++i) {
        live.undo(a, box_a);
        loaded.undo(b, box_b);
        std::sort(a.begin(), a.end(), [](auto& p, auto& q) { return std::tie(p.x, p.y, p.z) < std::tie(q.x, q.y, q.z); });
        std::sort(b.begin(), b.end(), [](auto& p, auto& q) { return std::tie(p.x, p.y, p.z) < std::tie(q.x, q.y, q.z); });
        EXPECT_EQ(a, b);
        EXPECT_TRUE(loaded.deltas().same_as(live.deltas()));
    }
}

// After an edit across a chunk corner, neighbouring chunks still agree on every shared
// sample, and samples outside the edit's box keep their base values.
TEST(Edit, edited_chunks_agree_on_shared_samples_and_nothing_outside_the_box_moves) {
    const auto base = tutorial();
    const auto& t = *base;
    EditOp op{BrushKind::sphere, BrushMode::add, {32.0, t.surface_height(32.0, 32.0), 32.0}, 8.0};
    ChunkDeltas deltas;
    apply_edit(*base, op, deltas);
    const Box box = edit_box(op);
    const int cy = static_cast<int>(std::floor(op.centre.y / kChunkSize));
    const ChunkSamples a = sampled(*base, deltas, {0, cy, 0, 0}), b = sampled(*base, deltas, {1, cy, 0, 0});
    const ChunkSamples a0 = sampled(*base, {}, {0, cy, 0, 0});
    std::size_t changed = 0;
    for (int k = -1; k <= 33; ++k)
        for (int j = -1; j <= 33; ++j) {
            for (int i = 31; i <= 33; ++i) ASSERT_EQ(a.at(i, j, k), b.at(i - 32, j, k));
            for (int i = -1; i <= 33; ++i) {
                const glm::dvec3 p = a.lattice.position(i + 1, j + 1, k + 1);
                const bool inside =
                    p.x >= box.lo.x && p.x <= box.hi.x && p.y >= box.lo.y && p.y <= box.hi.y && p.z >= box.lo.z && p.z <= box.hi.z;
                if (!inside) ASSERT_EQ(a.at(i, j, k), a0.at(i, j, k));
                changed += a.at(i, j, k) != a0.at(i, j, k);
            }
        }
    EXPECT_GT(changed, 200u);
}

TEST(Edit, deltas_answer_between_samples_by_trilinear_weights_and_say_how_high_they_reach) {
    const std::shared_ptr<const Field> plane = make_plane({0, 1, 0}, 0.0);
    ChunkDeltas deltas;
    EXPECT_EQ(deltas.highest_layer(0, 0), INT_MIN);
    apply_edit(*plane, EditOp{BrushKind::sphere, BrushMode::add, {5.0, 40.0, 5.0}, 3.0}, deltas);
    EXPECT_EQ(deltas.highest_layer(0, 0), 1);
    EXPECT_EQ(deltas.highest_layer(1, -1), 1);  // a neighbour column reads its border
    EXPECT_EQ(deltas.highest_layer(2, 0), INT_MIN);
    const DeltaChunk* chunk = deltas.find({0, 1, 0, 0});
    ASSERT_NE(chunk, nullptr);
    const auto d = [&](int x, int y, int z) { return double(chunk->values[DeltaChunk::index(x, y - 32, z)]); };
    EXPECT_EQ(deltas.at({5.0, 40.0, 5.0}), d(5, 40, 5));
    EXPECT_NEAR(deltas.at({5.25, 40.5, 5.0}), 0.75 * 0.5 * (d(5, 40, 5) + d(5, 41, 5)) + 0.25 * 0.5 * (d(6, 40, 5) + d(6, 41, 5)), 1e-9);
    const ValueRange r = deltas.range({{0, 30, 0}, {10, 50, 10}});
    EXPECT_EQ(r.lo, chunk->lo);
    EXPECT_EQ(r.hi, 0.0);
    EXPECT_LT(r.lo, -2.0);
    const ValueRange none = deltas.range({{100, 30, 0}, {110, 50, 10}});
    EXPECT_EQ(none.lo, 0.0);
    EXPECT_EQ(none.hi, 0.0);
}

TEST(Edit, bad_brushes_are_named) {
    EXPECT_NE(validate_edit(EditOp{BrushKind::sphere, BrushMode::carve, {0, 0, 0}, 0.0}).find("radius 0"), std::string::npos);
    EXPECT_NE(validate_edit(EditOp{BrushKind::sphere, BrushMode::carve, {0, 0, 0}, 65.0}).find("radius 65"), std::string::npos);
    EXPECT_NE(validate_edit(EditOp{BrushKind::smooth, BrushMode::carve, {0, NAN, 0}, 3.0}).find("centre"), std::string::npos);
    EXPECT_NE(validate_edit(EditOp{BrushKind::flatten, BrushMode::carve, {0, 0, 0}, 3.0, -1.0}).find("strength -1"), std::string::npos);
    EXPECT_EQ(validate_edit(EditOp{}), "");
    EXPECT_EQ(describe_edit(EditOp{BrushKind::sphere, BrushMode::add, {1, 2.5, -3}, 4.0, 2.0}),
              "sphere add at 1,2.5,-3 radius 4 m strength 2 m");
}

TEST(RayCast, finds_the_plane_and_then_the_bottom_of_a_carved_hole) {
    const std::shared_ptr<const Field> plane = make_plane({0, 1, 0}, 2.0);
    ChunkDeltas deltas;
    glm::dvec3 hit;
    const glm::dvec3 eye(3.0, 50.0, -4.0), down = glm::normalize(glm::dvec3(0.3, -1.0, 0.2));
    ASSERT_TRUE(ray_cast(*plane, deltas, eye, down, 200.0, hit));
    EXPECT_NEAR(hit.y, 2.0, 2e-3);
    EXPECT_NEAR(glm::length(glm::cross(hit - eye, down)), 0.0, 1e-9);  // on the ray
    // Carve a 5 m sphere where the ray met the plane: the ray now goes on to the hole's wall.
    const glm::dvec3 first = hit;
    apply_edit(*plane, EditOp{BrushKind::sphere, BrushMode::carve, first, 5.0}, deltas);
    ASSERT_TRUE(ray_cast(*plane, deltas, eye, down, 200.0, hit));
    EXPECT_NEAR(glm::length(hit - first), 5.0, 0.05);                             // trilinear deltas between samples
    EXPECT_FALSE(ray_cast(*plane, deltas, eye, -down, 200.0, hit));               // up into the sky
    EXPECT_FALSE(ray_cast(*plane, deltas, {0.0, -10.0, 0.0}, down, 200.0, hit));  // starts in rock
}

// With room for only a few earlier chunks, the history lets the oldest go and undoes those
// ops by replaying: still every state bit for bit, with never more than the cap kept.
TEST(Edit, undo_past_the_kept_chunks_replays_and_gives_the_same_bits) {
    const auto base = tutorial();
    const auto ops = mixed_ops(*base, 10, 23);
    EditHistory history(base, 6);
    std::vector<ChunkDeltas> after;
    std::size_t most = 0;
    for (const EditOp& op : ops) {
        history.apply(op);
        after.push_back(history.deltas());
        most = std::max(most, history.undo_chunks_kept());
    }
    EXPECT_LE(most, 6u);
    EXPECT_GT(most, 0u);
    std::vector<ChunkCoord> changed;
    Box box;
    for (std::size_t n = ops.size(); n-- > 0;) {
        ASSERT_TRUE(history.undo(changed, box));
        if (n > 0) EXPECT_TRUE(history.deltas().same_as(after[n - 1])) << "undo to " << n;
    }
    EXPECT_TRUE(history.deltas().empty());
    for (std::size_t n = 0; n < ops.size(); ++n) {
        ASSERT_TRUE(history.redo(changed, box));
        EXPECT_TRUE(history.deltas().same_as(after[n])) << "redo to " << n + 1;
        EXPECT_LE(history.undo_chunks_kept(), 6u);
    }
}
