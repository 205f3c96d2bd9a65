// Runs the isoterra program as a script would, capturing stdout, stderr and the exit code.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace isoterra::test {

struct CliResult {
    int code;
    std::string out;
    std::string err;
};

/// Variables the program runs with, as `NAME=value ...` (ISOTERRA_TEST_PROGRAM_ENV), exported
/// at the head of the command: the sanitizer run preloads Mesa's driver into the program only,
/// the one process that draws (tests/sanitizers/run_whole_suite.sh). Exported rather than
/// given to `env` before the program, so it holds after every prefix (`cd DIR &&`,
/// `xvfb-run`, and `setpriv` to nobody, who may not run an `env` in a private folder).
inline std::string program_env() {
    const char* env = std::getenv("ISOTERRA_TEST_PROGRAM_ENV");
    return env && *env ? std::string("export ") + env + "; " : "";
}

/// Runs `isoterra ARGS` through the shell with `input` on stdin; returns what it did.
/// `prefix` goes before the program (for example "xvfb-run -a").
inline CliResult run_cli(const std::string& args, const std::string& input = "", const std::string& prefix = "") {
    const std::string dir = ::testing::TempDir();
    // Unique names: ctest runs test cases in parallel processes.
    static std::atomic<int> calls{0};
    const std::string tag = std::to_string(getpid()) + "_" + std::to_string(++calls);
    const std::string in = dir + "/cli_in_" + tag + ".txt", err = dir + "/cli_err_" + tag + ".txt";
    std::ofstream(in) << input;
    const std::string cmd = program_env() + prefix + " " + std::string(ISOTERRA_BINARY) + " " + args + " < " + in + " 2> " + err;
    FILE* pipe = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    const int status = pclose(pipe);
    std::ifstream e(err);
    std::string errtext((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
    return {WEXITSTATUS(status), out, errtext};
}

/// Returns the number of lines (newlines) in `s`.
inline int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace isoterra::test
