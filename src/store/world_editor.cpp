// The edit history and the world file in step: apply in memory, save in one transaction,
// and put the memory back when the save fails, so that the two never disagree.
#include <algorithm>

#include "isoterra/store.hpp"

namespace isoterra {

WorldEditor::WorldEditor(std::shared_ptr<const Field> base, std::unique_ptr<WorldFile> file)
    : history_(file ? EditHistory(base, file->ops(), file->applied(), file->deltas()) : EditHistory(base)), file_(std::move(file)),
      stored_ops_(history_.ops().size()) {}

void WorldEditor::save(std::size_t first_new, const std::vector<ChunkCoord>& changed) {
    if (!file_) return;
    // Ops the file has not got yet (one whose save failed) go with this save.
    file_->save(history_, std::min(first_new, stored_ops_), changed);
    stored_ops_ = history_.ops().size();
}

Box WorldEditor::apply(const EditOp& op) {
    const std::size_t first_new = history_.applied();
    const auto changed = history_.apply(op);
    try {
        save(first_new, changed);
    } catch (const WorldFileWriteError&) {
        std::vector<ChunkCoord> back;
        Box box;
        history_.undo(back, box);  // the op stays as an undone one, which the file lacks
        throw;
    }
    return edit_box(op);
}

bool WorldEditor::walk(bool forward, Box& box) {
    std::vector<ChunkCoord> changed;
    if (!(forward ? history_.redo(changed, box) : history_.undo(changed, box))) return false;
    try {
        save(history_.ops().size(), changed);
    } catch (const WorldFileWriteError&) {
        Box again;
        forward ? history_.undo(changed, again) : history_.redo(changed, again);
        throw;
    }
    return true;
}

}  // namespace isoterra
