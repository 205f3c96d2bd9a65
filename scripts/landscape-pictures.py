#!/usr/bin/env python3
"""The pictures of docs/guides/landscape-pictures.md: every built-in preset seen from 2 m above
a river bank, from 100 m up and from 2 km up, by `isoterra render` (issue 53).

For each preset it finds the largest river near the world's centre (Field.rivers over a
square around the origin: the river network `isoterra landform --rivers` writes), stands
on its bank (walking across from the water until the ground is above it), and renders three
views of the same spot. Each picture is reduced to 256 colours (PIL, dithered) so the
fifteen stay small. The places it chose and the commands it ran are printed, and the same
inputs give the same pictures.

Usage (from the repository root, after `bash scripts/build.sh`; Debian's python3 with numpy
and PIL, which python3-matplotlib pulls in):
    /usr/bin/python3 scripts/landscape-pictures.py [--build build] [--out docs/images]
                                                   [--preset NAME ...] [--size 640x360]
"""
import argparse
import math
import os
import pathlib
import subprocess
import sys
import tempfile

SEARCH_HALF_M = 4000.0  # the square searched for a river: the origin +- this
SEARCH_STEP_M = 20.0
BANK_CLEARANCE_M = 0.3  # the bank: where the ground first stands this much above the water


def presets(isoterra):
    """The built-in presets' names, as `isoterra presets` lists them."""
    text = subprocess.run([isoterra, "presets"], check=True, capture_output=True, text=True).stdout
    return [line.split()[0] for line in text.splitlines() if line.strip()]


def largest_river(field):
    """The reach draining the largest area in the search square (ties: the first listed)."""
    lo, hi = [-SEARCH_HALF_M] * 2, [SEARCH_HALF_M] * 2
    reaches = [r for r in field.rivers(lo, hi, step=SEARCH_STEP_M) if len(r["points"]) >= 9]
    if not reaches:
        sys.exit(f"landscape-pictures: {field.name}: no river within {SEARCH_HALF_M:g} m of the origin")
    return max(reaches, key=lambda r: r["area_km2"])


def ground(field, x, z):
    import numpy as np
    return float(field.ground(np.array([[x, z]], dtype=np.float64))[0])


def across_line(field, x, z, across, distances):
    """The ground at `distances` metres from (x, z) along the unit vector `across`."""
    import numpy as np
    d = np.asarray(distances, dtype=np.float64)
    return field.ground(np.stack([x + across[0] * d, z + across[1] * d], axis=1))


def upstream(points, i, length):
    """The point `length` metres up the river's line from point i (or its source's)."""
    gone = 0.0
    while i > 0 and gone < length:
        gone += math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1])
        i -= 1
    return float(points[i][0]), float(points[i][1])


def bank(field, river):
    """The river at its middle: where its bed is lowest across its line, its water level, the
    unit vectors downstream and across to the nearer bank, the bank's distance from there,
    and the point 300 m upstream on its line."""
    pts = river["points"]
    i = len(pts) // 2
    x, z, water = (float(v) for v in pts[i])
    a, b = pts[max(0, i - 4)], pts[min(len(pts) - 1, i + 4)]
    dx, dz = float(b[0] - a[0]), float(b[1] - a[1])
    n = math.hypot(dx, dz) or 1.0
    down = (dx / n, dz / n)
    # The line is a D8 path smoothed, a few metres off the bed: move to the lowest ground
    # within 60 m across it.
    left = (-down[1], down[0])
    offsets = list(range(-60, 61))
    centre = offsets[int(across_line(field, x, z, left, offsets).argmin())]
    x, z = x + left[0] * centre, z + left[1] * centre
    best = None
    for side in (1.0, -1.0):
        across = (left[0] * side, left[1] * side)
        dry = (across_line(field, x, z, across, range(300)) >= water + BANK_CLEARANCE_M).nonzero()[0]
        if len(dry) and (best is None or dry[0] < best[1]):
            best = (across, int(dry[0]))
    if best is None:
        sys.exit(f"landscape-pictures: {field.name}: no bank within 300 m of the river at {x:.0f},{z:.0f}")
    return {"x": x, "z": z, "water": water, "down": down, "across": best[0], "to_bank": float(best[1]),
            "upstream": upstream(pts, i, 300.0)}


def views(field, place):
    """(name, eye, target, view distance) of the three pictures of `place` (bank's)."""
    x, z, water, down, across = place["x"], place["z"], place["water"], place["down"], place["across"]
    river_point = (x, water, z)
    # 2 m: on the bank, 3 m back from its edge, looking 150 m down the river.
    step = place["to_bank"] + 3.0
    bx, bz = x + across[0] * step, z + across[1] * step
    ground_eye = (bx, ground(field, bx, bz) + 2.0, bz)
    ground_target = (x + down[0] * 150.0, water, z + down[1] * 150.0)
    # 100 m: above the river 300 m upstream (so a canyon's walls stand beside, not between),
    # 100 m over its ground, looking down the river.
    ux, uz = place["upstream"]
    high_eye = (ux, ground(field, ux, uz) + 100.0, uz)
    # 2 km: 2.9 km back across and upstream, 2 km above the ground there, looking down at the river.
    fx, fz = x + across[0] * 2500.0 - down[0] * 1500.0, z + across[1] * 2500.0 - down[1] * 1500.0
    far_eye = (fx, ground(field, fx, fz) + 2000.0, fz)
    return [("2m", ground_eye, ground_target, 8000.0), ("100m", high_eye, river_point, 8000.0),
            ("2km", far_eye, river_point, 16000.0)]


def triple(p):
    return ",".join(f"{v:.1f}" for v in p)


def render(isoterra, preset, name, eye, target, distance, size, out):
    from PIL import Image
    path = out / f"landscape-{preset}-{name}.png"
    with tempfile.TemporaryDirectory() as scratch:
        raw = pathlib.Path(scratch) / "raw.png"
        cmd = [isoterra, "render", "--preset", preset, "--eye", triple(eye), "--target", triple(target),
               "--view-distance", f"{distance:g}", "--size", size, "-o", str(raw)]
        print(" ".join(cmd[1:-2]), "-o", path, flush=True)
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL)  # its one-line error, if any, on stderr
        if done.returncode != 0:
            sys.exit(done.returncode)
        image = Image.open(raw).convert("RGB")
        # 256 colours, dithered: a third of the bytes, and no bands in smooth fades (sand to
        # grass, the sky) that a plain palette would draw as steps the terrain does not have.
        palette = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        small = image.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG)
        partial = path.with_suffix(".png.part")
        small.save(partial, format="PNG", optimize=True)
        os.replace(partial, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="the build tree (isoterra and python/)")
    parser.add_argument("--out", default="docs/images", help="where the pictures go")
    parser.add_argument("--preset", action="append", help="only these presets (default: every one)")
    parser.add_argument("--size", default="640x360", help="picture size WxH")
    args = parser.parse_args()
    build = pathlib.Path(args.build).resolve()
    binary = str(build / "isoterra")
    if not os.access(binary, os.X_OK) or not (build / "python").is_dir():
        print(f"landscape-pictures: --build {args.build}: no isoterra and python/ there (bash scripts/build.sh)", file=sys.stderr)
        sys.exit(2)
    sys.path.insert(0, str(build / "python"))
    import isoterra as iso
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for preset in args.preset or presets(binary):
        try:
            field = iso.Field.preset(preset)
        except iso.Error as e:
            print(f"landscape-pictures: --preset {preset}: {e}", file=sys.stderr)
            sys.exit(2)
        river = largest_river(field)
        place = bank(field, river)
        print(f"# {preset}: river of {river['area_km2']:.1f} km2 (order {river['order']}) at {place['x']:.0f},{place['z']:.0f}, "
              f"water {place['water']:.1f} m, bank {place['to_bank']:.0f} m across", flush=True)
        for name, eye, target, distance in views(field, place):
            render(binary, preset, name, eye, target, distance, args.size, out)


if __name__ == "__main__":
    main()
