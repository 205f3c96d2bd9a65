// Same preset, seed and input: the same values, whatever the thread count; other seeds differ.
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "classic_presets.hpp"
#include "isoterra/field.hpp"

using namespace isoterra;

namespace {

std::vector<float> sample_chunks(const Field& t, int threads) {
    constexpr int kChunks = 8;
    const Lattice proto{{0, 0, 0}, {33, 33, 33}, 1.0};
    std::vector<float> all(proto.count() * kChunks);
    std::vector<std::thread> pool;
    for (int w = 0; w < threads; ++w) {
        pool.emplace_back([&, w] {
            for (int c = w; c < kChunks; c += threads) {
                Lattice lat = proto;
                lat.origin = {c * 32 - 64, -16, (c % 3) * 32};
                t.sample_lattice(lat, all.data() + proto.count() * c);
            }
        });
    }
    for (auto& th : pool) th.join();
    return all;
}

}  // namespace

TEST(Determinism, same_seed_gives_identical_bytes_with_1_2_and_4_threads) {
    const auto t = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    const auto one = sample_chunks(*t, 1);
    const auto two = sample_chunks(*t, 2);
    const auto four = sample_chunks(*t, 4);
    ASSERT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(float)), 0);
    ASSERT_EQ(std::memcmp(one.data(), four.data(), one.size() * sizeof(float)), 0);
    // A second field from the same seed is the same too: no hidden state.
    const auto again = sample_chunks(*make_terrain(builtin_knob_terrain("tutorial"), 20261114), 1);
    ASSERT_EQ(std::memcmp(one.data(), again.data(), one.size() * sizeof(float)), 0);
}

TEST(Determinism, different_seeds_give_different_terrain) {
    for (const char* name : {"tutorial", "alpine", "islands"}) {
        const auto a = make_terrain(test::classic_preset(name), 1);
        const auto b = make_terrain(test::classic_preset(name), 2);
        int differ = 0;
        for (int i = 0; i < 200; ++i) {
            const glm::dvec3 p(i * 13.0, 10.0, -i * 7.0);
            differ += a->value(p) != b->value(p);
        }
        EXPECT_GT(differ, 190) << name;
    }
}

// The columns a field works out once and hands back (Field::columns_of) give every lattice
// with those columns the same bits as working them out each time, on every preset of the
// terrain function (the classic alpine and islands: tests/common/classic_presets.hpp).
TEST(Determinism, shared_lattice_columns_give_the_same_bits) {
    for (const std::string& name : test::classic_preset_names()) {
        const auto t = make_terrain(test::classic_preset(name), 7);
        Lattice lat{{-40, -3, 17}, {37, 37, 37}, 2.0};
        const auto columns = t->columns_of(lat);
        ASSERT_TRUE(columns && columns->fits(lat));
        for (const std::int64_t y : {-3, 10, 40}) {
            lat.origin.y = y;
            std::vector<float> a(lat.count()), b(lat.count()), ga(37 * 37), gb(37 * 37);
            t->sample_lattice_and_ground(lat, a.data(), ga.data(), LatticeUse::surface);
            t->sample_lattice_and_ground(lat, b.data(), gb.data(), LatticeUse::surface, columns.get());
            EXPECT_EQ(a, b) << name << " " << y;
            EXPECT_EQ(ga, gb) << name;
        }
        // Columns of another lattice are not used for this one.
        Lattice other = lat;
        other.origin.x += 1;
        EXPECT_FALSE(columns->fits(other));
    }
}
