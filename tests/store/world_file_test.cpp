// The world file: round trips, refusals of bad files (with nothing in them changed), and a
// randomized fuzz of the delta blob decoder.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "classic_presets.hpp"
#include "isoterra/store.hpp"
#include "temp_files.hpp"

using namespace isoterra;

namespace {

using test::read_bytes;
const auto temp_path = test::fresh_path;

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::shared_ptr<const Field> field_of(const KnobTerrain& p) { return make_terrain(p, p.seed); }

// A world file with a few edits, closed (its WAL checkpointed into the main file).
std::string world_with_edits(const std::string& name, EditHistory* out = nullptr) {
    const std::string path = temp_path(name);
    KnobTerrain preset = test::classic_preset("alpine");  // the terrain function's: warps, overhangs, caves
    preset.seed = 77;
    WorldFile file(path, &preset);
    EditHistory history(field_of(file.knob_terrain()));
    for (int i = 0; i < 5; ++i) {
        const std::size_t first = history.applied();
        const auto changed =
            history.apply(EditOp{i % 2 ? BrushKind::sphere : BrushKind::smooth, BrushMode::carve, {10.0 * i, 20.0, -5.0 * i}, 5.0 + i});
        file.save(history, first, changed);
    }
    std::vector<ChunkCoord> changed;
    Box box;
    history.undo(changed, box);
    file.save(history, history.ops().size(), changed);
    if (out) *out = history;
    return path;
}

std::string open_error(const std::string& path) {
    try {
        WorldFile file(path, nullptr);
    } catch (const WorldFileError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(WorldFile, holds_the_preset_the_log_the_cursor_and_the_deltas_across_a_reopen) {
    EditHistory history(nullptr);
    const std::string path = world_with_edits("roundtrip.db", &history);
    WorldFile file(path, nullptr);
    EXPECT_FALSE(file.created());
    EXPECT_EQ(file.knob_terrain().name, "alpine");
    EXPECT_EQ(file.knob_terrain().seed, 77u);
    EXPECT_EQ(file.ops(), history.ops());
    EXPECT_EQ(file.applied(), 4u);
    EXPECT_TRUE(file.deltas().same_as(history.deltas()));
    EXPECT_FALSE(file.deltas().empty());
    // Replaying the stored log over the stored preset gives the stored deltas.
    EXPECT_TRUE(replay_edits(*field_of(file.knob_terrain()), file.ops(), file.applied()).same_as(file.deltas()));
}

TEST(WorldFile, an_existing_file_keeps_its_own_preset) {
    const std::string path = world_with_edits("keeps.db");
    const KnobTerrain other = test::classic_preset("islands");
    WorldFile file(path, &other);
    EXPECT_FALSE(file.created());
    EXPECT_EQ(file.knob_terrain().name, "alpine");
}

TEST(WorldFile, refuses_what_is_not_a_world_file_and_changes_nothing_in_it) {
    EXPECT_NE(open_error(temp_path("missing.db")).find("no such world file"), std::string::npos);

    const std::string text = temp_path("text.db");
    write_bytes(text, "just some text, long enough to not be mistaken for anything else at all.\n");
    EXPECT_NE(open_error(text).find("not an isoterra world file (not a SQLite database)"), std::string::npos) << open_error(text);
    EXPECT_EQ(read_bytes(text), "just some text, long enough to not be mistaken for anything else at all.\n");

    const std::string other = temp_path("other.db");
    sqlite3* db = nullptr;
    sqlite3_open(other.c_str(), &db);
    sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    const std::string before = read_bytes(other);
    EXPECT_NE(open_error(other).find("not an isoterra world file"), std::string::npos);
    EXPECT_EQ(read_bytes(other), before);
}

TEST(WorldFile, refuses_a_newer_schema) {
    const std::string path = world_with_edits("newer.db");
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "PRAGMA user_version = 2", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    const std::string before = read_bytes(path);
    EXPECT_NE(open_error(path).find("world file schema 2 is newer than this isoterra reads (1)"), std::string::npos) << open_error(path);
    EXPECT_EQ(read_bytes(path), before);
}

TEST(WorldFile, refuses_a_truncated_file_and_leaves_it_as_it_was) {
    const std::string path = world_with_edits("truncated.db");
    std::string bytes = read_bytes(path);
    ASSERT_GT(bytes.size(), 8192u);
    for (std::size_t keep : {bytes.size() / 2, bytes.size() - 4096, std::size_t{4096}, std::size_t{50}}) {
        write_bytes(path, bytes.substr(0, keep));
        const std::string error = open_error(path);
        EXPECT_FALSE(error.empty()) << "kept " << keep << " bytes";
        EXPECT_NE(error.find(path), std::string::npos) << error;
        EXPECT_EQ(read_bytes(path).size(), keep);
    }
}

TEST(WorldFile, refuses_a_corrupt_blob_and_corrupt_pages) {
    const std::string path = world_with_edits("corrupt.db");
    // One byte of one blob changed behind the store's back: the checksum catches it.
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* get = nullptr;
    sqlite3_prepare_v2(db, "SELECT cx, cy, cz, blob FROM deltas LIMIT 1", -1, &get, nullptr);
    ASSERT_EQ(sqlite3_step(get), SQLITE_ROW);
    const int cx = sqlite3_column_int(get, 0), cy = sqlite3_column_int(get, 1), cz = sqlite3_column_int(get, 2);
    std::string blob(static_cast<const char*>(sqlite3_column_blob(get, 3)), sqlite3_column_bytes(get, 3));
    sqlite3_finalize(get);
    blob[blob.size() / 2] ^= 0x10;
    sqlite3_stmt* put = nullptr;
    sqlite3_prepare_v2(db, "UPDATE deltas SET blob = ? WHERE cx = ? AND cy = ? AND cz = ?", -1, &put, nullptr);
    sqlite3_bind_blob(put, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
    sqlite3_bind_int(put, 2, cx);
    sqlite3_bind_int(put, 3, cy);
    sqlite3_bind_int(put, 4, cz);
    ASSERT_EQ(sqlite3_step(put), SQLITE_DONE);
    sqlite3_finalize(put);
    sqlite3_close(db);
    EXPECT_NE(open_error(path).find("checksum mismatch"), std::string::npos) << open_error(path);

    // Garbage over the pages after the header.
    const std::string pages = world_with_edits("pages.db");
    std::string bytes = read_bytes(pages);
    for (std::size_t i = 4096; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(0xa5);
    write_bytes(pages, bytes);
    const std::string error = open_error(pages);
    EXPECT_NE(error.find("corrupt world file"), std::string::npos) << error;
    EXPECT_EQ(read_bytes(pages), bytes);
}

TEST(DeltaBlob, round_trips_bit_for_bit_and_compresses_a_brush_chunk) {
    const auto field = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    ChunkDeltas deltas;
    apply_edit(*field, EditOp{BrushKind::sphere, BrushMode::carve, {16.0, 12.0, 16.0}, 9.0}, deltas);
    const DeltaChunk* chunk = deltas.find({0, 0, 0, 0});
    ASSERT_NE(chunk, nullptr);
    const auto blob = encode_delta_chunk(*chunk);
    const DeltaChunk back = decode_delta_chunk(blob.data(), blob.size());
    EXPECT_EQ(std::memcmp(back.values.data(), chunk->values.data(), sizeof(float) * DeltaChunk::kSamples), 0);
    EXPECT_EQ(back.lo, chunk->lo);
    EXPECT_LT(blob.size(), 16384u);
    std::printf("a radius-9 carve's chunk: %zu bytes stored of %zu\n", blob.size(), sizeof(float) * DeltaChunk::kSamples);
}

// Random bit flips, truncations, splices and garbage: the decoder either returns a chunk or
// throws std::runtime_error; it never crashes or reads outside the bytes (run under
// valgrind/ASan to see the latter).
TEST(DeltaBlob, decoder_survives_twenty_thousand_mangled_blobs) {
    const auto field = make_terrain(builtin_knob_terrain("tutorial"), 20261114);
    ChunkDeltas deltas;
    apply_edit(*field, EditOp{BrushKind::smooth, BrushMode::carve, {16.0, 12.0, 16.0}, 9.0}, deltas);
    const auto good = encode_delta_chunk(*deltas.find({0, 0, 0, 0}));
    std::mt19937 rng(2026);
    std::size_t refused = 0, decoded = 0;
    for (int round = 0; round < 20000; ++round) {
        std::vector<std::uint8_t> blob = good;
        switch (round % 4) {
            case 0:
                for (int f = 0; f <= static_cast<int>(rng() % 4); ++f)
                    blob[rng() % blob.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
                break;
            case 1: blob.resize(rng() % blob.size()); break;
            case 2:
                for (std::size_t i = rng() % blob.size(), n = rng() % 64; n-- > 0 && i < blob.size(); ++i)
                    blob[i] = static_cast<std::uint8_t>(rng());
                break;
            case 3:
                blob.resize(8 + rng() % 256);
                for (std::size_t i = 8; i < blob.size(); ++i) blob[i] = static_cast<std::uint8_t>(rng());
                break;
        }
        try {
            // Own copy, exact size: reading past it would show under a sanitizer.
            std::unique_ptr<std::uint8_t[]> bytes(new std::uint8_t[blob.size() + 1]);
            std::copy(blob.begin(), blob.end(), bytes.get());
            decode_delta_chunk(bytes.get(), blob.size());
            ++decoded;
        } catch (const std::runtime_error&) {
            ++refused;
        }
    }
    EXPECT_EQ(refused + decoded, 20000u);
    EXPECT_GT(refused, 19000u);
    std::printf("refused %zu, decoded %zu\n", refused, decoded);
}

// Two editors on one file: the second one's save is refused rather than overwriting the
// first one's edit, and its memory goes back to what it had (the file and it agree).
TEST(WorldEditor, refuses_to_overwrite_another_writer_and_rolls_its_memory_back) {
    const std::string path = world_with_edits("two_writers.db");
    const KnobTerrain preset = WorldFile(path, nullptr).knob_terrain();
    const auto field = field_of(preset);
    WorldEditor first(field, std::make_unique<WorldFile>(path, nullptr));
    WorldEditor second(field, std::make_unique<WorldFile>(path, nullptr));
    first.apply(EditOp{BrushKind::sphere, BrushMode::add, {3.0, 30.0, 3.0}, 4.0});
    const ChunkDeltas before = second.history().deltas();
    try {
        second.apply(EditOp{BrushKind::sphere, BrushMode::carve, {-20.0, 15.0, 8.0}, 5.0});
        FAIL() << "the second writer's save went through";
    } catch (const WorldFileWriteError& e) {
        EXPECT_NE(std::string(e.what()).find("another process changed the file"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(second.history().deltas().same_as(before));
    EXPECT_EQ(second.history().applied(), 4u);
    Box box;
    EXPECT_THROW(second.undo(box), WorldFileWriteError);
    EXPECT_EQ(second.history().applied(), 4u);
    EXPECT_TRUE(second.history().deltas().same_as(before));

    const WorldFile reread(path, nullptr);
    EXPECT_EQ(reread.ops(), first.history().ops());
    EXPECT_EQ(reread.applied(), 5u);
    EXPECT_TRUE(reread.deltas().same_as(first.history().deltas()));
    // The first writer goes on saving.
    EXPECT_TRUE(first.undo(box));
    EXPECT_EQ(WorldFile(path, nullptr).applied(), 4u);
}

// A world file the user may not write is refused as such, not as corrupt. (As root, the
// check runs in a child that drops to the nobody user: root may write anything.)
TEST(WorldFile, refuses_a_read_only_file_as_read_only) {
    const std::string path = world_with_edits("readonly.db");
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) _exit(3);
        const std::string error = open_error(path);
        (void)!::write(fds[1], error.data(), error.size());
        _exit(0);
    }
    ::close(fds[1]);
    std::string error;
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) error.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_NE(error.find("cannot open: the world file and its folder must be writable"), std::string::npos) << error;
    ::chmod(path.c_str(), 0644);
}

// Issue 29, case 1: a command compiles its graph once. Reading a built-in graph, creating a
// world file from it, opening that file and building the field used to compile it four times.
TEST(WorldFile, a_graph_is_compiled_once_from_its_reading_to_its_world_file_and_field) {
    const std::size_t before = graph_compile_count();
    TerrainSource terrain = builtin_terrain("alpine");
    set_terrain_seed(terrain, 5);
    EXPECT_EQ(graph_compile_count(), before + 1);
    const std::string path = temp_path("compiled_once.db");
    {
        const WorldFile created(path, &terrain);
        EXPECT_TRUE(created.created());
        const auto field = created.terrain().make_field();
        EXPECT_EQ(graph_compile_count(), before + 1);
        EXPECT_EQ(created.terrain().seed, 5u);
        EXPECT_EQ(created.terrain().to_text(), terrain.to_text());
        // The same ground as a field compiled from the stored text.
        const auto fresh = parse_terrain_source(created.terrain().to_text(), "fresh").make_field();
        EXPECT_EQ(field->ground_height(123.0, -45.0), fresh->ground_height(123.0, -45.0));
    }
    // Opening an existing file compiles what it stores, once.
    const std::size_t reopened = graph_compile_count();
    const WorldFile opened(path, nullptr);
    const auto field = opened.terrain().make_field();
    EXPECT_EQ(graph_compile_count(), reopened + 1);
    EXPECT_EQ(opened.terrain().seed, 5u);
    // A copy whose text was changed is compiled from its own text, not the cache.
    TerrainSource edited = opened.terrain();
    edited.graph += "\n# a comment\n";
    edited.make_field();
    EXPECT_EQ(graph_compile_count(), reopened + 2);
}
