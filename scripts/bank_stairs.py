#!/usr/bin/env python3
"""Is the grass/sand boundary of a river bank a staircase along the world grid, or a curve?

Usage: /usr/bin/python3 scripts/bank_stairs.py [--height-m 90] [--fov-deg 60] [--json] DOWN.png ...
DOWN.png: `isoterra render --eye X,Y+90,Z --target X,Y,Z+0.01 --fog 0 -o DOWN.png`, a picture
looking straight down from --height-m (image axes along world X and Z).

Along the grass/sand boundary within 20 m of water (the bank; sand-coloured rock further off is
left out) it compares two directions at every boundary pixel: the local one (the boundary's
normal over about half a metre) and the boundary's own course (its normal smoothed over about
25 m: a bend of 30 m radius keeps its course). A smooth bank follows its course wherever that
runs; a staircase along the grid turns from its course towards the nearest world axis. Printed
per picture:

- raw_axis_share: the share of the boundary whose local direction lies within 10 degrees of an
  image axis (issue 53's first measure; a smooth bank running along an axis gives 1 by itself,
  a smooth bank at every angle about 0.22);
- course_axis_share: the same share for the smoothed course: what a smooth bank of this river
  would give;
- stair_share: of the boundary whose course runs at least 20 degrees from both axes (the
  stretches where a staircase shows), the share whose local direction lies within 10 degrees
  of an axis: about 0.1 for a smooth bank, over 0.5 for a staircase of 4 m steps
  (tests/measure/bank_stairs_test.py);
- diagonal_pixels: how many boundary pixels that share is over (few: not judged).
"""
import argparse
import json
import math
import sys

import numpy as np

AXIS_DEG = 10.0  # "along an axis": within this many degrees of one (issue 53's goal)
DIAGONAL_DEG = 20.0  # a course this far from both axes lets a staircase show
LOCAL_M = 0.25  # the local direction: the boundary blurred over about half a metre
COURSE_M = 6.0  # the course: blurred over about 25 m (4 standard deviations; wider cuts bends)
MIN_DIAGONAL = 200  # fewer diagonal boundary pixels than this: stair_share is not judged
BANK_M = 20.0  # the boundary counted: within this of water (a bank, not sand-coloured rock)


def read_rgb(path):
    """The picture as an H x W x 3 float array (PIL: python3-matplotlib pulls it in)."""
    from PIL import Image
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"), dtype=np.float64)


def classify(rgb):
    """Grass (green), sand (tan) and water (blue) masks, by the colours isoterra's renderer
    gives them."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    grass = (g > r * 1.15) & (g > b * 1.3)
    sand = (r > g) & (g > b * 1.15) & (r > 120)
    water = (b > r * 1.15) & (b > g) & (r + g + b > 250.0)  # not the dark blue-grey of caves
    return grass, sand, water


def box_blur(a, k, axis):
    """The mean over 2k + 1 samples along one axis, zero outside the picture."""
    pad = [(0, 0), (0, 0)]
    pad[axis] = (k + 1, k)
    c = np.cumsum(np.pad(a, pad), axis=axis)
    n = a.shape[axis]
    hi = np.take(c, np.arange(2 * k + 1, 2 * k + 1 + n), axis=axis)
    lo = np.take(c, np.arange(0, n), axis=axis)
    return (hi - lo) / (2 * k + 1)


def gauss_blur(a, sigma_px):
    """Three box blurs in a row: close to a Gaussian of this standard deviation (three boxes
    of 2k + 1 samples have the variance k (k + 1))."""
    k = max(1, int(round(math.sqrt(sigma_px * sigma_px + 0.25) - 0.5)))
    for axis in (0, 1):
        for _ in range(3):
            a = box_blur(a, k, axis)
    return a


def grassness(rgb, grass, sand):
    """How much like grass each pixel is, 0 for the picture's sand and 1 for its grass (by
    (g - r) / (g + r), between the two's medians; a continuous value: the blend band's texture
    moves its middle less than it moves a yes/no mask), and where that counts: neither water
    nor sky (blue above red or green)."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    t = (g - r) / np.maximum(g + r, 1.0)
    lo, hi = np.median(t[sand]), np.median(t[grass])
    u = np.clip((t - lo) / (hi - lo), -0.5, 1.5) if hi > lo else np.zeros_like(t)
    return u, (b < np.minimum(r, g)).astype(np.float64)


def blurred_grassness(u, counts, sigma_px):
    """The grassness averaged over what counts around each pixel, with the gradient of that
    average (the boundary's normal) and how much of the neighbourhood counts."""
    w = gauss_blur(counts, sigma_px)
    share = gauss_blur(counts * u, sigma_px) / np.maximum(w, 1e-9)
    gy, gx = np.gradient(share)
    return share, gx, gy, w


def from_axis_deg(gx, gy):
    """How far a normal (and so its boundary) lies from the nearest image axis, 0 to 45."""
    a = np.degrees(np.arctan2(gy, gx)) % 90.0
    return np.minimum(a, 90.0 - a)


def measure(rgb, m_per_px):
    """The figures of one picture (the module's docstring). The boundary: where the grassness
    blurred over the local scale lies within 0.3-0.7, in ground that counts, within BANK_M of
    water, away from the picture's edge."""
    grass, sand, water = classify(rgb)
    if not grass.any() or not sand.any():
        return dict(boundary_pixels=0, raw_axis_share=None, course_axis_share=None, diagonal_pixels=0, stair_share=None)
    u, counts = grassness(rgb, grass, sand)
    local_px = max(LOCAL_M / m_per_px, 1.0)
    share, lx, ly, cover = blurred_grassness(u, counts, local_px)
    _, cx, cy, _ = blurred_grassness(u, counts, COURSE_M / m_per_px)
    bank_px = max(1, int(round(BANK_M / m_per_px)))
    pond = gauss_blur(water.astype(np.float64), 1.0 / m_per_px) > 0.5  # a water body, not stray pixels
    by_water = box_blur(box_blur(pond.astype(np.float64), bank_px, 0), bank_px, 1) > 0.0
    sel = (np.abs(share - 0.5) < 0.2) & (cover > 0.9) & by_water & (np.hypot(lx, ly) > 1e-6) & (np.hypot(cx, cy) > 1e-6)
    margin = int(math.ceil(3 * local_px)) + 2
    sel[:margin, :] = sel[-margin:, :] = False
    sel[:, :margin] = sel[:, -margin:] = False
    local, course = from_axis_deg(lx[sel], ly[sel]), from_axis_deg(cx[sel], cy[sel])
    diagonal = course >= DIAGONAL_DEG
    n, nd = int(sel.sum()), int(diagonal.sum())

    def share_of(mask, of):
        return round(float(mask.sum()) / of, 3) if of else None

    return dict(boundary_pixels=n, raw_axis_share=share_of(local < AXIS_DEG, n),
                course_axis_share=share_of(course < AXIS_DEG, n), diagonal_pixels=nd,
                stair_share=share_of(local[diagonal] < AXIS_DEG, nd) if nd >= MIN_DIAGONAL else None)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pictures", nargs="+", metavar="DOWN.png")
    p.add_argument("--height-m", type=float, default=90.0, help="the eye above the ground (default 90)")
    p.add_argument("--fov-deg", type=float, default=60.0, help="the render's vertical field of view (60)")
    p.add_argument("--json", action="store_true", help="one JSON object a line")
    a = p.parse_args(argv)
    if not (a.height_m > 0 and 0 < a.fov_deg < 180):
        print("bank_stairs: --height-m must be > 0 and --fov-deg in (0, 180)", file=sys.stderr)
        return 2
    for path in a.pictures:
        try:
            rgb = read_rgb(path)
        except (OSError, ValueError) as e:
            print(f"bank_stairs: {path}: not a picture ({e})", file=sys.stderr)
            return 2
        m_per_px = 2.0 * a.height_m * math.tan(math.radians(a.fov_deg) / 2.0) / rgb.shape[0]
        r = measure(rgb, m_per_px)
        if a.json:
            print(json.dumps(dict(picture=path, **r)))
        else:
            print(f"{path}: boundary {r['boundary_pixels']} px, raw axis share {r['raw_axis_share']}, "
                  f"its course's {r['course_axis_share']}, stair share {r['stair_share']} "
                  f"over {r['diagonal_pixels']} diagonal px")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
