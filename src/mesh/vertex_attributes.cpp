// What every smooth mesher needs at a vertex: the field's gradient from the lattice
// (central differences, so both chunks at a border compute the same normal), the ground
// depth and column looks for materials.
#include "vertex_attributes.hpp"

#include <cstring>
#ifdef __SSE2__
#include <immintrin.h>
#endif
#include <limits>
#include <type_traits>

namespace isoterra {

glm::vec3 material_colour(const MaterialSample& m) {
    static const glm::vec3 kPalette[kMaterialCount] = {
        {0.30f, 0.52f, 0.20f},  // grass
        {0.45f, 0.33f, 0.22f},  // soil
        {0.50f, 0.48f, 0.46f},  // rock
        {0.93f, 0.95f, 0.98f},  // snow
        {0.80f, 0.72f, 0.52f},  // sand
        {0.56f, 0.53f, 0.50f},  // scree
    };
    const glm::vec3 a = kPalette[static_cast<int>(m.primary)], b = kPalette[static_cast<int>(m.secondary)];
    return a + (b - a) * m.blend;
}

namespace detail {

glm::vec3 lattice_gradient(const ChunkSamples& s, int i, int j, int k, int stride) {
    // Central differences without the division by 2h: normals use the direction only.
    const std::size_t at = s.lattice.index(i + s.pad.lo, j + s.pad.lo, k + s.pad.lo);
    const std::size_t dx = static_cast<std::size_t>(stride), dy = dx * static_cast<std::size_t>(s.lattice.size.x),
                      dz = static_cast<std::size_t>(stride) * s.lattice.size.x * static_cast<std::size_t>(s.lattice.size.y);
    const float* v = s.values.data();
    return {v[at + dx] - v[at - dx], v[at + dy] - v[at - dy], v[at + dz] - v[at - dz]};
}

glm::vec3 unit_or_up(const glm::vec3& v) {
    const float len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (len > 0.0f && std::isfinite(len)) return v / len;
    // A field with huge or infinite values: the direction of the largest components (an
    // infinity counts as the largest), scaled so nothing overflows; NaN says nothing.
    glm::vec3 d(0.0f);
    float biggest = 0.0f;
    for (int a = 0; a < 3; ++a)
        if (!std::isnan(v[a])) biggest = std::max(biggest, std::fabs(v[a]));
    if (!(biggest > 0.0f)) return glm::vec3(0, 1, 0);
    for (int a = 0; a < 3; ++a) {
        if (std::isnan(v[a])) continue;
        d[a] = std::isinf(biggest) ? (std::isinf(v[a]) ? std::copysign(1.0f, v[a]) : 0.0f) : v[a] / biggest;
    }
    return d / std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
}

namespace {

// The cell of every stride-th column that holds (x, z): its lower corner's index in the
// lattice's columns and the fractions across it. Counted in columns of that grid from the
// core's first (the chunk one level coarser counts the same way from its own: the fractions
// agree to the bit); clamped to the columns the lattice has.
struct ColumnCell {
    int i, k;
    double fu, fv;
};
template <typename Stride>
ColumnCell column_cell_with(const ChunkSamples& s, double x, double z, Stride stride) {
    const double sp = s.lattice.spacing_m * stride;
    const double core_x = static_cast<double>(s.lattice.origin.x + s.pad.lo) / stride;
    const double core_z = static_cast<double>(s.lattice.origin.z + s.pad.lo) / stride;
    const int first = -(s.pad.lo / stride), last = (s.lattice.size.x - 1 - s.pad.lo) / stride;
    const double u = std::clamp(x / sp - core_x, double(first), last - 0.001);
    const double v = std::clamp(z / sp - core_z, double(first), last - 0.001);
    const double fi = std::floor(u), fk = std::floor(v);
    return {static_cast<int>(fi) * stride + s.pad.lo, static_cast<int>(fk) * stride + s.pad.lo, u - fi, v - fk};
}
ColumnCell column_cell(const ChunkSamples& s, double x, double z, int stride) {
    // A chunk's own level (stride 1) as a constant: its divisions by the stride, two integer
    // and two double, fold away (each is exact by 1, so the same bits).
    return stride == 1 ? column_cell_with(s, x, z, std::integral_constant<int, 1>{}) : column_cell_with(s, x, z, stride);
}

// A channel bilinear over the cell's corners where it is a number, or NaN where none is.
double bilinear_of_numbers(const std::vector<float>& channel, std::size_t nx, const ColumnCell& c, int stride) {
    const std::size_t at[4] = {c.k * nx + c.i, c.k * nx + c.i + stride, (c.k + stride) * nx + c.i, (c.k + stride) * nx + c.i + stride};
    const double w[4] = {(1 - c.fu) * (1 - c.fv), c.fu * (1 - c.fv), (1 - c.fu) * c.fv, c.fu * c.fv};
    double sum = 0.0, weight = 0.0;
    for (int q = 0; q < 4; ++q)
        if (std::isfinite(channel[at[q]]) && w[q] > 0.0) sum += w[q] * channel[at[q]], weight += w[q];
    return weight > 0.0 ? sum / weight : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

double column_depth_and_looks(const ChunkSamples& s, double x, double y, double z, PointLooks& looks, int stride) {
    looks = PointLooks{};
    if (s.sea_level_m > -1e8) looks.water_m = s.sea_level_m;
    const bool ground = s.has_ground, looked = !s.looks.empty();
    if ((!ground && !looked) || !std::isfinite(x) || !std::isfinite(z)) return 0.0;
    // One cell of the columns for both.
    const ColumnCell c = column_cell(s, x, z, stride);
    const std::size_t nx = static_cast<std::size_t>(s.lattice.size.x);
    if (looked) {
        if (!s.looks.water.empty()) {
            const double w = bilinear_of_numbers(s.looks.water, nx, c, stride);
            if (w > looks.water_m) looks.water_m = w;  // NaN: the sea's alone
        }
        if (!s.looks.snow_line.empty()) looks.snow_line_m = bilinear_of_numbers(s.looks.snow_line, nx, c, stride);
        if (!s.looks.scree.empty()) {
            const double v = bilinear_of_numbers(s.looks.scree, nx, c, stride);
            looks.scree = std::isnan(v) ? 0.0 : v;
        }
    }
    if (!ground) return 0.0;
    const float* g = s.ground.data();
    const int i = c.i, k = c.k;
    const double fu = c.fu, fv = c.fv;
    const double h = (g[k * nx + i] * (1 - fu) + g[k * nx + i + stride] * fu) * (1 - fv) +
                     (g[(k + stride) * nx + i] * (1 - fu) + g[(k + stride) * nx + i + stride] * fu) * fv;
    return h - y;
}

void sign_rows(const ChunkSamples& s, int lo, int n, std::uint64_t* solid) {
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j) {
            const float* row = &s.values[s.lattice.index(lo + s.pad.lo, lo + j + s.pad.lo, lo + k + s.pad.lo)];
            std::uint64_t bits = 0;
            int i = 0;
#ifdef __SSE2__
            // Four compares and their signs at once (a NaN or -0 compares false, as below).
            for (; i + 4 <= n; i += 4)
                bits |= static_cast<std::uint64_t>(_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(row + i), _mm_setzero_ps()))) << i;
#endif
            // Eight at a time into a byte: a shape the compiler turns into vector compares.
            for (; i + 8 <= n; i += 8) {
                unsigned byte = 0;
                for (int b = 0; b < 8; ++b) byte |= static_cast<unsigned>(row[i + b] < 0.0f) << b;
                bits |= static_cast<std::uint64_t>(byte) << i;
            }
            for (; i < n; ++i) bits |= static_cast<std::uint64_t>(row[i] < 0.0f) << i;
            solid[static_cast<std::size_t>(k) * n + j] = bits;
        }
}

void mixed_rows_from_signs(const std::uint64_t* solid, int count, std::uint64_t* rows) {
    // A cell is mixed where its four corner rows are neither all solid nor all air at both ends.
    const int n = count + 1;
    const std::uint64_t cells = (std::uint64_t{1} << count) - 1;
    for (int k = 0; k < count; ++k)
        for (int j = 0; j < count; ++j) {
            const std::uint64_t a = solid[static_cast<std::size_t>(k) * n + j], b = solid[static_cast<std::size_t>(k) * n + j + 1];
            const std::uint64_t c = solid[static_cast<std::size_t>(k + 1) * n + j], d = solid[static_cast<std::size_t>(k + 1) * n + j + 1];
            const std::uint64_t all = a & b & c & d, any = a | b | c | d;
            const std::uint64_t full = all & (all >> 1), empty = ~any & ~(any >> 1);
            rows[static_cast<std::size_t>(k) * count + j] = ~(full | empty) & cells;
        }
}

void mixed_cell_rows(const ChunkSamples& s, int lo, int count, std::vector<std::uint64_t>& rows) {
    const int n = count + 1;
    std::vector<std::uint64_t> solid(static_cast<std::size_t>(n) * n);
    sign_rows(s, lo, n, solid.data());
    rows.resize(static_cast<std::size_t>(count) * count);
    mixed_rows_from_signs(solid.data(), count, rows.data());
}

void push_vertex(MeshBuffers& out, const ChunkSamples& s, const MaterialClassifier& classify, const glm::dvec3& p,
                 const glm::vec3& gradient, int stride) {
    const glm::vec3 n = unit_or_up(gradient);
    out.positions.emplace_back(p - out.origin);
    out.normals.push_back(n);
    PointLooks looks;
    const double depth = column_depth_and_looks(s, p.x, p.y, p.z, looks, stride);
    out.materials.push_back(classify(p.y, glm::dvec3(n), depth, looks));
}

void push_edge_vertex(MeshBuffers& out, const ChunkSamples& s, const MaterialClassifier& classify, const int lower[3], int axis, int stride,
                      float fa, float fb) {
    const double t = edge_crossing(fa, fb);
    int upper[3] = {lower[0], lower[1], lower[2]};
    upper[axis] += stride;
    glm::dvec3 p = sample_position(s, lower[0], lower[1], lower[2]);
    p[axis] += t * (stride * s.lattice.spacing_m);
    const glm::vec3 ga = lattice_gradient(s, lower[0], lower[1], lower[2], stride);
    const glm::vec3 gb = lattice_gradient(s, upper[0], upper[1], upper[2], stride);
    push_vertex(out, s, classify, p, ga + (gb - ga) * static_cast<float>(t), stride);
}

void begin_chunk_mesh(const ChunkSamples& s, MeshBuffers& out) {
    out.clear();
    out.origin = sample_position(s, 0, 0, 0);
}

}  // namespace detail
}  // namespace isoterra
