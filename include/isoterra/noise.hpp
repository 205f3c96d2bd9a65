// Stage 1 of the pipeline: seeded random numbers and the noises built on them.
// Everything here is pure computation: no allocation after construction, no global state
// but the cap on the lattice noise's instruction set (noise_path()).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

namespace isoterra {

/// Mulberry32: a small seeded generator, bit-compatible with the JavaScript of seed 000.
/// Not thread-safe (it advances its state); copy it to branch a stream.
class Mulberry32 {
public:
    explicit Mulberry32(std::uint32_t seed) : state_(seed) {}
    /// Returns the next number in [0, 1), with 32 random bits.
    double next();
    /// Returns the next raw 32-bit value (the same step as next()).
    std::uint32_t next_u32();

private:
    std::uint32_t state_;
};

struct FbmShape;

/// Simplex noise in 2D, value-compatible with npm simplex-noise 4.0.3's createNoise2D
/// when built from the same random stream. Values lie in [-1, 1].
/// Construction draws 255 numbers from `random`; evaluation is const and thread-safe.
class Simplex2 {
public:
    explicit Simplex2(Mulberry32& random);
    /// Returns the noise at (x, y).
    double operator()(double x, double y) const;
    /// Writes fbm2(*this, x, y, shape) for `count` points: the same bits, four points at a
    /// time (an octave count of 1 with amplitude 1 is the plain noise).
    void fbm_batch(const double* x, const double* y, double* out, std::size_t count, const FbmShape& shape) const;
    /// An upper bound of |gradient| of this noise per unit of input, for value bounds
    /// (the steepest slope found by search is 7.333; tests/noise proves the bound over every
    /// kind of simplex).
    static constexpr double kLipschitz = 8.0;

    /// The noise at a point with its first and second derivatives per unit of input.
    struct Derivatives {
        double value = 0.0;
        double dx = 0.0, dy = 0.0;               // the gradient
        double dxx = 0.0, dxy = 0.0, dyy = 0.0;  // the Hessian
    };
    /// Returns the noise at (x, y) (the same bits as operator()), its gradient and its
    /// Hessian, analytic (src/noise/simplex2_derivatives.cpp). Thread-safe.
    Derivatives derivatives(double x, double y) const;
    /// Writes derivatives() at `count` points as columns: out[0..5][i] = value, dx, dy, dxx,
    /// dxy, dyy at (x[i], y[i]). The same bits, four points at a time. Thread-safe.
    void derivatives_batch(const double* x, const double* y, std::size_t count, double* const out[6]) const;
    /// An upper bound of the Hessian's spectral norm per unit of input squared, for slope
    /// bounds of damped fBm: a grid over every kind of simplex finds 55.7 at most, and the
    /// third derivative's bound covers the grid's gaps by 6.7 more (tests/noise).
    static constexpr double kHessianBound = 64.0;

private:
    std::array<std::uint8_t, 512> perm_;
    std::array<std::int32_t, 512> perm32_;
    std::array<double, 512> grad_x_;
    std::array<double, 512> grad_y_;
};

/// The instruction sets Simplex3::lattice_fast may use. Every path gives the same bits; the
/// widest the CPU has is taken unless capped, by ISOTERRA_NOISE_PATH=baseline|avx2|avx512 in
/// the environment at start-up or by limit_noise_path() (benchmarks and tests).
enum class NoisePath { baseline, avx2, avx512 };
/// The path lattice_fast takes now: the widest the CPU has, at most the cap.
NoisePath noise_path();
/// Caps the path (a path the CPU lacks falls back to the next narrower one).
void limit_noise_path(NoisePath cap);
/// "baseline", "avx2" or "avx512".
const char* noise_path_name(NoisePath path);
/// The path of that name; nothing for any other name.
std::optional<NoisePath> noise_path_named(std::string_view name);

/// A regular lattice in noise space: point (i, j, k) has coordinates
/// (origin + (i, j, k)) * spacing / feature + offset, each axis in double and in that order
/// (the order of the double path, so ties between coordinates break the same way).
/// Values are stored x fastest.
struct NoiseLattice {
    glm::i64vec3 origin{0};
    glm::ivec3 size{0};
    double spacing = 1.0;
    glm::dvec3 feature{1.0};
    glm::dvec3 offset{0.0};

    /// Optional gate (one float per point, same layout): points whose gate value is below
    /// `gate_below` may be skipped and read 0 (the vector path skips whole groups of eight
    /// consecutive points, the scalar path single points). For values that cannot matter.
    const float* gate = nullptr;
    float gate_below = 0.0f;

    double coordinate(int axis, std::int64_t index) const {
        return static_cast<double>(origin[axis] + index) * spacing / feature[axis] + offset[axis];
    }
};

/// Simplex noise in 3D, value-compatible with npm simplex-noise 4.0.3's createNoise3D.
/// Values lie in [-1, 1]. Its kernel radius (0.6, as in the package) reaches past the
/// simplex's four corners, so the noise has tiny jumps: bound its values, not its slope.
/// Evaluation is const and thread-safe.
class Simplex3 {
public:
    explicit Simplex3(Mulberry32& random);
    /// Returns the noise at (x, y, z).
    double operator()(double x, double y, double z) const;
    /// Writes the noise at `count` points (three coordinate arrays) to `out`: the same bits
    /// as operator(), vectorised. Coordinates must stay within +-2^31 noise units.
    void batch(const double* x, const double* y, const double* z, double* out, std::size_t count) const;
    /// Writes the noise over a lattice with the arithmetic of fast(): coordinates made in the
    /// kernel, sixteen along x at a time with AVX-512 or eight with AVX2 (noise_path()).
    /// The same bits on every CPU and path.
    void lattice_fast(const NoiseLattice& lattice, float* out) const;
    /// Returns the single-precision noise of lattice_fast() at one point: within 2e-6 of
    /// operator(), also 1,000 km from the origin.
    float fast(double x, double y, double z) const;

private:
    std::array<std::uint8_t, 512> perm_;
    std::array<std::int32_t, 512> perm32_;  // the same table, wide for vector gathers
    std::array<std::int32_t, 512> hash12_;  // perm % 12: the gradient number
    std::vector<std::int32_t> pair_;        // pair_[j * 257 + k] = perm[j + perm[k]], j, k <= 256
    std::array<double, 512> grad_x_;
    std::array<double, 512> grad_y_;
    std::array<double, 512> grad_z_;
};

/// The fast noise flavour (`noise = "fast"`): 3D simplex noise in single precision with an
/// arithmetic hash, for new terrain; the seed flavour (Simplex3) stays for files that ask for
/// it. Each coordinate is split in double into a multiple of three and a float remainder in
/// [0, 3), so the float arithmetic works near zero at any distance (1e-7 noise units 1,000 km
/// out) and a value depends on its point alone, not on the lattice it is sampled in. The
/// skew, the simplex and the gradients (the cube's 12 edges and 8 diagonals, picked by the
/// top five bits of an arithmetic hash) are float; the kernel radius is sqrt(0.5), so the
/// noise is continuous (slope at most 6.8 per noise unit). One kernel
/// (src/noise/fast_simplex_kernel.hpp) runs at 16, 8 or 4 lanes (AVX-512, AVX2, SSE2 or
/// WebAssembly SIMD128) with the same operations in the same order: the same bits on every
/// path. Values lie in [-1, 1]. Evaluation is const and thread-safe.
class FastSimplex3 {
public:
    explicit FastSimplex3(std::uint32_t seed) : seed_(seed) {}
    /// Returns the noise at (x, y, z) in noise units.
    float operator()(double x, double y, double z) const;
    /// Writes the noise over a lattice (x fastest), sixteen or eight lanes at a time
    /// (noise_path()); the lattice's gate is not used.
    void lattice(const NoiseLattice& lattice, float* out) const;
    /// Writes the fBm of this noise over a lattice, all octaves of a group of points at once:
    /// octave o samples the point times lacunarity^o (in double) with seed + o, and the sum
    /// is n_0 a_0 + n_1 a_1 + ... in float, left to right (a_o = amplitude gain^o). One
    /// octave of amplitude 1 is lattice()'s bits.
    void fbm_lattice(const NoiseLattice& lattice, const FbmShape& shape, float* out) const;
    /// fbm_lattice() at one point: the same bits.
    float fbm(double x, double y, double z, const FbmShape& shape) const;
    /// fbm() at `count` points (three coordinate arrays), four at a time: the same bits.
    void fbm_points(const double* x, const double* y, const double* z, std::size_t count, const FbmShape& shape, float* out) const;

private:
    std::uint32_t seed_;
};

/// The fast flavour's 2D noise: skew and unskew in double, the rest in float with the 3D
/// flavour's arithmetic hash; eight gradients (four axes, four diagonals, unit length) by the
/// hash's top three bits; kernel radius sqrt(0.5). Eight points at a time, the same vector
/// code cloned for AVX-512 and AVX2: the same bits on every CPU and in WebAssembly. Values lie
/// in [-1, 1]. Evaluation is const and thread-safe.
class FastSimplex2 {
public:
    explicit FastSimplex2(std::uint32_t seed) : seed_(seed) {}
    /// Returns the noise at (x, y) in noise units.
    float operator()(double x, double y) const;
    /// The fBm as FastSimplex3::fbm_lattice sums it: octave o at the point times lacunarity^o
    /// (double) with seed + o, n_0 a_0 + n_1 a_1 + ... in float.
    float fbm(double x, double y, const FbmShape& shape) const;
    /// fbm() at `count` points: the same bits.
    void fbm_points(const double* x, const double* y, std::size_t count, const FbmShape& shape, float* out) const;
    /// An upper bound of |gradient| per unit of input (13.4; the steepest found is 7.3): the
    /// sum over a simplex's corners of t^4 + 8 t^3 r^2 (t = 0.5 - r^2) times the scale.
    static const double kLipschitz;

private:
    std::uint32_t seed_;
};

/// The noise pair of a seed, drawn as the tutorial draws it: first the 2D table, then the
/// 3D table, from one Mulberry32 stream. Thread-safe to evaluate.
struct NoiseSet {
    explicit NoiseSet(std::uint32_t seed);
    Simplex2 noise2;
    Simplex3 noise3;
    std::uint32_t seed;  // for hashes of their own (the landform nodes' jittered points)

private:
    // Both tables come from one stream, 2D first, as in the tutorial.
    NoiseSet(Mulberry32 random, std::uint32_t seed);
};

/// Returns a seeded 64-bit hash of the integer cell (i, j) for `stream` (one number per use:
/// the points of a cellular grid, an erosion octave, a drainage level...). Thread-safe.
std::uint64_t cell_hash(std::uint32_t seed, std::int64_t i, std::int64_t j, std::uint32_t stream);
/// Returns fraction `which` (0 or 1) of `hash`, in [0, 1) on a grid of 2^-26: two independent
/// uniform numbers per hash (a jittered point's x and z). Thread-safe.
double cell_random(std::uint64_t hash, int which);

/// Fractal Brownian motion: a sum of octaves, each `lacunarity` times finer and `gain` times
/// weaker than the one before. `amplitude` is the first octave's weight.
struct FbmShape {
    int octaves = 5;
    double lacunarity = 2.0;
    double gain = 0.5;
    double amplitude = 0.5;

    /// Returns the most |fbm| can reach: the sum of the octave weights.
    double max_abs() const;
    /// Returns the most the sum can change between two points `distance` apart (in noise
    /// units) for a noise whose slope is at most `noise_lipschitz`: each octave changes by at
    /// most its slope times the distance, and never by more than twice its amplitude.
    double variation(double noise_lipschitz, double distance) const;
};

/// Returns the fBm of 2D noise at (x, y) (input already in noise units). Thread-safe.
double fbm2(const Simplex2& noise, double x, double y, const FbmShape& shape);
/// Returns the fBm of 3D noise at (x, y, z) (input in noise units). Thread-safe.
double fbm3(const Simplex3& noise, double x, double y, double z, const FbmShape& shape);

/// Returns hypot(a, b) computed as JavaScript's Math.hypot does in V8 (scaled by the larger,
/// compensated sum), so that ports of JavaScript terrain agree to the last bit.
double js_hypot(double a, double b);

/// Ridged noise: 1 - |n| sharpened, highest (1) where the noise is 0. `sharpness` scales
/// n before the fold, `crest` rounds the top (as hypot(n, crest)), `exponent` steepens.
/// Returns a value in [0, 1].
double ridge_profile(double n, double sharpness, double crest, double exponent);

/// Domain warp: offsets (x, z) by up to `distance_m` metres, with noise of feature scale
/// `scale_m`. Writes the warped coordinates. Thread-safe.
void warp2(const Simplex2& noise, double scale_m, double distance_m, double& x, double& z);
/// 3D domain warp of (x, y, z) by up to `distance_m` metres. Thread-safe.
void warp3(const Simplex3& noise, double scale_m, double distance_m, double& x, double& y, double& z);

}  // namespace isoterra
