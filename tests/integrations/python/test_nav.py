"""isoterra.NavMesh (the C API's isoterra_navmesh underneath): a path between two tutorial
ground points ends near the points asked, lies on the ground and is no shorter than the
straight line, the waypoints `isoterra path` prints; no path is isoterra.NoPathError; bad agent
settings and points raise isoterra.Error with one line."""
import json
import os
import subprocess

import numpy as np
import pytest

import isoterra

BIN = os.environ.get("ISOTERRA_BIN", "build/isoterra")
LO, HI = (-131.0, 29.0), (-62.0, 98.0)  # what `isoterra path --margin 16` builds around A and B
A, B = (-115.0, 45.0), (-78.0, 82.0)


@pytest.fixture(scope="module")
def field():
    return isoterra.Field.preset("tutorial")


@pytest.fixture(scope="module")
def nav(field):
    return isoterra.NavMesh(field, LO, HI, agent={"radius": 0.5, "max_slope": 45}, threads=2)


def on_ground(field, x, z):
    return np.array([x, field.ground(np.array([[x, z]]))[0], z])


def test_a_path_between_ground_points_ends_at_them_on_the_ground_and_matches_the_program(field, nav):
    a, b = on_ground(field, *A), on_ground(field, *B)
    path = nav.path(a, b)
    assert path.dtype == np.float64 and path.ndim == 2 and path.shape[1] == 3 and path.shape[0] >= 26
    assert np.hypot(*(path[0] - a)[[0, 2]]) < 0.5 and np.hypot(*(path[-1] - b)[[0, 2]]) < 0.5
    # On the field's surface: rock within 0.5 m below every waypoint, air within 0.5 m above.
    # field.ground is the surface before its detail (up to 0.8 m away from it here): within 1 m.
    assert np.all(field.sample(path - (0.0, 0.5, 0.0)) < 0.0) and np.all(field.sample(path + (0.0, 0.5, 0.0)) > 0.0)
    assert np.max(np.abs(path[:, 1] - field.ground(path[:, [0, 2]]))) < 1.0
    legs = np.linalg.norm(np.diff(path, axis=0), axis=1)
    length = legs.sum()
    assert np.linalg.norm(b - a) <= length < 60.0
    to_text = lambda p: ",".join(f"{v:.17g}" for v in p)  # noqa: E731
    out = subprocess.run([BIN, "path", "--preset", "tutorial", "--from", to_text(a), "--to", to_text(b), "--margin", "16",
                          "--threads", "2", "--json"], capture_output=True, text=True, check=True).stdout
    program = json.loads(out)
    assert len(program["waypoints"]) == len(path)
    assert np.allclose(np.array(program["waypoints"]), path, atol=1e-3)
    assert program["length_m"] == pytest.approx(length, abs=1e-3)


def test_no_path_bad_points_and_bad_agents_raise_one_line(field, nav):
    with pytest.raises(isoterra.NoPathError, match="^no path from -122,4.7,51 to -72,-17.25,88$"):
        nav.path((-122.0, 4.7, 51.0), (-72.0, -17.25, 88.0))
    assert issubclass(isoterra.NoPathError, isoterra.Error)
    with pytest.raises(isoterra.Error, match=r"^from -122,-5,51 lies inside rock, 9\.7 m under the ground at -122\.00,4\.65,51\.00$"):
        nav.path((-122.0, -5.0, 51.0), (-72.0, -17.25, 88.0))
    with pytest.raises(isoterra.Error, match=r"^agent: radius 9 m must be in \[0, 5\]$"):
        isoterra.NavMesh(field, LO, HI, agent={"radius": 9})
    with pytest.raises(isoterra.Error, match=r"^agent: max climb 3 m must not exceed height 2 m$"):
        isoterra.NavMesh(field, LO, HI, agent={"max_climb": 3})
    with pytest.raises(isoterra.Error, match="^the region spans 3969 tiles of 32 m, more than 1024$"):
        isoterra.NavMesh(field, (0.0, 0.0), (2000.0, 2000.0))
    with pytest.raises(ValueError, match="^agent: unknown setting"):
        isoterra.NavMesh(field, LO, HI, agent={"radius": 0.5, "speed": 3})
    with pytest.raises(TypeError, match="^agent: max_slope must be a number$"):
        isoterra.NavMesh(field, LO, HI, agent={"max_slope": "45"})
    with pytest.raises(ValueError, match=r"^path: a and b must be \(x, y, z\)$"):
        nav.path((0.0, 0.0), (1.0, 2.0, 3.0))
