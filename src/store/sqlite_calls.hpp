// Calls into SQLite as the world file makes them (internal to store/): a prepared statement
// finalized on scope exit, statements run or throw, and what an error was (a lock, the disk,
// or the file's contents) with the system's reason.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <sqlite3.h>

namespace isoterra::sql {

// One prepared statement, finalized on scope exit.
class Statement {
public:
    Statement(sqlite3* db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) throw std::runtime_error(sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    /// Steps once: true for a row, false when done; throws on an error.
    bool step() {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw std::runtime_error(sqlite3_errmsg(db_));
    }
    void reset() {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    sqlite3_stmt* get() const { return stmt_; }

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

/// Runs `sql` (one or more statements); throws with SQLite's message.
void exec(sqlite3* db, const char* sql);
/// The first column of the first row of `sql` as an integer (0 for none).
std::int64_t pragma_int(sqlite3* db, const char* sql);
/// SQLite's message, with the system's reason when there is one ("disk I/O error (No space
/// left on device)").
std::string reason(sqlite3* db);
/// True when SQLite's last error was another connection holding the file.
bool locked(sqlite3* db);
/// True when SQLite's last error came from the disk or memory, not from the file's contents.
bool io_failure(sqlite3* db);
/// Column `i` of the current row as text ("" for NULL).
std::string column_text(sqlite3_stmt* s, int i);

}  // namespace isoterra::sql
