// Memory budgets: the budget read from ISOTERRA_MEMORY_BUDGET or the machine, a region's
// meshes planned against it before any chunk is meshed and counted as they are made, and the
// bytes a world's shown chunks hold.
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "isoterra/base.hpp"
#include "isoterra/field.hpp"
#include "isoterra/graph.hpp"
#include "isoterra/world.hpp"

namespace isoterra {
namespace {

// Sets ISOTERRA_MEMORY_BUDGET for one scope.
class BudgetVariable {
public:
    explicit BudgetVariable(const char* value) {
        if (const char* old = std::getenv("ISOTERRA_MEMORY_BUDGET")) old_ = old, had_ = true;
        if (value) setenv("ISOTERRA_MEMORY_BUDGET", value, 1);
        else unsetenv("ISOTERRA_MEMORY_BUDGET");
    }
    ~BudgetVariable() {
        if (had_) setenv("ISOTERRA_MEMORY_BUDGET", old_.c_str(), 1);
        else unsetenv("ISOTERRA_MEMORY_BUDGET");
    }

private:
    std::string old_;
    bool had_ = false;
};

std::string budget_error(const std::function<void()>& call) {
    try {
        call();
    } catch (const MemoryBudgetError& e) {
        return e.what();
    }
    return "(nothing thrown)";
}

// Surfaces everywhere: a lattice of blobs 4 m apart, so every chunk is full of triangles
// (far more than one surface per column).
class BlobLattice : public Field {
public:
    void sample_points(const glm::dvec3* p, std::size_t count, double* out) const override {
        for (std::size_t i = 0; i < count; ++i) out[i] = std::sin(p[i].x * 1.5) * std::sin(p[i].y * 1.5) * std::sin(p[i].z * 1.5) - 0.1;
    }
    ValueRange bounds(const Box&) const override { return {-1.1, 0.9}; }
};

TEST(MemoryBudget, reads_sizes_with_suffixes_and_refuses_anything_else) {
    {
        const BudgetVariable v("512M");
        EXPECT_EQ(memory_budget().bytes, 512.0 * 1024 * 1024);
        EXPECT_EQ(memory_budget().source, "ISOTERRA_MEMORY_BUDGET=512M");
    }
    {
        const BudgetVariable v("1.5G");
        EXPECT_EQ(memory_budget().bytes, 1.5 * 1024 * 1024 * 1024);
    }
    {
        const BudgetVariable v("3221225472");
        EXPECT_EQ(memory_budget().bytes, 3.0 * 1024 * 1024 * 1024);
    }
    for (const char* bad : {"12x", "0", "-1G", "100", "1e9", "G", "2048T", "1..5G", " 8G", "nan"}) {
        const BudgetVariable v(bad);
        EXPECT_EQ(budget_error([] { memory_budget(); }),
                  std::string("ISOTERRA_MEMORY_BUDGET=") + bad + ": expected bytes from 1M to 1024T, as 512M, 8G or 1.5T")
            << bad;
    }
    const BudgetVariable unset(nullptr);
    const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    EXPECT_EQ(memory_budget().bytes, physical / 2);
    EXPECT_EQ(memory_budget().source.rfind("half of this machine's ", 0), 0u) << memory_budget().source;
}

TEST(MemoryBudget, a_plan_over_the_budget_is_named_with_both_sizes) {
    const BudgetVariable v("1G");
    EXPECT_NO_THROW(check_memory_budget(1024.0 * 1024 * 1024, "exactly the budget"));
    EXPECT_EQ(budget_error([] { check_memory_budget(3.25 * 1024 * 1024 * 1024, "a test plan"); }),
              "a test plan needs about 3.2 GiB, more than the memory budget of 1.0 GiB (ISOTERRA_MEMORY_BUDGET=1G)");
    EXPECT_EQ(byte_count_text(512), "512 bytes");
    EXPECT_EQ(byte_count_text(1536), "1.5 KiB");
    EXPECT_EQ(byte_count_text(5.0 * 1024 * 1024 * 1024 * 1024), "5 TiB");
}

TEST(MemoryBudget, a_region_mesh_is_planned_per_column_before_any_chunk_is_meshed) {
    const auto chunks = chunks_covering({0, -64, 0}, {64, 64, 32});  // 2 columns of 4 chunks
    ASSERT_EQ(chunks.size(), 8u);
    EXPECT_EQ(expected_mesh_bytes(chunks), 8.0 * sizeof(MeshBuffers) + 2.0 * kSurfaceBytesPerColumn);

    const BudgetVariable v("1M");
    const auto plane = make_plane({0, 1, 0}, 0.0);
    const auto many = chunks_covering({0, -32, 0}, {32 * 4, 32, 32 * 4});  // 16 columns: 2 MiB planned
    int progress_calls = 0;
    EXPECT_EQ(budget_error([&] {
                  mesh_chunks(*plane, nullptr, many, Mesher::marching_cubes, 2, [&](std::size_t, std::size_t) { ++progress_calls; });
              }),
              "meshing 32 chunks needs about " + byte_count_text(expected_mesh_bytes(many)) +
                  ", more than the memory budget of 1.0 MiB (ISOTERRA_MEMORY_BUDGET=1M)");
    EXPECT_EQ(progress_calls, 0);
    // Copies held by the caller count: 4 columns fit once (0.5 MiB), not three times.
    const auto four = chunks_covering({0, -32, 0}, {64, 32, 64});
    EXPECT_EQ(mesh_chunks(*plane, nullptr, four, Mesher::marching_cubes, 2).size(), 8u);
    EXPECT_NE(budget_error([&] {
                  mesh_chunks(*plane, nullptr, four, Mesher::marching_cubes, 2, {}, 3.0);
              }).find("meshing 8 chunks (3 copies held) needs about"),
              std::string::npos);
}

TEST(MemoryBudget, a_view_is_planned_per_level_ring_and_column) {
    WorldSettings s;  // 8,000 m at 8 chunks per ring: 6 levels of (2 x 8 + 2)^2 columns
    EXPECT_EQ(lod_levels_for(s.view_distance_m, s.view_radius), 6);
    EXPECT_EQ(expected_view_bytes(s), 6.0 * 18 * 18 * kSurfaceBytesPerColumn);
    s.levels = 2;
    s.view_radius = 4;
    EXPECT_EQ(expected_view_bytes(s), 2.0 * 10 * 10 * kSurfaceBytesPerColumn);
}

TEST(MemoryBudget, surfaces_larger_than_planned_stop_the_meshing_at_the_budget) {
    const BudgetVariable v("4M");
    const BlobLattice blobs;
    const auto column = chunks_covering({0, -128, 0}, {32, 128, 32});  // one column of 8 full chunks
    ASSERT_LT(expected_mesh_bytes(column), 4.0 * 1024 * 1024);         // planned: fits
    std::size_t done = 0;
    const std::string message = budget_error(
        [&] { mesh_chunks(blobs, nullptr, column, Mesher::marching_cubes, 1, [&](std::size_t d, std::size_t) { done = d; }); });
    EXPECT_NE(message.find("meshing 8 chunks (surfaces larger than expected) needs about"), std::string::npos) << message;
    EXPECT_LT(done, 8u);  // stopped before the column was meshed
}

TEST(MemoryBudget, rolling_land_holds_less_than_the_planned_bytes_per_column) {
    // The figure plans use (kSurfaceBytesPerColumn), against what the hilly presets make:
    // 16 columns of every chunk the surface crosses, marching cubes.
    for (const char* name : {"rivers", "islands"}) {
        const auto field = builtin_terrain(name).make_field();
        const double ground = field->ground_height(-448, -192);
        const auto chunks = chunks_covering({-512, ground - 128, -256}, {-384, ground + 128, -128});
        const auto meshes = mesh_chunks(*field, nullptr, chunks, Mesher::marching_cubes, 2);
        double bytes = 0;
        for (const auto& m : meshes) bytes += static_cast<double>(m.byte_size());
        const double per_column = bytes / 16.0;
        std::printf("%s (ground %.0f m): %.1f KiB per column\n", name, ground, per_column / 1024.0);
        EXPECT_GT(per_column, 0.25 * kSurfaceBytesPerColumn) << name;
        EXPECT_LT(per_column, kSurfaceBytesPerColumn) << name;
    }
}

TEST(MemoryBudget, shown_chunks_count_the_bytes_they_hold) {
    const auto plane = make_plane({0, 1, 0}, 5.0);
    const auto chunks = chunks_covering({0, 0, 0}, {64, 16, 32});
    const auto meshes = mesh_chunks(*plane, nullptr, chunks, Mesher::marching_cubes, 1);
    ShownChunks shown;
    ChunkUpdate update;
    update.coord = chunks[0];
    update.mesh = &meshes[0];
    update.visible = true;
    shown.apply(update);
    EXPECT_EQ(shown.byte_size(), meshes[0].byte_size());
    EXPECT_GT(shown.byte_size(), 0u);
    update.coord = chunks[1];
    update.mesh = &meshes[1];
    shown.apply(update);
    EXPECT_EQ(shown.byte_size(), meshes[0].byte_size() + meshes[1].byte_size());
    update.mesh = &meshes[0];  // rebuilt with another mesh
    shown.apply(update);
    EXPECT_EQ(shown.byte_size(), 2 * meshes[0].byte_size());
    ChunkUpdate drop;
    drop.coord = chunks[0];
    drop.dropped = true;
    shown.apply(drop);
    EXPECT_EQ(shown.byte_size(), meshes[0].byte_size());
    ShownChunks counts_only(false);
    counts_only.apply(update);
    EXPECT_EQ(counts_only.byte_size(), meshes[0].ranges.size() * sizeof(IndexRange));
}

TEST(MemoryBudget, a_region_too_long_to_list_is_refused_before_the_list) {
    const BudgetVariable v("1M");
    EXPECT_EQ(budget_error([] {
                  chunks_covering({0, 0, 0}, {32 * 300, 32, 32 * 300}, 1e8);
              }),
              "the list of a region's 90000 chunks needs about 1.4 MiB, more than the memory budget of 1.0 MiB "
              "(ISOTERRA_MEMORY_BUDGET=1M)");
}

}  // namespace
}  // namespace isoterra
