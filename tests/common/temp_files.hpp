// Files for tests: a fresh path in the test's temporary directory, and a file's bytes.
#pragma once

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

namespace isoterra::test {

/// A path in the temporary directory, unique to this process, with nothing at it (nor at
/// SQLite's -wal and -shm beside it).
inline std::string fresh_path(const std::string& name) {
    const std::string p = ::testing::TempDir() + "/isoterra_" + std::to_string(getpid()) + "_" + name;
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((p + suffix).c_str());
    return p;
}

/// The bytes of the file at `path` (empty when there is none).
inline std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace isoterra::test
