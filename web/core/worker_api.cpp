// A Web Worker's instance (page_api.hpp): the page's terrain and a mirror of its edits, which
// runs the World's jobs the page hands it and returns each chunk's mesh as bytes.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "page_api.hpp"

namespace isoterra::web {
namespace {

using emscripten::val;

struct Worker {
    std::shared_ptr<const Field> field;
    std::unique_ptr<EditHistory> history;
    std::vector<std::uint8_t> mesh_bytes;
};
Worker worker;

/// Builds the terrain from its text and the edits from the op log (JSON list) up to `applied`.
std::string worker_open(const std::string& terrain_text, const std::string& ops_text, double applied) {
    try {
        const TerrainSource t = parse_terrain_source(terrain_text, "terrain");
        auto field = t.make_field();
        const nlohmann::json list = nlohmann::json::parse(ops_text, nullptr, false);
        if (list.is_discarded() || !list.is_array()) return "the op log must be a JSON list";
        std::vector<EditOp> ops;
        for (const auto& item : list) {
            EditOp op;
            if (const std::string bad = parse_op(item.dump(), op); !bad.empty()) return bad;
            ops.push_back(op);
        }
        const auto n = static_cast<std::size_t>(applied);
        if (!(applied >= 0) || n > ops.size()) return "applied is outside the op log";
        ChunkDeltas deltas = replay_edits(*field, ops, n);
        worker.history = std::make_unique<EditHistory>(field, std::move(ops), n, std::move(deltas));
        worker.field = std::move(field);
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

std::string worker_edit(const std::string& op_text) {
    if (!worker.history) return "no terrain";
    EditOp op;
    if (const std::string bad = parse_op(op_text, op); !bad.empty()) return bad;
    worker.history->apply(op);
    return "";
}

bool worker_walk(bool forward) {
    if (!worker.history) return false;
    std::vector<ChunkCoord> changed;
    Box box;
    return forward ? worker.history->redo(changed, box) : worker.history->undo(changed, box);
}

ResultJs worker_run(const JobJs& job) {
    ResultJs r;
    worker.mesh_bytes.clear();
    if (!worker.field) return r;
    WorldJobResult result;
    run_world_job(*worker.field, &worker.history->deltas(), from_js(job), result);
    r.bottom = result.bottom;
    r.top = result.top;
    r.ground_lo = result.ground.lo;
    r.ground_hi = result.ground.hi;
    r.built = result.built;
    if (result.built) pack_chunk(result.mesh, result.water, worker.mesh_bytes);
    return r;
}

val worker_mesh_bytes() { return val(emscripten::typed_memory_view(worker.mesh_bytes.size(), worker.mesh_bytes.data())); }

}  // namespace
}  // namespace isoterra::web

EMSCRIPTEN_BINDINGS(isoterra_worker) {
    using namespace emscripten;
    using namespace isoterra::web;
    function("worker_open", &worker_open);
    function("worker_edit", &worker_edit);
    function("worker_walk", &worker_walk);
    function("worker_run", &worker_run);
    function("worker_mesh_bytes", &worker_mesh_bytes);
}
