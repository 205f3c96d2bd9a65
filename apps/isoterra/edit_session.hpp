// The terrain a subcommand works on: a preset's, or a world file's (--world) with its edits.
// Edits made here go to the world file, one transaction each.
#pragma once

#include <memory>
#include <string>

#include "cli.hpp"
#include "isoterra/edit.hpp"
#include "isoterra/store.hpp"

namespace isoterra::app {

/// --world FILE.db, for the subcommands that show or export an edited world.
struct WorldFileOption {
    std::string path;
    void add_to(CLI::App& cmd, bool required = false, bool creates = true);
};

class EditSession {
public:
    /// Without `world_path`: the preset of `field` and no edits. With it: opens the world
    /// file, creating it from `field`'s preset when `create` is true and the file is
    /// missing; an existing file keeps its own preset (a note says so when `field` named
    /// another). Throws UsageError for a bad file.
    EditSession(const FieldOptions& field, const std::string& world_path, bool create = true);
    /// `terrain` and no edits, no file (the viewer's preset and seed controls).
    explicit EditSession(const TerrainSource& terrain);

    /// The preset or graph, with its seed.
    const TerrainSource& terrain() const { return terrain_; }
    std::shared_ptr<const Field> field() const { return field_; }
    /// A snapshot of the current deltas, for a World or a mesher.
    std::shared_ptr<const ChunkDeltas> deltas() const { return std::make_shared<const ChunkDeltas>(history().deltas()); }
    const EditHistory& history() const { return editor_->history(); }
    bool has_file() const { return editor_->file() != nullptr; }
    const std::string& path() const { return path_; }

    /// Applies `op` and saves it; returns the box of samples it changed. Throws UsageError
    /// for a bad op, Failure when the save fails (then neither the file nor the session
    /// changed; a file this session created and never saved into is removed, and the
    /// session goes on without a file).
    Box apply(const EditOp& op);
    /// Takes back the last edit / applies the next undone one, and saves; returns false
    /// when there is none. `changed` gets the box of samples that changed.
    bool undo(Box& changed);
    bool redo(Box& changed);

private:
    std::string path_;
    TerrainSource terrain_;
    std::shared_ptr<const Field> field_;
    std::unique_ptr<WorldEditor> editor_;
    bool created_ = false, saved_ = false;
};

}  // namespace isoterra::app
