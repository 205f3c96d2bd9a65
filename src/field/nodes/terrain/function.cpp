// The terrain function of seed 000, generalised by the knobs of TerrainParams: a ground
// height from fBm hills and ridged mountains, bent by 3D noise into overhangs, with tunnel
// caves where two noises are both near 0. With the defaults it is minus the tutorial's
// density, bit for bit: the order of every operation below follows the tutorial's.
#include <algorithm>
#include <cmath>
#include <vector>

#include "simd/target_clones.hpp"
#include "function.hpp"

namespace isoterra {
namespace {

// Offsets that move the mountain, ridge and cave noises to unrelated regions of the same
// noise (the tutorial's numbers).
constexpr double kMountainDx = 40.0, kMountainDz = -70.0;
constexpr double kRidgeDx = -20.0, kRidgeDz = 90.0;
constexpr double kCaveDx = 43.7, kCaveDy = -11.3, kCaveDz = 7.9;

struct CombineTerms {
    bool caves;
    double cave_width, cave_metres_per_unit, entrance_depth, entrance_narrowing, blend, iso;
};

// combine() for a row of samples from the single-precision noises: the same formula with
// the choices hoisted out of the loop so that it vectorises (a plain hypot, not V8's).
enum class CaveMode { none, hard, smooth };

template <CaveMode mode>
__attribute__((always_inline)) inline void combine_loop(const CombineTerms& t, const double* height, const double* bend_m, double y,
                                                        const float* bend, const float* cave_a, const float* cave_b, float* out,
                                                        std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        double d = height[i] - y + static_cast<double>(bend[i]) * bend_m[i];
        if constexpr (mode != CaveMode::none) {
            const double a = cave_a[i], b = cave_b[i];
            const double entrance = std::max(t.entrance_depth - d, 0.0);
            const double cave = (std::sqrt(a * a + b * b) - t.cave_width) * t.cave_metres_per_unit + entrance * t.entrance_narrowing;
            if constexpr (mode == CaveMode::smooth) {
                // h = 1 gives d itself, not cave + (d - cave): the result then does not depend on
                // the cave value, which the gate in sample_lattice may have left at 0.
                const double h = std::min(std::max(0.5 + 0.5 * (cave - d) / t.blend, 0.0), 1.0);
                d = h >= 1.0 ? d : cave + (d - cave) * h - t.blend * h * (1.0 - h);
            } else {
                d = std::min(d, cave);
            }
        }
        out[i] = static_cast<float>(-d - t.iso);
    }
}

ISOTERRA_CLONES
void combine_row(const CombineTerms& t, const double* height, const double* bend_m, double y, const float* bend, const float* cave_a,
                 const float* cave_b, float* out, std::size_t count) {
    if (!t.caves) combine_loop<CaveMode::none>(t, height, bend_m, y, bend, cave_a, cave_b, out, count);
    else if (t.blend > 0.0) combine_loop<CaveMode::smooth>(t, height, bend_m, y, bend, cave_a, cave_b, out, count);
    else combine_loop<CaveMode::hard>(t, height, bend_m, y, bend, cave_a, cave_b, out, count);
}

// The x of each column of `lattice` (x fastest), then the z of each: a batch for columns().
std::vector<double> lattice_column_xz(const Lattice& lattice) {
    const std::size_t n = static_cast<std::size_t>(lattice.size.x) * lattice.size.z;
    std::vector<double> xz(2 * n);
    for (int k = 0; k < lattice.size.z; ++k)
        for (int i = 0; i < lattice.size.x; ++i) {
            const glm::dvec3 p = lattice.position(i, 0, k);
            xz[static_cast<std::size_t>(k) * lattice.size.x + i] = p.x;
            xz[n + static_cast<std::size_t>(k) * lattice.size.x + i] = p.z;
        }
    return xz;
}

// A noise's own lattice over `lattice`: global sample index * spacing / feature scale, as the
// double path computes them, so a sample shared by two chunks gets the same coordinates.
NoiseLattice noise_lattice(const Lattice& lattice, double sh, double sv, const glm::dvec3& offset) {
    return NoiseLattice{lattice.origin, lattice.size, lattice.spacing_m, glm::dvec3(sh, sv, sh), offset};
}

// The two cave noises of a lattice whose bent ground is known (per column its height and
// overhang strength, per sample the overhang noise `bend`), each evaluated only where it can
// change the terrain; `gate` is scratch.
void cave_noises(const TerrainParams& p, const NoiseSet& noise, const Lattice& lattice, const double* heights, const double* bends,
                 const float* bend, std::vector<float>& gate, float* cave_a, float* cave_b) {
    const std::size_t nx = static_cast<std::size_t>(lattice.size.x), ny = static_cast<std::size_t>(lattice.size.y);
    const std::size_t count = lattice.count();
    // The caves cannot reach above the bent ground: where d = ground - y + bend is below
    // (e q - w m - k) / (1 + q), the cave term exceeds d by at least the blend width
    // and the minimum is d whatever the cave noises say, so they are not evaluated
    // there (a 0.01 m margin covers the float gate).
    gate.resize(count);
    std::size_t n = 0;
    for (int k = 0; k < lattice.size.z; ++k)
        for (std::size_t j = 0; j < ny; ++j, n += nx) {
            const double y = static_cast<double>(lattice.origin.y + static_cast<std::int64_t>(j)) * lattice.spacing_m;
            const std::size_t row = static_cast<std::size_t>(k) * nx;
            for (std::size_t i = 0; i < nx; ++i)
                gate[n + i] = static_cast<float>(heights[row + i] - y + static_cast<double>(bend[n + i]) * bends[row + i]);
        }
    const double below = (p.cave_entrance_depth_m * p.cave_entrance_narrowing - p.cave_width * p.cave_metres_per_unit - p.cave_blend_m) /
                             (1.0 + p.cave_entrance_narrowing) -
                         0.01;
    const float gate_below = static_cast<float>(std::min(below, p.cave_entrance_depth_m - 0.01));
    NoiseLattice la = noise_lattice(lattice, p.cave_scale_m, p.cave_vertical_scale_m, glm::dvec3(0.0));
    la.gate = gate.data();
    la.gate_below = gate_below;
    noise.noise3.lattice_fast(la, cave_a);
    // Where the first cave noise alone keeps the tunnel (sqrt(a^2 + b^2) >= |a|) at least
    // the blend width beyond d, the minimum is d whatever the second says: it is not
    // evaluated there either (again with a 0.01 m margin for the float gate).
    const double w = p.cave_width, m = p.cave_metres_per_unit, q = p.cave_entrance_narrowing, e = p.cave_entrance_depth_m;
    for (std::size_t i = 0; i < count; ++i) {
        const double d = gate[i];
        const double nearest = (std::fabs(static_cast<double>(cave_a[i])) - w) * m + std::max(e - d, 0.0) * q;
        gate[i] = gate[i] < gate_below ? -INFINITY : static_cast<float>(d - nearest);
    }
    NoiseLattice lb = noise_lattice(lattice, p.cave_scale_m, p.cave_vertical_scale_m, glm::dvec3(kCaveDx, kCaveDy, kCaveDz));
    lb.gate = gate.data();
    lb.gate_below = static_cast<float>(-p.cave_blend_m - 0.01);
    noise.noise3.lattice_fast(lb, cave_b);
}

}  // namespace

TerrainFunction::Column TerrainFunction::column(double x, double z) const {
    if (p_.warp_distance_m > 0.0) warp2(noise_.noise2, p_.warp_scale_m, p_.warp_distance_m, x, z);
    const double mountain_noise = noise_.noise2(x / p_.mountain_scale_m + kMountainDx, z / p_.mountain_scale_m + kMountainDz);
    const double hill_noise = fbm2(noise_.noise2, x / p_.hill_scale_m, z / p_.hill_scale_m, p_.hill_fbm);
    const double ridge_noise = fbm2(noise_.noise2, x / p_.ridge_scale_m + kRidgeDx, z / p_.ridge_scale_m + kRidgeDz, p_.ridge_fbm);
    return finish_column(mountain_noise, hill_noise, ridge_noise);
}

TerrainFunction::Column TerrainFunction::finish_column(double mountain_noise, double hill_noise, double ridge_noise) const {
    const double mountain = smoothstep(p_.mountain_from, p_.mountain_to, mountain_noise);
    const double hills = p_.reshape ? std::pow((hill_noise + 1.0) * 0.5 * p_.reshape_fudge, p_.reshape_exponent) * p_.reshape_multiplier_m
                                    : hill_noise * p_.hill_height_m;
    // Where no mountain rises the ridge's weight is 0 and 0 * ridge * h is +0 for any ridge,
    // so the ridge (a pow and a hypot) is not computed.
    const double ridge = mountain > 0.0 ? ridge_profile(ridge_noise, p_.ridge_sharpness, p_.ridge_crest, p_.ridge_exponent) : 0.0;
    return {p_.base_height_m + hills + mountain * ridge * p_.ridge_height_m, mountain};
}

void TerrainFunction::columns(const double* xs, const double* zs, std::size_t count, Column* out) const {
    // column() for many points, its three noises as vector batches (the same bits). The
    // ridges are evaluated only where mountains rise: elsewhere their weight is exactly 0.
    thread_local std::vector<double> buffer;
    buffer.resize(count * 7);
    double* wx = buffer.data();
    double* wz = wx + count;
    double* u = wz + count;
    double* v = u + count;
    double* mountain = v + count;
    double* hills = mountain + count;
    double* ridges = hills + count;
    for (std::size_t n = 0; n < count; ++n) {
        wx[n] = xs[n], wz[n] = zs[n];
        if (p_.warp_distance_m > 0.0) warp2(noise_.noise2, p_.warp_scale_m, p_.warp_distance_m, wx[n], wz[n]);
    }
    const auto coordinates = [&](double scale, double dx, double dz) {
        for (std::size_t n = 0; n < count; ++n) {
            u[n] = wx[n] / scale + dx;
            v[n] = wz[n] / scale + dz;
        }
    };
    coordinates(p_.mountain_scale_m, kMountainDx, kMountainDz);
    noise_.noise2.fbm_batch(u, v, mountain, count, FbmShape{1, 1.0, 1.0, 1.0});
    coordinates(p_.hill_scale_m, 0.0, 0.0);
    noise_.noise2.fbm_batch(u, v, hills, count, p_.hill_fbm);
    std::size_t rising = 0;
    for (std::size_t n = 0; n < count; ++n)
        if (smoothstep(p_.mountain_from, p_.mountain_to, mountain[n]) > 0.0) {
            u[rising] = wx[n] / p_.ridge_scale_m + kRidgeDx;
            v[rising] = wz[n] / p_.ridge_scale_m + kRidgeDz;
            ++rising;
        }
    noise_.noise2.fbm_batch(u, v, ridges, rising, p_.ridge_fbm);
    // Spread back, last first, so that no ridge is overwritten before it is moved.
    for (std::size_t n = count; n-- > 0;)
        ridges[n] = smoothstep(p_.mountain_from, p_.mountain_to, mountain[n]) > 0.0 ? ridges[--rising] : 0.0;
    for (std::size_t n = 0; n < count; ++n) out[n] = finish_column(mountain[n], hills[n], ridges[n]);
}

double TerrainFunction::combine(const Column& c, double y, double bend_noise, double cave_a, double cave_b) const {
    double d = c.height - y;
    const double bend = p_.overhang_plains_m + (p_.overhang_mountains_m - p_.overhang_plains_m) * c.mountain;
    d += bend_noise * bend;
    if (p_.caves) {
        const double cave = (js_hypot(cave_a, cave_b) - p_.cave_width) * p_.cave_metres_per_unit +
                            std::max(p_.cave_entrance_depth_m - d, 0.0) * p_.cave_entrance_narrowing;
        d = p_.cave_blend_m > 0.0 ? smooth_min(d, cave, p_.cave_blend_m) : std::min(d, cave);
    }
    // Density is positive in rock; the field is its negative, shifted so the surface is 0.
    return -d - p_.iso_level;
}

void TerrainFunction::sample_points(const glm::dvec3* points, std::size_t count, double* out) const {
    // In batches: the column of each point (kept from the last point when it is the same,
    // as the tutorial does), then the three 3D noises with the bit-exact vector batch, then
    // combine(), the one formula of the terrain's value.
    constexpr std::size_t kBatch = 256;
    double coords[3][kBatch], bend[kBatch], cave_a[kBatch], cave_b[kBatch];
    Column columns[kBatch];
    double last_x = std::nan(""), last_z = std::nan("");
    Column c{};
    for (std::size_t start = 0; start < count; start += kBatch) {
        const std::size_t n = std::min(kBatch, count - start);
        const glm::dvec3* p = points + start;
        for (std::size_t i = 0; i < n; ++i) {
            if (p[i].x != last_x || p[i].z != last_z) {
                c = column(p[i].x, p[i].z);
                last_x = p[i].x;
                last_z = p[i].z;
            }
            columns[i] = c;
        }
        const auto noise = [&](double sh, double sv, double dx, double dy, double dz, double* result) {
            for (std::size_t i = 0; i < n; ++i) {
                coords[0][i] = p[i].x / sh + dx;
                coords[1][i] = p[i].y / sv + dy;
                coords[2][i] = p[i].z / sh + dz;
            }
            noise_.noise3.batch(coords[0], coords[1], coords[2], result, n);
        };
        noise(p_.overhang_scale_m, p_.overhang_vertical_scale_m, 0.0, 0.0, 0.0, bend);
        if (p_.caves) {
            noise(p_.cave_scale_m, p_.cave_vertical_scale_m, 0.0, 0.0, 0.0, cave_a);
            noise(p_.cave_scale_m, p_.cave_vertical_scale_m, kCaveDx, kCaveDy, kCaveDz, cave_b);
        }
        for (std::size_t i = 0; i < n; ++i)
            out[start + i] = combine(columns[i], p[i].y, bend[i], p_.caves ? cave_a[i] : 0.0, p_.caves ? cave_b[i] : 0.0);
    }
}

void TerrainFunction::surface_gate(const Lattice& lattice, const double* heights, const double* bends, float* gate) const {
    // A sample is air whatever the overhang noise (|n| <= 1) and the caves (they only make
    // more air) say when y > height + |bend| + iso. Where that holds for every column within
    // four lattice steps and four rows down, a mesher never reads the sample (LatticeUse), so
    // its overhang noise is skipped: gate < 0. The value then computed with the noise at 0
    // is still positive. (Four: a transition strip's normals take differences over two steps
    // at the ends of an edge two steps long.)
    constexpr int kReach = 4;
    const int nx = lattice.size.x, nz = lattice.size.z;
    std::vector<double> reach(static_cast<std::size_t>(nx) * nz), across(reach.size()), near(reach.size());
    for (std::size_t c = 0; c < reach.size(); ++c) reach[c] = heights[c] + std::fabs(bends[c]);
    // The greatest reach within kReach columns: a maximum over x, then over z.
    for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i) {
            double top = -INFINITY;
            for (int di = std::max(0, i - kReach); di <= std::min(nx - 1, i + kReach); ++di)
                top = std::max(top, reach[static_cast<std::size_t>(k) * nx + di]);
            across[static_cast<std::size_t>(k) * nx + i] = top;
        }
    for (int k = 0; k < nz; ++k)
        for (int i = 0; i < nx; ++i) {
            double top = -INFINITY;
            for (int dk = std::max(0, k - kReach); dk <= std::min(nz - 1, k + kReach); ++dk)
                top = std::max(top, across[static_cast<std::size_t>(dk) * nx + i]);
            near[static_cast<std::size_t>(k) * nx + i] = top + p_.iso_level + kReach * lattice.spacing_m + 0.01;
        }
    std::size_t n = 0;
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < lattice.size.y; ++j, n += nx) {
            const double y = static_cast<double>(lattice.origin.y + j) * lattice.spacing_m;
            for (int i = 0; i < nx; ++i) gate[n + i] = static_cast<float>(near[static_cast<std::size_t>(k) * nx + i] - y);
        }
}

std::shared_ptr<const LatticeColumns> TerrainFunction::columns_of(const Lattice& lattice) const {
    auto out = std::make_shared<LatticeColumns>();
    out->origin = {lattice.origin.x, lattice.origin.z};
    out->size = {lattice.size.x, lattice.size.z};
    out->spacing_m = lattice.spacing_m;
    out->lod_column_samples = lattice.lod_column_samples;
    out->lod_exact_samples = lattice.lod_exact_samples;
    const std::size_t ncol = static_cast<std::size_t>(lattice.size.x) * lattice.size.z;
    const std::vector<double> column_xz = lattice_column_xz(lattice);
    std::vector<Column> columns(ncol);
    this->columns(column_xz.data(), column_xz.data() + ncol, ncol, columns.data());
    // Per column: the ground height and the overhang strength, as rows for the vector loops.
    auto own = std::make_shared<TerrainColumns>();
    out->height.resize(ncol);
    own->bend.resize(ncol);
    for (std::size_t c = 0; c < ncol; ++c) {
        out->height[c] = columns[c].height;
        own->bend[c] = p_.overhang_plains_m + (p_.overhang_mountains_m - p_.overhang_plains_m) * columns[c].mountain;
    }
    out->field_data = std::move(own);
    return out;
}

void TerrainFunction::sample_lattice_and_ground(const Lattice& lattice, float* out, float* ground, LatticeUse use,
                                                const LatticeColumns* given) const {
    // The 2D part once per column (or as given); the three 3D noises of the whole lattice in
    // single precision (Simplex3::lattice_fast), then combined per sample.
    const std::size_t ny = static_cast<std::size_t>(lattice.size.y);
    const std::size_t count = lattice.count();
    // Scratch space kept per thread: a chunk a call, no allocation or zeroing each time.
    thread_local std::vector<float> noises, gate;
    noises.resize(3 * count);
    float* bend = noises.data();
    float* cave_a = bend + count;
    float* cave_b = cave_a + count;
    std::shared_ptr<const LatticeColumns> made;
    const auto* own = given && given->fits(lattice) ? dynamic_cast<const TerrainColumns*>(given->field_data.get()) : nullptr;
    if (!own) given = (made = columns_of(lattice)).get(), own = static_cast<const TerrainColumns*>(given->field_data.get());
    const std::vector<double>& heights = given->height;
    const std::vector<double>& bends = own->bend;

    const std::size_t nx = static_cast<std::size_t>(lattice.size.x);
    NoiseLattice bend_lattice = noise_lattice(lattice, p_.overhang_scale_m, p_.overhang_vertical_scale_m, glm::dvec3(0.0));
    if (use == LatticeUse::surface) {
        gate.resize(count);
        surface_gate(lattice, heights.data(), bends.data(), gate.data());
        bend_lattice.gate = gate.data();
        bend_lattice.gate_below = 0.0f;
    }
    noise_.noise3.lattice_fast(bend_lattice, bend);
    if (p_.caves) cave_noises(p_, noise_, lattice, heights.data(), bends.data(), bend, gate, cave_a, cave_b);
    else std::fill(cave_a, cave_a + 2 * count, 0.0f);
    const CombineTerms terms{p_.caves,        p_.cave_width, p_.cave_metres_per_unit, p_.cave_entrance_depth_m, p_.cave_entrance_narrowing,
                             p_.cave_blend_m, p_.iso_level};
    std::size_t n = 0;
    for (int k = 0; k < lattice.size.z; ++k)
        for (std::size_t j = 0; j < ny; ++j, n += nx) {
            const double y = static_cast<double>(lattice.origin.y + static_cast<std::int64_t>(j)) * lattice.spacing_m;
            const std::size_t row = static_cast<std::size_t>(k) * nx;
            combine_row(terms, heights.data() + row, bends.data() + row, y, bend + n, cave_a + n, cave_b + n, out + n, nx);
        }
    if (ground)
        for (std::size_t c = 0; c < heights.size(); ++c) ground[c] = static_cast<float>(heights[c]);
}

double TerrainFunction::surface_height(double x, double z) const { return column(x, z).height; }

void TerrainFunction::heights(const double* xs, const double* zs, std::size_t count, double* out) const {
    std::vector<Column> result(count);
    columns(xs, zs, count, result.data());
    for (std::size_t c = 0; c < count; ++c) out[c] = result[c].height;
}

void TerrainFunction::ground_heights(const Lattice& lattice, float* out) const {
    // The columns as a vector batch: the same bits as column() one at a time.
    const std::size_t n = static_cast<std::size_t>(lattice.size.x) * lattice.size.z;
    const std::vector<double> xz = lattice_column_xz(lattice);
    std::vector<double> h(n);
    heights(xz.data(), xz.data() + n, n, h.data());
    for (std::size_t c = 0; c < n; ++c) out[c] = static_cast<float>(h[c]);
}

}  // namespace isoterra
