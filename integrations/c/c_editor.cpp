// The C API's editor over a world file (include/isoterra/isoterra.h): its calls take the
// handle's lock (c_border.hpp), so threads may share one editor and take turns.
#include <cmath>

#include "c_border.hpp"
#include "isoterra/base.hpp"
#include "isoterra/edit.hpp"

using isoterra::c_api::CallError;
using isoterra::c_api::guarded;
using isoterra::c_api::require;
using isoterra::c_api::serialised;

extern "C" {

isoterra_editor* isoterra_editor_open(const char* path, const char* preset_or_path, int64_t seed) {
    return guarded<isoterra_editor*>(nullptr, [&] {
        require(preset_or_path, "isoterra_editor_open: preset_or_path is NULL");
        isoterra::TerrainSource wanted = isoterra::find_terrain(preset_or_path);
        if (seed != -1) isoterra::set_terrain_seed(wanted, seed);
        auto e = std::make_unique<isoterra_editor>();
        std::unique_ptr<isoterra::WorldFile> file;
        if (path) file = std::make_unique<isoterra::WorldFile>(path, &wanted);
        e->terrain = file ? file->terrain() : wanted;
        e->field = e->terrain.make_field();
        e->editor = std::make_unique<isoterra::WorldEditor>(e->field, std::move(file));
        return e.release();
    });
}

void isoterra_editor_free(isoterra_editor* editor) {
    isoterra::c_api::clear_error();
    delete editor;
}

isoterra_field* isoterra_editor_field(const isoterra_editor* editor) {
    return serialised(editor, "isoterra_editor_field", static_cast<isoterra_field*>(nullptr), [&] {
        auto* f = new isoterra_field;
        f->terrain = editor->terrain;
        f->field = editor->field;
        f->deltas = std::make_shared<const isoterra::ChunkDeltas>(editor->editor->history().deltas());
        return f;
    });
}

int isoterra_editor_apply(isoterra_editor* editor, const char* brush, const char* mode, double x, double y, double z, double radius_m,
                          double strength_m) {
    return serialised(editor, "isoterra_editor_apply", -1, [&] {
        require(brush, "isoterra_editor_apply: brush is NULL");
        isoterra::EditOp op;
        if (!isoterra::parse_brush_kind(brush, op.kind))
            throw CallError("unknown brush '" + isoterra::text_excerpt(brush) + "' (sphere, smooth, flatten)");
        if (mode && !isoterra::parse_brush_mode(mode, op.mode))
            throw CallError("unknown brush mode '" + isoterra::text_excerpt(mode) + "' (carve, add)");
        op.centre = {x, y, z};
        op.radius_m = radius_m;
        if (strength_m > 0.0 || std::isnan(strength_m)) op.strength_m = strength_m;
        if (const std::string bad = isoterra::validate_edit(op); !bad.empty()) throw CallError(bad);
        editor->editor->apply(op);
        return 0;
    });
}

int isoterra_editor_undo(isoterra_editor* editor) {
    return serialised(editor, "isoterra_editor_undo", -1, [&] {
        isoterra::Box changed;
        return editor->editor->undo(changed) ? 1 : 0;
    });
}

int isoterra_editor_redo(isoterra_editor* editor) {
    return serialised(editor, "isoterra_editor_redo", -1, [&] {
        isoterra::Box changed;
        return editor->editor->redo(changed) ? 1 : 0;
    });
}

size_t isoterra_editor_edit_count(const isoterra_editor* editor) {
    return serialised(editor, "isoterra_editor_edit_count", std::size_t{0}, [&] { return editor->editor->history().applied(); });
}

}  // extern "C"
