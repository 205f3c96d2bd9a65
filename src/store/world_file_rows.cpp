// The rows of a world file read back and checked, each refused with the first fault it
// holds: operations in sequence, with known brushes and numbers stored as numbers; delta
// chunks of the right types, reached by an operation, matching their checksums.
#include "world_file_rows.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sqlite_calls.hpp"

namespace isoterra {

std::vector<EditOp> read_operations(sqlite3* db) {
    std::vector<EditOp> ops;
    sql::Statement s(db, "SELECT seq, brush, mode, x, y, z, radius, strength FROM operations ORDER BY seq");
    while (s.step()) {
        EditOp op;
        const std::int64_t seq = sqlite3_column_int64(s.get(), 0);
        if (seq != static_cast<std::int64_t>(ops.size())) throw std::runtime_error(fmt::format("operation {}: out of sequence", seq));
        // Numbers must be stored as numbers: SQLite would read "12 m" as 12, "abc" as 0.
        for (int column = 3; column <= 7; ++column) {
            const int type = sqlite3_column_type(s.get(), column);
            if (type != SQLITE_FLOAT && type != SQLITE_INTEGER && !(column == 7 && type == SQLITE_NULL))
                throw std::runtime_error(fmt::format("operation {}: a coordinate, radius or strength is not a number", seq));
        }
        if (!parse_brush_kind(sql::column_text(s.get(), 1), op.kind) || !parse_brush_mode(sql::column_text(s.get(), 2), op.mode))
            throw std::runtime_error(fmt::format("operation {}: unknown brush or mode", seq));
        op.centre = {sqlite3_column_double(s.get(), 3), sqlite3_column_double(s.get(), 4), sqlite3_column_double(s.get(), 5)};
        op.radius_m = sqlite3_column_double(s.get(), 6);
        if (sqlite3_column_type(s.get(), 7) != SQLITE_NULL) op.strength_m = sqlite3_column_double(s.get(), 7);
        if (const std::string bad = validate_edit(op); !bad.empty()) throw std::runtime_error(fmt::format("operation {}: {}", seq, bad));
        ops.push_back(op);
    }
    return ops;
}

void read_deltas(sqlite3* db, const std::vector<EditOp>& ops, ChunkDeltas& deltas) {
    sql::Statement s(db, "SELECT cx, cy, cz, blob, checksum FROM deltas");
    while (s.step()) {
        for (int column = 0; column < 5; ++column)
            if (sqlite3_column_type(s.get(), column) != (column == 3 ? SQLITE_BLOB : SQLITE_INTEGER))
                throw std::runtime_error("a delta chunk row holds a value of the wrong type");
        const std::int64_t cx = sqlite3_column_int64(s.get(), 0), cy = sqlite3_column_int64(s.get(), 1),
                           cz = sqlite3_column_int64(s.get(), 2);
        // Edits change the samples near their brushes only: a chunk no operation's
        // brush reaches holds no edit (and one far past the world's edge, none at all).
        const Box chunk{glm::dvec3(cx, cy, cz) * double{kChunkSize} - 1.0,
                        glm::dvec3(cx, cy, cz) * double{kChunkSize} + (kChunkSize + 1.0)};
        const auto reaches = [&](const EditOp& op) {
            const Box b = edit_box(op);
            for (int a = 0; a < 3; ++a)
                if (b.lo[a] > chunk.hi[a] || chunk.lo[a] > b.hi[a]) return false;
            return true;
        };
        if (std::none_of(ops.begin(), ops.end(), reaches))
            throw std::runtime_error(fmt::format("chunk {},{},{}: no operation reaches it", cx, cy, cz));
        const ChunkCoord c{static_cast<int>(cx), static_cast<int>(cy), static_cast<int>(cz), 0};
        const auto* bytes = static_cast<const std::uint8_t*>(sqlite3_column_blob(s.get(), 3));
        const auto size = static_cast<std::size_t>(sqlite3_column_bytes(s.get(), 3));
        const auto sum = static_cast<std::uint64_t>(sqlite3_column_int64(s.get(), 4));
        if (blob_checksum(bytes, size) != sum) throw std::runtime_error(fmt::format("chunk {},{},{}: checksum mismatch", c.x, c.y, c.z));
        try {
            deltas.set(c, std::make_shared<const DeltaChunk>(decode_delta_chunk(bytes, size)));
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(fmt::format("chunk {},{},{}: {}", c.x, c.y, c.z, e.what()));
        }
    }
}

}  // namespace isoterra
