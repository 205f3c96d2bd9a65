// Reading a user's file with every failure said: a folder, FIFO or device refused before it
// is opened (a pipe nobody writes would wait forever), and an I/O error while reading thrown
// as one, never taken for the end of the file (streams report it as EOF or as an exception
// from deep inside, "basic_filebuf::underflow", and a stream read to a string drops it).
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "isoterra/base.hpp"

namespace isoterra {
namespace {

// Throws unless `st` is a regular file of at most `max_bytes`.
void check_stat(const struct stat& st, const std::string& path, const std::string& what, std::size_t max_bytes) {
    if (!S_ISREG(st.st_mode)) throw FileReadError(fmt::format("{}: not a {} file (not a regular file)", path, what));
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        throw FileReadError(fmt::format("{}: {} bytes, more than the {} a {} file may have", path, st.st_size, max_bytes, what));
}

}  // namespace

void check_regular_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        throw FileReadError(fmt::format("{}: cannot open the {} file ({})", path, what, std::strerror(errno)));
    check_stat(st, path, what, max_bytes);
}

InputFile::InputFile(const std::string& path, const std::string& what, std::size_t max_bytes) : path_(path), what_(what) {
    check_regular_file(path, what, max_bytes);
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // swapped for a FIFO meanwhile: no wait
    if (fd_ < 0) throw FileReadError(fmt::format("{}: cannot open the {} file ({})", path, what, std::strerror(errno)));
    struct stat st;
    if (::fstat(fd_, &st) != 0) st.st_mode = 0;
    try {
        check_stat(st, path, what, max_bytes);  // what was opened, not what was looked at
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

InputFile::~InputFile() { ::close(fd_); }

std::size_t InputFile::read(char* out, std::size_t n) {
    for (;;) {
        const ssize_t got = ::read(fd_, out, n);
        if (got >= 0) return static_cast<std::size_t>(got);
        if (errno != EINTR) throw FileReadError(fmt::format("{}: cannot read the {} file ({})", path_, what_, std::strerror(errno)));
    }
}

std::string read_regular_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
    InputFile file(path, what, max_bytes);
    std::string bytes;
    char block[65536];
    // The size stat gave may be 0 (files under /proc) or change: read to the end, bounded.
    while (const std::size_t got = file.read(block, sizeof block)) {
        if (bytes.size() + got > max_bytes)
            throw FileReadError(fmt::format("{}: more than the {} bytes a {} file may have", path, max_bytes, what));
        bytes.append(block, got);
    }
    return bytes;
}

}  // namespace isoterra
