// Reading a user's file (base/file_read.cpp): every failure is an error naming the file, a
// failed read never passes for a short or empty file.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <unistd.h>

#include "isoterra/base.hpp"

namespace {

std::string read_error_of(const std::string& path, std::size_t max_bytes = 1 << 20) {
    try {
        isoterra::read_regular_file(path, "test", max_bytes);
    } catch (const isoterra::FileReadError& e) {
        return e.what();
    }
    return "(read)";
}

std::string file_with(const std::string& name, const std::string& bytes) {
    const std::string path = ::testing::TempDir() + "/file_read_" + std::to_string(getpid()) + "_" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

}  // namespace

TEST(FileRead, a_regular_file_gives_its_bytes_exactly) {
    std::string bytes(200000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + i / 256);
    EXPECT_EQ(isoterra::read_regular_file(file_with("bytes", bytes), "test", 1 << 20), bytes);
    EXPECT_EQ(isoterra::read_regular_file(file_with("empty", ""), "test", 1 << 20), "");
}

// /proc/self/mem is a regular file whose read at offset 0 fails (EIO): a stream takes that
// for the end (an empty preset, the default terrain) or throws from deep inside.
TEST(FileRead, a_read_that_fails_is_an_error_not_an_empty_file) {
    EXPECT_EQ(read_error_of("/proc/self/mem"), "/proc/self/mem: cannot read the test file (Input/output error)");
    isoterra::InputFile file("/proc/self/mem", "points");
    char buf[16];
    try {
        file.read(buf, sizeof buf);
        ADD_FAILURE() << "read";
    } catch (const isoterra::FileReadError& e) {
        EXPECT_EQ(std::string(e.what()), "/proc/self/mem: cannot read the points file (Input/output error)");
    }
}

TEST(FileRead, a_folder_a_device_a_missing_file_and_a_large_one_are_refused_by_name) {
    EXPECT_EQ(read_error_of("/tmp"), "/tmp: not a test file (not a regular file)");
    EXPECT_EQ(read_error_of("/dev/zero"), "/dev/zero: not a test file (not a regular file)");
    EXPECT_EQ(read_error_of("/nonexistent/x"), "/nonexistent/x: cannot open the test file (No such file or directory)");
    const std::string big = file_with("big", std::string(101, 'a'));
    EXPECT_EQ(read_error_of(big, 100), big + ": 101 bytes, more than the 100 a test file may have");
    EXPECT_THROW(isoterra::check_regular_file("/tmp", "test", 100), isoterra::FileReadError);
    EXPECT_NO_THROW(isoterra::check_regular_file(big, "test", 101));
}

// A file whose size stat cannot tell (0 under /proc) is still bounded while it is read.
TEST(FileRead, a_file_longer_than_its_stat_says_is_bounded_while_read) {
    EXPECT_NE(isoterra::read_regular_file("/proc/self/status", "test", 1 << 20).find("Pid:"), std::string::npos);
    EXPECT_EQ(read_error_of("/proc/self/status", 10), "/proc/self/status: more than the 10 bytes a test file may have");
}
