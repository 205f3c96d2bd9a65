#!/usr/bin/env bash
# Races isoterra against JavaScript peers in one run and prints medians and ratios:
# the seed's terrain on a tutorial chunk, and the npm package isosurface meshing the six
# tutorial chunks that `isoterra bench` meshes. Needs node and npm (installs the pinned
# simplex-noise 4.0.3 and isosurface 1.0.0). Run from the project root after building:
#   bash bench/compare-js.sh
set -euo pipefail
(cd tools/reference && [ -d node_modules/isosurface ] || npm ci --silent)
cpp=$(build/isoterra bench --json --repeats 15)
js=$(node bench/js/tutorial-chunk.mjs 15)
mesh=$(node bench/js/mesh-chunks.mjs 9)
python3 - "$cpp" "$js" "$mesh" <<'PY'
import json, subprocess, sys
cpp, js, mesh = (json.loads(a) for a in sys.argv[1:4])
node = subprocess.check_output(['node', '--version']).decode().strip()
c, j = cpp["tutorial_chunk_sample_ms"], js["js_tutorial_chunk_sample_ms"]
print(f"sampling a tutorial 33^3 chunk: isoterra {c:.3f} ms, seed JavaScript (node {node}) {j:.3f} ms, ratio {j / c:.1f}x")
for name in ("marching-cubes", "surface-nets"):
    ours, theirs = cpp["mesh_ms"][name], mesh[name]["ms"]
    print(f"{name} per tutorial chunk: isoterra {ours:.3f} ms ({cpp['mesh_mtris_per_s'][name]:.1f} Mtri/s), "
          f"npm isosurface {theirs:.3f} ms ({mesh[name]['mtris_per_s']:.2f} Mtri/s), ratio {theirs / ours:.1f}x")
PY
