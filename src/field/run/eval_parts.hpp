// The evaluator's parts (internal to field/): one node run over its lanes
// (run/eval.cpp), the buffers of a run and the nodes an output needs (run/workspace.cpp),
// a node run on a coarser global grid and interpolated (run/gridded.cpp). The point and
// column paths (run/workspace.cpp) and the lattice path (run/lattice.cpp) are made of them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "eval.hpp"
#include "field/compile/program.hpp"

namespace isoterra::graph::eval {

// Which loops a run's nodes take: the point path's (sample_points, as the JavaScript
// reference), or the lattice and column paths' (a row's lattice_pointwise where it has one).
enum class Path : std::uint8_t { lattice, points };

// Runs `node` over the lanes `l` (its row's loop for `path`: run/eval.cpp).
void evaluate(const Node& node, const Lanes& l, Path path);
using graph::PointwiseLanes;
// True for a node type whose value at a lane depends on its inputs and the position at that
// lane alone: run off a grid, it may run over any split of the lanes with the same bits.
bool is_pointwise(const Node& node);
// The loop of pointwise node `node` on `path`.
using PointwiseLoop = void (*)(const Node&, const PointwiseLanes&);
PointwiseLoop pointwise_loop(const Node& node, Path path);

// True for a node of x and z only (run once per column of a lattice).
inline bool is_column(const Node& node) { return !(node.axes & kY); }

// The nodes `outputs` need that are run (not folded), in order; a node run on a grid reads
// its inputs at the grid's nodes itself, so what only it reads is not run at the lanes.
std::vector<int> needed_by(const Program& program, const std::vector<Operand>& outputs);
std::vector<int> needed_by(const Program& program, const Operand& output);

// True when every lane lies on a node of the grid of step g: a node on that grid runs there
// as any other (its inputs read at those very points).
bool on_grid(double g, const double* x, const double* z, std::size_t count);

// An allocator of whole cache lines: a 64-byte vector load or store of lanes from the start of
// such a buffer never splits across two lines (they are twice the cost).
template <class T>
struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <class U>
    CacheLineAllocator(const CacheLineAllocator<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64})); }
    void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{64}); }
    bool operator==(const CacheLineAllocator&) const { return true; }
};
using LaneBuffer = std::vector<double, CacheLineAllocator<double>>;

// Buffers for one run: per node and port, `lanes` doubles; constants broadcast.
class Workspace {
public:
    // The buffers of `lanes` lanes of a run on `path` (the point path only for sample_points).
    Workspace(const Program& program, std::size_t lanes, Path path = Path::lattice) : program_(program), lanes_(lanes), path_(path) {
        // The lane buffers of an earlier workspace on this thread, when there is one: a chunk
        // makes several, and fresh ones cost their allocations and zeroing each time.
        if (!spare().empty()) buffers_ = std::move(spare().back()), spare().pop_back();
        buffers_.resize(program.nodes.size() * kMaxPorts);
        constants_.resize(program.nodes.size());
        done_.assign(program.nodes.size(), 0);
    }
    ~Workspace() {
        if (spare().size() < 8) spare().push_back(std::move(buffers_));
    }
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;
    // A new set of lanes (positions): what was run before is stale.
    void begin_pass() { ++pass_; }
    double* buffer(int node, int port) {
        LaneBuffer& b = buffers_[static_cast<std::size_t>(node) * kMaxPorts + static_cast<std::size_t>(port)];
        b.resize(lanes_);
        return b.data();
    }
    // The lanes of input `i` of node `n`: its source's buffer, or the number repeated (filled
    // once per workspace: a program's numbers never change).
    const double* operand(int n, std::size_t i) {
        const Operand& op = program_.nodes[static_cast<std::size_t>(n)].in[i];
        if (!op.is_constant()) return buffer(op.node, op.port);
        std::vector<LaneBuffer>& per_input = constants_[static_cast<std::size_t>(n)];
        if (per_input.size() <= i) per_input.resize(i + 1);
        if (per_input[i].empty()) per_input[i].assign(lanes_, op.constant);
        return per_input[i].data();
    }
    // Runs node `n` over the first `count` lanes.
    void run(int n, const NoiseSet& noise, const double* x, const double* y, const double* z, std::size_t count);
    // Runs `node` over `count` lanes at x, y, z (y null for columns): its inputs' lanes `in`
    // (one per input), its outputs `out` (one per port).
    void run_node(const NoiseSet& noise, const Node& node, const double* const* in, double* const* out, const double* x, const double* y,
                  const double* z, std::size_t count) const;
    Path path() const { return path_; }
    // Node `n` was run in this pass by other means (a fused run).
    void mark_done(int n) { done_[static_cast<std::size_t>(n)] = pass_; }
    // The lanes lie in a World column: `lod` noises simplified by these weights (one per lane).
    void set_lod(const LodLanes& lod) { lod_ = lod; }
    const LodLanes& lod() const { return lod_; }

private:
    // Node `n` (grid_m > 0) at `count` lanes, through the nodes of its grid around them
    // (run/gridded.cpp).
    void run_gridded(int n, const NoiseSet& noise, const double* x, const double* z, std::size_t count, double* const* out);
    static std::vector<std::vector<LaneBuffer>>& spare() {
        thread_local std::vector<std::vector<LaneBuffer>> buffers;
        return buffers;
    }
    const Program& program_;
    std::size_t lanes_;
    Path path_;
    std::vector<LaneBuffer> buffers_;
    std::vector<std::vector<LaneBuffer>> constants_;
    std::vector<const double*> inputs_;
    std::vector<std::uint32_t> done_;  // per node: the pass it last ran in
    std::uint32_t pass_ = 1;
    LodLanes lod_;
};

// Lanes a block of a fused run: 16 slots of them are 32 KB, within the first-level cache of
// the CPUs here.
inline constexpr std::size_t kFusedBlock = 256;

// Per gate (Program::gates), per block of kFusedBlock lanes of a batch: 1 where the gate
// skipped its noise at every lane of the block (empty: not known).
using SkippedBlocks = std::vector<std::vector<char>>;

// A run of pointwise nodes (run/fused.cpp) run together over blocks of lanes that stay in the
// first-level cache: only the values `read_outside` the run are stored to their buffers. A
// guard of `active_gates` in the run (a min, max or CSG node deciding by its other side alone
// where its gate skipped the noise) takes that side as it is in a block its gate skipped
// whole, and the nodes only its gated side needs are not run there.
class FusedRun {
public:
    FusedRun(const Program& program, const std::vector<int>& nodes, const std::vector<bool>& read_outside,
             const std::vector<int>& active_gates = {});
    // Runs the nodes over the first `count` lanes of `work`'s buffers at x, y, z.
    void run(Workspace& work, const double* x, const double* y, const double* z, std::size_t count,
             const SkippedBlocks* skipped = nullptr) const;

private:
    struct Step {
        int node = -1;
        std::array<int, 3> in_step{-1, -1, -1};  // per input: the step of this run that makes it, or -1
        bool stored = false;                     // kept in the node's buffer (read outside the run)
        int slot = -1;                           // else its scratch slot
    };
    // A guard in the run whose gates may skip its side: in such a block it copies input
    // `other`, and the steps `unneeded` marks are passed over.
    struct Prune {
        int guard_step = -1;
        int other = 0;
        std::vector<int> gates;
        std::vector<bool> unneeded;  // per step
    };
    void find_prunes(const std::vector<bool>& read_outside, const std::vector<int>& active_gates);

    const Program* program_;
    std::vector<Step> steps_;
    std::vector<Prune> prunes_;
    int slots_ = 0;
};

}  // namespace isoterra::graph::eval
