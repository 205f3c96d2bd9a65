// The brushes: sphere carve/add, smooth and flatten, each a rule for the new value of a
// sample from its current value, weighted by seed 004's smooth falloff and capped by the
// strength. A brush reads the base field on its box, adds the current deltas, and writes
// back new deltas (new value - base) for the samples it changed.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "isoterra/edit.hpp"

namespace isoterra {
namespace {

// Beyond its radius a full-strength sphere still lowers rock values towards the sphere's
// distance (no sign changes there); two more samples keep the gradients, hence the normals,
// of the new surface right.
constexpr double kSphereNormalsReach = 2.0;

double reach(const EditOp& op) {
    return op.kind == BrushKind::sphere && std::isinf(op.strength_m) ? op.radius_m + kSphereNormalsReach : op.radius_m;
}

// The new value of one sample that now holds `cur`, at distance `d` from the centre.
// `neighbours` is the mean of the 27 samples around it (smooth only).
double brush_value(const EditOp& op, const glm::dvec3& p, double d, double cur, double neighbours) {
    const double r = op.radius_m, s = op.strength_m;
    switch (op.kind) {
        case BrushKind::sphere: {
            // Towards the sphere's CSG (carve: max(f, r - d); add: min(f, d - r)), by at most
            // strength x falloff.
            if (d > reach(op)) return cur;
            const double gap = op.mode == BrushMode::carve ? std::max(0.0, (r - d) - cur) : std::max(0.0, cur - (d - r));
            const double step = std::isinf(s) ? gap : std::min(gap, s * brush_falloff(d, r));
            return op.mode == BrushMode::carve ? cur + step : cur - step;
        }
        case BrushKind::flatten:
            // Towards the level plane through the centre: f = y - centre.y.
            return cur + brush_falloff(d, r) * std::clamp((p.y - op.centre.y) - cur, -s, s);
        case BrushKind::smooth: return cur + brush_falloff(d, r) * std::clamp(neighbours - cur, -s, s);
    }
    return cur;
}

}  // namespace

const char* brush_name(BrushKind kind) {
    switch (kind) {
        case BrushKind::sphere: return "sphere";
        case BrushKind::smooth: return "smooth";
        case BrushKind::flatten: return "flatten";
    }
    return "?";
}

const char* brush_mode_name(BrushMode mode) { return mode == BrushMode::carve ? "carve" : "add"; }

bool parse_brush_kind(const std::string& name, BrushKind& out) {
    for (BrushKind k : {BrushKind::sphere, BrushKind::smooth, BrushKind::flatten})
        if (name == brush_name(k)) return out = k, true;
    return false;
}

bool parse_brush_mode(const std::string& name, BrushMode& out) {
    for (BrushMode m : {BrushMode::carve, BrushMode::add})
        if (name == brush_mode_name(m)) return out = m, true;
    return false;
}

std::string validate_edit(const EditOp& op) {
    if (!std::isfinite(op.centre.x) || !std::isfinite(op.centre.y) || !std::isfinite(op.centre.z) ||
        std::abs(op.centre.x) > kCoordinateLimit_m || std::abs(op.centre.y) > kCoordinateLimit_m ||
        std::abs(op.centre.z) > kCoordinateLimit_m)
        return fmt::format("centre {},{},{} must be finite and within 1e8 m", op.centre.x, op.centre.y, op.centre.z);
    if (!(op.radius_m > 0.0 && op.radius_m <= kMaxBrushRadius))
        return fmt::format("radius {} must be in (0, {}] m", op.radius_m, kMaxBrushRadius);
    if (!(op.strength_m > 0.0)) return fmt::format("strength {} must be > 0 m", op.strength_m);
    return {};
}

std::string describe_edit(const EditOp& op) {
    std::string line = op.kind == BrushKind::sphere ? fmt::format("sphere {}", brush_mode_name(op.mode)) : brush_name(op.kind);
    line += fmt::format(" at {:.6g},{:.6g},{:.6g} radius {:.6g} m", op.centre.x, op.centre.y, op.centre.z, op.radius_m);
    if (!std::isinf(op.strength_m)) line += fmt::format(" strength {:.6g} m", op.strength_m);
    return line;
}

Box edit_box(const EditOp& op) {
    const double r = reach(op);
    return {glm::floor(op.centre - r), glm::ceil(op.centre + r)};
}

double brush_falloff(double distance_m, double radius_m) {
    const double t = 1.0 - std::clamp(distance_m / radius_m, 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

std::vector<ChunkCoord> apply_edit(const Field& base, const EditOp& op, ChunkDeltas& deltas, std::vector<ReplacedChunk>* replaced) {
    const Box box = edit_box(op);
    const glm::i64vec3 lo(box.lo), hi(box.hi);
    const glm::ivec3 n(hi - lo + std::int64_t{1});
    // The smooth brush reads one sample beyond the box.
    const int m = op.kind == BrushKind::smooth ? 1 : 0;
    Lattice lat;
    lat.origin = lo - std::int64_t{m};
    lat.size = n + 2 * m;
    std::vector<float> base_values(lat.count()), current(lat.count());
    base.sample_lattice(lat, base_values.data());
    current = base_values;
    deltas.add_to(lat, current.data());

    // The new delta of every sample in the box (NaN: unchanged).
    std::vector<float> fresh(static_cast<std::size_t>(n.x) * n.y * n.z);
    for (int k = 0; k < n.z; ++k)
        for (int j = 0; j < n.y; ++j)
            for (int i = 0; i < n.x; ++i) {
                const std::size_t at = lat.index(i + m, j + m, k + m);
                const glm::dvec3 p = lat.position(i + m, j + m, k + m);
                const double d = glm::length(p - op.centre);
                double mean = 0.0;
                if (m)
                    for (int c = 0; c < 27; ++c) mean += current[lat.index(i + m + c % 3 - 1, j + m + c / 3 % 3 - 1, k + m + c / 9 - 1)];
                const float v = static_cast<float>(brush_value(op, p, d, current[at], mean / 27.0));
                fresh[(static_cast<std::size_t>(k) * n.y + j) * n.x + i] = v == current[at] ? NAN : v - base_values[at];
            }

    // Copy each delta chunk the box meets, write the new deltas, keep it if anything changed.
    std::vector<ChunkCoord> changed;
    const auto div = [](std::int64_t a) { return floor_div(a, kChunkSize); };
    for (std::int64_t cz = div(lo.z); cz <= div(hi.z); ++cz)
        for (std::int64_t cy = div(lo.y); cy <= div(hi.y); ++cy)
            for (std::int64_t cx = div(lo.x); cx <= div(hi.x); ++cx) {
                const ChunkCoord c{int(cx), int(cy), int(cz), 0};
                const glm::i64vec3 g0 = glm::i64vec3(cx, cy, cz) * std::int64_t{kChunkSize};
                const DeltaChunk* old = deltas.find(c);
                std::shared_ptr<DeltaChunk> chunk;
                for (std::int64_t z = std::max(lo.z, g0.z); z <= std::min(hi.z, g0.z + kChunkSize - 1); ++z)
                    for (std::int64_t y = std::max(lo.y, g0.y); y <= std::min(hi.y, g0.y + kChunkSize - 1); ++y)
                        for (std::int64_t x = std::max(lo.x, g0.x); x <= std::min(hi.x, g0.x + kChunkSize - 1); ++x) {
                            const float v = fresh[(static_cast<std::size_t>(z - lo.z) * n.y + (y - lo.y)) * n.x + (x - lo.x)];
                            const int at = DeltaChunk::index(int(x - g0.x), int(y - g0.y), int(z - g0.z));
                            if (std::isnan(v) || (old && old->values[at] == v) || (!old && v == 0.0f)) continue;
                            if (!chunk) chunk = old ? std::make_shared<DeltaChunk>(*old) : std::make_shared<DeltaChunk>();
                            chunk->values[at] = v;
                        }
                if (!chunk) continue;
                changed.push_back(c);
                if (replaced) {
                    auto it = deltas.chunks().find(c);
                    replaced->emplace_back(c, it == deltas.chunks().end() ? nullptr : it->second);
                }
                deltas.set(c, chunk->update_range() ? std::shared_ptr<const DeltaChunk>(std::move(chunk)) : nullptr);
            }
    return changed;
}

}  // namespace isoterra
