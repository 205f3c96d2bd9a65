#!/usr/bin/env python3
"""Counts what mesh tools reject in a PLY that `isoterra mesh` wrote, after welding vertices
on the same float point (as a tool's "merge by distance 0" does): triangles without area
(two corners on one point), and edges used by more than two triangles (pinches).

Usage: build/isoterra mesh --preset alpine --around 0,0,0 --view-distance 2000 -o x.ply
       /usr/bin/python3 bench/mesh-geometry.py x.ply
"""
import sys

import numpy as np

FORMATS = {"float": "<f4", "double": "<f8", "uchar": "u1", "int": "<i4", "uint": "<u4"}


def read_ply(path):
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    counts, props, element = {}, [], None
    for line in data[:end].decode().splitlines():
        words = line.split()
        if words[0] == "element":
            element = words[1]
            counts[element] = int(words[2])
        elif words[0] == "property" and element == "vertex":
            props.append((words[2], FORMATS[words[1]]))
    vertex = np.dtype(props)
    v = np.frombuffer(data, vertex, counts["vertex"], end)
    faces = np.frombuffer(data, np.dtype([("n", "u1"), ("i", "<u4", (3,))]), counts["face"], end + counts["vertex"] * vertex.itemsize)
    if not (faces["n"] == 3).all():
        sys.exit("mesh-geometry: only triangles are read")
    return np.stack([v["x"], v["y"], v["z"]], 1), faces["i"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    points, triangles = read_ply(sys.argv[1])
    _, welded = np.unique(points.view(np.uint32).reshape(-1, 3), axis=0, return_inverse=True)
    corners = welded.reshape(-1)[triangles]
    flat = (corners[:, 0] == corners[:, 1]) | (corners[:, 1] == corners[:, 2]) | (corners[:, 0] == corners[:, 2])
    kept = corners[~flat]
    edges = np.sort(np.concatenate([kept[:, [0, 1]], kept[:, [1, 2]], kept[:, [2, 0]]]), 1)
    _, uses = np.unique(edges[:, 0].astype(np.int64) << 32 | edges[:, 1], return_counts=True)
    print(f"{len(triangles)} triangles, {int(flat.sum())} without area, {int((uses > 2).sum())} edges used by more than two "
          f"triangles, {int((uses == 1).sum())} edges used once (the rim of the view and the sea's edge)")


if __name__ == "__main__":
    main()
