// The world file (SQLite): the preset and seed a world was made with, its operation log
// with the undo cursor, and its delta chunks compressed with zstd, each with a checksum.
// Every save is one transaction in WAL mode, so a process killed at any moment leaves the
// file as it was after the last finished save.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "isoterra/edit.hpp"
#include "isoterra/graph.hpp"

struct sqlite3;

namespace isoterra {

/// A file that is not a readable world file (corrupt, truncated, from a newer schema, not a
/// world file at all): what() is one line naming the file. Nothing in it was changed.
class WorldFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Removes the world file at `path` with SQLite's journals beside it (-journal, -wal, -shm).
void remove_world_file(const std::string& path);

/// A create, open or save that failed although the file was fine (disk full, locked): what()
/// is one line. A save's transaction was rolled back.
class WorldFileWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The schema this build writes and the newest it reads.
inline constexpr int kWorldFileSchema = 1;

/// Returns a delta chunk as stored: "ITD1", the sample count, then the deltas' four byte
/// planes compressed with zstd.
std::vector<std::uint8_t> encode_delta_chunk(const DeltaChunk& chunk);
/// Decodes a stored delta chunk; throws std::runtime_error saying what is wrong with the
/// bytes. Reads nothing outside [data, data + size).
DeltaChunk decode_delta_chunk(const std::uint8_t* data, std::size_t size);
/// The checksum stored beside each blob: 64-bit FNV-1a of its bytes.
std::uint64_t blob_checksum(const std::uint8_t* data, std::size_t size);

class WorldFile {
public:
    /// Opens the world file at `path` and reads everything in it, checksums checked. When
    /// `path` does not exist and `terrain_for_new` is given, creates it (atomically: a new
    /// file appears whole or not at all; temporaries of creators that died are removed)
    /// holding that terrain. Throws WorldFileError for a file that is not a good world file,
    /// WorldFileWriteError when the disk, memory or a lock held too long by another process
    /// failed it (a file it created is then removed again).
    WorldFile(const std::string& path, const TerrainSource* terrain_for_new);
    /// The same with a knob terrain for a new file.
    WorldFile(const std::string& path, const KnobTerrain* knobs_for_new);
    /// Opens an existing world file only.
    WorldFile(const std::string& path, std::nullptr_t) : WorldFile(path, static_cast<const TerrainSource*>(nullptr)) {}
    ~WorldFile();
    WorldFile(const WorldFile&) = delete;
    WorldFile& operator=(const WorldFile&) = delete;

    const std::string& path() const { return path_; }
    bool created() const { return created_; }
    /// The preset or graph (with its seed) the world was made with.
    const TerrainSource& terrain() const { return terrain_; }
    /// The knob terrain the world was made with (a world made from a graph has none: defaults).
    const KnobTerrain& knob_terrain() const { return terrain_.knobs; }
    /// The operation log and how many of its ops are in effect, as read at open.
    const std::vector<EditOp>& ops() const { return ops_; }
    std::size_t applied() const { return applied_; }
    /// The delta chunks as read at open.
    const ChunkDeltas& deltas() const { return deltas_; }

    /// Saves `history` in one transaction: its ops from `first_new` on replace the stored
    /// ones from there, the undo cursor, and the delta chunks in `changed` (written, or
    /// removed where the history holds none). Throws WorldFileWriteError, and refuses when
    /// another process saved to the file since this one opened or last saved it.
    void save(const EditHistory& history, std::size_t first_new, const std::vector<ChunkCoord>& changed);
    /// Copies what the write-ahead log holds into the file itself, so that the file's bytes
    /// alone are the world (a web page keeps and exports them). Throws WorldFileWriteError.
    void checkpoint();

private:
    std::string create(const TerrainSource& terrain);  // returns the terrain's text as stored
    void remove_stale_temporaries() const;
    void load(const TerrainSource* created_from, const std::string& created_text);

    std::string path_;
    bool created_ = false;
    sqlite3* db_ = nullptr;
    TerrainSource terrain_;
    std::vector<EditOp> ops_;
    std::size_t applied_ = 0;
    ChunkDeltas deltas_;
    std::int64_t generation_ = 0;  // counts the saves; another writer's save moves it
};

/// A world's edit history and, optionally, its world file together: each edit, undo and
/// redo is applied in memory and saved in one transaction. When the save fails, the memory
/// goes back to what the file holds and the error is thrown: the two never disagree.
class WorldEditor {
public:
    /// Edits over `base` starting from what `file` holds, or from nothing when it is null
    /// (memory only). `base` must be the file's preset's field.
    WorldEditor(std::shared_ptr<const Field> base, std::unique_ptr<WorldFile> file);

    const EditHistory& history() const { return history_; }
    WorldFile* file() const { return file_.get(); }

    /// Applies `op` (valid: see validate_edit), dropping the undone ops. Returns the box of
    /// samples it changed. Throws WorldFileWriteError.
    Box apply(const EditOp& op);
    /// Takes back the last op / applies the next undone one; false when there is none.
    /// `changed` gets the box of samples that changed. Throws WorldFileWriteError.
    bool undo(Box& changed) { return walk(false, changed); }
    bool redo(Box& changed) { return walk(true, changed); }

private:
    bool walk(bool forward, Box& changed);
    void save(std::size_t first_new, const std::vector<ChunkCoord>& changed);

    EditHistory history_;
    std::unique_ptr<WorldFile> file_;
    std::size_t stored_ops_ = 0;  // how many ops the file holds
};

}  // namespace isoterra
