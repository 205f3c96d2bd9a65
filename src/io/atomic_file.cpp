// Atomic writes: the bytes go to an unnamed file in the target's folder (O_TMPFILE), are
// flushed to disk and linked under the target's name where none is there yet; over an old file
// it is linked under a temporary name and renamed. Until the link the file has no name, so a
// new file is never left half-written or under another name by a process killed at any moment
// (SIGKILL included); a crash or a full disk leaves the old file (or none). Filesystems without O_TMPFILE get a
// named temporary (mkstemp) instead. Files that belong together (an image and its sidecar)
// are all written and flushed before any is put in place.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "isoterra/io.hpp"

namespace isoterra {
namespace {

std::string folder_of(const std::string& path) {
    const std::string::size_type slash = path.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Blocks the signals a user sends to stop a program while a finished file gets its names,
// so that an interrupt cannot fall between the link and the rename.
class QuietSignals {
public:
    QuietSignals() {
        sigset_t set;
        sigemptyset(&set);
        for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&set, s);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~QuietSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

private:
    sigset_t old_;
};

}  // namespace

namespace {

// A file written and flushed but not yet in place: unnamed (O_TMPFILE) while its descriptor
// is open, or under a temporary name where the file system has no unnamed files.
struct Pending {
    std::string path, temp;
    int fd = -1;
    bool unnamed = false;

    // Closes the file and removes what it left; errno is kept.
    void drop() {
        const int err = errno;
        if (fd >= 0) ::close(fd);
        if (!temp.empty()) ::unlink(temp.c_str());
        fd = -1, temp.clear();
        errno = err;
    }
};

[[noreturn]] void fail(Pending& p, const char* what) {
    const int err = errno;
    p.drop();
    throw IoError(fmt::format("{}: {} ({})", p.path, what, std::strerror(err)), err);
}

Pending write_pending(const std::string& path, const std::string& bytes) {
    check_output_file(path);
    Pending p;
    p.path = path;
    p.fd = ::open(folder_of(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    p.unnamed = p.fd >= 0;
    if (!p.unnamed) {
        std::string temp = path + ".tmp-XXXXXX";
        p.fd = mkstemp(temp.data());
        if (p.fd >= 0) p.temp = temp;
    }
    if (p.fd < 0) throw IoError(fmt::format("{}: cannot create a file there ({})", path, std::strerror(errno)), errno);
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(p.fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(p, "write failed");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fchmod(p.fd, 0644) != 0 || ::fsync(p.fd) != 0) fail(p, "cannot flush the file");
    return p;
}

// Names a pending file and renames it over its target.
void put_in_place(Pending& p) {
    if (p.unnamed) {
        // Where no file is yet, the finished one takes its name at once: nothing can be left
        // under a temporary name. linkat never replaces, so an old file needs the rename.
        const std::string self = fmt::format("/proc/self/fd/{}", p.fd);
        if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, p.path.c_str(), AT_SYMLINK_FOLLOW) == 0) {
            const int fd = p.fd;
            p.fd = -1;
            if (::close(fd) != 0) fail(p, "cannot close the file");
            return;
        }
        if (errno != EEXIST) fail(p, "cannot name the finished file");
        // A name for the finished file: a fresh one beside the target.
        for (int attempt = 0;; ++attempt) {
            const std::string temp = fmt::format("{}.tmp-{}-{}", p.path, ::getpid(), attempt);
            if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) == 0) {
                p.temp = temp;
                break;
            }
            if (errno != EEXIST || attempt == 100) fail(p, "cannot name the finished file");
        }
    }
    const int fd = p.fd;
    p.fd = -1;
    if (::close(fd) != 0) fail(p, "cannot close the file");
    if (std::rename(p.temp.c_str(), p.path.c_str()) != 0) fail(p, "cannot rename the finished file into place");
    p.temp.clear();
}

}  // namespace

void check_output_file(const std::string& path) {
    // Only a regular file (or nothing) is replaced: a device, a pipe or a folder stays.
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw IoError(fmt::format("{}: exists and is not a regular file; not replacing it", path), EEXIST);
    const std::string folder = folder_of(path);
    int err = 0;
    if (::stat(folder.c_str(), &st) != 0) err = errno;
    else if (!S_ISDIR(st.st_mode)) err = ENOTDIR;
    else if (::access(folder.c_str(), W_OK | X_OK) != 0) err = errno;
    if (err != 0) throw IoError(fmt::format("{}: cannot create a file there ({})", path, std::strerror(err)), err);
}

bool IoError::failed() const {
    // The disk, the quota or the memory gave out: the same command may work another time.
    return error_ == ENOSPC || error_ == EDQUOT || error_ == EIO || error_ == EFBIG || error_ == ENOMEM;
}

void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files) {
    std::vector<Pending> pending;
    try {
        for (const auto& [path, bytes] : files) pending.push_back(write_pending(path, bytes));
        const QuietSignals quiet;
        for (auto& p : pending) put_in_place(p);
    } catch (...) {
        for (auto& p : pending) p.drop();
        throw;
    }
}

void write_file_atomically(const std::string& path, const std::string& bytes) { write_files_atomically({{path, bytes}}); }

bool write_file_if_absent(const std::string& path, const std::string& bytes) {
    Pending p = write_pending(path, bytes);
    // link() never replaces: of two writers, exactly one names the file.
    const int linked = p.unnamed
                           ? ::linkat(AT_FDCWD, fmt::format("/proc/self/fd/{}", p.fd).c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW)
                           : ::link(p.temp.c_str(), path.c_str());
    if (linked != 0 && errno != EEXIST) fail(p, "cannot name the finished file");
    p.drop();
    return linked == 0;
}

bool mesh_format_from_path(const std::string& path, MeshFormat& out) {
    const auto ends = [&](const char* ext) {
        const std::size_t n = std::strlen(ext);
        return path.size() > n && path.compare(path.size() - n, n, ext) == 0;
    };
    if (ends(".glb")) out = MeshFormat::glb;
    else if (ends(".gltf")) out = MeshFormat::gltf;
    else if (ends(".obj")) out = MeshFormat::obj;
    else if (ends(".ply")) out = MeshFormat::ply;
    else return false;
    return true;
}

void write_mesh_file(const std::string& path, MeshFormat format, const std::vector<NamedMesh>& meshes, bool compress) {
    switch (format) {
        case MeshFormat::glb: write_file_atomically(path, encode_gltf(meshes, true, false, compress)); return;
        case MeshFormat::gltf: write_file_atomically(path, encode_gltf(meshes, false, false, compress)); return;
        case MeshFormat::obj: write_file_atomically(path, encode_obj(meshes)); return;
        case MeshFormat::ply: write_file_atomically(path, encode_ply(meshes)); return;
    }
}

}  // namespace isoterra
