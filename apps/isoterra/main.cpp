// isoterra: make, inspect and export procedural voxel terrain. Each subcommand lives in its
// own file; this one wires them up and turns errors into one line and an exit code.
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <fmt/format.h>

#include "cli.hpp"
#include "isoterra/nav.hpp"
#include "isoterra/noise.hpp"
#include "nav_cli.hpp"

int main(int argc, char** argv) {
    using namespace isoterra::app;
    using isoterra::printable;
    CLI::App app{"isoterra: procedural smooth voxel terrain. Generate, inspect and export an endless seeded world.", "isoterra"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "isoterra 0.1.0");
    app.footer(
        "Terrains (--preset): tutorial (the seed's), and alpine, islands, rivers, canyons: graphs of landform\n"
        "nodes with rivers that drain to the sea (docs/guides/landforms.md; `isoterra presets`, `isoterra landform`).\n"
        "Errors are one line on stderr; exit 2 for bad input, 1 for a failure (a full disk, a lock), 3 for no path (path).\n"
        "Coordinates lie within +-1e8 m. A failed or killed command leaves no half-written file.\n"
        "Plans past the memory budget (ISOTERRA_MEMORY_BUDGET=8G; default: half the memory) are refused first.\n"
        "Limits and how they are tested: docs/design/reliability.md.\n"
        "The same core in a web page (WebAssembly, Babylon.js; exports world files and glb): bash scripts/web.sh,\n"
        "then http://127.0.0.1:8080/.\n"
        "Baked 3D Tiles (isoterra bake, docs/guides/baking.md) in a viewer: node web/serve.mjs --tileset DIR.\n"
        "From Python (import isoterra, numpy arrays: docs/guides/python.md), C and C# (isoterra.h, libisoterra_c.so:\n"
        "docs/guides/c-and-csharp.md) and Blender (docs/guides/blender.md). Smaller glb for the web: mesh or bake --compress.");
    add_subcommands(app);  // each from its own file (ISOTERRA_SUBCOMMAND)
    add_guide_footers(app);

    // The library ignores a name it does not know; the program says so before it starts.
    if (const char* path = std::getenv("ISOTERRA_NOISE_PATH"); path && !isoterra::noise_path_named(path)) {
        std::fprintf(stderr, "isoterra: ISOTERRA_NOISE_PATH=%s: expected baseline, avx2 or avx512\n", printable(path, 100).c_str());
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "isoterra: %s (see isoterra --help)\n", printable(e.what()).c_str());
        return 2;
    } catch (const UsageError& e) {
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        return 2;
    } catch (const isoterra::MemoryBudgetError& e) {  // the plan asked for, not the machine, is at fault
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        return 2;
    } catch (const isoterra::LimitError& e) {  // the library's limits, shared with the C API
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        return 2;
    } catch (const isoterra::NavError& e) {  // a point off the ground, agent settings out of range
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        return 2;
    } catch (const isoterra::NoPathError& e) {  // both ends walkable, nothing joins them: its own code
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        return kNoPathExitCode;
    } catch (const Failure& e) {
        std::fprintf(stderr, "isoterra: %s\n", printable(e.what()).c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "isoterra: internal error: %s\n", printable(e.what()).c_str());
        return 1;
    }
    return 0;
}
