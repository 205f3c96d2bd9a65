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

std::unique_ptr<WorldFile> open_file(const std::string& path, const TerrainSource* terrain_for_new) {
    try {
        return std::make_unique<WorldFile>(path, terrain_for_new);
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
    const TerrainSource wanted = field.load();
    auto file = open_file(world_path, create ? &wanted : nullptr);
    terrain_ = file->terrain();
    if (!file->created() && field.given() && (wanted.name != terrain_.name || wanted.seed != terrain_.seed))
        std::fprintf(stderr, "note: %s keeps its own %s '%s' (seed %u); --preset/--config/--seed ignored\n", printable(world_path).c_str(),
                     terrain_.is_graph() ? "graph" : "preset", printable(terrain_.name, 100).c_str(), terrain_.seed);
    created_ = file->created();
    field_ = terrain_.make_field();
    editor_ = std::make_unique<WorldEditor>(field_, std::move(file));
}

EditSession::EditSession(const TerrainSource& terrain)
    : terrain_(terrain), field_(terrain.make_field()), editor_(std::make_unique<WorldEditor>(field_, nullptr)) {}

Box EditSession::apply(const EditOp& op) {
    if (const std::string bad = validate_edit(op); !bad.empty()) throw UsageError(bad);
    try {
        const Box box = editor_->apply(op);
        saved_ = true;
        return box;
    } catch (const WorldFileWriteError& e) {
        // A world file this command made and could not save its first edit into (a full
        // disk) is removed: a failed command leaves nothing new.
        if (!created_ || saved_) throw Failure(e.what());
        editor_ = std::make_unique<WorldEditor>(field_, nullptr);
        remove_world_file(path_);
        throw Failure(fmt::format("{}; the new world file was removed", e.what()));
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
