// The field and edits a subcommand works on, from --preset/--config/--seed or --world.
#include "edit_session.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace isoterra::app {

void WorldFileOption::add_to(CLI::App& cmd, bool required, bool creates) {
    auto* o = cmd.add_option("--world", path,
                             creates ? "World file (SQLite) with edits; created with the preset given when missing"
                                     : "World file (SQLite) with edits");
    if (required) o->required();
}

namespace {

std::unique_ptr<WorldFile> open_file(const std::string& path, const Preset* preset_for_new) {
    try {
        return std::make_unique<WorldFile>(path, preset_for_new);
    } catch (const WorldFileError& e) {
        throw UsageError(e.what());
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());  // a full disk, a lock held too long: the file is fine
    }
}

}  // namespace

EditSession::EditSession(const FieldOptions& field, const std::string& world_path, bool create) : path_(world_path) {
    if (world_path.empty()) {
        *this = EditSession(field.load());
        return;
    }
    const Preset wanted = field.load();
    auto file = open_file(world_path, create ? &wanted : nullptr);
    preset_ = file->preset();
    if (!file->created() && field.given() && (wanted.name != preset_.name || wanted.seed != preset_.seed))
        std::fprintf(stderr, "note: %s keeps its own preset '%s' (seed %u); --preset/--config/--seed ignored\n", world_path.c_str(),
                     preset_.name.c_str(), preset_.seed);
    field_ = make_terrain(preset_, preset_.seed);
    editor_ = std::make_unique<WorldEditor>(field_, std::move(file));
}

EditSession::EditSession(const Preset& preset)
    : preset_(preset), field_(make_terrain(preset, preset.seed)), editor_(std::make_unique<WorldEditor>(field_, nullptr)) {}

Box EditSession::apply(const EditOp& op) {
    if (const std::string bad = validate_edit(op); !bad.empty()) throw UsageError(bad);
    try {
        return editor_->apply(op);
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());
    }
}

bool EditSession::undo(Box& box) {
    try {
        return editor_->undo(box);
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());
    }
}

bool EditSession::redo(Box& box) {
    try {
        return editor_->redo(box);
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());
    }
}

}  // namespace isoterra::app
