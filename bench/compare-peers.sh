#!/usr/bin/env bash
# Races isoterra against its peers, fed the same inputs, and prints medians and ratios: the
# seed's JavaScript terrain sampling a tutorial chunk; noise3 over the same 33^3 lattice from
# npm simplex-noise, npm fastnoise-lite (OpenSimplex2) and Debian's libnoise (Perlin, one
# octave, in build/bench/isoterra_bench); and npm isosurface meshing the six tutorial chunks
# that `isoterra bench` meshes; and the same tutorial chunk ready for meshing (every sample a
# mesher reads; LatticeUse::surface, as the World samples it) against the JavaScript's full
# chunk. The sides run alternately, ROUNDS times (default 5), so that a noisy neighbour slows
# all alike; the chunks and meshers are also compared by CPU time, which leaves out what a busy
# machine's scheduler gives to others (a 5 ms JavaScript run is preempted where a 0.4 ms one
# is not). Needs node and npm (installs the pinned simplex-noise
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
load = open('/proc/loadavg').read().split()[0]
print(f"{rounds} alternating rounds, medians; node {node}; load average at the end {load}")
print(f"sampling a tutorial 33^3 chunk: isoterra {c:.3f} ms, seed JavaScript {j:.3f} ms, ratio {j / c:.1f}x")
ready = med(x["tutorial_chunk_surface_ms"] for x in cpp)
print(f"a tutorial chunk ready for meshing: isoterra {ready:.3f} ms, the JavaScript's full chunk {j:.3f} ms, ratio {j / ready:.1f}x")
cc = med(x["tutorial_chunk_sample_cpu_ms"] for x in cpp)
cr = med(x["tutorial_chunk_surface_cpu_ms"] for x in cpp)
jc = med(x["js_tutorial_chunk_sample_cpu_ms"] for x in js)
print(f"by CPU time: the full chunk {cc:.3f} ms, ready for meshing {cr:.3f} ms, the JavaScript's {jc:.3f} ms, ratios {jc / cc:.1f}x and {jc / cr:.1f}x")
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
    ours_cpu = med(x["mesh_cpu_ms"][name] for x in cpp)
    theirs_cpu = med(x[name]["cpu_ms"] for x in mesh)
    print(f"{name} per tutorial chunk by CPU time: isoterra {ours_cpu:.3f} ms, npm isosurface {theirs_cpu:.3f} ms, ratio {theirs_cpu / ours_cpu:.1f}x")
PY
