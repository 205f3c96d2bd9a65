// Atomic writes: the bytes go to an unnamed file in the target's folder (O_TMPFILE), are
// flushed to disk, linked under a temporary name and renamed over the target. Until the link
// the file has no name, so a process killed at any moment (SIGKILL included) leaves nothing;
// a crash or a full disk leaves the old file (or none). Filesystems without O_TMPFILE get a
// named temporary (mkstemp) instead.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
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

void write_file_atomically(const std::string& path, const std::string& bytes) {
    // Only a regular file (or nothing) is replaced: a device, a pipe or a folder stays.
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw IoError(fmt::format("{}: exists and is not a regular file; not replacing it", path));
    const std::string folder = folder_of(path);
    std::string temp = path + ".tmp-XXXXXX";
    int fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    const bool unnamed = fd >= 0;
    if (!unnamed) fd = mkstemp(temp.data());
    if (fd < 0) throw IoError(fmt::format("{}: cannot create a file there ({})", path, std::strerror(errno)));
    const auto fail = [&](const char* what) {
        const int err = errno;
        ::close(fd);
        if (!unnamed) ::unlink(temp.c_str());
        throw IoError(fmt::format("{}: {} ({})", path, what, std::strerror(err)));
    };
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("write failed");
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) fail("cannot flush the file");
    const QuietSignals quiet;
    if (unnamed) {
        // A name for the finished file: a fresh one beside the target (linkat never replaces).
        for (int attempt = 0;; ++attempt) {
            temp = fmt::format("{}.tmp-{}-{}", path, ::getpid(), attempt);
            if (::linkat(AT_FDCWD, fmt::format("/proc/self/fd/{}", fd).c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) == 0)
                break;
            if (errno != EEXIST || attempt == 100) fail("cannot name the finished file");
        }
    }
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        throw IoError(fmt::format("{}: cannot close the file ({})", path, std::strerror(err)));
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        throw IoError(fmt::format("{}: cannot rename the finished file into place ({})", path, std::strerror(err)));
    }
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
