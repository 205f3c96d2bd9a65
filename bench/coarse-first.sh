#!/usr/bin/env bash
# The 8 km first view of every built-in preset, with coarse first (the default) and without,
# alternating in one run: medians of ROUNDS of `fly --seconds 0 --threads 2 --json`. With
# BASELINE=PATH, another build's program (an older commit's) alternates with them too.
# Usage: [BASELINE=PATH] bash bench/coarse-first.sh [ROUNDS] [PRESET...]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(tutorial alpine islands rivers canyons)
bin=build/isoterra
[ -x "$bin" ] || { echo "coarse-first.sh: build first (bash scripts/build.sh)" >&2; exit 2; }
lscpu | grep -m1 "Model name" || true
modes=(coarse-first target-only)
if [ -n "${BASELINE:-}" ]; then
  [ -x "$BASELINE" ] || { echo "coarse-first.sh: BASELINE=$BASELINE is no program" >&2; exit 2; }
  modes+=(baseline)
fi
printf '%-9s %-16s %17s %15s %14s\n' preset mode first_picture_s first_view_s chunks_built
for p in "${presets[@]}"; do
  declare -A runs=()
  for ((r = 0; r < rounds; ++r)); do
    for mode in "${modes[@]}"; do
      flag=; [ $mode = target-only ] && flag=--no-coarse-first
      program=$bin; [ $mode = baseline ] && program=$BASELINE
      runs[$mode]+="$("$program" fly --preset "$p" --seconds 0 --threads 2 --json --quiet $flag |
        /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["first_picture_s"], d["first_view_s"], d["chunks_built"])');"
    done
  done
  for mode in "${modes[@]}"; do
    /usr/bin/python3 - "$p" "$mode" "${runs[$mode]}" <<'PY'
import statistics, sys
rows = [list(map(float, r.split())) for r in sys.argv[3].split(';') if r.strip()]
med = [statistics.median(c) for c in zip(*rows)]
print(f"{sys.argv[1]:<9} {sys.argv[2]:<16} {med[0]:17.2f} {med[1]:15.2f} {med[2]:14.0f}")
PY
  done
  unset runs
done
