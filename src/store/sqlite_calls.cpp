// Calls into SQLite as the world file makes them.
#include "sqlite_calls.hpp"

#include <cstring>

#include <fmt/format.h>

namespace isoterra::sql {

void exec(sqlite3* db, const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        throw std::runtime_error(text);
    }
}

std::int64_t pragma_int(sqlite3* db, const char* sql) {
    Statement s(db, sql);
    return s.step() ? sqlite3_column_int64(s.get(), 0) : 0;
}

std::string reason(sqlite3* db) {
    std::string text = db ? sqlite3_errmsg(db) : "out of memory";
    if (const int e = db ? sqlite3_system_errno(db) : 0; e != 0) text += fmt::format(" ({})", std::strerror(e));
    return text;
}

bool locked(sqlite3* db) {
    const int code = sqlite3_errcode(db) & 0xff;
    return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

bool io_failure(sqlite3* db) {
    const int code = sqlite3_errcode(db) & 0xff;
    return code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_NOMEM || code == SQLITE_CANTOPEN || code == SQLITE_READONLY;
}

std::string column_text(sqlite3_stmt* s, int i) {
    const unsigned char* t = sqlite3_column_text(s, i);
    return t ? reinterpret_cast<const char*>(t) : "";
}

}  // namespace isoterra::sql
