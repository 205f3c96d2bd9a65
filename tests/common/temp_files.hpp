// Files for tests: a fresh path in the test's temporary directory, and a file's bytes.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <sys/stat.h>
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

/// A fresh, empty folder in the temporary directory, unique to this process.
inline std::string fresh_folder(const std::string& name) {
    const std::string dir = fresh_path(name);
    std::system(("rm -rf '" + dir + "'").c_str());
    ::mkdir(dir.c_str(), 0755);
    return dir;
}

/// The names in folder `dir` (not . and ..).
inline std::set<std::string> files_in(const std::string& dir) {
    std::set<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d))
            if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.insert(e->d_name);
        ::closedir(d);
    }
    return names;
}

/// The bytes of the file at `path` (empty when there is none).
inline std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace isoterra::test
