#!/usr/bin/env bash
# Plain against compressed glb (--compress: KHR_mesh_quantization + EXT_meshopt_compression):
# the bytes of a level-0 chunk of each built-in terrain, and of the bake of the tutorial's
# 1,024 m square at six levels (bench/bake-scaling.sh's region), with the bake's time.
# Usage: bash bench/compressed-glb.sh; needs build/isoterra.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$here/build/isoterra
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u +%F)"
printf '%-10s %10s %10s %7s\n' chunk plain compressed ratio
for preset in tutorial alpine islands rivers canyons; do
  # The level-0 chunk holding the ground at (16, 16): its 32 m layer.
  ground=$(/usr/bin/python3 -c "
import subprocess
lo, hi = -2000.0, 4000.0
for _ in range(60):  # bisection on the sign of the field down the column x = z = 16
    mid = (lo + hi) / 2
    v = float(subprocess.run(['$bin', 'sample', '--preset', '$preset'], input=f'16 {mid} 16\n', capture_output=True, text=True).stdout)
    lo, hi = (mid, hi) if v < 0 else (lo, mid)
print(int(lo // 32) * 32)")
  "$bin" mesh --quiet --preset "$preset" --from "0,$ground,0" --to "32,$((ground + 32)),32" -o "$work/plain.glb"
  "$bin" mesh --quiet --preset "$preset" --from "0,$ground,0" --to "32,$((ground + 32)),32" --compress -o "$work/packed.glb"
  p=$(stat -c %s "$work/plain.glb") c=$(stat -c %s "$work/packed.glb")
  printf '%-10s %10d %10d %7.3f\n' "$preset" "$p" "$c" "$(awk -v a="$c" -v b="$p" 'BEGIN {print a / b}')"
done
for kind in plain compressed; do
  flag=""; [ $kind = compressed ] && flag=--compress
  t0=$(date +%s.%N)
  "$bin" bake --quiet --preset tutorial --from 0,0 --to 1024,1024 --levels 6 --threads 2 $flag --out "$work/$kind"
  t1=$(date +%s.%N)
  bytes=$(find "$work/$kind" -name '*.glb' -printf '%s\n' | awk '{s += $1} END {print s}')
  echo "bake $kind: $bytes bytes of glb in $(find "$work/$kind" -name '*.glb' | wc -l) tiles, $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}') s" | tee -a "$work/bake"
done
awk '/plain/ {p = $3} /compressed/ {c = $3} END {printf "bake ratio: %.3f\n", c / p}' "$work/bake"
