// Google Benchmark suite: the noises alone, per sample, over a chunk's lattice and its
// columns, with Debian's libnoise as a peer.
#include <benchmark/benchmark.h>

#include <vector>

#include <noise.h>

#include "isoterra/noise.hpp"
#include "random_points.hpp"

namespace {

using namespace isoterra;
using isoterra::bench::random_points;

void BM_noise2(benchmark::State& state) {
    const NoiseSet noise(20261114);
    const auto pts = random_points(4096);
    for (auto _ : state)
        for (const auto& p : pts) benchmark::DoNotOptimize(noise.noise2(p.x * 0.01, p.z * 0.01));
    state.SetItemsProcessed(state.iterations() * pts.size());
}
BENCHMARK(BM_noise2);

void BM_noise3(benchmark::State& state) {
    const NoiseSet noise(20261114);
    const auto pts = random_points(4096);
    for (auto _ : state)
        for (const auto& p : pts) benchmark::DoNotOptimize(noise.noise3(p.x * 0.01, p.y * 0.01, p.z * 0.01));
    state.SetItemsProcessed(state.iterations() * pts.size());
}
BENCHMARK(BM_noise3);

// noise3 over the 33^3 lattice of `isoterra bench`'s noise3_lattice_ns, and a peer on the
// same coordinates: Debian's libnoise (its Perlin module with one octave, gradient noise).
constexpr int kLattice = 33;

void BM_noise3_lattice(benchmark::State& state) {
    const NoiseSet noise(20261114);
    const NoiseLattice lattice{{10, -20, 10}, {kLattice, kLattice, kLattice}, 1.0, {50.0, 35.0, 50.0}, {0.0, 0.0, 0.0}};
    std::vector<float> out(static_cast<std::size_t>(kLattice) * kLattice * kLattice);
    for (auto _ : state) {
        noise.noise3.lattice_fast(lattice, out.data());
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * out.size());
}
BENCHMARK(BM_noise3_lattice);

void BM_libnoise_perlin_lattice(benchmark::State& state) {
    noise::module::Perlin perlin;
    perlin.SetOctaveCount(1);
    perlin.SetFrequency(1.0);
    perlin.SetSeed(20261114);
    std::vector<float> out(static_cast<std::size_t>(kLattice) * kLattice * kLattice);
    for (auto _ : state) {
        std::size_t n = 0;
        for (int k = 0; k < kLattice; ++k)
            for (int j = 0; j < kLattice; ++j)
                for (int i = 0; i < kLattice; ++i)
                    out[n++] = static_cast<float>(perlin.GetValue((10 + i) / 50.0, (-20 + j) / 35.0, (10 + k) / 50.0));
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * out.size());
}
BENCHMARK(BM_libnoise_perlin_lattice);

void BM_fbm5(benchmark::State& state) {
    const NoiseSet noise(20261114);
    const auto pts = random_points(4096);
    const FbmShape five{5, 2.0, 0.5, 0.5};
    for (auto _ : state)
        for (const auto& p : pts) benchmark::DoNotOptimize(fbm2(noise.noise2, p.x * 0.0025, p.z * 0.0025, five));
    state.SetItemsProcessed(state.iterations() * pts.size());
}
BENCHMARK(BM_fbm5);

// 5-octave fBm of 2D noise over a chunk's 33^2 columns (a graph's fbm2 node), the seed flavour
// (fbm_batch, double) against the fast one (FastSimplex2, float after the skew); items are
// column-octaves.
void fbm2_columns(benchmark::State& state, bool fast) {
    const NoiseSet noise(20261114);
    const FbmShape five{5, 2.0, 0.5, 0.5};
    std::vector<double> x, z, out(static_cast<std::size_t>(kLattice) * kLattice);
    std::vector<float> out_fast(out.size());
    for (int j = 0; j < kLattice; ++j)
        for (int i = 0; i < kLattice; ++i) x.push_back((1000.0 + 2.0 * i) / 300.0), z.push_back((-640.0 + 2.0 * j) / 300.0);
    for (auto _ : state) {
        if (fast) FastSimplex2(noise.seed).fbm_points(x.data(), z.data(), x.size(), five, out_fast.data());
        else noise.noise2.fbm_batch(x.data(), z.data(), out.data(), x.size(), five);
        benchmark::DoNotOptimize(out.data());
        benchmark::DoNotOptimize(out_fast.data());
    }
    state.SetItemsProcessed(state.iterations() * x.size() * 5);
}
void BM_fbm2_columns_seed(benchmark::State& state) { fbm2_columns(state, false); }
void BM_fbm2_columns_fast(benchmark::State& state) { fbm2_columns(state, true); }
BENCHMARK(BM_fbm2_columns_seed);
BENCHMARK(BM_fbm2_columns_fast);

}  // namespace
