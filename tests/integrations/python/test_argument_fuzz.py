"""Fuzzing the module's argument conversion: every public function and method called again and
again, for a bounded time (ISOTERRA_FUZZ_SECONDS, default 10), with some of its arguments
swapped for hostile ones (wrong types, NULs, lone surrogates, bytes, huge ints, NaN and
infinities, odd sequences, numpy arrays of the wrong shape, dtype or layout, extra
arguments). Only isoterra.Error (with a one-line message), TypeError or ValueError may come
out, never another exception or a crash, and a call given text with a NUL never succeeds (the
text would be cut there); each function must also succeed now and then (its
valid arguments get through). Reproducible: ISOTERRA_FUZZ_SEED picks the sequence."""
import math
import os
import pathlib
import random
import subprocess
import time

import numpy as np

import isoterra

BIN = os.environ.get("ISOTERRA_BIN", "build/isoterra")
SECONDS = float(os.environ.get("ISOTERRA_FUZZ_SECONDS", "10"))
SEED = int(os.environ.get("ISOTERRA_FUZZ_SEED", "20261130"))
NAN, INF = math.nan, math.inf


def hostile(rng):
    """A fresh hostile value of any kind."""
    pool = [
        None, True, 0, -1, 2**31, -2**63 - 1, 2**64, 10**400, 0.0, -0.0, NAN, INF, -INF, 1e308, -1e308, 5e-324,
        "", "\0", "tutorial\0alpine", "\ud800", "\udcff", "\x1b[2J\n", "x" * 5000, "é", b"", b"\xff\xfe", b"a\0b",
        bytearray(b"abc"), object(), [], (), {}, {"x": 1}, [1, 2], [NAN, INF, -INF], [1.0, "a", 3.0], [[1.0, 2.0, 3.0]],
        "abc", range(3), iter([0.0, 1.0, 2.0]), (x for x in (1.0, 2.0, 3.0)), [None, None, None], [2**70, 0, 0],
        np.zeros((0, 3)), np.zeros((2, 3)), np.full((2, 3), NAN), np.zeros(3), np.zeros((2, 2)), np.zeros((1, 1, 3)),
        np.zeros((2, 3), dtype=complex), np.array([["a", "b", "c"]]), np.array([[None, 1, 2]], dtype=object),
        np.zeros((4, 6))[::2, ::2], np.zeros((2, 3), np.float32), np.zeros((2, 2, 2), np.float32),
        np.zeros((2, 2, 2), np.float64), np.zeros((2, 2, 2), np.float32)[:, :, ::-1], np.float64(NAN), np.int64(-1),
        pathlib.Path("/nonexistent/\udcff.toml"), pathlib.Path("."), isoterra, isoterra.Error("x"),
    ]
    return rng.choice(pool)


TEXT = ["\0", "tutorial\0", "sphere\0add", "\ud800", "\udcff", b"\xff\xfe", b"/nonexistent/\xff\x1b[2J", "\x1b]0;t\x07\n",
        "/nonexistent/" + "y" * 3000, "./\u202e.toml", pathlib.Path("/nonexistent/\udcff"), b"a\0b"]


SLOPE = """format = 1
name = "slope"
[node]
px = { type = "x" }
tilt = { type = "mul", a = "px", b = 0.05 }
ground = { type = "add", a = "tilt", b = 0.3 }
land = { type = "plane", height = "ground" }
[output]
sdf = "land"
ground = "ground"
"""


def holds_nul(value):
    return isinstance(value, (str, bytes)) and (b"\0" if isinstance(value, bytes) else "\0") in value


def read_only(shape):
    a = np.zeros(shape, np.float32)
    a.flags.writeable = False
    return a


def specs(tmp):
    """(name, function, [(argument, valid values)]) for every public call."""
    field = isoterra.Field.preset("tutorial")
    graph = tmp / "g.toml"
    graph.write_text(subprocess.run([BIN, "graph", "export", "tutorial"], capture_output=True, text=True, check=True).stdout)
    mesh = isoterra.mesh(field, (0, -16, 0), (16, 16, 16))
    editor = isoterra.Editor(str(tmp / "fuzz.db"))
    world = isoterra.World(field, view_distance=300.0, radius=2, threads=1)
    xyz = [(0.0, 0.0, 40.0), (1.5, -16.0, 16.0), np.zeros((1, 3))]
    pts = [np.zeros((2, 3)), [[0.0, 1.0, 2.0]], np.zeros((0, 3))]
    # Navigation over one tile of a gentle slope (y = 0.05 x + 0.3): tens of milliseconds a
    # mesh, where the tutorial's hills take hundreds and would crowd the other calls out.
    slope = isoterra.Field.from_text(SLOPE)
    nav_lo, nav_hi = (1.0, 1.0), (30.0, 30.0)
    nav = isoterra.NavMesh(slope, nav_lo, nav_hi, threads=1)
    walk = [(x, 0.05 * x + 0.3, z) for x, z in ((5.0, 5.0), (20.0, 20.0), (12.0, 25.0))]
    return [
        ("Field.preset", isoterra.Field.preset, [("name", ["tutorial", "alpine", b"tutorial"]), ("seed", [None, 7, 2**32 - 1])]),
        ("Field.from_file", isoterra.Field.from_file, [("path", [str(graph), graph, os.fsencode(graph)]), ("seed", [None, 3])]),
        ("Field.from_text", isoterra.Field.from_text, [("text", [graph.read_text()]), ("seed", [None, 1]), ("directory", ["", str(tmp)])]),
        ("Field.sample", field.sample, [("points", pts)]),
        ("Field.lattice", field.lattice, [("origin", [(0, 0, 0), (-4.0, 8.0, 2.0)]), ("shape", [(2, 2, 2), (1, 3, 2)]),
                                          ("step", [1.0, 2.0]), ("out", [None, np.zeros((2, 2, 2), np.float32), read_only((2, 2, 2))])]),
        ("Field.ground", field.ground, [("xz", [np.zeros((2, 2)), [[0.0, 40.0]]])]),
        ("Field.heightmap", field.heightmap, [("lo", [(0.0, 0.0), (-16.0, 1.5)]), ("hi", [(16.0, 16.0), (4.0, 8.0)]), ("step", [1.0, 4.0])]),
        ("Field.raycast", field.raycast, [("origin", [(0.0, 200.0, 40.0)]), ("direction", [(0.0, -1.0, 0.0), (1.0, -1.0, 0.5)]),
                                          ("max_distance", [500.0, 1e-3])]),
        ("Field.rivers", field.rivers, [("lo", [(-200.0, -200.0)]), ("hi", [(200.0, 200.0), (0.0, 100.0)]), ("step", [25.0, 50.0]),
                                        ("min_area_km2", [1.0, 0.05]), ("threads", [1, 0])]),
        ("NavMesh", isoterra.NavMesh, [("field", [slope]), ("lo", [nav_lo, (4.0, 4.0)]), ("hi", [nav_hi, (28.0, 28.0)]),
                                       ("agent", [None, {"cell_size": 1.0}, {"max_slope": 30, "cell_size": 0.5}]), ("threads", [1, 2])]),
        ("NavMesh.path", nav.path, [("a", walk), ("b", walk)]),
        ("Field.name", lambda: field.name, []), ("Field.seed", lambda: field.seed, []),
        ("mesh", isoterra.mesh, [("field", [field]), ("lo", [(0, -16, 0), (-16.0, -16.0, -16.0)]), ("hi", [(16, 16, 16), (1.5, 16.0, 1.5)]),
                                 ("mesher", list(isoterra.MESHERS)), ("lod", [0, 1, 10]), ("threads", [0, 1, 2])]),
        ("Mesh.glb", mesh.glb, [("compress", [False, True])]),
        ("Mesh.arrays", lambda: [mesh.vertices, mesh.normals, mesh.faces, mesh.materials, mesh.colours, repr(mesh)], []),
        ("World", lambda *a, **k: isoterra.World(*a, **k).deliver(1.0),
         [("field", [field]), ("view_distance", [300.0, 16.0]), ("radius", [1, 2]), ("threads", [1, 2]),
          ("mesher", list(isoterra.MESHERS)), ("triangle_budget", [0, 1000])]),
        ("World.set_focus", world.set_focus, [("focus", xyz)]),
        ("World.deliver", world.deliver, [("budget_ms", [0.0, 1.0, 4.0])]),
        ("World.settled", lambda: world.settled, []),
        ("Editor", isoterra.Editor, [("path", [None, str(tmp / "other.db"), tmp / "third.db"]), ("terrain", ["tutorial", str(graph)]),
                                     ("seed", [None, 9])]),
        ("Editor.apply", editor.apply, [("brush", ["sphere", "smooth", "flatten"]), ("centre", xyz), ("radius", [2.0, 4.0]),
                                        ("mode", ["carve", "add"]), ("strength", [None, 1.0])]),
        ("Editor.undo", editor.undo, []), ("Editor.redo", editor.redo, []),
        ("Editor.field", lambda: editor.field.sample(np.zeros((1, 3))), []), ("Editor.edit_count", lambda: editor.edit_count, []),
    ]


# Specs that cover several of the module's names at once.
COVERS = {"Mesh.arrays": {"Mesh.vertices", "Mesh.normals", "Mesh.faces", "Mesh.materials", "Mesh.colours"}}


def public_names():
    """The module's functions and its classes' public methods and properties."""
    names = set()
    for attr in dir(isoterra):
        obj = getattr(isoterra, attr)
        if attr.startswith("_") or attr in ("Error", "NoPathError", "ChunkUpdate"):  # ChunkUpdate: read-only data
            continue
        if isinstance(obj, type):
            names |= {f"{attr}.{m}" for m in dir(obj) if not m.startswith("_")}
        elif callable(obj):
            names.add(attr)
    return names


def one_call(rng, function, arguments):
    """Calls `function` with its valid arguments, one to three swapped for hostile ones (or an
    extra one); returns a description of the call."""
    values = {name: rng.choice(valid) for name, valid in arguments}
    names = list(values)
    for name in rng.sample(names, min(len(names), rng.randint(0, 3))):
        values[name] = rng.choice(TEXT) if rng.random() < 0.3 else hostile(rng)
    positional = rng.randint(0, len(names))
    args = [values[n] for n in names[:positional]]
    kwargs = {n: values[n] for n in names[positional:]}
    if rng.random() < 0.05:
        args.append(hostile(rng)) if rng.random() < 0.5 else kwargs.update(unknown=hostile(rng))
    nul = any(holds_nul(v) for v in values.values())
    return f"args={args!r:.300} kwargs={kwargs!r:.300}", lambda: function(*args, **kwargs), nul


def test_hostile_arguments_to_every_public_call_raise_only_the_promised_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a path made of a hostile string lands here
    rng = random.Random(SEED)
    calls = specs(tmp_path)
    covered = set().union(*(COVERS.get(name, {name}) for name, _, _ in calls))
    assert public_names() <= covered, public_names() - covered  # a new public call needs a spec here
    tally = {name: [0, 0] for name, _, _ in calls}  # succeeded, refused
    unexpected = []
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline and len(unexpected) < 5:
        name, function, arguments = rng.choice(calls)
        described, call, nul = one_call(rng, function, arguments)
        try:
            call()
            tally[name][0] += 1
            if nul:  # text with a NUL was taken: cut at it, it named something else
                unexpected.append(f"{name}({described}): a NUL in a string argument was accepted")
        except isoterra.Error as e:
            tally[name][1] += 1
            message = str(e)
            if not message or "\n" in message or len(message.encode()) > 700:
                unexpected.append(f"{name}({described}): isoterra.Error {message[:300]!r}")
        except (TypeError, ValueError):
            tally[name][1] += 1
        except Exception as e:  # noqa: BLE001 - the finding
            unexpected.append(f"{name}({described}): {type(e).__name__}: {e!s:.300}")
    print({name: tuple(t) for name, t in tally.items()})
    assert not unexpected, "\n".join(unexpected)
    for name, (succeeded, refused) in tally.items():
        assert succeeded > 0, f"{name}: no call succeeded"
        assert refused > 0 or not dict((n, a) for n, _, a in calls)[name], f"{name}: no call refused"
