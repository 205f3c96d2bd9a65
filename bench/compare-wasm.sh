#!/usr/bin/env bash
# The page's WebAssembly core against the native library on the same work, alternately,
# ROUNDS times (default 5): a tutorial world's first view (256 m, one level) with its jobs
# run on one thread; prints the medians of the milliseconds a chunk takes to sample and mesh.
# Run from the project root after building both (bash scripts/build.sh; bash scripts/web.sh --build-only):
#   bash bench/compare-wasm.sh [ROUNDS]
set -euo pipefail
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$rounds"); do
  build/bench/isoterra_bench --benchmark_filter=BM_world_jobs --benchmark_format=json > "$tmp/native$r.json" 2>/dev/null
  node --no-experimental-fetch web/bench/world-jobs.mjs 1 > "$tmp/wasm$r.json"
done
python3 - "$tmp" "$rounds" <<'PY'
import json, statistics, subprocess, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
native = [json.load(open(f"{tmp}/native{r}.json"))["benchmarks"][0]["chunk_ms"] for r in range(1, rounds + 1)]
wasm = [json.load(open(f"{tmp}/wasm{r}.json"))["wasm_chunk_ms"] for r in range(1, rounds + 1)]
n, w = statistics.median(native), statistics.median(wasm)
node = subprocess.check_output(['node', '--version']).decode().strip()
print(f"{rounds} alternating rounds, medians; node {node}")
print(f"a tutorial chunk sampled and meshed (marching cubes, level 0): native {n:.2f} ms, WebAssembly {w:.2f} ms, ratio {w / n:.2f}x")
PY
