// Atomic writes: the bytes go to a temporary file beside the target, are flushed to disk,
// and only then renamed over it. A crash or a full disk leaves the old file (or none).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "isoterra/io.hpp"

namespace isoterra {

void write_file_atomically(const std::string& path, const std::string& bytes) {
    std::string temp = path + ".tmp-XXXXXX";
    const int fd = mkstemp(temp.data());
    if (fd < 0) throw IoError(fmt::format("{}: cannot create a file there ({})", path, std::strerror(errno)));
    const auto fail = [&](const char* what) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
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
    if (::close(fd) != 0) {
        ::unlink(temp.c_str());
        throw IoError(fmt::format("{}: cannot close the file ({})", path, std::strerror(errno)));
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

void write_mesh_file(const std::string& path, MeshFormat format, const std::vector<NamedMesh>& meshes) {
    switch (format) {
        case MeshFormat::glb: write_file_atomically(path, encode_gltf(meshes, true)); return;
        case MeshFormat::gltf: write_file_atomically(path, encode_gltf(meshes, false)); return;
        case MeshFormat::obj: write_file_atomically(path, encode_obj(meshes)); return;
        case MeshFormat::ply: write_file_atomically(path, encode_ply(meshes)); return;
    }
}

}  // namespace isoterra
