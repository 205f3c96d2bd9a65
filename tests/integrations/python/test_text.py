"""Text in and out of the module and the C API: a NUL in any string argument is refused (never
cut at it), paths that are not UTF-8 are taken as open() takes them, an error quoting a
user's text is one bounded line with that text escaped, and isoterra_last_error() is ""
after every entry point that succeeds."""
import ctypes
import os
import pathlib
import re
import subprocess

import numpy as np
import pytest

import isoterra

BIN = os.environ.get("ISOTERRA_BIN", "build/isoterra")
C_LIB = os.environ.get("ISOTERRA_C_LIB", "build/libisoterra_c.so")
HEADER = pathlib.Path(__file__).resolve().parents[3] / "include" / "isoterra" / "isoterra.h"
MOST_MESSAGE_BYTES = 700  # isoterra.h: one line of at most 700 bytes


def assert_one_clean_line(message):
    data = message.encode("utf-8") if isinstance(message, str) else message
    text = data.decode("utf-8")  # valid UTF-8
    assert text and len(data) <= MOST_MESSAGE_BYTES, len(data)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029" for c in text), text[:200]


def test_a_nul_in_any_string_argument_is_refused_naming_the_argument(tmp_path):
    field = isoterra.Field.preset("tutorial")
    cases = [
        (lambda: isoterra.Editor(str(tmp_path / "a.db") + "\0b.db"), "path"),
        (lambda: isoterra.Editor(None, terrain="alpine\0tutorial"), "terrain"),
        (lambda: isoterra.Field.preset("alpine\0x"), "name"),
        (lambda: isoterra.Field.from_file(str(tmp_path / "a.toml") + "\0"), "path"),
        (lambda: isoterra.Field.from_text('name = "x"\0\n'), "text"),
        (lambda: isoterra.Field.from_text('name = "x"\n', directory="/tmp\0/etc"), "directory"),
        (lambda: isoterra.mesh(field, (0, 0, 0), (8, 8, 8), mesher="marching-cubes\0x"), "mesher"),
        (lambda: isoterra.World(field, mesher="surface-nets\0"), "mesher"),
        (lambda: isoterra.Editor(None).apply("sphere\0x", (0, 0, 0), 2.0), "brush"),
        (lambda: isoterra.Editor(None).apply("sphere", (0, 0, 0), 2.0, mode="add\0carve"), "mode"),
    ]
    for call, argument in cases:
        with pytest.raises(isoterra.Error, match=rf"^{argument}: a NUL character at byte \d+ "):
            call()
    assert os.listdir(tmp_path) == []  # no a.db: nothing was written under the text before the NUL


def test_a_path_that_is_not_utf8_is_taken_as_open_takes_it(tmp_path):
    raw = os.fsencode(tmp_path) + b"/w\xff\xfe.db"
    editor = isoterra.Editor(raw, terrain="tutorial")  # bytes
    editor.apply("sphere", (0.0, 0.0, 40.0), 3.0)
    del editor
    assert b"w\xff\xfe.db" in os.listdir(os.fsencode(tmp_path))
    escaped = os.fsdecode(raw)  # the same file as a surrogate-escaped str, and as a pathlib.Path
    assert "\udcff" in escaped
    assert isoterra.Editor(escaped).edit_count == 1 and isoterra.Editor(pathlib.Path(escaped)).edit_count == 1
    # The program reads the same file, given the same bytes.
    out = subprocess.run([os.fsencode(BIN), b"sample", b"--world", raw], input=b"0 0 40\n", capture_output=True, check=True)
    assert float(out.stdout) == isoterra.Editor(raw).field.sample(np.array([[0.0, 0.0, 40.0]]))[0]
    graph = os.fsencode(tmp_path) + b"/g\xe9.toml"
    with open(graph, "w") as f:
        f.write(subprocess.run([BIN, "graph", "export", "tutorial"], capture_output=True, text=True, check=True).stdout)
    points = np.array([[1.0, 2.0, 3.0]])
    assert isoterra.Field.from_file(graph).sample(points)[0] == isoterra.Field.preset("tutorial").sample(points)[0]


def test_text_that_cannot_be_encoded_is_refused_with_a_message_naming_it():
    with pytest.raises(isoterra.Error, match=r"^text: not valid Unicode"):
        isoterra.Field.from_text("name = '\ud800'\n")
    with pytest.raises(isoterra.Error, match=r"^mesher: not valid Unicode"):
        isoterra.mesh(isoterra.Field.preset("tutorial"), (0, 0, 0), (8, 8, 8), mesher="\ud800")
    with pytest.raises(isoterra.Error, match=r"^path: not a file name"):
        isoterra.Editor("w\ud800.db")  # a surrogate that surrogateescape never makes
    with pytest.raises(TypeError):
        isoterra.Editor(42)


def test_errors_quoting_a_hostile_path_are_one_bounded_line_with_it_escaped():
    hostile = "/nonexistent/\x1b[2J\nsecond line\u202e" + "x" * 100_000 + ".toml"
    with pytest.raises(isoterra.Error) as caught:
        isoterra.Field.from_file(hostile)
    message = str(caught.value)
    assert_one_clean_line(message)
    # Its start and its end (the reason) kept, its middle cut, the controls escaped.
    assert message.startswith("/nonexistent/\\x1b[2J\\nsecond line\\u{202e}xxx") and "...(100096 bytes)..." in message
    assert "x.toml: cannot open" in message
    for raw in (b"/nonexistent/\xff\xfe.toml", os.fsdecode(b"/nonexistent/\xff.toml")):
        with pytest.raises(isoterra.Error) as caught:
            isoterra.Field.from_file(raw)
        assert_one_clean_line(str(caught.value))
        assert "\\xff" in str(caught.value)
    with pytest.raises(isoterra.Error) as caught:
        isoterra.Editor("/nonexistent/dir\x07/" + "y" * 50_000 + ".db")
    assert_one_clean_line(str(caught.value))
    assert "\\x07" in str(caught.value)


class Settings(ctypes.Structure):
    _fields_ = [("view_distance_m", ctypes.c_double), ("radius", ctypes.c_int), ("threads", ctypes.c_int),
                ("mesher", ctypes.c_char_p), ("triangle_budget", ctypes.c_longlong)]


class Bytes(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]


class Agent(ctypes.Structure):
    _fields_ = [(name, ctypes.c_double) for name in ("height_m", "radius_m", "max_climb_m", "max_slope_deg", "cell_size_m",
                                                     "cell_height_m")]


class NavPath(ctypes.Structure):
    _fields_ = [("points", ctypes.POINTER(ctypes.c_double)), ("point_count", ctypes.c_size_t), ("length_m", ctypes.c_double)]


CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
D3 = ctypes.c_double * 3
P, V, S, I, D = ctypes.POINTER, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_double
SIGNATURES = {
    "isoterra_abi_version": (I, []), "isoterra_last_error": (ctypes.c_char_p, []),
    "isoterra_field_new": (V, [ctypes.c_char_p, ctypes.c_int64]),
    "isoterra_field_from_text": (V, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64]),
    "isoterra_field_free": (None, [V]), "isoterra_field_name": (ctypes.c_char_p, [V]), "isoterra_field_seed": (ctypes.c_uint32, [V]),
    "isoterra_field_sample": (I, [V, P(D), S, P(D)]), "isoterra_field_ground": (I, [V, P(D), S, P(D)]),
    "isoterra_field_lattice": (I, [V, P(D), P(ctypes.c_int32), D, P(ctypes.c_float)]),
    "isoterra_field_raycast": (I, [V, P(D), P(D), D, P(D)]),
    "isoterra_mesh_region": (V, [V, P(D), P(D), ctypes.c_char_p, I, I]), "isoterra_mesh_free": (None, [V]),
    "isoterra_mesh_vertex_count": (S, [V]), "isoterra_mesh_triangle_count": (S, [V]),
    "isoterra_mesh_positions": (V, [V]), "isoterra_mesh_normals": (V, [V]), "isoterra_mesh_indices": (V, [V]),
    "isoterra_mesh_materials": (V, [V]), "isoterra_mesh_colours": (V, [V]),
    "isoterra_material_name": (ctypes.c_char_p, [I]), "isoterra_mesher_name": (ctypes.c_char_p, [I]),
    "isoterra_mesher_label": (ctypes.c_char_p, [I]),
    "isoterra_mesh_glb": (I, [V, I, P(Bytes)]), "isoterra_bytes_free": (None, [P(Bytes)]),
    "isoterra_world_new": (V, [V, P(Settings)]), "isoterra_world_free": (None, [V]),
    "isoterra_world_set_focus": (I, [V, D, D, D]), "isoterra_world_deliver": (I, [V, D, CALLBACK, V]),
    "isoterra_world_settled": (I, [V]),
    "isoterra_editor_open": (V, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64]), "isoterra_editor_free": (None, [V]),
    "isoterra_editor_field": (V, [V]), "isoterra_editor_apply": (I, [V, ctypes.c_char_p, ctypes.c_char_p, D, D, D, D, D]),
    "isoterra_editor_undo": (I, [V]), "isoterra_editor_redo": (I, [V]), "isoterra_editor_edit_count": (S, [V]),
    "isoterra_field_rivers": (V, [V, P(D), P(D), D, D, I]), "isoterra_rivers_free": (None, [V]),
    "isoterra_rivers_count": (S, [V]), "isoterra_rivers_point_count": (S, [V]), "isoterra_rivers_points": (V, [V]),
    "isoterra_rivers_offsets": (V, [V]), "isoterra_rivers_orders": (V, [V]), "isoterra_rivers_widths": (V, [V]),
    "isoterra_rivers_areas": (V, [V]),
    "isoterra_agent_defaults": (None, [P(Agent)]), "isoterra_navmesh_new": (V, [V, P(D), P(D), P(Agent), I]),
    "isoterra_navmesh_free": (None, [V]), "isoterra_navmesh_path": (I, [V, P(D), P(D), P(NavPath)]),
    "isoterra_path_free": (None, [P(NavPath)]),
}


def c_library():
    lib = ctypes.CDLL(C_LIB)
    for name, (restype, argtypes) in SIGNATURES.items():
        getattr(lib, name).restype = restype
        getattr(lib, name).argtypes = argtypes
    return lib


def test_the_c_apis_errors_are_one_bounded_line_with_the_users_text_escaped():
    lib = c_library()
    for name in (b"/nonexistent/\xff\x1b[2J\n" + b"y" * 100_000 + b".toml", b"no-such-\r\npreset\xe2\x80\xae"):
        assert not lib.isoterra_field_new(name, -1)
        message = lib.isoterra_last_error()
        assert_one_clean_line(message)
        assert b"\\x1b" in message or b"\\x0d\\x0a" in message
    assert not lib.isoterra_editor_open(b"/nonexistent/\x1b]0;title\x07/w.db", b"tutorial", -1)
    assert_one_clean_line(lib.isoterra_last_error())
    assert b"\\x1b]0;title\\x07" in lib.isoterra_last_error()


class AfterAFailure:
    """The library's functions, each called right after a call that fails (its arguments,
    handles made by other calls, are made before that failure)."""

    def __init__(self, lib):
        self.lib, self.calls = lib, 0

    def __getattr__(self, name):
        def call(*args):
            assert not self.lib.isoterra_field_new(b"no-such-preset", -1) and self.lib.isoterra_last_error()
            self.calls += 1
            return getattr(self.lib, name)(*args)
        return call


def test_last_error_is_empty_after_every_entry_point_that_succeeds():
    declared = set(re.findall(r"ISOTERRA_API[^;(]*?\b(isoterra_\w+)\s*\(", HEADER.read_text()))
    assert declared == set(SIGNATURES), declared ^ set(SIGNATURES)  # a new entry point needs a case here
    lib = c_library()
    at = AfterAFailure(lib)
    field = lambda: lib.isoterra_field_new(b"tutorial", -1)  # noqa: E731
    lo3, hi3 = D3(0, -32, 0), D3(32, 32, 32)
    mesh = lambda: lib.isoterra_mesh_region(field(), lo3, hi3, None, 0, 1)  # noqa: E731
    editor = lambda: lib.isoterra_editor_open(None, b"tutorial", -1)  # noqa: E731
    settings = ctypes.byref(Settings(400.0, 2, 1, None, 0))
    worlds = []  # freed at the end: their workers must not outlive the test

    def world(api=lib):
        worlds.append(api.isoterra_world_new(field(), settings))
        return worlds[-1]

    lo2, hi2 = (D * 2)(-500, -500), (D * 2)(500, 500)
    rivers = lambda: lib.isoterra_field_rivers(field(), lo2, hi2, 25.0, 0.05, 1)  # noqa: E731
    glb = Bytes()
    agent, walked = Agent(), NavPath()
    nav_lo, nav_hi = (D * 2)(-120, 40), (D * 2)(-110, 50)  # one tile, on the tutorial's ground
    navmesh = lambda: lib.isoterra_navmesh_new(field(), nav_lo, nav_hi, None, 1)  # noqa: E731
    heights = D3()
    assert lib.isoterra_field_ground(field(), (D * 4)(-115, 45, -112, 48), 2, heights) == 0
    walk_from, walk_to = D3(-115, heights[0], 45), D3(-112, heights[1], 48)
    graph = subprocess.run([BIN, "graph", "export", "tutorial"], capture_output=True, check=True).stdout
    on_chunk = CALLBACK(lambda update, user: None)
    point, out, hit = D3(0, 0, 40), D3(), D3()
    calls = {
        "isoterra_abi_version": lambda: at.isoterra_abi_version(),
        "isoterra_field_new": lambda: at.isoterra_field_new(b"tutorial", -1),
        "isoterra_field_from_text": lambda: at.isoterra_field_from_text(graph, None, -1),
        "isoterra_field_free": lambda: at.isoterra_field_free(field()),
        "isoterra_field_name": lambda: at.isoterra_field_name(field()),
        "isoterra_field_seed": lambda: at.isoterra_field_seed(field()),
        "isoterra_field_sample": lambda: at.isoterra_field_sample(field(), point, 1, out),
        "isoterra_field_ground": lambda: at.isoterra_field_ground(field(), point, 1, out),
        "isoterra_field_lattice": lambda: at.isoterra_field_lattice(field(), D3(0, 0, 0), (ctypes.c_int32 * 3)(1, 1, 1), 1.0,
                                                                    (ctypes.c_float * 1)()),
        "isoterra_field_raycast": lambda: at.isoterra_field_raycast(field(), D3(0, 500, 40), D3(0, -1, 0), 1000.0, hit),
        "isoterra_mesh_region": lambda: at.isoterra_mesh_region(field(), lo3, hi3, None, 0, 1),
        "isoterra_mesh_free": lambda: at.isoterra_mesh_free(mesh()),
        "isoterra_mesh_glb": lambda: at.isoterra_mesh_glb(mesh(), 0, ctypes.byref(glb)),
        "isoterra_bytes_free": lambda: at.isoterra_bytes_free(ctypes.byref(glb)),
        "isoterra_material_name": lambda: at.isoterra_material_name(0),
        "isoterra_mesher_name": lambda: at.isoterra_mesher_name(0), "isoterra_mesher_label": lambda: at.isoterra_mesher_label(0),
        "isoterra_world_new": lambda: world(at), "isoterra_world_free": lambda: at.isoterra_world_free(worlds.pop() if world() else None),
        "isoterra_world_set_focus": lambda: at.isoterra_world_set_focus(world(), 0, 30, 40),
        "isoterra_world_deliver": lambda: at.isoterra_world_deliver(world(), 1.0, on_chunk, None),
        "isoterra_world_settled": lambda: at.isoterra_world_settled(world()),
        "isoterra_editor_open": lambda: at.isoterra_editor_open(None, b"tutorial", -1),
        "isoterra_editor_free": lambda: at.isoterra_editor_free(editor()),
        "isoterra_editor_field": lambda: at.isoterra_editor_field(editor()),
        "isoterra_editor_apply": lambda: at.isoterra_editor_apply(editor(), b"sphere", b"carve", 0, 0, 40, 3, 0),
        "isoterra_editor_undo": lambda: at.isoterra_editor_undo(editor()),
        "isoterra_editor_redo": lambda: at.isoterra_editor_redo(editor()),
        "isoterra_editor_edit_count": lambda: at.isoterra_editor_edit_count(editor()),
        "isoterra_field_rivers": lambda: at.isoterra_field_rivers(field(), lo2, hi2, 25.0, 0.05, 1),
        "isoterra_rivers_free": lambda: at.isoterra_rivers_free(rivers()),
        "isoterra_agent_defaults": lambda: at.isoterra_agent_defaults(ctypes.byref(agent)),
        "isoterra_navmesh_new": lambda: at.isoterra_navmesh_new(field(), nav_lo, nav_hi, None, 1),
        "isoterra_navmesh_free": lambda: at.isoterra_navmesh_free(navmesh()),
        "isoterra_navmesh_path": lambda: at.isoterra_navmesh_path(navmesh(), walk_from, walk_to, ctypes.byref(walked)),
        "isoterra_path_free": lambda: at.isoterra_path_free(ctypes.byref(walked)),
    }
    for name in ("isoterra_rivers_count", "isoterra_rivers_point_count", "isoterra_rivers_points", "isoterra_rivers_offsets",
                 "isoterra_rivers_orders", "isoterra_rivers_widths", "isoterra_rivers_areas"):
        calls[name] = lambda name=name: getattr(at, name)(rivers())
    for name in ("isoterra_mesh_vertex_count", "isoterra_mesh_triangle_count", "isoterra_mesh_positions", "isoterra_mesh_normals",
                 "isoterra_mesh_indices", "isoterra_mesh_materials", "isoterra_mesh_colours"):
        calls[name] = lambda name=name: getattr(at, name)(mesh())
    assert set(calls) == declared - {"isoterra_last_error"}
    pointers = re.compile(r".*_(new|from_text|region|open|field|positions|normals|indices|materials|colours|name|label|rivers|points|"
                          r"offsets|orders|widths|areas)$")
    for name, call in sorted(calls.items()):
        before = at.calls
        result = call()
        assert at.calls == before + 1, name  # the call under test came right after a failure
        assert result != -1 and (result or not pointers.match(name)), name  # it succeeded
        assert lib.isoterra_last_error() == b"", (name, lib.isoterra_last_error())
    for w in worlds:
        lib.isoterra_world_free(w)
