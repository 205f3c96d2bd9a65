// World files made hostile: a nested preset stored in one, rows that decode but make no
// sense, creation on a full disk, a creator killed half-way, and writers racing each other.
// Each is refused with one line naming the file, and nothing is left half-written.
#include <gtest/gtest.h>

#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isoterra/store.hpp"
#include "run_cli.hpp"
#include "temp_files.hpp"
#include "test_pace.hpp"

using namespace isoterra;
using test::files_in;
using test::fresh_folder;

namespace {

// A world file with one carve at the origin, closed.
std::string world_with_one_edit(const std::string& dir) {
    const std::string path = dir + "/w.db";
    const auto r = test::run_cli("edit --world " + path + " sphere --at 0,20,0 --radius 4 --mode carve");
    EXPECT_EQ(r.code, 0) << r.err;
    return path;
}

// Runs SQL on the file behind the store's back.
void run_sql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
    sqlite3_close(db);
}

// `isoterra history` on the file: exit 2 and one line that contains `expected`.
void expect_refused(const std::string& path, const std::string& expected) {
    const std::string before = test::read_bytes(path);
    const auto r = test::run_cli("history --world " + path);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("corrupt world file"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(test::read_bytes(path), before);
}

}  // namespace

// Case 1: a preset nested a hundred thousand levels deep, stored in a world file.
TEST(HostileWorldFile, a_deeply_nested_stored_preset_is_refused_not_a_crash) {
    const std::string dir = fresh_folder("nested_world");
    const std::string path = world_with_one_edit(dir);
    std::string nested = "name = \"tutorial\"\nx = ";
    nested += std::string(100000, '[') + std::string(100000, ']') + "\n";
    run_sql(path, "UPDATE settings SET value = '" + nested + "' WHERE key = 'preset'");
    expect_refused(path, "stored preset:2: arrays and inline tables nest more than 8 levels deep");
    for (const std::string& command : {"undo --world " + path, "mesh --world " + path + " --from 0,0,0 --to 32,32,32 -o " + dir + "/m.glb",
                                       "edit --world " + path + " sphere --at 0,0,0 --radius 2 --mode add"}) {
        const auto r = test::run_cli(command);
        EXPECT_EQ(r.code, 2) << command << r.err;
        EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
    }
    EXPECT_EQ(files_in(dir), (std::set<std::string>{"w.db"}));
}

// Case 9: rows that decode but make no sense.
TEST(HostileWorldFile, rows_that_make_no_sense_are_refused) {
    const std::string dir = fresh_folder("rows_world");
    struct Case {
        const char* sql;
        const char* expected;
    };
    const Case cases[] = {
        // A delta chunk copied to a chunk index past 2^31, and to one no brush reaches.
        {"UPDATE deltas SET cx = 4294967296", "no operation reaches it"},
        {"UPDATE deltas SET cy = 1000", "no operation reaches it"},
        {"UPDATE deltas SET cx = 'far'", "a delta chunk row holds a value of the wrong type"},
        {"UPDATE deltas SET blob = CAST(blob AS TEXT)", "a delta chunk row holds a value of the wrong type"},
        // Operation fields stored as text (SQLite reads 'abc' as 0).
        {"UPDATE operations SET x = 'abc'", "operation 0: a coordinate, radius or strength is not a number"},
        {"UPDATE operations SET radius = '4 m'", "operation 0: a coordinate, radius or strength is not a number"},
        {"UPDATE operations SET strength = X'00'", "operation 0: a coordinate, radius or strength is not a number"},
        {"UPDATE operations SET y = 1e300", "operation 0: centre"},
        {"UPDATE operations SET seq = 5", "operation 5: out of sequence"},
        // Settings missing or not counts.
        {"DELETE FROM settings WHERE key = 'generation'", "the generation is missing"},
        {"UPDATE settings SET value = '-1' WHERE key = 'generation'", "the generation '-1' is not a count"},
        {"UPDATE settings SET value = '99999999999999999999999' WHERE key = 'generation'", "is not a count"},
        {"UPDATE settings SET value = '1x' WHERE key = 'applied'", "the undo cursor '1x' is not a count"},
        {"UPDATE settings SET value = '2' WHERE key = 'applied'", "undo cursor 2 outside the 1 operations"},
        {"DELETE FROM settings WHERE key = 'preset'", "missing"},
    };
    for (const Case& c : cases) {
        const std::string path = world_with_one_edit(dir);
        run_sql(path, c.sql);
        SCOPED_TRACE(c.sql);
        expect_refused(path, c.expected);
        for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());
    }
    // The unchanged file is fine.
    const std::string path = world_with_one_edit(dir);
    EXPECT_EQ(test::run_cli("history --world " + path).code, 0);
}

// Case 3: creating a world file on a full disk reports the disk and leaves nothing, at every
// size the disk may run out at; after space is freed, what a failed edit left reads fine.
// A small tmpfs is a full disk where mounting is allowed (root); a file size limit
// (ulimit -f, SIGXFSZ ignored) plays one everywhere else too.
TEST(HostileWorldFile, creation_on_a_full_disk_leaves_nothing_and_says_why) {
    const std::string dir = fresh_folder("full_disk");
    const bool mounted = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=400k") == 0;
    int created = 0, refused = 0;
    const auto check = [&](const test::CliResult& r, const std::string& path) {
        if (r.code == 0) {
            ++created;
            EXPECT_EQ(test::run_cli("history --world " + path).out, "1 sphere carve at 0,0,0 radius 3 m\n");
        } else {
            ++refused;
            EXPECT_EQ(r.code, 1) << r.err;
            EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
            EXPECT_TRUE(r.err.find("cannot create") != std::string::npos || r.err.find("cannot save") != std::string::npos) << r.err;
            EXPECT_EQ(r.err.find("corrupt"), std::string::npos) << r.err;
        }
        for (const std::string& f : files_in(dir)) EXPECT_EQ(f.find(".new-"), std::string::npos) << f;
    };
    const std::string edit = " edit --world w.db --preset tutorial sphere --at 0,0,0 --radius 3 --mode carve";
    if (mounted) {
        for (int fill_k = 240; fill_k <= 400; fill_k += test::sweep_step(4, 3)) {
            std::system(
                ("rm -f '" + dir + "'/*; head -c " + std::to_string(fill_k) + "k /dev/zero > '" + dir + "/pad' 2>/dev/null").c_str());
            check(test::run_cli(edit, "", "cd '" + dir + "' &&"), dir + "/w.db");
            // With space again, a world file a failed edit left behind is whole.
            std::remove((dir + "/pad").c_str());
            if (::access((dir + "/w.db").c_str(), F_OK) == 0) {
                const auto h = test::run_cli("history --world " + dir + "/w.db");
                EXPECT_EQ(h.code, 0) << h.err;
            }
        }
        ::umount(dir.c_str());
    }
    for (int blocks = 1; blocks <= 40; blocks += test::sweep_step(1, 3)) {
        std::system(("rm -f '" + dir + "'/*").c_str());
        check(test::run_cli(edit, "", "cd '" + dir + "' && ulimit -f " + std::to_string(blocks) + " && trap '' XFSZ &&"), dir + "/w.db");
    }
    EXPECT_GT(created, 0);
    EXPECT_GT(refused, 0);
    std::printf("%s: %d created, %d refused\n", mounted ? "tmpfs and ulimit" : "ulimit only", created, refused);
}

// A creator killed half-way leaves "<name>.new-<pid>" behind; the next creator removes it
// (and only those of processes that are gone).
TEST(HostileWorldFile, temporaries_of_dead_creators_are_removed) {
    const std::string dir = fresh_folder("stale");
    const pid_t gone = fork();
    if (gone == 0) _exit(0);
    waitpid(gone, nullptr, 0);
    const std::string stale = "w.db.new-" + std::to_string(gone), alive = "w.db.new-" + std::to_string(getpid());
    for (const std::string& name : {stale, stale + "-journal", alive, std::string("w.db.new-x"), std::string("other.db.new-1")})
        std::ofstream(dir + "/" + name) << "half";
    world_with_one_edit(dir);
    EXPECT_EQ(files_in(dir), (std::set<std::string>{"w.db", alive, "w.db.new-x", "other.db.new-1"}));
}

// Case 7: many processes edit one file at once. Each either succeeds or says the file was
// locked or changed by another process (exit 1); none calls it corrupt, and the file holds
// exactly the edits that succeeded.
TEST(HostileWorldFile, racing_writers_are_told_about_the_lock_never_about_corruption) {
    const std::string dir = fresh_folder("racing");
    const std::string path = world_with_one_edit(dir);
    constexpr int kWriters = 12;
    std::vector<test::CliResult> results(kWriters);
    std::vector<std::thread> threads;
    for (int i = 0; i < kWriters; ++i)
        threads.emplace_back([&, i] {
            results[i] = test::run_cli("edit --world " + path + " sphere --at " + std::to_string(5 * i) + ",20,0 --radius 3 --mode add");
        });
    for (auto& t : threads) t.join();
    int ok = 0;
    for (const auto& r : results) {
        if (r.code == 0) {
            ++ok;
            continue;
        }
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
        EXPECT_EQ(r.err.find("corrupt"), std::string::npos) << r.err;
        EXPECT_TRUE(r.err.find("locked by another process") != std::string::npos ||
                    r.err.find("another process changed the file") != std::string::npos)
            << r.err;
    }
    const auto h = test::run_cli("history --world " + path);
    ASSERT_EQ(h.code, 0) << h.err;
    EXPECT_EQ(test::count_lines(h.out), 1 + ok);
    std::printf("%d of %d racing writers saved\n", ok, kWriters);
}
