// `isoterra edit|undo|redo|history --world FILE.db`: brush edits on a world file, one
// transaction each, and walking its operation log.
#include <cmath>
#include <cstdio>
#include <limits>

#include <fmt/format.h>

#include "edit_session.hpp"
#include "isoterra/io.hpp"

namespace isoterra::app {
namespace {

struct EditOptions {
    FieldOptions field;
    WorldFileOption world;
    std::string at, mode = "carve";
    double radius = 4.0;
    double strength = std::numeric_limits<double>::infinity();
};

struct LogOptions {
    FieldOptions field;  // unused: a log command never creates a file
    WorldFileOption world;
    int steps = 1;
};

void add_brush(CLI::App& edit, EditOptions& opt, BrushKind kind, const std::string& help) {
    auto* cmd = edit.add_subcommand(brush_name(kind), help);
    cmd->add_option("--at", opt.at, "Brush centre X,Y,Z (metres)")->required();
    cmd->add_option("--radius", opt.radius, "Brush radius in metres, (0, 64]")->check(finite_range(0.0, 64.0));  // 0: validate_edit
    if (kind == BrushKind::sphere) cmd->add_option("--mode", opt.mode, "carve (make air) | add (make rock)");
    cmd->add_option("--strength", opt.strength, "Most any value moves in this edit, metres (default: no cap)")
        ->check(finite_range(0.0, 1e9));
    cmd->callback([&opt, kind] {
        EditOp op;
        op.kind = kind;
        if (!parse_brush_mode(opt.mode, op.mode))
            throw UsageError(fmt::format("--mode: expected carve or add, got '{}'", text_excerpt(opt.mode)));
        op.centre = parse_vec3(opt.at, "--at");
        op.radius_m = opt.radius;
        op.strength_m = opt.strength;
        if (const std::string bad = validate_edit(op); !bad.empty()) throw UsageError(fmt::format("{}: {}", brush_name(kind), bad));
        EditSession session(opt.field, opt.world.path, true);
        session.apply(op);
        std::printf("%zu: %s\n", session.history().applied(), describe_edit(op).c_str());
    });
}

void add_walk(CLI::App& app, LogOptions& opt, const char* name, const char* help, bool forward) {
    auto* cmd = app.add_subcommand(name, help);
    opt.world.add_to(*cmd, true, false);
    cmd->add_option("--steps", opt.steps, "How many operations (default 1)")->transform(decimal_integer(1, 1000000));
    cmd->callback([&opt, forward, name] {
        EditSession session(opt.field, opt.world.path, false);
        int done = 0;
        for (Box box; done < opt.steps; ++done) {
            const std::size_t at = session.history().applied();
            if (!(forward ? session.redo(box) : session.undo(box))) break;
            const std::size_t index = forward ? at : at - 1;
            std::printf("%s %zu: %s\n", forward ? "redid" : "undid", index + 1, describe_edit(session.history().ops()[index]).c_str());
        }
        if (done == 0) std::fprintf(stderr, "nothing to %s\n", name);
    });
}

}  // namespace

void register_edit(CLI::App& app) {
    static EditOptions opt;
    auto* edit = app.add_subcommand("edit", "Apply a brush to a world file: sphere (carve|add), smooth, flatten");
    opt.world.add_to(*edit, true);
    opt.field.add_to(*edit);
    edit->require_subcommand(1);
    edit->fallthrough();
    add_brush(*edit, opt, BrushKind::sphere, "Carve a ball of air or add a ball of rock, smooth falloff");
    add_brush(*edit, opt, BrushKind::smooth, "Smooth the surface towards the mean of each sample's neighbours");
    add_brush(*edit, opt, BrushKind::flatten, "Level the ground towards the horizontal plane through --at");

    static LogOptions undo, redo, history;
    add_walk(app, undo, "undo", "Take back the last edit of a world file (--steps N for more)", false);
    add_walk(app, redo, "redo", "Apply an undone edit of a world file again", true);
    auto* cmd = app.add_subcommand("history", "Print a world file's operations, one line each; undone ones are marked");
    history.world.add_to(*cmd, true, false);
    cmd->callback([] {
        const EditSession session(history.field, history.world.path, false);
        const auto& log = session.history();
        for (std::size_t i = 0; i < log.ops().size(); ++i)
            std::printf("%zu%s %s\n", i + 1, i < log.applied() ? "" : " (undone)", describe_edit(log.ops()[i]).c_str());
    });
}

ISOTERRA_SUBCOMMAND(100, register_edit);

}  // namespace isoterra::app
