#!/usr/bin/env bash
# Races isoterra against its peers, fed the same inputs, and prints medians and ratios: the
# seed's JavaScript terrain sampling a tutorial chunk; noise3 over the same 33^3 lattice from
# npm simplex-noise, npm fastnoise-lite (OpenSimplex2) and Debian's libnoise (Perlin, one
# octave, in build/bench/isoterra_bench); and npm isosurface meshing the six tutorial chunks
# that `isoterra bench` meshes. The sides run alternately, ROUNDS times (default 5), so that
# a noisy neighbour slows all alike. Needs node and npm (installs the pinned simplex-noise
# 4.0.3, fastnoise-lite 1.1.1 and isosurface 1.0.0). Run from the project root after building:
#   bash bench/compare-peers.sh [ROUNDS]
set -euo pipefail
rounds=${1:-5}
(cd tools/reference && [ -d node_modules/fastnoise-lite ] || npm ci --silent)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$rounds"); do
  build/isoterra bench --json --repeats 9 > "$tmp/cpp$r.json"
  node bench/js/tutorial-chunk.mjs 9 > "$tmp/js$r.json"
  node bench/js/mesh-chunks.mjs 5 > "$tmp/mesh$r.json"
  build/bench/isoterra_bench --benchmark_filter=lattice --benchmark_format=json --benchmark_min_time=0.2 > "$tmp/gb$r.json" 2>/dev/null
done
python3 - "$tmp" "$rounds" <<'PY'
import json, statistics, subprocess, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
load = lambda name: [json.load(open(f"{tmp}/{name}{r}.json")) for r in range(1, rounds + 1)]
cpp, js, mesh, gb = load("cpp"), load("js"), load("mesh"), load("gb")
def gb_ns(run, name):  # ns a sample from Google Benchmark's items_per_second
    return next(1e9 / b["items_per_second"] for b in run["benchmarks"] if b["name"] == name)
med = statistics.median
node = subprocess.check_output(['node', '--version']).decode().strip()
c = med(x["tutorial_chunk_sample_ms"] for x in cpp)
j = med(x["js_tutorial_chunk_sample_ms"] for x in js)
print(f"{rounds} alternating rounds, medians; node {node}")
print(f"sampling a tutorial 33^3 chunk: isoterra {c:.3f} ms, seed JavaScript {j:.3f} ms, ratio {j / c:.1f}x")
cn = med(x["noise3_lattice_ns"] for x in cpp)
jn = med(x["js_noise3_lattice_ns"] for x in js)
print(f"noise3 over a 33^3 lattice: isoterra {cn:.2f} ns a sample, simplex-noise {jn:.2f} ns, ratio {jn / cn:.1f}x")
fn = med(x["js_fastnoise_lite_noise3_lattice_ns"] for x in js)
print(f"noise3 over a 33^3 lattice: isoterra {cn:.2f} ns a sample, fastnoise-lite (OpenSimplex2) {fn:.2f} ns, ratio {fn / cn:.1f}x")
gn = med(gb_ns(x, "BM_noise3_lattice") for x in gb)
ln = med(gb_ns(x, "BM_libnoise_perlin_lattice") for x in gb)
print(f"noise3 over a 33^3 lattice (Google Benchmark): isoterra {gn:.2f} ns a sample, libnoise (Perlin, 1 octave) {ln:.2f} ns, ratio {ln / gn:.1f}x")
for name in ("marching-cubes", "surface-nets"):
    ours = med(x["mesh_ms"][name] for x in cpp)
    theirs = med(x[name]["ms"] for x in mesh)
    print(f"{name} per tutorial chunk: isoterra {ours:.3f} ms, npm isosurface {theirs:.3f} ms, ratio {theirs / ours:.1f}x")
PY
