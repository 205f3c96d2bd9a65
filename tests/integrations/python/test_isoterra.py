"""The Python module and the C API through ctypes, against the isoterra program.

Run by CTest with Debian's /usr/bin/python3 -m pytest; the environment names the program
(ISOTERRA_BIN), the C library (ISOTERRA_C_LIB), and PYTHONPATH holds build/python.
"""
import ctypes
import json
import os
import struct
import subprocess
import threading
import time

import numpy as np
import pytest

import isoterra

BIN = os.environ.get("ISOTERRA_BIN", "build/isoterra")
C_LIB = os.environ.get("ISOTERRA_C_LIB", "build/libisoterra_c.so")


def run(*args, stdin=None):
    return subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, check=True).stdout


def program_sample(points, *flags):
    text = "".join(f"{x!r} {y!r} {z!r}\n" for x, y, z in points)
    return np.array([float(v) for v in run("sample", *flags, stdin=text).split()])


def some_points(n=400, seed=7):
    rng = np.random.default_rng(seed)
    pts = np.column_stack([rng.uniform(-3000, 3000, n), rng.uniform(-80, 400, n), rng.uniform(-3000, 3000, n)])
    pts[:4] = [[0.0, 0.0, 0.0], [1e6 + 0.25, 12.5, -2e6], [-5e7, 100.0, 5e7], [0.1, -40.0, 40.0]]
    return pts


@pytest.mark.parametrize("name,seed", [("tutorial", None), ("alpine", None), ("islands", 99), ("tutorial", -5)])
def test_sample_equals_the_program_bit_for_bit(name, seed):
    field = isoterra.Field.preset(name, seed=seed)
    pts = some_points()
    flags = ["--preset", name] + (["--seed", str(seed)] if seed is not None else [])
    got = field.sample(pts)
    assert got.dtype == np.float64 and got.shape == (len(pts),)
    assert np.array_equal(got, program_sample(pts, *flags))
    if seed is not None:
        assert field.seed == seed % 2**32


def test_a_graph_file_and_its_text_give_the_programs_values(tmp_path):
    text = run("graph", "export", "tutorial")
    path = tmp_path / "mine.toml"
    path.write_text(text)
    pts = some_points(100, seed=3)
    expected = program_sample(pts, "--config", str(path))
    assert np.array_equal(isoterra.Field.from_file(str(path)).sample(pts), expected)
    assert np.array_equal(isoterra.Field.from_text(text).sample(pts), expected)
    os.chdir(tmp_path)  # a bare file name is a file, never a preset's name
    assert np.array_equal(isoterra.Field.from_file("mine.toml").sample(pts), expected)


def test_lattice_has_shape_nz_ny_nx_and_the_values_at_those_points():
    field = isoterra.Field.preset("tutorial")
    origin, step = (-16.0, -32.0, 64.0), 4.0
    lat = field.lattice(origin, (3, 17, 9), step)
    assert lat.dtype == np.float32 and lat.shape == (3, 17, 9) and lat.flags.c_contiguous and lat.flags.owndata
    k, j, i = np.meshgrid(np.arange(3), np.arange(17), np.arange(9), indexing="ij")
    pts = np.column_stack([origin[0] + i.ravel() * step, origin[1] + j.ravel() * step, origin[2] + k.ravel() * step])
    values = field.sample(pts).reshape(lat.shape)
    assert np.allclose(lat, values, rtol=1e-5, atol=1e-3)
    assert (lat < 0).any() and (lat > 0).any()
    out = np.full((3, 17, 9), np.nan, dtype=np.float32)
    written = field.lattice(origin, (3, 17, 9), step, out=out)
    assert written is out and np.array_equal(out, lat)  # in place, no copy
    with pytest.raises(ValueError, match="shape"):
        field.lattice(origin, (3, 17, 9), step, out=np.empty((3, 17, 8), dtype=np.float32))
    with pytest.raises(ValueError, match="float32"):
        field.lattice(origin, (3, 17, 9), step, out=np.empty((3, 17, 9)))


def read_ply(path):
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode()
    nv = int(header.split("element vertex ")[1].split()[0])
    nf = int(header.split("element face ")[1].split()[0])
    vertex = np.dtype([("p", "<f4", 3), ("n", "<f4", 3), ("c", "u1", 3)])
    face = np.dtype([("count", "u1"), ("i", "<u4", 3)])
    v = np.frombuffer(data, vertex, nv, end)
    f = np.frombuffer(data, face, nf, end + nv * vertex.itemsize)
    assert (f["count"] == 3).all()
    return v["p"], v["n"], f["i"]


@pytest.mark.parametrize("mesher", isoterra.MESHERS)
def test_mesh_gives_the_triangles_the_program_writes(tmp_path, mesher):
    field = isoterra.Field.preset("alpine")
    lo, hi = (-40.0, 1000.0, 10.0), (60.0, 1400.0, 70.0)  # alpine's ground is near 1,170 m here
    m = isoterra.mesh(field, lo, hi, mesher=mesher)
    out = tmp_path / "m.ply"
    run("mesh", "--preset", "alpine", "--from", "-40,1000,10", "--to", "60,1400,70", "--mesher", mesher, "-o", str(out), "--quiet")
    p, n, f = read_ply(out)
    assert m.vertices.dtype == np.float32 and m.vertices.shape == p.shape
    assert m.faces.dtype == np.uint32 and m.faces.shape == f.shape and len(f) > 1000
    assert np.array_equal(m.vertices, p) and np.array_equal(m.normals, n) and np.array_equal(m.faces, f)
    assert m.materials.dtype == np.uint8 and m.materials.shape == (len(p),) and m.materials.max() < len(isoterra.MATERIALS)
    assert m.colours.shape == (len(p), 3) and (m.colours >= 0).all() and (m.colours <= 1).all()


def test_mesh_arrays_are_read_only_views_of_the_librarys_buffers():
    m = isoterra.mesh(isoterra.Field.preset("tutorial"), (0, -32, 0), (32, 32, 32))
    a, b = m.vertices, m.vertices
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]  # no copy
    assert not a.flags.owndata and not a.flags.writeable
    with pytest.raises(ValueError):
        a[0, 0] = 1.0
    faces = m.faces
    del m  # the arrays keep the mesh alive
    assert faces.max() < len(a)


def test_glb_bytes_are_the_programs_file(tmp_path):
    m = isoterra.mesh(isoterra.Field.preset("tutorial"), (0, -32, 0), (64, 32, 32))
    out = tmp_path / "m.glb"
    run("mesh", "--from", "0,-32,0", "--to", "64,32,32", "-o", str(out), "--quiet")
    glb = m.glb()
    assert glb[:4] == b"glTF" and glb == out.read_bytes()
    run("mesh", "--from", "0,-32,0", "--to", "64,32,32", "--compress", "-o", str(out), "--quiet")
    assert m.glb(compress=True) == out.read_bytes() and len(out.read_bytes()) < len(glb) / 2


def test_heightmap_matches_the_programs_sidecar(tmp_path):
    field = isoterra.Field.preset("tutorial")
    h = field.heightmap((-100.0, -50.0), (100.0, 150.0), 5.0)
    assert h.shape == (41, 41)
    out = tmp_path / "h.png"
    run("heightmap", "--from", "-100,-50", "--to", "100,150", "--step", "5", "-o", str(out), "--quiet")
    side = json.loads((tmp_path / "h.json").read_text())
    assert h.min() == side["min_height_m"] and h.max() == side["max_height_m"]
    assert h[3, 7] == field.ground(np.array([[-100.0 + 7 * 5, -50.0 + 3 * 5]]))[0]


def test_bad_input_raises_with_the_one_line_message():
    with pytest.raises(isoterra.Error, match="no-such-preset"):
        isoterra.Field.preset("no-such-preset")
    assert issubclass(isoterra.Error, ValueError)
    field = isoterra.Field.preset("tutorial")
    with pytest.raises(isoterra.Error, match="voxels"):
        isoterra.mesh(field, (0, 0, 0), (32, 32, 32), mesher="voxels")
    with pytest.raises(isoterra.Error, match="more than 4096"):
        isoterra.mesh(field, (0, 0, 0), (1e5, 32, 1e5))
    with pytest.raises(isoterra.Error, match="must grow"):
        isoterra.mesh(field, (0, 0, 0), (0, 32, 32))
    with pytest.raises(isoterra.Error, match="not finite"):
        field.sample(np.array([[np.nan, 0.0, 0.0]]))
    with pytest.raises(ValueError, match=r"\(N, 3\)"):
        field.sample(np.zeros((4, 2)))
    with pytest.raises(isoterra.Error, match="multiple"):
        field.lattice((0.5, 0, 0), (2, 2, 2), 1.0)
    with pytest.raises(isoterra.Error, match="seed"):
        isoterra.Field.preset("tutorial", seed=2**40)
    with pytest.raises(isoterra.Error):
        isoterra.Field.from_file("/nonexistent/terrain.toml")
    with pytest.raises(isoterra.Error, match="format"):
        isoterra.Field.from_text('name = "x"\n[node.a]\ntype = "nonsense"\n[output]\nvalue = "a"\n')


def test_threads_sample_and_mesh_at_once_with_the_same_results():
    field = isoterra.Field.preset("alpine")
    pts = some_points(20000, seed=11)
    expected = field.sample(pts)
    mesh0 = isoterra.mesh(field, (0, 1000, 0), (64, 1400, 64), threads=1)
    results, errors = [None] * 6, []

    def work(i):
        try:
            if i % 2:
                results[i] = np.array_equal(field.sample(pts), expected)
            else:
                m = isoterra.mesh(field, (0, 1000, 0), (64, 1400, 64), threads=1)
                results[i] = np.array_equal(m.vertices, mesh0.vertices) and np.array_equal(m.faces, mesh0.faces)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and all(results) and len(mesh0.faces) > 1000


def stream_until_settled(world, focus=(0.0, 20.0, 40.0), seconds=120.0):
    """Runs frames until the world settles; returns the visible chunks' last updates."""
    shown = {}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        world.set_focus(focus)  # before asking: a world without a focus is settled
        for u in world.deliver(20.0):
            if u.dropped or not u.visible:
                shown.pop(u.chunk, None)
            else:
                assert u.vertices.dtype == np.float32 and u.faces.dtype == np.uint32
                assert u.faces.size == 0 or u.faces.max() < len(u.vertices)
                shown[u.chunk] = u
        if world.settled:
            break
        time.sleep(0.005)
    assert world.settled
    return shown


def test_the_world_streams_chunks_until_settled():
    field = isoterra.Field.preset("tutorial")
    shown = stream_until_settled(isoterra.World(field, view_distance=400.0, radius=4, threads=2))
    drawn = sum(len(u.faces) for u in shown.values())
    assert drawn > 1000
    assert {c[3] for c in shown} >= {0, 1}  # more than one level of detail
    with pytest.raises(isoterra.Error, match="view_distance"):
        isoterra.World(field, view_distance=1.0)
    # A triangle budget of half of that: narrower rings, and the view within it.
    budget = drawn // 2
    shown = stream_until_settled(isoterra.World(field, view_distance=400.0, radius=4, threads=2, triangle_budget=budget))
    assert budget // 3 < sum(len(u.faces) for u in shown.values()) <= budget
    with pytest.raises(ValueError, match="triangle_budget"):
        isoterra.World(field, triangle_budget=-1)


def test_edits_undo_and_redo_in_a_world_file_the_program_reads(tmp_path):
    path = str(tmp_path / "w.db")
    editor = isoterra.Editor(path, terrain="tutorial")
    ground = editor.field.ground(np.array([[0.0, 40.0]]))[0]
    centre = (0.0, ground - 2.0, 40.0)
    before = editor.field.sample(np.array([centre]))[0]
    editor.apply("sphere", centre, 4.0)
    after = editor.field.sample(np.array([centre]))[0]
    assert before < 0 < after and editor.edit_count == 1
    hit = editor.field.raycast((0.0, ground + 50, 40.0), (0.0, -1.0, 0.0))
    assert hit is not None and hit[1] < centre[1] - 3.0
    assert np.array_equal(program_sample([centre], "--world", path), [after])
    assert editor.undo() and not editor.undo()
    assert editor.field.sample(np.array([centre]))[0] == before
    assert np.array_equal(program_sample([centre], "--world", path), [before])
    assert editor.redo() and not editor.redo()
    with pytest.raises(isoterra.Error, match="radius"):
        editor.apply("sphere", centre, 1000.0)
    del editor
    again = isoterra.Editor(path, terrain="alpine")  # an existing file keeps its own terrain
    assert again.field.name == "tutorial" and again.edit_count == 1


def test_the_c_api_through_ctypes_gives_the_programs_values():
    lib = ctypes.CDLL(C_LIB)
    lib.isoterra_field_new.restype = ctypes.c_void_p
    lib.isoterra_field_new.argtypes = [ctypes.c_char_p, ctypes.c_int64]
    lib.isoterra_field_sample.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double), ctypes.c_size_t,
                                          ctypes.POINTER(ctypes.c_double)]
    lib.isoterra_field_free.argtypes = [ctypes.c_void_p]
    lib.isoterra_last_error.restype = ctypes.c_char_p
    assert lib.isoterra_abi_version() == isoterra.ABI_VERSION
    f = lib.isoterra_field_new(b"alpine", 42)
    assert f
    pts = np.ascontiguousarray(some_points(300, seed=5))
    out = np.empty(len(pts))
    ptr = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))  # noqa: E731
    assert lib.isoterra_field_sample(f, ptr(pts), len(pts), ptr(out)) == 0
    assert np.array_equal(out, program_sample(pts, "--preset", "alpine", "--seed", "42"))
    lib.isoterra_field_free(f)
    assert not lib.isoterra_field_new(b"nowhere", -1)
    assert b"nowhere" in lib.isoterra_last_error()
    exported = subprocess.run(["nm", "-D", "--defined-only", C_LIB], capture_output=True, text=True, check=True).stdout
    names = [line.split()[-1] for line in exported.splitlines() if " T " in line]
    assert names and all(n.startswith("isoterra_") for n in names), [n for n in names if not n.startswith("isoterra_")][:5]
