// The terrain a subcommand works on: a preset's, or a world file's (--world) with its edits.
// Edits made here go to the world file, one transaction each.
#pragma once

#include <exception>
#include <memory>
#include <string>

#include "cli.hpp"
#include "isoterra/session.hpp"

namespace isoterra::app {

/// --world FILE.db, for the subcommands that show or export an edited world.
struct WorldFileOption {
    std::string path;
    void add_to(CLI::App& cmd, bool required = false, bool creates = true);
};

/// The library's Session with the program's errors: UsageError for bad input, Failure for a
/// file that cannot be saved.
class EditSession {
public:
    /// Without `world_path`: the preset of `field` and no edits. With it: opens the world
    /// file, creating it from `field`'s preset when `create` is true and the file is
    /// missing; an existing file keeps its own preset (a note says so when `field` named
    /// another). Throws UsageError for a bad file. A file made here is removed again when
    /// the command fails (an exception leaves the scope of this object): a failed command
    /// leaves no new world file behind.
    EditSession(const FieldOptions& field, const std::string& world_path, bool create = true);

    /// The preset or graph, with its seed.
    const TerrainSource& terrain() const { return session_.terrain(); }
    std::shared_ptr<const Field> field() const { return session_.field(); }
    /// A snapshot of the current deltas, for a World or a mesher.
    std::shared_ptr<const ChunkDeltas> deltas() const { return session_.deltas(); }
    const EditHistory& history() const { return session_.history(); }
    bool has_file() const { return session_.file() != nullptr; }
    const std::string& path() const { return path_; }
    /// The session itself (the viewer's World, camera and brush).
    Session& session() { return session_; }

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
    // Removes the world file a failing command made; a member before session_, so it runs
    // after the session has closed the file.
    struct RemoveIfFailed {
        std::string path;
        bool created = false;
        int exceptions = std::uncaught_exceptions();
        ~RemoveIfFailed();
    };
    std::string path_;
    RemoveIfFailed made_;
    Session session_;
};

}  // namespace isoterra::app
