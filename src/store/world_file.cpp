// The world file on SQLite. A file is checked before anything is written to it: SQLite
// header, application id, schema version, an integrity check, then every row read back
// (preset, ops, checksummed delta chunks). Only then is it switched to WAL mode and used.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dirent.h>
#include <fmt/format.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isoterra/base.hpp"
#include "isoterra/store.hpp"
#include "sqlite_calls.hpp"
#include "world_file_rows.hpp"

namespace isoterra {

// A database file and whatever journals SQLite may have left beside it.
void remove_world_file(const std::string& path) {
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) std::remove((path + suffix).c_str());
}

namespace {

constexpr std::int32_t kApplicationId = 0x49534f54;  // "ISOT"

// A graph's rasters as the settings row holds them: "digest path" a line.
std::string raster_rows(const std::vector<GraphRaster>& rasters) {
    std::string rows;
    for (const GraphRaster& r : rasters) rows += r.digest + " " + r.path + "\n";
    return rows;
}

// A count stored as decimal text (the undo cursor, the generation); throws unless it is one.
std::uint64_t count_of(const std::string& text, const char* what) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos || *end != '\0' || errno != 0)
        throw std::runtime_error(fmt::format("settings: the {} '{}' is not a count", what, text_excerpt(text)));
    return v;
}

constexpr const char* kSchema = R"(
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE operations (
  seq INTEGER PRIMARY KEY, brush TEXT NOT NULL, mode TEXT NOT NULL,
  x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL, radius REAL NOT NULL,
  strength REAL            -- NULL: no cap
);
CREATE TABLE deltas (
  cx INTEGER NOT NULL, cy INTEGER NOT NULL, cz INTEGER NOT NULL,
  blob BLOB NOT NULL, checksum INTEGER NOT NULL,
  PRIMARY KEY (cx, cy, cz)
) WITHOUT ROWID;
)";

// Reading failed: a lock or the disk (SQLite's own failure, not the file's contents), else the
// file is corrupt, said in one short line (SQLite's integrity report spans lines and the rows
// may hold anything).
[[noreturn]] void throw_unreadable(sqlite3* db, const std::string& path, const std::string& why) {
    if (sql::locked(db)) throw WorldFileWriteError(fmt::format("{}: locked by another process for too long ({}); try again", path, why));
    if (sql::io_failure(db)) throw WorldFileWriteError(fmt::format("{}: cannot read: {}", path, sql::reason(db)));
    throw WorldFileError(fmt::format("{}: corrupt world file: {}", path, text_excerpt(why, 300)));
}

// The application id and schema version: an isoterra world file that this isoterra reads.
void check_header(sqlite3* db, const std::string& path) {
    std::int64_t app = 0, version = 0;
    try {
        app = sql::pragma_int(db, "PRAGMA application_id");
        version = sql::pragma_int(db, "PRAGMA user_version");
    } catch (const std::exception& e) {
        if (sqlite3_errcode(db) == SQLITE_NOTADB)
            throw WorldFileError(fmt::format("{}: not an isoterra world file (not a SQLite database)", path));
        throw_unreadable(db, path, e.what());
    }
    if (app != kApplicationId || version < 1) throw WorldFileError(fmt::format("{}: not an isoterra world file", path));
    if (version > kWorldFileSchema)
        throw WorldFileError(fmt::format("{}: world file schema {} is newer than this isoterra reads ({}); use a newer isoterra", path,
                                         version, kWorldFileSchema));
}

// The settings table's rows, once SQLite's integrity check has passed (its quick check skips
// whether the indexes match the tables: a file whose key index has lost a row would read one
// generation here and another where a save looks it up by key).
struct Settings {
    std::string preset, applied, generation, directory, rasters;
};

Settings read_settings(sqlite3* db) {
    {
        sql::Statement check(db, "PRAGMA integrity_check");
        check.step();
        const std::string result = sql::column_text(check.get(), 0);
        if (result != "ok") throw std::runtime_error(result);
    }
    Settings rows;
    sql::Statement s(db, "SELECT key, value FROM settings");
    while (s.step()) {
        const std::string key = sql::column_text(s.get(), 0);
        if (key == "terrain_directory") rows.directory = sql::column_text(s.get(), 1);
        if (key == "rasters") rows.rasters = sql::column_text(s.get(), 1);
        if (key == "preset") rows.preset = sql::column_text(s.get(), 1);
        if (key == "applied") rows.applied = sql::column_text(s.get(), 1);
        if (key == "generation") rows.generation = sql::column_text(s.get(), 1);
    }
    if (rows.preset.empty() || rows.applied.empty() || rows.generation.empty())
        throw std::runtime_error("settings: the preset, the undo cursor or the generation is missing");
    return rows;
}

// Throws unless the graph reads the rasters the world file was made with (`stored`): its
// edits were made on those.
void check_rasters(const std::string& path, const std::string& stored, const std::vector<GraphRaster>& rasters) {
    const std::string now = raster_rows(rasters);
    if (now == stored) return;
    const auto shown = [](std::string list) {
        if (list.empty()) return std::string("none");
        list.pop_back();
        std::replace(list.begin(), list.end(), '\n', ';');
        return text_excerpt(list, 200);
    };
    throw WorldFileError(
        fmt::format("{}: a raster its graph reads has changed since the world file was made (was: {}; now: {}); "
                    "its edits were made on the old one",
                    path, shown(stored), shown(now)));
}

}  // namespace

// (The temporary terrain lives until the delegated constructor returns.)
WorldFile::WorldFile(const std::string& path, const KnobTerrain* knobs_for_new)
    : WorldFile(path, knobs_for_new ? std::make_unique<TerrainSource>(terrain_of(*knobs_for_new)).get() : nullptr) {}

WorldFile::WorldFile(const std::string& path, const TerrainSource* terrain_for_new) : path_(path) {
    std::string created_text;  // the terrain's text as this call stored it
    // SQLite writes a journal beside the file (WAL), even to read it.
    const std::string::size_type slash = path.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
        if (!terrain_for_new) throw WorldFileError(fmt::format("{}: no such world file", path));
        // A folder that is missing or cannot be written is the path's fault, not a failure
        // (SQLite would say "unable to open database file" and the errno of its last try).
        if (::access(folder.c_str(), W_OK | X_OK) != 0)
            throw WorldFileError(fmt::format("{}: cannot create: {} {} ({})", path, folder,
                                             errno == ENOENT || errno == ENOTDIR ? "is not a folder" : "cannot be written",
                                             std::strerror(errno)));
        remove_stale_temporaries();
        created_text = create(*terrain_for_new);
        created_ = true;
    } else if (!S_ISREG(st.st_mode)) {
        throw WorldFileError(fmt::format("{}: not a world file (not a regular file)", path));
    }
    if (::access(path.c_str(), R_OK | W_OK) != 0 || ::access(folder.c_str(), W_OK | X_OK) != 0)
        throw WorldFileError(
            fmt::format("{}: cannot open: the world file and its folder must be writable ({})", path, std::strerror(errno)));
    try {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
            throw WorldFileWriteError(fmt::format("{}: cannot open: {}", path, sql::reason(db_)));
        // Another process may be writing: wait for it, as every later statement does.
        sqlite3_busy_timeout(db_, 5000);
        load(created_ ? terrain_for_new : nullptr, created_text);
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        // A file this call made and could not open leaves nothing behind.
        if (created_) remove_world_file(path_);
        throw;
    }
}

void WorldFile::remove_stale_temporaries() const {
    // "<name>.new-<pid>" of a process that died while it created the file (killed, or the
    // machine went down): no one else can finish it.
    const std::string::size_type slash = path_.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "." : path_.substr(0, slash + 1);
    const std::string prefix = (slash == std::string::npos ? path_ : path_.substr(slash + 1)) + ".new-";
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) return;
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = name.substr(prefix.size());
        char* end = nullptr;
        const long pid = std::strtol(rest.c_str(), &end, 10);
        if (end == rest.c_str() || pid <= 0 || pid == ::getpid()) continue;
        const std::string suffix = end;
        if (!suffix.empty() && suffix != "-journal" && suffix != "-wal" && suffix != "-shm") continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            std::remove((slash == std::string::npos ? name : folder + name).c_str());
    }
    ::closedir(dir);
}

WorldFile::~WorldFile() { sqlite3_close(db_); }

std::string WorldFile::create(const TerrainSource& terrain) {
    // Built under a temporary name and linked into place, so that a new world file is whole
    // or absent, and an existing one is never replaced.
    // It is written with a rollback journal and synchronous commits: when COMMIT returns,
    // everything is in the file itself (in WAL mode the rows could sit in a -wal file that a
    // full disk keeps from being copied back at close). Opening switches it to WAL.
    const std::string tmp = fmt::format("{}.new-{}", path_, ::getpid());
    remove_world_file(tmp);
    sqlite3* db = nullptr;
    std::string text;
    try {
        text = terrain.to_text();
        if (sqlite3_open_v2(tmp.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
            throw std::runtime_error(sql::reason(db));
        sql::exec(db, fmt::format("PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA application_id = {}; "
                                  "PRAGMA user_version = {};",
                                  kApplicationId, kWorldFileSchema)
                          .c_str());
        sql::exec(db, "BEGIN");
        sql::exec(db, kSchema);
        {
            sql::Statement put(db, "INSERT INTO settings (key, value) VALUES (?, ?)");
            // A graph's rasters are found where its file was, and must stay as they were.
            const std::pair<const char*, std::string> rows[] = {{"preset", text},
                                                                {"applied", "0"},
                                                                {"generation", "0"},
                                                                {"terrain_directory", terrain.directory},
                                                                {"rasters", raster_rows(terrain.rasters)}};
            for (const auto& [key, value] : rows) {
                sqlite3_bind_text(put.get(), 1, key, -1, SQLITE_STATIC);
                sqlite3_bind_text(put.get(), 2, value.c_str(), -1, SQLITE_TRANSIENT);
                put.step();
                put.reset();
            }
        }
        sql::exec(db, "COMMIT");
        if (sqlite3_close(db) != SQLITE_OK) throw std::runtime_error(sql::reason(db));
        db = nullptr;
        if (::link(tmp.c_str(), path_.c_str()) == 0) {
            std::remove(tmp.c_str());
        } else {
            // A file system without hard links (FAT, a web page's memory file system) gets
            // a rename once the name is seen free: only a creator racing on such a file
            // system could then replace another's new, still empty world.
            const int e = errno;
            const bool no_links = e == EPERM || e == EMLINK || e == ENOSYS || e == EOPNOTSUPP;
            if (!no_links || ::access(path_.c_str(), F_OK) == 0) throw std::runtime_error(std::strerror(no_links ? EEXIST : e));
            if (::rename(tmp.c_str(), path_.c_str()) != 0) throw std::runtime_error(std::strerror(errno));
        }
    } catch (const std::exception& e) {
        const std::string why = db ? sql::reason(db) : e.what();
        sqlite3_close(db);
        remove_world_file(tmp);
        throw WorldFileWriteError(fmt::format("{}: cannot create: {}", path_, why));
    }
    return text;
}

void WorldFile::load(const TerrainSource* created_from, const std::string& created_text) {
    check_header(db_, path_);
    try {
        const Settings settings = read_settings(db_);
        generation_ = static_cast<std::int64_t>(count_of(settings.generation, "generation"));
        try {
            // What this call just stored reads back as the terrain it came from (to_text's
            // promise): taken as it is, without compiling its graph again.
            if (created_from && settings.preset == created_text && settings.directory == created_from->directory) terrain_ = *created_from;
            else terrain_ = parse_terrain_source(settings.preset, "stored preset", settings.directory);
        } catch (const RasterError& e) {
            throw WorldFileError(fmt::format("{}: its graph's raster: {}", path_, e.what()));
        } catch (const TerrainError& e) {
            throw std::runtime_error(e.what());
        }
        check_rasters(path_, settings.rasters, terrain_.rasters);
        ops_ = read_operations(db_);
        const std::uint64_t applied = count_of(settings.applied, "undo cursor");
        if (applied > ops_.size()) throw std::runtime_error(fmt::format("undo cursor {} outside the {} operations", applied, ops_.size()));
        applied_ = static_cast<std::size_t>(applied);
        read_deltas(db_, ops_, deltas_);
    } catch (const WorldFileError&) {
        throw;  // said in full already
    } catch (const std::runtime_error& e) {
        throw_unreadable(db_, path_, e.what());
    }
    // Checked: from here on the file is ours to write.
    try {
        sql::exec(db_, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;");
    } catch (const std::runtime_error& e) {
        if (sql::locked(db_)) throw WorldFileWriteError(fmt::format("{}: locked by another process for too long; try again", path_));
        throw WorldFileWriteError(fmt::format("{}: cannot open for writing: {}", path_, sql::reason(db_)));
    }
}

void WorldFile::checkpoint() {
    if (sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr) != SQLITE_OK)
        throw WorldFileWriteError(fmt::format("{}: {}", path_, sql::reason(db_)));
}

void WorldFile::save(const EditHistory& history, std::size_t first_new, const std::vector<ChunkCoord>& changed) {
    const auto throw_save_error = [&](const std::string& why, bool was_locked) {
        if (was_locked) throw WorldFileWriteError(fmt::format("{}: cannot save: locked by another process for too long; try again", path_));
        throw WorldFileWriteError(fmt::format("{}: cannot save: {}", path_, why));
    };
    try {
        sql::exec(db_, "BEGIN IMMEDIATE");
        try {
            {
                // Another process that saved meanwhile would have its edits overwritten.
                sql::Statement read(db_, "SELECT value FROM settings WHERE key = 'generation'");
                const std::int64_t now = read.step() ? sqlite3_column_int64(read.get(), 0) : 0;
                if (now != generation_) throw std::runtime_error("another process changed the file since it was opened; open it again");
                sql::Statement bump(db_, "INSERT OR REPLACE INTO settings (key, value) VALUES ('generation', ?)");
                sqlite3_bind_int64(bump.get(), 1, generation_ + 1);
                bump.step();
            }
            {
                sql::Statement drop(db_, "DELETE FROM operations WHERE seq >= ?");
                sqlite3_bind_int64(drop.get(), 1, static_cast<std::int64_t>(first_new));
                drop.step();
            }
            {
                sql::Statement put(db_,
                                   "INSERT INTO operations (seq, brush, mode, x, y, z, radius, strength) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
                const auto& ops = history.ops();
                for (std::size_t i = first_new; i < ops.size(); ++i) {
                    const EditOp& op = ops[i];
                    sqlite3_bind_int64(put.get(), 1, static_cast<std::int64_t>(i));
                    sqlite3_bind_text(put.get(), 2, brush_name(op.kind), -1, SQLITE_STATIC);
                    sqlite3_bind_text(put.get(), 3, brush_mode_name(op.mode), -1, SQLITE_STATIC);
                    sqlite3_bind_double(put.get(), 4, op.centre.x);
                    sqlite3_bind_double(put.get(), 5, op.centre.y);
                    sqlite3_bind_double(put.get(), 6, op.centre.z);
                    sqlite3_bind_double(put.get(), 7, op.radius_m);
                    if (std::isinf(op.strength_m)) sqlite3_bind_null(put.get(), 8);
                    else sqlite3_bind_double(put.get(), 8, op.strength_m);
                    put.step();
                    put.reset();
                }
            }
            {
                sql::Statement cursor(db_, "UPDATE settings SET value = ? WHERE key = 'applied'");
                const std::string applied = std::to_string(history.applied());
                sqlite3_bind_text(cursor.get(), 1, applied.c_str(), -1, SQLITE_TRANSIENT);
                cursor.step();
            }
            sql::Statement put(db_, "INSERT OR REPLACE INTO deltas (cx, cy, cz, blob, checksum) VALUES (?, ?, ?, ?, ?)");
            sql::Statement drop(db_, "DELETE FROM deltas WHERE cx = ? AND cy = ? AND cz = ?");
            for (const ChunkCoord& c : changed) {
                const DeltaChunk* chunk = history.deltas().find(c);
                sql::Statement& s = chunk ? put : drop;
                sqlite3_bind_int(s.get(), 1, c.x);
                sqlite3_bind_int(s.get(), 2, c.y);
                sqlite3_bind_int(s.get(), 3, c.z);
                std::vector<std::uint8_t> blob;
                if (chunk) {
                    blob = encode_delta_chunk(*chunk);
                    sqlite3_bind_blob(s.get(), 4, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
                    sqlite3_bind_int64(s.get(), 5, static_cast<std::int64_t>(blob_checksum(blob.data(), blob.size())));
                }
                s.step();
                s.reset();
            }
            sql::exec(db_, "COMMIT");
            ++generation_;
        } catch (const std::exception& e) {
            // What went wrong, read before ROLLBACK resets it.
            const bool was_locked = sql::locked(db_);
            const std::string why = sql::io_failure(db_) ? sql::reason(db_) : e.what();
            sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
            throw_save_error(why, was_locked);
        }
    } catch (const WorldFileWriteError&) {
        throw;
    } catch (const std::exception& e) {
        throw_save_error(sql::io_failure(db_) ? sql::reason(db_) : e.what(), sql::locked(db_));
    }
}

}  // namespace isoterra
