// What every function of the C API shares at its border (include/isoterra/isoterra.h): the
// handles, the thread's last error (one line, the program's text policy: printable()), and
// the one serialisation of a handle that several threads may share.
#pragma once

#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "isoterra/io.hpp"
#include "isoterra/isoterra.h"
#include "isoterra/store.hpp"
#include "isoterra/world.hpp"

// Immutable once made (a Field is thread-safe): no lock.
struct isoterra_field {
    isoterra::TerrainSource terrain;
    std::shared_ptr<const isoterra::Field> field;
    std::shared_ptr<const isoterra::ChunkDeltas> deltas;  // never null; empty without edits
};

// Immutable but for its looks, made once (call_once) even when asked from several threads.
struct isoterra_mesh {
    isoterra::MeshBuffers mesh;  // origin at the world's: positions are world metres
    std::once_flag looks_made;
    std::vector<std::uint8_t> materials;
    std::vector<float> colours;
    void make_looks();
};

// The handles whose calls change or read state that changes: every call on one takes its
// `serial` lock (isoterra::c_api::serialised), so threads that share it take turns.
struct isoterra_world {
    mutable std::mutex serial;
    std::unique_ptr<isoterra::World> world;
    // Each chunk's latest mesh with its index ranges, to draw it again when its neighbours change.
    std::unordered_map<isoterra::ChunkCoord, isoterra::MeshBuffers, isoterra::ChunkKey> meshes;
};

struct isoterra_editor {
    mutable std::mutex serial;
    isoterra::TerrainSource terrain;
    std::shared_ptr<const isoterra::Field> field;
    std::unique_ptr<isoterra::WorldEditor> editor;
};

namespace isoterra::c_api {

/// Empties the calling thread's last error: every entry point starts with it (the header
/// promises "" after a call that succeeded).
void clear_error() noexcept;
/// Keeps `what` as the calling thread's last error, as printable() shows it: one line,
/// control characters and bytes that are not UTF-8 escaped, a long text cut in its middle.
void keep_error(const char* what) noexcept;

/// Bad arguments to a C API function.
struct CallError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void require(bool ok, const char* what) {
    if (!ok) throw CallError(what);
}

/// The mesher a C API call names (NULL: marching cubes); throws CallError for an unknown one.
isoterra::Mesher mesher_named(const char* name);

/// Runs `body`, keeping what it throws as the thread's last error; returns `failed` then.
template <class Result, class Body>
Result guarded(Result failed, Body&& body) noexcept {
    clear_error();
    try {
        return body();
    } catch (const std::bad_alloc&) {
        keep_error("out of memory");
    } catch (const std::exception& e) {
        keep_error(e.what());
    } catch (...) {
        keep_error("internal error");
    }
    return failed;
}

inline const char* handle_name(const isoterra_world*) { return "world"; }
inline const char* handle_name(const isoterra_editor*) { return "editor"; }
inline const char* handle_name(const isoterra_navmesh*) { return "navmesh"; }

/// Marks `handle` as locked by the calling thread while it lives; throws CallError when it
/// already is (a callback calling back into the handle that called it), which would deadlock.
class HeldHere {
public:
    HeldHere(const void* handle, const char* function);
    ~HeldHere();
    HeldHere(const HeldHere&) = delete;
    HeldHere& operator=(const HeldHere&) = delete;
};

/// As guarded, on a handle that threads may share (`function` names the call in messages):
/// the handle must not be NULL, and `body` runs holding its lock, so calls on one handle take
/// turns, whichever threads make them.
template <class Handle, class Result, class Body>
Result serialised(Handle* handle, const char* function, Result failed, Body&& body) noexcept {
    return guarded(failed, [&] {
        if (!handle) throw CallError(std::string(function) + ": the " + handle_name(handle) + " is NULL");
        const HeldHere mine(handle, function);
        const std::lock_guard<std::mutex> hold(handle->serial);
        return body();
    });
}

}  // namespace isoterra::c_api
