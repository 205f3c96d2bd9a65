// The field and edits a subcommand works on, from --preset/--config/--seed or --world.
#include "edit_session.hpp"

#include <cstdio>

#include "isoterra/store.hpp"

namespace isoterra::app {

void WorldFileOption::add_to(CLI::App& cmd, bool required, bool creates) {
    auto* o = cmd.add_option(
        "--world", path,
        creates ? "World file (SQLite) with edits; created with the preset given when missing" : "World file (SQLite) with edits");
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

Session make_session(const FieldOptions& field, const std::string& world_path, bool create) {
    if (world_path.empty()) return Session(field.load());
    const TerrainSource wanted = field.load();
    auto file = open_file(world_path, create ? &wanted : nullptr);
    const TerrainSource& kept = file->terrain();
    if (!file->created() && field.given() && (wanted.name != kept.name || wanted.seed != kept.seed))
        std::fprintf(stderr, "note: %s keeps its own %s '%s' (seed %u); --preset/--config/--seed ignored\n", printable(world_path).c_str(),
                     kept.is_graph() ? "graph" : "preset", printable(kept.name, 100).c_str(), kept.seed);
    return Session(std::move(file));
}

}  // namespace

EditSession::EditSession(const FieldOptions& field, const std::string& world_path, bool create)
    : path_(world_path), made_{world_path}, session_(make_session(field, world_path, create)) {
    made_.created = session_.file() && session_.file()->created();
}

EditSession::RemoveIfFailed::~RemoveIfFailed() {
    if (created && std::uncaught_exceptions() > exceptions) remove_world_file(path);
}

Box EditSession::apply(const EditOp& op) {
    if (const std::string bad = validate_edit(op); !bad.empty()) throw UsageError(bad);
    try {
        return session_.apply(op);
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());
    }
}

bool EditSession::undo(Box& box) {
    try {
        return session_.undo(box);
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());
    }
}

bool EditSession::redo(Box& box) {
    try {
        return session_.redo(box);
    } catch (const WorldFileWriteError& e) {
        throw Failure(e.what());
    }
}

}  // namespace isoterra::app
