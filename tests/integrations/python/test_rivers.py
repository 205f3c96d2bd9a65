"""Field.rivers (the C API's isoterra_field_rivers underneath): a graph with one straight
valley gives one reach of order 1 on the valley's line at the graph's water level, the same
as `isoterra landform --rivers` writes; bad arguments raise with one line."""
import json
import math
import os
import subprocess
import tempfile

import numpy as np
import pytest

import isoterra

BIN = os.environ.get("ISOTERRA_BIN", "build/isoterra")

# A valley along (cos 20, sin 20) through the origin, falling 2 % along it, its sides rising
# 20 %; the water 1 m above the ground.
C, S = math.cos(math.radians(20.0)), math.sin(math.radians(20.0))
VALLEY = f"""format = 1
name = "valley"
[node]
px = {{ type = "x" }}
pz = {{ type = "z" }}
n = {{ type = "add", a = "nz", b = "nx" }}
nz = {{ type = "mul", a = "pz", b = {C!r} }}
nx = {{ type = "mul", a = "px", b = {-S!r} }}
side = {{ type = "abs", in = "n" }}
az = {{ type = "mul", a = "pz", b = {S!r} }}
ax = {{ type = "mul", a = "px", b = {C!r} }}
along = {{ type = "add", a = "ax", b = "az" }}
fall = {{ type = "mul", a = "along", b = 0.02 }}
sides = {{ type = "mul", a = "side", b = 0.2 }}
rise = {{ type = "add", a = "fall", b = "sides" }}
ground = {{ type = "add", a = "rise", b = 100.0 }}
water = {{ type = "add", a = "ground", b = 1.0 }}
land = {{ type = "plane", height = "ground" }}
[output]
sdf = "land"
ground = "ground"
water = "water"
"""


def test_a_straight_valley_has_one_reach_of_order_1_on_its_line_as_the_program_writes_it():
    field = isoterra.Field.from_text(VALLEY)
    reaches = field.rivers((-500.0, -500.0), (500.0, 500.0), step=5.0, min_area_km2=0.1)
    assert len(reaches) == 1
    r = reaches[0]
    assert r["order"] == 1
    p = r["points"]
    assert p.dtype == np.float64 and p.ndim == 2 and p.shape[1] == 3 and p.shape[0] > 100
    across = -S * p[:, 0] + C * p[:, 1]
    along = C * p[:, 0] + S * p[:, 1]
    assert np.all(np.abs(across) < 2.0)
    assert np.all(np.abs(p[:, 2] - (101.0 + 0.02 * along)) < 0.5)
    assert np.all(np.diff(p[:, 2]) <= 0.0)  # the water never rises downstream
    assert along[0] > along[-1]  # upstream first
    assert r["width_m"] > 0.0 and r["area_km2"] > 0.1
    with tempfile.TemporaryDirectory() as d:
        graph, out = os.path.join(d, "valley.toml"), os.path.join(d, "valley.geojson")
        with open(graph, "w") as f:
            f.write(VALLEY)
        subprocess.run([BIN, "landform", "--config", graph, "--from", "-500,-500", "--to", "500,500", "--step", "5",
                        "--river-area", "0.1", "--rivers", out, "--quiet"], check=True, capture_output=True)
        with open(out) as f:
            features = json.load(f)["features"]
    assert len(features) == 1
    assert features[0]["properties"]["order"] == 1
    assert np.allclose(np.array(features[0]["geometry"]["coordinates"]), p, atol=5e-4, rtol=0.0)


def test_bad_arguments_raise_one_line():
    field = isoterra.Field.from_text(VALLEY)
    with pytest.raises(ValueError, match="^rivers: lo and hi must be \\(x, z\\)$"):
        field.rivers((0.0, 0.0, 0.0), (100.0, 100.0))
    with pytest.raises(ValueError, match="^rivers: min_area_km2 must be a positive number of km2$"):
        field.rivers((0.0, 0.0), (100.0, 100.0), min_area_km2=0.0)
    with pytest.raises(isoterra.Error, match="^rivers: the step must be positive and finite$"):
        field.rivers((0.0, 0.0), (100.0, 100.0), step=float("nan"))
    with pytest.raises(isoterra.Error, match="^rivers: the region holds fewer than 3 samples a side at this step$"):
        field.rivers((0.0, 0.0), (100.0, 100.0), step=60.0)
    no_ground = isoterra.Field.from_text(VALLEY.replace('ground = "ground"\n', ""))
    with pytest.raises(isoterra.Error, match="^rivers: the field has no ground height"):
        no_ground.rivers((0.0, 0.0), (100.0, 100.0))
