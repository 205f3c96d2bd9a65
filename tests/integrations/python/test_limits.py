"""The Python module refuses what the program refuses: the library's one set of limits.

Coordinates past +-1e8 m, NaN and infinity for sample, ground, heightmap, raycast and mesh;
a lattice origin too many steps out to convert, or reaching past the world's end; lattices
and Worlds past ISOTERRA_MEMORY_BUDGET. Each raises isoterra.Error with one line, as the
program exits 2 with it.
"""
import os
import subprocess

import numpy as np
import pytest

import isoterra

BIN = os.environ.get("ISOTERRA_BIN", "build/isoterra")


def one_line(error):
    text = str(error.value)
    assert "\n" not in text and text
    return text


@pytest.fixture
def field():
    return isoterra.Field.preset("tutorial")


@pytest.mark.parametrize("bad", [1.5e8, -2e8, np.nan, np.inf, -np.inf])
def test_sample_ground_heightmap_raycast_and_mesh_refuse_a_coordinate_the_program_refuses(field, bad):
    expected = "within \\+-1e8 m" if np.isfinite(bad) else "not finite"
    with pytest.raises(isoterra.Error, match=expected) as e:
        field.sample(np.array([[0.0, 10.0, 0.0], [bad, 0.0, 0.0]]))
    assert "point 1" in one_line(e)
    with pytest.raises(isoterra.Error, match=expected):
        field.ground(np.array([[0.0, bad]]))
    # heightmap's own check sees a NaN or infinite corner first; a far one reaches the library.
    with pytest.raises(isoterra.Error if np.isfinite(bad) else ValueError, match=expected if np.isfinite(bad) else "must lie beyond"):
        field.heightmap((bad, 0.0), (bad + 8.0, 8.0), 1.0)
    with pytest.raises(isoterra.Error, match=expected):
        field.raycast((0.0, bad, 0.0), (0.0, -1.0, 0.0))
    with pytest.raises(isoterra.Error, match="1e8 m" if np.isfinite(bad) else "must grow"):
        isoterra.mesh(field, (bad, 0.0, 0.0), (bad + 16.0, 32.0, 32.0))


def test_the_program_refuses_the_same_coordinates_with_exit_2(tmp_path):
    for text in ["0 0 1.5e8\n", "nan 0 0\n"]:
        r = subprocess.run([BIN, "sample"], input=text, capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.count("\n") == 1
    r = subprocess.run([BIN, "heightmap", "--from", "1.5e8,0", "--to", "1.5e8,8", "-o", str(tmp_path / "h.png")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "within +-1e8 m" in r.stderr


def test_a_lattice_origin_past_int64_steps_is_refused_not_wrapped(field):
    # 9e7 m at 1e-12 m steps is 9e19 steps: past 2^63, where a conversion wraps to elsewhere.
    with pytest.raises(isoterra.Error, match="within 2\\^53 steps") as e:
        field.lattice((9e7, 0.0, 0.0), (2, 2, 2), 1e-12)
    one_line(e)
    with pytest.raises(isoterra.Error, match="reaches past \\+-1e8 m"):
        field.lattice((1e8, 0.0, 0.0), (2, 2, 2), 1.0)
    with pytest.raises(isoterra.Error, match="not finite"):
        field.lattice((np.nan, 0.0, 0.0), (2, 2, 2), 1.0)


def test_lattices_and_worlds_keep_to_the_memory_budget(field, monkeypatch):
    monkeypatch.setenv("ISOTERRA_MEMORY_BUDGET", "64M")
    # 4.2 M samples: 16 MiB of values, planned with the temporaries of sampling them.
    with pytest.raises(isoterra.Error, match="sampling 4194304 samples needs about .* more than the memory budget of 64.0 MiB") as e:
        field.lattice((0.0, -32.0, 0.0), (256, 64, 256), 1.0)
    one_line(e)
    with pytest.raises(isoterra.Error, match="more than the memory budget") as e:
        isoterra.World(field, view_distance=200000.0, radius=64, threads=1, triangle_budget=0)
    one_line(e)
    monkeypatch.delenv("ISOTERRA_MEMORY_BUDGET")
    values = field.lattice((0.0, -32.0, 0.0), (256, 64, 256), 1.0)
    assert values.shape == (256, 64, 256) and np.isfinite(values).all()


def test_a_heightmap_past_the_memory_budget_is_refused_before_it_allocates(field, monkeypatch):
    monkeypatch.setenv("ISOTERRA_MEMORY_BUDGET", "64M")
    # 4001 x 4001 pixels, 24 bytes each (the points and the heights): 366 MiB, refused at
    # once, where it used to allocate them and then sample 16 M points.
    with pytest.raises(isoterra.Error, match="heightmap: 4001 x 4001 heights needs about 366.4 MiB, more than the memory budget of 64.0 MiB") as e:
        field.heightmap((0.0, 0.0), (4000.0, 4000.0), 1.0)
    one_line(e)
    # 201 x 201 pixels, 947 KiB: within it.
    h = field.heightmap((0.0, 0.0), (200.0, 200.0), 1.0)
    assert h.shape == (201, 201) and np.isfinite(h).all()
