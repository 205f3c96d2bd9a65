// SIGKILL at random moments during a stream of `isoterra edit` commands: the world file
// always opens, holds every edit whose command finished, and its deltas are the replay of
// its log.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <random>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "isoterra/store.hpp"
#include "test_pace.hpp"

using namespace isoterra;

namespace {

// Starts `isoterra edit --world path sphere --at ...`; returns its pid.
pid_t start_edit(const std::string& path, int n) {
    const std::string at = std::to_string(3 * (n % 20)) + ",14," + std::to_string(2 * (n % 13));
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(ISOTERRA_BINARY, "isoterra", "edit", "--world", path.c_str(), "sphere", "--at", at.c_str(), "--radius", "5", "--mode",
              n % 3 ? "carve" : "add", static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

// Waits for `pid`; returns true when it exited with status 0.
bool finished_ok(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

TEST(WorldFileKill, sigkill_at_random_moments_never_loses_a_finished_edit_or_breaks_the_file) {
    const std::string path = ::testing::TempDir() + "/kill_" + std::to_string(getpid()) + ".db";
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((path + suffix).c_str());

    // One edit run to the end gives the time a whole command takes.
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(finished_ok(start_edit(path, 0)));
    const double whole_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();

    // Half the rounds in a slow (sanitizer) build, where each takes several times longer.
    const int kRounds = isoterra::test::slow_build() ? 50 : 100;
    std::mt19937 rng(20261130);
    std::uniform_real_distribution<double> when(0.0, 1.2 * whole_us);
    std::size_t committed = 1, killed = 0, completed = 0;
    for (int round = 1; round <= kRounds; ++round) {
        const pid_t pid = start_edit(path, round);
        std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long>(when(rng))));
        kill(pid, SIGKILL);
        const bool ok = finished_ok(pid);
        ok ? ++completed : ++killed;

        std::unique_ptr<WorldFile> file;
        ASSERT_NO_THROW(file = std::make_unique<WorldFile>(path, nullptr)) << "round " << round;
        const std::size_t ops = file->ops().size();
        // A finished command's edit is there; a killed one's is there or not, whole.
        if (ok) EXPECT_EQ(ops, committed + 1) << "round " << round;
        else EXPECT_TRUE(ops == committed || ops == committed + 1) << "round " << round << ": " << ops << " ops";
        committed = ops;
        EXPECT_EQ(file->applied(), ops);
        if (round % 10 == 0) {
            const auto field = make_terrain(file->knob_terrain(), file->knob_terrain().seed);
            EXPECT_TRUE(replay_edits(*field, file->ops(), file->applied()).same_as(file->deltas())) << "round " << round;
        }
    }
    std::printf("%d runs, each about %.0f ms whole: %zu killed, %zu finished; %zu edits committed\n", kRounds, whole_us / 1000.0, killed,
                completed, committed);
    EXPECT_GT(killed, static_cast<std::size_t>(kRounds / 5));
}
