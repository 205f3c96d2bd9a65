// Files out: meshes as glTF 2.0 (.glb, .gltf), OBJ and PLY; 8- and 16-bit PNG images.
// Every file is written under a temporary name beside the target and renamed when
// complete, so a failed or interrupted export never leaves a partial file.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "isoterra/base.hpp"
#include "isoterra/mesh.hpp"
#include "isoterra/world.hpp"

namespace isoterra {

/// A file could not be written (the message names it); nothing was left behind.
class IoError : public std::runtime_error {
public:
    /// `error`: the errno behind it (0: none).
    explicit IoError(const std::string& what, int error = 0) : std::runtime_error(what), error_(error) {}
    /// True when the machine failed (a full disk or quota, an I/O error, no memory) rather
    /// than the path being unusable (missing folder, no permission, not a regular file).
    bool failed() const;

private:
    int error_;
};

/// Throws the IoError a write to `path` would meet before any byte: its folder missing, not a
/// folder or not writable, or `path` something other than a regular file. Commands call it
/// before their work (and before they create a world file), every write calls it first.
void check_output_file(const std::string& path);
/// Writes `bytes` to `path` atomically (temporary file, fsync, rename). Throws IoError.
void write_file_atomically(const std::string& path, const std::string& bytes);
/// Writes `bytes` to `path` whole (written and flushed, then named) unless `path` exists;
/// returns false, writing nothing, when it does. Of processes racing to create one path,
/// exactly one returns true. Throws IoError.
bool write_file_if_absent(const std::string& path, const std::string& bytes);
/// Writes every (path, bytes) atomically and together: all are written and flushed before
/// any is put in place, so a failure (a full disk) leaves none of them new. Throws IoError.
void write_files_atomically(const std::vector<std::pair<std::string, std::string>>& files);

/// One named mesh of an export: a chunk ("chunk_1_0_-2"), the whole region ("terrain") or
/// its water ("water"). Positions are written in world metres (origin + position); a chunk's
/// mesh with index ranges is written as drawn among neighbours of its own level.
struct NamedMesh {
    std::string name;
    MeshBuffers mesh;
    bool water = false;  // a water surface: the water's colour (kWaterColour), translucent in glTF
};

enum class MeshFormat { glb, gltf, obj, ply };
/// Picks the format from the file name's extension; returns false if it is none of them.
bool mesh_format_from_path(const std::string& path, MeshFormat& out);

/// Returns the bytes of a glTF 2.0 file: one node and mesh per entry (empty ones left out),
/// POSITION, NORMAL, COLOR_0 (material colour, RGBA bytes) and 16-bit indices (32-bit past
/// 65535 vertices); water entries take a second, translucent material ("water"). `binary`: GLB, else
/// JSON with the buffer embedded as a data URI. `placed`: positions stay relative to each
/// mesh's origin and its node's translation is the origin (float precision far out);
/// otherwise positions are in world metres. `compress`: every mesh quantized
/// (KHR_mesh_quantization: positions 16-bit on a uniform grid over the mesh's box, at most
/// extent / 131070 off, undone by its node's scale and translation; normals in bytes) and
/// its views encoded with meshoptimizer (EXT_meshopt_compression), both extensions required:
/// for readers that decode meshopt (three.js, Babylon.js, gltf-transform; not Blender 3.4).
std::string encode_gltf(const std::vector<NamedMesh>& meshes, bool binary, bool placed = false, bool compress = false);
/// Returns an OBJ file: one object ("o NAME") per entry, vertex colours after positions.
std::string encode_obj(const std::vector<NamedMesh>& meshes);
/// Returns a binary little-endian PLY file of all entries merged, with normals and colours.
std::string encode_ply(const std::vector<NamedMesh>& meshes);
/// Encodes in `format` (glTF compressed when `compress`; OBJ and PLY never) and writes
/// atomically. Throws IoError.
void write_mesh_file(const std::string& path, MeshFormat format, const std::vector<NamedMesh>& meshes, bool compress = false);

/// What a World shows (`shown` keeps meshes) as an export's entries: every visible chunk as
/// drawn among its neighbours, merged into "terrain" or, `per_chunk`, one entry each
/// ("chunk_L<level>_<x>_<y>_<z>", sorted by level, x, y, z); then the water surfaces merged
/// into "water" when there are any. `isoterra mesh --around` and the page's glb export.
std::vector<NamedMesh> shown_meshes(const ShownChunks& shown, bool per_chunk);

/// Writes a greyscale or RGB PNG atomically: `channels` 1 or 3, `bit_depth` 8 or 16;
/// samples row-major from the top row, 16-bit ones as host-order uint16 (written
/// big-endian, as PNG stores them). Throws IoError.
void write_png(const std::string& path, int width, int height, int channels, int bit_depth, const void* samples);
/// Returns the bytes write_png would write (no time or other varying chunk: the same samples
/// give the same bytes); `name` is for errors. Throws IoError.
std::string encode_png(const std::string& name, int width, int height, int channels, int bit_depth, const void* samples);

/// Points input that is not a list of points (the message names the source and line).
class PointsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Reads one point "x y z" per line (blanks, tabs or commas between; blank lines and '#'
/// comments skipped). Every coordinate must be finite and within kCoordinateLimit_m; a line
/// may have at most 4096 bytes. Throws PointsError quoting a bad line as a text_excerpt.
std::vector<glm::dvec3> read_points(std::istream& in, const std::string& source);
/// Reads the points of the regular file at `path`; a folder, FIFO or device is refused before
/// it is opened (a pipe nobody writes would wait forever; a stream belongs on stdin). At most
/// kMaxPoints points. Throws PointsError naming the file.
std::vector<glm::dvec3> read_points_file(const std::string& path);
/// The most points one input may hold (24 bytes each: 240 MB).
inline constexpr std::size_t kMaxPoints = 10'000'000;

}  // namespace isoterra
