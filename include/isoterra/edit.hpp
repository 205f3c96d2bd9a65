// Editing (seed 004): brushes change the procedural base through per-chunk sample deltas,
// and every edit is an operation in a log that undo and redo walk. The base field never
// changes; an edited value is base + delta on the 1 m sample lattice. Only delta chunks
// with a non-zero delta exist. Delta chunks are immutable once made and shared between
// copies of ChunkDeltas, so a copy is a cheap snapshot a worker thread can read.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "isoterra/grid.hpp"

namespace isoterra {

enum class BrushKind : std::uint8_t { sphere, smooth, flatten };
enum class BrushMode : std::uint8_t { carve, add };

/// One edit: a brush applied once. `strength_m` caps how far one application moves any
/// value (infinity: no cap, the brush's full shape at once).
struct EditOp {
    BrushKind kind = BrushKind::sphere;
    BrushMode mode = BrushMode::carve;  // sphere only: carve makes air, add makes rock
    glm::dvec3 centre{0.0};
    double radius_m = 4.0;
    double strength_m = std::numeric_limits<double>::infinity();
    bool operator==(const EditOp&) const = default;
};

/// The largest brush radius, metres: one edit then samples at most 134^3 points (about
/// 30 MB of scratch and 0.1-0.2 s here), and touches at most 6^3 delta chunks.
inline constexpr double kMaxBrushRadius = 64.0;

/// Returns "sphere", "smooth" or "flatten".
const char* brush_name(BrushKind kind);
/// Returns "carve" or "add".
const char* brush_mode_name(BrushMode mode);
/// Parses a brush or mode name; returns false for an unknown one.
bool parse_brush_kind(const std::string& name, BrushKind& out);
bool parse_brush_mode(const std::string& name, BrushMode& out);
/// Returns an empty string when `op` is valid, else what is wrong ("radius 0 must be in
/// (0, 64] m").
std::string validate_edit(const EditOp& op);
/// Returns one line describing `op` ("sphere carve at 10,4,-3 radius 4 m").
std::string describe_edit(const EditOp& op);
/// Returns the box holding every sample `op` can change.
Box edit_box(const EditOp& op);
/// The brushes' smooth falloff of seed 004: 1 at the centre, 0 at and beyond the radius
/// (smoothstep of 1 - distance / radius).
double brush_falloff(double distance_m, double radius_m);

/// The deltas of one delta chunk: the 32^3 samples from 32 * (x, y, z) to 32 * (x, y, z) + 31
/// of the 1 m lattice, x fastest. Each lattice sample belongs to exactly one delta chunk.
struct DeltaChunk {
    static constexpr int kSamples = kChunkSize * kChunkSize * kChunkSize;
    std::vector<float> values = std::vector<float>(kSamples, 0.0f);
    float lo = 0.0f, hi = 0.0f;  // the least and greatest delta

    static int index(int i, int j, int k) { return (k * kChunkSize + j) * kChunkSize + i; }
    /// Recomputes lo and hi; returns false when every delta is zero.
    bool update_range();
};

/// The delta chunks of a world: a sparse map, with a column index for the streaming world.
class ChunkDeltas {
public:
    using Map = std::unordered_map<ChunkCoord, std::shared_ptr<const DeltaChunk>, ChunkKey>;

    bool empty() const { return chunks_.empty(); }
    std::size_t size() const { return chunks_.size(); }
    const Map& chunks() const { return chunks_; }
    /// Returns the delta chunk at `c` (lod ignored), or null.
    const DeltaChunk* find(const ChunkCoord& c) const;
    /// Puts `chunk` at `c`; a null chunk removes it.
    void set(const ChunkCoord& c, std::shared_ptr<const DeltaChunk> chunk);

    /// Adds the deltas to `values` sampled on `lattice` (spacing a power of two metres, so
    /// each sample sits on the 1 m lattice).
    void add_to(const Lattice& lattice, float* values) const;
    /// Returns the delta at `p`, trilinear between the lattice samples around it.
    double at(const glm::dvec3& p) const;
    /// Returns a range holding every delta in `box` ({0, 0} where nothing was edited).
    ValueRange range(const Box& box) const;
    /// Returns the highest chunk layer holding a delta in the columns x-1..x+1, z-1..z+1
    /// (a chunk reads its neighbours' border samples), or INT_MIN when there is none.
    int highest_layer(int x, int z) const;
    /// True when both hold the same chunks with bit-equal deltas.
    bool same_as(const ChunkDeltas& other) const;

private:
    Map chunks_;
    std::unordered_map<std::int64_t, std::vector<int>> layers_;  // per column, sorted
};

/// Returns base + deltas at `count` points (the double path plus trilinear deltas).
void sample_edited(const Field& base, const ChunkDeltas& deltas, const glm::dvec3* points, std::size_t count, double* out);

/// Casts a ray from `origin` along unit `direction` against base + deltas and writes to
/// `hit` the first point where it enters solid ground (f <= 0), within `max_m` metres.
/// Steps of `step_m` (finer than the thinnest feature to be hit), then bisection to a
/// millimetre. Returns false when the ray meets no ground or starts inside it.
bool ray_cast(const Field& base, const ChunkDeltas& deltas, const glm::dvec3& origin, const glm::dvec3& direction, double max_m,
              glm::dvec3& hit, double step_m = 0.5);

/// Returns how chunk `c` may be sampled for meshing under `deltas`: LatticeUse::surface,
/// unless edits reach the samples it reads (a delta can turn a skipped air sample into rock).
LatticeUse meshing_lattice_use(const ChunkDeltas& deltas, const ChunkCoord& c);

/// Adds `deltas` to a sampled chunk and updates its core range.
void apply_deltas(const ChunkDeltas& deltas, ChunkSamples& samples);

/// A delta chunk an edit replaced, as it was before (null: there was none).
using ReplacedChunk = std::pair<ChunkCoord, std::shared_ptr<const DeltaChunk>>;

/// Applies `op` over `base` + `deltas`, replacing the delta chunks it changes. Returns the
/// coordinates of the delta chunks that changed; `replaced`, when given, gets them as they
/// were. Deterministic: the same base, deltas and op give the same bits on every machine
/// and thread count.
std::vector<ChunkCoord> apply_edit(const Field& base, const EditOp& op, ChunkDeltas& deltas,
                                   std::vector<ReplacedChunk>* replaced = nullptr);
/// Returns the deltas of applying `ops` in order over `base`.
ChunkDeltas replay_edits(const Field& base, const std::vector<EditOp>& ops, std::size_t count);

/// The operation log: ops [0, applied()) are in effect, the rest were undone and can be
/// redone until a new edit drops them. Undo restores the deltas from before the op when
/// this log made it and still keeps them, and replays the log otherwise; both give the same
/// bits. The delta chunks kept for undo are capped (`undo_chunks`, 128 KB each): past the
/// cap the oldest ops' are let go, and undoing those replays.
class EditHistory {
public:
    static constexpr std::size_t kDefaultUndoChunks = 512;  // 64 MB

    /// An empty log over `base`.
    explicit EditHistory(std::shared_ptr<const Field> base, std::size_t undo_chunks = kDefaultUndoChunks);
    /// A log loaded from a file: `deltas` must be the replay of ops [0, applied).
    EditHistory(std::shared_ptr<const Field> base, std::vector<EditOp> ops, std::size_t applied, ChunkDeltas deltas,
                std::size_t undo_chunks = kDefaultUndoChunks);

    /// Applies `op` and drops the undone ops. Returns the changed delta chunks.
    std::vector<ChunkCoord> apply(const EditOp& op);
    /// Takes back the last op in effect (none: returns false). `changed` gets the changed
    /// delta chunks and `box` the region whose samples changed.
    bool undo(std::vector<ChunkCoord>& changed, Box& box);
    /// Applies the next undone op again (none: returns false).
    bool redo(std::vector<ChunkCoord>& changed, Box& box);

    const ChunkDeltas& deltas() const { return deltas_; }
    const std::vector<EditOp>& ops() const { return ops_; }
    std::size_t applied() const { return applied_; }
    const Field& base() const { return *base_; }
    /// How many earlier delta chunks are kept for undo now (at most the cap).
    std::size_t undo_chunks_kept() const { return kept_; }

private:
    struct Before {  // the delta chunks an op replaced, as they were (null: absent)
        bool known = false;
        std::vector<ReplacedChunk> chunks;
    };
    std::shared_ptr<const Field> base_;
    std::vector<EditOp> ops_;
    void keep_before(std::size_t op, Before before);
    void forget_before(std::size_t op);

    std::vector<Before> before_;
    std::size_t applied_ = 0;
    ChunkDeltas deltas_;
    std::size_t cap_ = kDefaultUndoChunks;
    std::size_t kept_ = 0;  // chunks held by before_
};

}  // namespace isoterra
