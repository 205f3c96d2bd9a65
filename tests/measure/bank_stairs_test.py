#!/usr/bin/env python3
"""scripts/bank_stairs.py tells a smooth river bank from a grid staircase of the same bank.

Synthetic straight-down pictures (640 x 640 px seen from 90 m: 0.162 m a pixel) of grass, a
sand strip and water. The same curved bank drawn exactly and drawn from the nearest node of a
4 m grid (what a per-column quantity sampled on grid_m and not interpolated would give) must
measure apart; a smooth bank running along an axis must not count as a staircase although
the raw share calls it one; sand with no water near is no bank. Usage: bank_stairs_test.py REPO_ROOT WORK_DIR
"""
import json
import math
import os
import subprocess
import sys

import numpy as np
from PIL import Image

SIZE = 640
M_PER_PX = 2.0 * 90.0 * math.tan(math.radians(30.0)) / SIZE
GRASS, SAND, WATER = (70, 120, 40), (200, 180, 120), (95, 112, 124)  # as the renderer draws them


def picture(bank, grid_m=None, water=True):
    """Grass above the curve z = bank(x), blending into 6 m of sand below it over 2 m as the
    renderer blends materials, water beyond, all mottled by a fixed noise as the renderer's
    texture is. With grid_m each pixel takes the blend of its nearest grid node: a staircase."""
    c = (np.arange(SIZE) + 0.5) * M_PER_PX
    x, z = np.meshgrid(c, c)
    if grid_m:
        x, z = np.round(x / grid_m) * grid_m, np.round(z / grid_m) * grid_m
    above = z - bank(x)
    t = np.clip(above / 2.0 + 0.5, 0.0, 1.0)[..., None]
    rgb = (1.0 - t) * np.array(SAND, dtype=np.float64) + t * np.array(GRASS, dtype=np.float64)
    if water:
        rgb[above < -6.0] = WATER
    mottle = np.random.default_rng(53).normal(1.0, 0.08, (SIZE, SIZE))
    rgb *= ((mottle + np.roll(mottle, 1, 0) + np.roll(mottle, 1, 1) + np.roll(mottle, 1, (0, 1))) / 4.0)[..., None]
    return np.clip(rgb, 0, 255).astype(np.uint8)


def measure(root, work, name, rgb):
    path = os.path.join(work, name + ".png")
    Image.fromarray(rgb).save(path)
    out = subprocess.run([sys.executable, os.path.join(root, "scripts", "bank_stairs.py"), "--json", path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def check(failures, what, ok, r):
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {r}")
    if not ok:
        failures.append(what)


def main(root, work):
    os.makedirs(work, exist_ok=True)
    failures = []
    # A bend at 30-45 degrees to the axes, curving over 60 m.
    def diagonal(x):
        return 0.75 * x + 6.0 * math.sin(1.0) * np.sin(x / 20.0) + 10.0
    smooth = measure(root, work, "smooth", picture(diagonal))
    stairs = measure(root, work, "stairs", picture(diagonal, 4.0))
    check(failures, "a smooth curved bank has a stair share under 0.15", smooth["stair_share"] is not None and
          smooth["stair_share"] < 0.15, smooth)
    check(failures, "the same bank on a 4 m grid has a stair share over 0.5", stairs["stair_share"] is not None and
          stairs["stair_share"] > 0.5, stairs)
    check(failures, "both follow the same course (course shares within 0.05)",
          abs(smooth["course_axis_share"] - stairs["course_axis_share"]) < 0.05, (smooth, stairs))
    # A smooth bank along the x axis, waving 2 m: the raw share calls it a staircase, the
    # course shows why (the bank itself runs along the axis) and there is no diagonal to judge.
    along = measure(root, work, "along", picture(lambda x: 50.0 + 2.0 * np.sin(x / 25.0)))
    check(failures, "a smooth bank along an axis: raw share over 0.7, course share over 0.7, no stair share",
          along["raw_axis_share"] > 0.7 and along["course_axis_share"] > 0.7 and along["stair_share"] is None, along)
    dry = measure(root, work, "dry", picture(diagonal, 4.0, water=False))
    check(failures, "the staircase with no water within 20 m: no bank measured", dry["boundary_pixels"] == 0 and
          dry["stair_share"] is None, dry)
    bad = subprocess.run([sys.executable, os.path.join(root, "scripts", "bank_stairs.py"), os.path.join(work, "none.png")],
                         capture_output=True, text=True)
    check(failures, "a missing picture: exit 2 and one line naming it",
          bad.returncode == 2 and bad.stderr.count("\n") == 1 and "none.png" in bad.stderr, bad.stderr.strip())
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
