#!/usr/bin/env bash
# Races isoterra against the seed's JavaScript field on the same tutorial chunk, in one run,
# and prints both medians and the ratio. Needs node and npm (installs simplex-noise 4.0.3).
# Run from the project root after building: bash bench/compare-js.sh
set -euo pipefail
(cd tools/reference && [ -d node_modules/simplex-noise ] || npm ci --silent)
cpp=$(build/isoterra bench --json --repeats 15)
js=$(node bench/js/tutorial-chunk.mjs 15)
python3 - "$cpp" "$js" <<'PY'
import json, sys
cpp, js = json.loads(sys.argv[1]), json.loads(sys.argv[2])
c, j = cpp["tutorial_chunk_sample_ms"], js["js_tutorial_chunk_sample_ms"]
print(f"tutorial 33^3 chunk, single thread: isoterra {c:.3f} ms, JavaScript (node {__import__('subprocess').check_output(['node','--version']).decode().strip()}) {j:.3f} ms, ratio {j / c:.1f}x")
PY
