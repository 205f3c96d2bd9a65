#include "edit_session.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace isoterra::app {

void WorldFileOption::add_to(CLI::App& cmd, bool required) {
    auto* o = cmd.add_option("--world", path, "World file (SQLite) with edits; created with the preset given when missing");
    if (required) o->required();
}

namespace {

std::unique_ptr<WorldFile> open_file(const std::string& path, const Preset* preset_for_new) {
    try {
        return std::make_unique<WorldFile>(path, preset_for_new);
    } catch (const WorldFileError& e) {
        throw UsageError(e.what());
    }
}

}  // namespace

EditSession::EditSession(const FieldOptions& field, const std::string& world_path, bool create)
    : path_(world_path), history_(nullptr) {
    if (world_path.empty()) {
        *this = EditSession(field.load());
        return;
    }
    const Preset wanted = field.load();
    file_ = open_file(world_path, create ? &wanted : nullptr);
    preset_ = file_->preset();
    if (!file_->created() && field.given() && (wanted.name != preset_.name || wanted.seed != preset_.seed))
        std::fprintf(stderr, "note: %s keeps its own preset '%s' (seed %u); --preset/--config/--seed ignored\n", world_path.c_str(),
                     preset_.name.c_str(), preset_.seed);
    field_ = make_terrain(preset_, preset_.seed);
    history_ = EditHistory(field_, file_->ops(), file_->applied(), file_->deltas());
}

EditSession::EditSession(const Preset& preset)
    : preset_(preset), field_(make_terrain(preset, preset.seed)), history_(field_) {}

void EditSession::save(std::size_t first_new, const std::vector<ChunkCoord>& changed) {
    if (!file_) return;
    try {
        file_->save(history_, first_new, changed);
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());
    }
}

Box EditSession::apply(const EditOp& op) {
    if (const std::string bad = validate_edit(op); !bad.empty()) throw UsageError(bad);
    const std::size_t first_new = history_.applied();
    const auto changed = history_.apply(op);
    save(first_new, changed);
    return edit_box(op);
}

bool EditSession::undo(Box& box) {
    std::vector<ChunkCoord> changed;
    if (!history_.undo(changed, box)) return false;
    save(history_.ops().size(), changed);
    return true;
}

bool EditSession::redo(Box& box) {
    std::vector<ChunkCoord> changed;
    if (!history_.redo(changed, box)) return false;
    save(history_.ops().size(), changed);
    return true;
}

}  // namespace isoterra::app
