// Reading a world file's rows (internal to store/): world_file_rows.cpp.
#pragma once

#include <vector>

#include <sqlite3.h>

#include "isoterra/store.hpp"

namespace isoterra {

/// The operations table in sequence; throws std::runtime_error naming the first bad row.
std::vector<EditOp> read_operations(sqlite3* db);
/// The deltas table into `deltas`; throws std::runtime_error naming the first chunk of the
/// wrong types, reached by none of `ops`, failing its checksum or its decoding.
void read_deltas(sqlite3* db, const std::vector<EditOp>& ops, ChunkDeltas& deltas);

}  // namespace isoterra
