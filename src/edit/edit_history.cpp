// The operation log with undo and redo. Undo swaps back the delta chunks an op replaced
// when this log applied it (cheap: chunks are shared, never changed in place); for ops
// loaded from a file it replays the log from the base instead, which gives the same bits.
#include <algorithm>

#include "isoterra/edit.hpp"

namespace isoterra {

ChunkDeltas replay_edits(const Field& base, const std::vector<EditOp>& ops, std::size_t count) {
    ChunkDeltas deltas;
    for (std::size_t i = 0; i < count && i < ops.size(); ++i) apply_edit(base, ops[i], deltas);
    return deltas;
}

EditHistory::EditHistory(std::shared_ptr<const Field> base, std::size_t undo_chunks) : base_(std::move(base)), cap_(undo_chunks) {}

EditHistory::EditHistory(std::shared_ptr<const Field> base, std::vector<EditOp> ops, std::size_t applied, ChunkDeltas deltas,
                         std::size_t undo_chunks)
    : base_(std::move(base)), ops_(std::move(ops)), before_(ops_.size()), applied_(std::min(applied, ops_.size())),
      deltas_(std::move(deltas)), cap_(undo_chunks) {}

void EditHistory::forget_before(std::size_t op) {
    kept_ -= before_[op].chunks.size();
    before_[op] = Before{};
}

void EditHistory::keep_before(std::size_t op, Before before) {
    forget_before(op);
    kept_ += before.chunks.size();
    before_[op] = std::move(before);
    // Over the cap: let the oldest ops' chunks go (undoing those replays the log).
    for (std::size_t i = 0; kept_ > cap_ && i < before_.size(); ++i)
        if (i != op && !before_[i].chunks.empty()) forget_before(i);
    if (kept_ > cap_) forget_before(op);
}

std::vector<ChunkCoord> EditHistory::apply(const EditOp& op) {
    for (std::size_t i = applied_; i < before_.size(); ++i) forget_before(i);
    ops_.resize(applied_);
    before_.resize(applied_);
    ops_.push_back(op);
    before_.emplace_back();
    std::vector<ChunkCoord> changed;
    Box box;
    redo(changed, box);
    return changed;
}

bool EditHistory::undo(std::vector<ChunkCoord>& changed, Box& box) {
    changed.clear();
    if (applied_ == 0) return false;
    --applied_;
    box = edit_box(ops_[applied_]);
    Before& before = before_[applied_];
    if (before.known) {
        for (const auto& [c, chunk] : before.chunks) {
            changed.push_back(c);
            deltas_.set(c, chunk);
        }
        return true;
    }
    // Only the undone op's box can differ: the ops before it replay to the same bits.
    ChunkDeltas fresh = replay_edits(*base_, ops_, applied_);
    for (const auto* side : {&deltas_, &fresh})
        for (const auto& [c, chunk] : side->chunks()) {
            const DeltaChunk* a = deltas_.find(c);
            const DeltaChunk* b = fresh.find(c);
            if ((a == nullptr) != (b == nullptr) || (a && a->values != b->values))
                if (std::find(changed.begin(), changed.end(), c) == changed.end()) changed.push_back(c);
        }
    deltas_ = std::move(fresh);
    return true;
}

bool EditHistory::redo(std::vector<ChunkCoord>& changed, Box& box) {
    changed.clear();
    if (applied_ == ops_.size()) return false;
    const EditOp op = ops_[applied_];
    box = edit_box(op);
    Before before{true, {}};
    changed = apply_edit(*base_, op, deltas_, &before.chunks);
    keep_before(applied_, std::move(before));
    ++applied_;
    return true;
}

}  // namespace isoterra
