// What the page's WebAssembly calls share (embind; page_api.cpp holds the shared part):
// jobs and results as JavaScript holds them, edits as JSON, errors as one line of JSON, and
// the page's instance (page_world.cpp, page_edits.cpp). One build, two roles: the page's own
// instance holds the library's Session: the terrain, the world file with the edit history, and
// the World (with the owner's workers: it hands out jobs); each Web Worker's instance
// (worker_api.cpp) holds the same terrain and a mirror of the edits, and runs the jobs. Errors
// come back as one line of text, never as a C++ exception crossing into JavaScript.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "isoterra/session.hpp"
#include "mesh_bytes.hpp"

namespace isoterra::web {

/// A job as JavaScript holds it (an embind value object).
struct JobJs {
    bool survey = false;
    int x = 0, y = 0, z = 0, lod = 0;
    double version = 0;
    int mesher = 0;
    double distance = 0, ground_lo = 0, ground_hi = 0;
    int lowest_layer = -2;
};

JobJs to_js(const WorldJob& j);
WorldJob from_js(const JobJs& j);

/// A survey's or chunk's result as JavaScript holds it; a chunk's mesh travels as bytes.
struct ResultJs {
    int bottom = 0, top = -1;
    double ground_lo = 0, ground_hi = 0;
    bool built = false;
};

/// Reads an edit op from JSON text: {"brush", "mode", "at": [x, y, z], "radius", "strength"?}.
/// Returns "" or what is wrong.
std::string parse_op(const std::string& text, EditOp& op);
/// An edit op as parse_op reads it.
nlohmann::json op_json(const EditOp& op);
/// {"error": message}, as text.
std::string error_json(const std::string& message);

// ---- the page's instance ----------------------------------------------------------------

/// How the page holds a chunk drawn (ShownChunks keeps its mesh).
struct DrawnState {
    bool drawn = false;  // the page holds this chunk's mesh drawn with `neighbours`
    Neighbourhood neighbours;
};

struct Page {
    // The open world file's terrain, edits and World; its shown() keeps the meshes (for
    // drawing and for export).
    std::unique_ptr<Session> session;
    std::unordered_map<ChunkCoord, DrawnState, ChunkKey> chunks;
    std::vector<DrawnArrays> drawn;  // from the last deliver()
    std::string file_bytes, glb_bytes;
};
/// The one page (page_world.cpp).
extern Page page;

/// The open world's World, or null.
World* page_world();

}  // namespace isoterra::web
